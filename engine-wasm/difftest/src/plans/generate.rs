//! Seeded planner scripts: one or two tables of 100 to 50 000 rows whose
//! columns have varied distributions (few or many distinct values, physically
//! sorted or scattered, so correlation runs from 1 to about 0), zero to four
//! indexes (composite, DESC, unique, covering, partial), statistics gathered
//! or not, then EXPLAIN ANALYZE of the queries people compare plans on:
//! points, ranges, IN lists, ORDER BY … LIMIT, aggregates and joins.
//!
//! Values come from arithmetic on the row number, never `random()`, so
//! PostgreSQL and IndexLab hold the same rows.

use indexlab_engine::rng::Rng;

/// What a query asks, for the report's per-kind figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Point,
    Range,
    InList,
    OrderLimit,
    Aggregate,
    Join,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Point,
        Kind::Range,
        Kind::InList,
        Kind::OrderLimit,
        Kind::Aggregate,
        Kind::Join,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Point => "points",
            Kind::Range => "ranges",
            Kind::InList => "IN lists",
            Kind::OrderLimit => "ORDER BY … LIMIT",
            Kind::Aggregate => "aggregates",
            Kind::Join => "joins",
        }
    }
}

/// A generated script and the kind of each EXPLAIN, by its line.
pub struct PlanScript {
    pub text: String,
    pub kinds: Vec<(u32, Kind)>,
}

/// How a column's values follow the row number `i`.
#[derive(Clone, Copy)]
enum Spread {
    /// `i / step`: sorted on disk (correlation 1), `n / step` distinct values.
    Sorted { step: u64 },
    /// `(i * 7919) % m`: scattered (correlation near 0), `m` distinct values.
    Scattered { m: u64 },
}

impl Spread {
    fn draw(g: &mut Rng, n: u64) -> Spread {
        let distinct = match g.below(4) {
            0 => 10,
            1 => 100,
            2 => (n / 10).max(2),
            _ => n,
        };
        if g.below(2) == 0 {
            Spread::Sorted {
                step: (n / distinct).max(1),
            }
        } else {
            Spread::Scattered { m: distinct }
        }
    }

    fn sql(self) -> String {
        match self {
            Spread::Sorted { step } => format!("i / {step}"),
            Spread::Scattered { m } => format!("(i * 7919) % {m}"),
        }
    }

    /// The largest value (plus one) the column holds.
    fn top(self, n: u64) -> u64 {
        match self {
            Spread::Sorted { step } => n / step + 1,
            Spread::Scattered { m } => m,
        }
    }
}

struct Table {
    name: &'static str,
    rows: u64,
    a: Spread,
    b: Spread,
    pk: bool,
}

/// The script of one seed.
pub fn script(seed: u64) -> PlanScript {
    let mut g = Rng::new(seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let mut lines: Vec<String> = vec![format!("-- planner script, seed {seed}")];
    let t1 = table(&mut g, "t1", &mut lines);
    let t2 = (g.below(2) == 0).then(|| table(&mut g, "t2", &mut lines));
    let mut kinds = Vec::new();
    let queries = 6 + g.below(5);
    for _ in 0..queries {
        let (kind, sql) = match (&t2, g.below(7)) {
            (Some(t2), 6) => (Kind::Join, join(&mut g, &t1, t2)),
            (_, k) => single(&mut g, &t1, k),
        };
        lines.push(format!(
            "explain (analyze, buffers, costs off, timing off, summary off) {sql};"
        ));
        kinds.push((lines.len() as u32, kind));
    }
    PlanScript {
        text: lines.join("\n") + "\n",
        kinds,
    }
}

/// Makes a table: its rows, its indexes, and maybe its statistics.
fn table(g: &mut Rng, name: &'static str, lines: &mut Vec<String>) -> Table {
    // 100 to 50 000 rows, evenly spread on a log scale.
    let rows = (100.0 * 500f64.powf(g.next_f64())).round() as u64;
    let t = Table {
        name,
        rows,
        a: Spread::draw(g, rows),
        b: Spread::draw(g, rows),
        pk: g.below(5) != 0,
    };
    let pad = [0, 20, 100, 400][g.below(4) as usize];
    let key = if t.pk { " primary key" } else { "" };
    lines.push(format!(
        "create table {name} (id int{key}, a int, b int, c text, pad text);"
    ));
    lines.push(format!(
        "insert into {name} select i, {}, {}, 'v' || ({}), repeat('x', {pad}) \
         from generate_series(1, {rows}) i;",
        t.a.sql(),
        t.b.sql(),
        t.b.sql()
    ));
    let choices = [
        format!("create index {name}_a on {name} (a);"),
        format!("create index {name}_b on {name} (b);"),
        format!("create index {name}_ab on {name} (a, b);"),
        format!("create index {name}_b_incl on {name} (b) include (a);"),
        format!("create index {name}_a_desc on {name} (a desc);"),
        format!("create index {name}_c on {name} (c);"),
        format!(
            "create index {name}_b_part on {name} (b) where a < {};",
            t.a.top(rows) / 2
        ),
        format!("create unique index {name}_id_a on {name} (id, a);"),
    ];
    for _ in 0..g.below(5) {
        let i = g.below(choices.len() as u64) as usize;
        if !lines.contains(&choices[i]) {
            lines.push(choices[i].clone());
        }
    }
    match g.below(6) {
        0..=1 => lines.push(format!("analyze {name};")),
        2..=3 => lines.push(format!("vacuum analyze {name};")),
        4 => lines.push(format!("vacuum {name};")),
        _ => {}
    }
    t
}

/// A value of column `a` or `b` that the table holds (most of the time).
fn value(g: &mut Rng, s: Spread, n: u64) -> u64 {
    g.below(s.top(n).max(1))
}

/// A query on one table; `k` picks its kind.
fn single(g: &mut Rng, t: &Table, k: u64) -> (Kind, String) {
    let (name, n) = (t.name, t.rows);
    let (col, s) = if g.below(2) == 0 {
        ("a", t.a)
    } else {
        ("b", t.b)
    };
    let v = value(g, s, n);
    let list = match g.below(4) {
        0 => "*",
        1 => col,
        2 => "a, b",
        _ => "id, c",
    };
    // Both columns at once (a composite index's later column).
    let (va, vb) = (value(g, t.a, n), value(g, t.b, n));
    match k {
        0 if g.below(4) == 0 => (
            Kind::Point,
            format!("select {list} from {name} where a = {va} and b = {vb}"),
        ),
        0 => (
            Kind::Point,
            format!("select {list} from {name} where {col} = {v}"),
        ),
        1 => {
            let id = 1 + g.below(n);
            (
                Kind::Point,
                format!("select {list} from {name} where id = {id}"),
            )
        }
        2 => {
            let width = 1 + g.below(s.top(n).max(2) / 2);
            let sql = match g.below(5) {
                0 => format!("{col} between {v} and {}", v + width),
                1 => format!("{col} < {width}"),
                2 => format!("a = {va} and b > {vb}"),
                3 => format!("a in ({va}, {}) and b < {vb}", value(g, t.a, n)),
                _ => format!("{col} > {v}"),
            };
            (
                Kind::Range,
                format!("select {list} from {name} where {sql}"),
            )
        }
        3 => {
            let items: Vec<String> = (0..2 + g.below(6))
                .map(|_| value(g, s, n).to_string())
                .collect();
            let sql = format!("{col} in ({})", items.join(", "));
            (
                Kind::InList,
                format!("select {list} from {name} where {sql}"),
            )
        }
        4 => {
            let dir = if g.below(3) == 0 { " desc" } else { "" };
            let limit = [1, 10, 100][g.below(3) as usize];
            let filter = match g.below(3) {
                0 => String::new(),
                1 => format!(" where b = {vb}"),
                _ => format!(" where a = {va}"),
            };
            (
                Kind::OrderLimit,
                format!("select {list} from {name}{filter} order by {col}{dir} limit {limit}"),
            )
        }
        _ => {
            let sql = match g.below(7) {
                0 => format!("select count(*) from {name}"),
                1 => format!("select count(*) from {name} where {col} = {v}"),
                2 => format!("select {col}, count(*) from {name} group by {col}"),
                3 => format!("select distinct {col} from {name}"),
                4 => format!(
                    "select {col}, count(*) from {name} group by {col} order by {col} limit 10"
                ),
                5 => format!("select distinct {col} from {name} order by {col} limit 10"),
                _ => format!("select b, sum(a) from {name} where a < {v} group by b"),
            };
            (Kind::Aggregate, sql)
        }
    }
}

/// A join of the two tables where each row of one side meets at most one
/// row of the other (`id` is unique in both), maybe filtered on one side.
fn join(g: &mut Rng, t1: &Table, t2: &Table) -> String {
    let on = if g.below(2) == 0 {
        "t2.a = t1.id"
    } else {
        "t1.b = t2.id"
    };
    let filter = match g.below(3) {
        0 => String::new(),
        1 => format!(" where t1.a = {}", value(g, t1.a, t1.rows)),
        _ => format!(" where t2.b < {}", value(g, t2.b, t2.rows)),
    };
    let list = if g.below(2) == 0 {
        "count(*)"
    } else {
        "t1.id, t2.id"
    };
    format!("select {list} from t1 join t2 on {on}{filter}")
}

#[cfg(test)]
mod tests {
    use super::{script, Kind};

    #[test]
    fn a_seed_always_gives_the_same_script() {
        assert_eq!(script(7).text, script(7).text);
        assert_ne!(script(7).text, script(8).text);
    }

    #[test]
    fn every_kind_of_query_comes_up_and_each_is_an_explain() {
        let mut seen = Vec::new();
        for seed in 1..60 {
            let s = script(seed);
            let lines: Vec<&str> = s.text.lines().collect();
            for (line, kind) in &s.kinds {
                assert!(
                    lines[*line as usize - 1].starts_with("explain ("),
                    "{seed}:{line}"
                );
                seen.push(*kind);
            }
        }
        for k in Kind::ALL {
            assert!(seen.contains(&k), "{}", k.name());
        }
    }
}
