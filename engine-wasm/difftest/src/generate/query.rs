//! Queries: single-table selects, joins, CTEs and constant selects.

use super::schema::Schema;
use super::values::{condition, Column, Type};
use super::Gen;
use crate::script::{Check, Item};

/// `SELECT cols FROM t [WHERE …] [ORDER BY …] [LIMIT n]`.
pub(crate) fn select(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let table = &schema.tables[t];
    let cols = pick_columns(g, &table.columns);
    let filter = if !table.index_expressions.is_empty() && g.chance(40) {
        // A condition on an indexed expression, so that the query may use it.
        let (_, condition) = g.pick(&table.index_expressions).clone();
        format!(" where {condition}")
    } else if !table.partial_predicates.is_empty() && g.chance(40) {
        // The WHERE of a partial index, so that the query may use it.
        let p = g.pick(&table.partial_predicates).clone();
        match g.below(3) {
            0 => format!(" where {p}"),
            _ => format!(" where {p} and {}", condition(g, &table.columns, None, 1)),
        }
    } else if g.chance(80) {
        format!(" where {}", condition(g, &table.columns, None, 2))
    } else {
        String::new()
    };
    let names: Vec<String> = cols.iter().map(|c| c.name.to_string()).collect();
    let list = if cols.len() == table.columns.len() && g.chance(50) {
        "*".to_string()
    } else {
        names.join(", ")
    };
    let (tail, check) = order_and_limit(g, &names);
    Item::same(
        format!("select {list} from {}{filter}{tail}", table.name),
        check,
    )
}

/// A join of table `t` with another on an integer column: inner or outer
/// (LEFT, RIGHT, FULL), and now and then a third table joined to the second.
pub(crate) fn join(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let left = &schema.tables[t];
    let others: Vec<usize> = (0..schema.tables.len()).filter(|i| *i != t).collect();
    let second = *g.pick(&others);
    let right = &schema.tables[second];
    let (l, r) = (&left.name, &right.name);
    let kind = *g.pick(&["join", "join", "left join", "right join", "full join"]);
    let lcol = *g.pick(&["id", "a"]);
    let rcol = *g.pick(&["id", "a"]);
    let on = if lcol == rcol && g.chance(30) {
        format!(" using ({lcol})")
    } else {
        format!(" on {l}.{lcol} = {r}.{rcol}")
    };
    let mut names = vec![format!("{l}.id"), format!("{r}.a")];
    if g.chance(50) {
        names.push(format!("{l}.b"));
    }
    let thirds: Vec<usize> = others.iter().copied().filter(|i| *i != second).collect();
    let third = if !thirds.is_empty() && g.chance(30) {
        let x = &schema.tables[*g.pick(&thirds)].name;
        let kind = *g.pick(&["join", "left join", "right join", "full join"]);
        let col = *g.pick(&["id", "a"]);
        names.push(format!("{x}.b"));
        format!(" {kind} {x} on {x}.{col} = {r}.a")
    } else {
        String::new()
    };
    // An ON condition on one side only: it decides which rows match, not
    // which survive (an outer join keeps the others with NULLs).
    let on = if on.starts_with(" on") && kind != "full join" && g.chance(25) {
        format!("{on} and {}", condition(g, &right.columns, Some(r), 1))
    } else {
        on
    };
    let filter = if g.chance(50) {
        format!(" where {}", condition(g, &left.columns, Some(l), 1))
    } else {
        String::new()
    };
    let (tail, check) = order_and_limit(g, &names);
    Item::same(
        format!(
            "select {} from {l} {kind} {r}{on}{third}{filter}{tail}",
            names.join(", ")
        ),
        check,
    )
}

/// `WITH x AS (SELECT * FROM t WHERE …) SELECT … FROM x WHERE …`: the CTE
/// form IndexLab documents (it inlines the CTE into the outer query).
pub(crate) fn cte(g: &mut Gen, features: &mut Gen, schema: &Schema, t: usize) -> Item {
    let table = &schema.tables[t];
    if features.chance(35) {
        return derived(features, schema, t);
    }
    if features.chance(12) {
        return recursive(features, schema, t);
    }
    let inner = condition(g, &table.columns, None, 1);
    let cols = pick_columns(g, &table.columns);
    let names: Vec<String> = cols.iter().map(|c| c.name.to_string()).collect();
    let outer = condition(g, &table.columns, None, 1);
    let (tail, check) = order_and_limit(g, &names);
    Item::same(
        format!(
            "with x as (select * from {} where {inner}) select {} from x where {outer}{tail}",
            table.name,
            names.join(", ")
        ),
        check,
    )
}

/// `WITH RECURSIVE`: a walk from one row to the row whose id is its `a`
/// (UNION ends it when it comes back to a row seen), or a counter.
fn recursive(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let name = &schema.tables[t].name;
    let text = match g.chance(70) {
        true => format!(
            "with recursive walk as (select id, a, 1 as depth from {name} where id = {} \
             union select t.id, t.a, 1 from {name} t join walk w on t.id = w.a) \
             select count(*), count(distinct id), sum(a) from walk",
            g.range(-2, 12)
        ),
        false => format!(
            "with recursive r(n) as (select {} union all select n + 1 from r where n < {}) \
             select count(*), sum(n), max(n) from r",
            g.range(-3, 3),
            g.range(0, 40)
        ),
    };
    Item::same(text, Check::Unordered)
}

/// A query over a subquery in FROM, or over a WITH query that groups: its
/// rows are computed first, then filtered, sorted and counted by the outer one.
/// Or one of the forms PostgreSQL reads as others: IS [NOT] DISTINCT FROM,
/// `= ANY (ARRAY[…])`, a generate_series() over numerics.
fn derived(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let table = &schema.tables[t];
    let inner = condition(g, &table.columns, None, 1);
    let name = &table.name;
    let (k1, k2) = (g.range(0, 30), g.range(0, 30));
    let (sql, check) = match g.below(7) {
        4 => (
            format!(
                "select id, a from {name} where a is {}distinct from {k1} order by id",
                if g.chance(50) { "not " } else { "" }
            ),
            Check::Ordered,
        ),
        5 => (
            format!("select id from {name} where a = any(array[{k1}, {k2}, null]) order by id"),
            Check::Ordered,
        ),
        6 => (
            format!("select count(*), sum(x) from generate_series(1, {k1}e1) x where x > {k2}"),
            Check::Unordered,
        ),
        0 => (
            format!("select count(*), max(a) from (select a from {name} where {inner}) s"),
            Check::Unordered,
        ),
        1 => (
            format!(
                "select * from (select a, count(*) as n from {name} group by a) s \
                 where n > 1 order by a nulls first"
            ),
            Check::Ordered,
        ),
        2 => (
            format!(
                "with g as (select a, count(*) as n, min(id) as low from {name} \
                 where {inner} group by a) select a, n, low from g order by a nulls last"
            ),
            Check::Ordered,
        ),
        _ => (
            format!("select s.x, s.y from (select id, a from {name} where {inner}) as s(x, y) order by 1, 2"),
            Check::Ordered,
        ),
    };
    Item::same(sql, check)
}

/// `SELECT id, a * k FROM t WHERE …`: integer arithmetic, which overflows
/// int4 (an error in PostgreSQL) when k is large.
pub(crate) fn arithmetic(g: &mut Gen, features: &mut Gen, schema: &Schema, t: usize) -> Item {
    let table = &schema.tables[t];
    if let Some(d) = table.columns.iter().find(|c| c.ty.is_datetime()) {
        if g.chance(50) {
            return datetime_arithmetic(g, table, d.ty);
        }
    }
    let op = *g.pick(&["+", "-", "*", "%", "/"]);
    let k = *g.pick(&["2", "-3", "0", "100000", "1000000000"]);
    let filter = condition(g, &table.columns, None, 1);
    // Now and then exact numeric arithmetic too: scales of + - * / %, the
    // functions, casts, integers promoted and float8 mixed in.
    let exact = if features.chance(50) {
        format!(", {}", features.pick(NUMERIC_EXPRESSIONS))
    } else {
        String::new()
    };
    Item::same(
        format!(
            "select id, a {op} {k}, b - a{exact} from {} where {filter}",
            table.name
        ),
        Check::Unordered,
    )
}

/// Operators and functions of the table's date/time column `d`: calendar
/// arithmetic, EXTRACT, date_part, date_trunc, casts, and a condition on a
/// computed value.
fn datetime_arithmetic(g: &mut Gen, table: &super::schema::Table, ty: Type) -> Item {
    let exprs: &[&str] = match ty {
        Type::Date => &[
            "d + 3",
            "d - 1",
            "d - date '2016-01-03'",
            "d + interval '36 hours'",
            "d - interval '1 mon'",
            "extract(dow from d)",
            "extract(doy from d)",
            "date_part('day', d)",
            "date_trunc('week', d)",
            "d::timestamp",
            "d::text",
            "d = timestamp '2016-01-03'",
        ],
        Type::Timestamp => &[
            "d + interval '90 minutes'",
            "d - timestamp '2016-01-02 12:00'",
            "d - interval '1 mon 2 days'",
            "extract(hour from d)",
            "extract(isodow from d)",
            "date_part('epoch', d)",
            "date_trunc('day', d)",
            "date_trunc('month', d)",
            "d::date",
            "d::text",
            "d < date '2016-01-04'",
        ],
        _ => &[
            "d * 2",
            "d / 3",
            "d * 1.5::float8",
            "d + interval '1 day'",
            "-d",
            "timestamp '2016-01-01' + d",
            "date '2016-01-01' - d",
            "extract(hour from d)",
            "date_part('epoch', d)",
            "d::text",
            "d > interval '10:00'",
        ],
    };
    let picked: Vec<&str> = (0..1 + g.below(3)).map(|_| *g.pick(exprs)).collect();
    let computed = match ty {
        Type::Date => format!("d + {} > '2016-01-05'", g.range(-2, 4)),
        Type::Timestamp => format!("d - interval '{} hours' >= '2016-01-03'", g.range(0, 30)),
        _ => format!("d * {} < '12:00:00'", g.range(-2, 3)),
    };
    let filter = if g.chance(50) {
        computed
    } else {
        condition(g, &table.columns, None, 1)
    };
    Item::same(
        format!(
            "select id, {} from {} where {filter}",
            picked.join(", "),
            table.name
        ),
        Check::Unordered,
    )
}

/// Numeric expressions over columns `a` (integer) and `b` (integer or numeric).
const NUMERIC_EXPRESSIONS: &[&str] = &[
    "a * 1.5",
    "a / 4.0",
    "b * 0.1",
    "round(a / 3.0, 2)",
    "a + 0.25",
    "-(b + 0.5)",
    "b::numeric(10,3)",
    "trunc(a * 1.25, 1)",
    "ceil(a / 2.0)",
    "floor(b - 0.5)",
    "abs(b - 10.5)",
    "sign(b - 3)",
    "mod(a, 2.5)",
    "a % 1.5",
    "b / 7",
    "a::numeric / 3",
    "(a * 1.1)::int",
    "round(b * 1.05)",
    "b / (a - 2.5)",
    "a * 1.5::float8 + b",
    "round(b, 1) * 2",
    "(b + 0.125)::numeric(5,1)",
];

/// Numeric constants: literals as written, division scales, rounding,
/// casts and typmods. None raises an error: PostgreSQL folds constants
/// before it runs a query, so `select 1/0 where false` fails there and
/// IndexLab, which evaluates per row, returns no row (not numeric's doing).
const NUMERIC_CONSTANTS: &[&str] = &[
    "1.50",
    "1/3.0",
    "0.1 + 0.2",
    "2.5::int",
    "(-2.5)::int",
    "round(2.345, 2)",
    "1e3",
    "10 / 4.0",
    "-7.5 % 2",
    "trunc(-2.789, 1)",
    "ceil(2.1)",
    "floor(-2.1)",
    "1.555::numeric(5,2)",
    "sign(-0.5)",
    "abs(-1.50)",
    "0.1::float8 * 3",
    "100000000000000000000 * 3",
    "1.5e-3 * 2",
    "round(1234.5678, -2)",
    "2.50 = 2.5",
    "'3.14'::numeric + 1",
];

/// `SELECT 1 [WHERE true|false]` and friends: a query without a table.
pub(crate) fn constant(g: &mut Gen, features: &mut Gen) -> Item {
    let filter = *g.pick(&[
        "",
        " where true",
        " where false",
        " where 1 = 2",
        " where null",
    ]);
    let mut expr = *g.pick(&["1", "2 + 3", "'x'", "null", "7 % 3"]);
    if features.chance(50) {
        expr = *features.pick(NUMERIC_CONSTANTS);
    }
    Item::same(format!("select {expr}{filter}"), Check::Unordered)
}

fn pick_columns(g: &mut Gen, columns: &[Column]) -> Vec<Column> {
    let mut picked: Vec<Column> = columns.iter().filter(|_| g.chance(60)).cloned().collect();
    if picked.is_empty() {
        picked.push(g.pick(columns).clone());
    }
    picked
}

/// An ORDER BY over every output column (so the order is total), with or
/// without LIMIT; or no ORDER BY, with a LIMIT now and then (then only the
/// number of rows is determined).
fn order_and_limit(g: &mut Gen, names: &[String]) -> (String, Check) {
    let limit = if g.chance(30) {
        format!(" limit {}", g.range(0, 6))
    } else {
        String::new()
    };
    if g.chance(60) {
        let items: Vec<String> = names
            .iter()
            .map(|n| {
                let dir = *g.pick(&["", " asc", " desc"]);
                let nulls = *g.pick(&["", "", "", " nulls first", " nulls last"]);
                format!("{n}{dir}{nulls}")
            })
            .collect();
        (
            format!(" order by {}{limit}", items.join(", ")),
            Check::Ordered,
        )
    } else if limit.is_empty() {
        (String::new(), Check::Unordered)
    } else {
        (limit, Check::CountOnly)
    }
}

/// Aggregates, GROUP BY, HAVING, DISTINCT and OFFSET: `count(*)`, `count(x)`,
/// `count(DISTINCT x)`, `sum`, `min`, `max` (and `avg` of a float8 cast:
/// the sums stay exact, so both databases divide the same numbers).
pub(crate) fn grouping(g: &mut Gen, features: &mut Gen, schema: &Schema, t: usize) -> Item {
    let table = &schema.tables[t];
    let filter = if g.chance(50) {
        format!(" where {}", condition(g, &table.columns, None, 1))
    } else {
        String::new()
    };
    let name = &table.name;
    let numeric = *g.pick(&["a", "b", "id"]);
    let any = g.pick(&table.columns).name;
    let aggregates = [
        "count(*)".to_string(),
        format!("count({any})"),
        format!("count(distinct {any})"),
        format!("sum({numeric})"),
        format!("min({any})"),
        format!("max({any})"),
        // A float8 sum of decimals depends on the order rows come in (yb's
        // is not PostgreSQL's): a numeric is scaled to integers first.
        if table
            .columns
            .iter()
            .any(|c| c.name == numeric && matches!(c.ty, Type::Numeric(..)))
        {
            format!("avg(({numeric} * 100)::float8)")
        } else {
            format!("avg({numeric}::float8)")
        },
    ];
    let mut picked: Vec<String> = aggregates
        .iter()
        .filter(|_| g.chance(35))
        .cloned()
        .collect();
    if picked.is_empty() {
        picked.push("count(*)".into());
    }
    // avg of integers and numerics, and sums of numerics, are numeric.
    if features.chance(40) {
        picked.push(format!("avg({numeric})"));
    }
    if features.chance(20) {
        picked.push(format!("sum({numeric} * 0.5)"));
    }
    // Only the rows a condition holds for (NULL ones not).
    if features.chance(15) {
        let k = features.range(-2, 20);
        picked.push(format!("count(*) filter (where {numeric} > {k})"));
        picked.push(format!("max({any}) filter (where id % 2 = 0)"));
    }
    // Ordered by a unique key too, so the text is the same whatever order
    // the rows come in.
    if features.chance(20) {
        picked.push(format!(
            "string_agg({any}::text, ',' order by {any}::text desc, id)"
        ));
    }
    match g.below(4) {
        // One row: aggregates over the whole (filtered) table, even an empty one.
        0 => Item::same(
            format!("select {} from {name}{filter}", picked.join(", ")),
            Check::Unordered,
        ),
        // Groups, perhaps filtered by HAVING, in a total order or none.
        1 | 2 => {
            let key = *g.pick(&["a", "b", "c"]);
            let key = if table.columns.iter().any(|c| c.name == key) {
                key
            } else {
                "a"
            };
            let having = match g.below(4) {
                0 => " having count(*) > 1".to_string(),
                1 => format!(" having min({numeric}) < {}", g.range(-2, 8)),
                _ => String::new(),
            };
            let items = format!("{key}, {}", picked.join(", "));
            if g.chance(60) {
                let positions: Vec<String> =
                    (1..=picked.len() + 1).map(|i| format!("{i}")).collect();
                let limit = if g.chance(30) {
                    format!(" limit {} offset {}", g.range(0, 4), g.range(0, 3))
                } else {
                    String::new()
                };
                Item::same(
                    format!(
                        "select {items} from {name}{filter} group by {key}{having} order by {} nulls first{limit}",
                        positions.join(", ")
                    ),
                    Check::Ordered,
                )
            } else {
                Item::same(
                    format!("select {items} from {name}{filter} group by {key}{having}"),
                    Check::Unordered,
                )
            }
        }
        // DISTINCT, and OFFSET over a total order.
        _ => {
            let cols = pick_columns(g, &table.columns);
            let names: Vec<String> = cols.iter().map(|c| c.name.to_string()).collect();
            let list = names.join(", ");
            if g.chance(50) {
                Item::same(
                    format!("select distinct {list} from {name}{filter}"),
                    Check::Unordered,
                )
            } else {
                let all: Vec<&str> = table.columns.iter().map(|c| c.name).collect();
                let distinct = if g.chance(40) { "distinct " } else { "" };
                let (select, order) = if distinct.is_empty() {
                    (list, all.join(", "))
                } else {
                    (list.clone(), list)
                };
                Item::same(
                    format!(
                        "select {distinct}{select} from {name}{filter} order by {order} offset {} limit {}",
                        g.range(0, 5),
                        g.range(0, 6)
                    ),
                    Check::Ordered,
                )
            }
        }
    }
}

/// Scalar functions, `||`, CASE, COALESCE and LIKE, in the select list and in
/// WHERE (text columns may be missing: a three-column table has no `c`).
pub(crate) fn functions(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let table = &schema.tables[t];
    let has_c = table.columns.iter().any(|c| c.name == "c");
    let c = if has_c { "c" } else { "a::text" };
    let k = g.range(-1, 3);
    let n = g.range(0, 3);
    let exprs = [
        format!("lower({c})"),
        format!("upper({c})"),
        format!("length({c})"),
        format!("substr({c}, {k}, {n})"),
        format!("substr({c}, {k})"),
        format!("md5({c})"),
        format!("lpad({c}, {}, 'x')", g.range(0, 4)),
        format!("rpad({c}, {})", g.range(0, 4)),
        format!("{c} || '-' || a"),
        format!("coalesce({c}, 'none')"),
        "coalesce(a, b, 0)".to_string(),
        "nullif(a, 1)".to_string(),
        "abs(a - 3)".to_string(),
        "mod(a, 3)".to_string(),
        "greatest(a, b, 1)".to_string(),
        "least(a, 2)".to_string(),
        "case when a > 2 then 'big' when a is null then 'none' else 'small' end".to_string(),
        "case a when 1 then 'one' when 2 then 'two' end".to_string(),
        format!("replace({c}, 'a', 'zz')"),
    ];
    let mut picked: Vec<String> = exprs.iter().filter(|_| g.chance(25)).cloned().collect();
    if picked.is_empty() {
        picked.push(g.pick(&exprs).clone());
    }
    let patterns = ["'a%'", "'%b'", "'_'", "'%'", "'A%'", "'%a%'", "'ab'"];
    let filter = match g.below(5) {
        0 => format!(" where {c} like {}", g.pick(&patterns)),
        1 => format!(" where {c} not like {}", g.pick(&patterns)),
        2 => format!(" where {c} ilike {}", g.pick(&patterns)),
        3 => format!(" where lower({c}) = 'ab' or length({c}) > 1"),
        _ => String::new(),
    };
    Item::same(
        format!(
            "select id, {} from {}{filter}",
            picked.join(", "),
            table.name
        ),
        Check::Unordered,
    )
}

/// The sizes PostgreSQL reports for a table and its indexes, which IndexLab
/// computes from its own pages (heap, B-trees, free space and visibility maps).
pub(crate) fn sizes(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let name = &schema.tables[t].name;
    let call = *g.pick(&[
        "pg_relation_size",
        "pg_table_size",
        "pg_indexes_size",
        "pg_total_relation_size",
    ]);
    Item::same(
        format!("select {call}('{name}'), pg_size_pretty({call}('{name}'::regclass))"),
        Check::PgStorage,
    )
}

/// Where each row lives on the heap (`ctid`), which IndexLab's pages must
/// place exactly where PostgreSQL's do: after updates (HOT or not), deletes,
/// VACUUM and the free space map's choice of page.
pub(crate) fn heap_addresses(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let name = &schema.tables[t].name;
    let sql = match g.below(3) {
        0 => format!("select ctid, id from {name}"),
        1 => format!("select (ctid::text::point)[0] as page, count(*) from {name} group by 1"),
        _ => format!("select ctid, * from {name} where (ctid::text::point)[1] > 2"),
    };
    Item::same(sql, Check::PgStorage)
}

/// pageinspect's view of the table's first page: where each tuple sits and
/// how long it is, its line pointer's state, its header (natts and HOT
/// flags, `t_hoff`, the null bitmap, the command id) and its data bytes.
/// Transaction ids and hint bits are left out: the server's ids depend on
/// what it ran before, and hint bits on the plans that read the rows.
pub(crate) fn heap_page_items(schema: &Schema, t: usize) -> [Item; 2] {
    let name = &schema.tables[t].name;
    [
        Item::same(
            "create extension if not exists pageinspect",
            Check::Statement,
        ),
        Item::same(
            format!(
                "select lp, lp_off, lp_flags, lp_len, t_ctid, t_field3, t_infomask2, t_hoff, \
                 t_bits, t_data from heap_page_items(get_raw_page('{name}', 0)) order by lp"
            ),
            Check::PgStorage,
        ),
    ]
}

/// The figures VACUUM, ANALYZE and CREATE INDEX leave in pg_class for the
/// script's tables, indexes and sequences (PostgreSQL's own relations ruled
/// out by name, as the query must).
pub(crate) fn pg_class(g: &mut Gen, schema: &Schema) -> Item {
    let columns = [
        "relkind",
        "relpages",
        "reltuples",
        "relallvisible",
        "relhasindex",
        "relnatts",
        "pg_relation_size(oid)",
    ];
    let mut picked: Vec<&str> = columns.iter().copied().filter(|_| g.chance(50)).collect();
    if picked.is_empty() {
        picked.push("reltuples");
    }
    let names: Vec<String> = schema
        .tables
        .iter()
        .map(|t| format!("relname like '{}%'", t.name))
        .collect();
    Item::same(
        format!(
            "select relname, {} from pg_class where {}",
            picked.join(", "),
            names.join(" or ")
        ),
        Check::PgStorage,
    )
}

/// Every index of the script's tables as `pg_get_indexdef` prints it:
/// partial and expression indexes included.
pub(crate) fn pg_indexes(schema: &Schema) -> Item {
    let names: Vec<String> = schema
        .tables
        .iter()
        .map(|t| format!("'{}'", t.name))
        .collect();
    // The differential server keeps the tables in schema `difftest`, where
    // IndexLab's are in `public`: both print as `public`.
    Item::same(
        format!(
            "select indexname, replace(indexdef, ' ON difftest.', ' ON public.') \
             from pg_indexes where tablename in ({}) order by indexname",
            names.join(", ")
        ),
        Check::PgCatalog,
    )
}

/// Subqueries: `IN`, `NOT IN` (NULLs included), `EXISTS`, and a subquery
/// as a value, in a query or in a DELETE's WHERE; uncorrelated, or
/// correlated with the outer row (a SubPlan per row), or as a LATERAL item.
pub(crate) fn subquery(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    if g.chance(40) {
        return correlated_subquery(g, schema, t);
    }
    let outer = &schema.tables[t];
    let inner = g.pick(&schema.tables);
    let (o, i) = (&outer.name, &inner.name);
    let inner_filter = if g.chance(50) {
        format!(" where {}", condition(g, &inner.columns, None, 1))
    } else {
        String::new()
    };
    let col = *g.pick(&["a", "b", "id"]);
    let (sql, check) = match g.below(6) {
        0 => (
            format!("select id, a from {o} where a in (select {col} from {i}{inner_filter})"),
            Check::Unordered,
        ),
        1 => (
            format!("select id, a from {o} where a not in (select {col} from {i}{inner_filter})"),
            Check::Unordered,
        ),
        2 => (
            format!(
                "select id from {o} where {}exists (select 1 from {i}{inner_filter})",
                if g.chance(50) { "not " } else { "" }
            ),
            Check::Unordered,
        ),
        3 => (
            format!("select id, (select max({col}) from {i}{inner_filter}) from {o}"),
            Check::Unordered,
        ),
        4 => (
            format!("select id from {o} where a = (select min({col}) from {i}{inner_filter})"),
            Check::Unordered,
        ),
        _ => (
            format!("delete from {o} where a in (select {col} from {i}{inner_filter})"),
            Check::Statement,
        ),
    };
    Item::same(sql, check)
}

/// A subquery reading the outer row (`s.b = o.a`), the inner table named
/// `s` so that it may be the outer table too.
fn correlated_subquery(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let o = &schema.tables[t].name;
    let inner = g.pick(&schema.tables);
    let i = &inner.name;
    let (ocol, icol) = (*g.pick(&["id", "a", "b"]), *g.pick(&["id", "a", "b"]));
    let op = *g.pick(&["=", "<", ">="]);
    let mut inner_where = format!("s.{icol} {op} {o}.{ocol}");
    if g.chance(40) {
        inner_where += &format!(" and {}", condition(g, &inner.columns, Some("s"), 1));
    }
    let not = if g.chance(40) { "not " } else { "" };
    let (sql, check) = match g.below(6) {
        0 => (
            format!("select id from {o} where {not}exists (select 1 from {i} s where {inner_where})"),
            Check::Unordered,
        ),
        1 => (
            format!("select id, (select count(*) from {i} s where {inner_where}) from {o}"),
            Check::Unordered,
        ),
        2 => (
            format!("select id, a from {o} where a {not}in (select s.{icol} from {i} s where {inner_where})"),
            Check::Unordered,
        ),
        3 => (
            format!("select {o}.id, l.n from {o} cross join lateral (select count(*) n, max(s.a) m from {i} s where {inner_where}) l"),
            Check::Unordered,
        ),
        4 => (
            format!("select id from {o} where a = (select max(s.a) from {i} s where {inner_where})"),
            Check::Unordered,
        ),
        _ => (
            format!("delete from {o} where {not}exists (select 1 from {i} s where {inner_where})"),
            Check::Statement,
        ),
    };
    Item::same(sql, check)
}

/// `UPDATE o … FROM i` or `DELETE FROM o USING i`, joined on an integer
/// column. The SET reads only the target, so which of several matches a
/// target row meets first (unspecified in PostgreSQL) cannot change the rows;
/// and it writes each row's own value back (new versions all the same), since
/// `a = a + k` on a unique column fails or not by the order rows are met.
pub(crate) fn joined_write(g: &mut Gen, features: &mut Gen, schema: &Schema, t: usize) -> Item {
    let o = &schema.tables[t].name;
    let others: Vec<usize> = (0..schema.tables.len()).filter(|i| *i != t).collect();
    let inner = &schema.tables[*features.pick(&others)];
    let i = &inner.name;
    let (ocol, icol) = (*features.pick(&["id", "a"]), *features.pick(&["id", "a"]));
    let extra = if features.chance(50) {
        format!(" and {}", condition(g, &inner.columns, Some(i), 1))
    } else {
        String::new()
    };
    let sql = if features.chance(50) {
        format!("update {o} set a = {o}.a from {i} where {o}.{ocol} = {i}.{icol}{extra}")
    } else {
        format!("delete from {o} using {i} where {o}.{ocol} = {i}.{icol}{extra}")
    };
    Item::same(sql, Check::Statement)
}

/// `CREATE TABLE … AS SELECT` and `SELECT … INTO`: a copy of some of a
/// table's rows, typed as PostgreSQL types the query's columns.
pub(crate) fn create_table_as(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let table = &schema.tables[t];
    let copy = format!("{}_copy{}", table.name, g.below(1000));
    let filter = condition(g, &table.columns, None, 1);
    let items = *g.pick(&[
        "*",
        "id, a * 2 as a2, b",
        "a, count(*) as n",
        "id, 'x' || a as s",
    ]);
    let group = if items.contains("count(") {
        " group by a"
    } else {
        ""
    };
    let sql = if g.chance(70) {
        format!(
            "create table {copy} as select {items} from {} where {filter}{group}",
            table.name
        )
    } else {
        format!(
            "select {items} into {copy} from {} where {filter}{group}",
            table.name
        )
    };
    Item::same(sql, Check::Statement)
}

/// `UNION`, `INTERSECT` and `EXCEPT` [ALL] of two or three selects of the
/// script's tables (the same table or others), column for column of the same
/// kind (integers of any width, texts and varchars, now and then a literal or
/// NULL); the first two sometimes in parentheses, the result sometimes
/// ordered by every column (positions), limited, or used by an IN subquery.
pub(crate) fn set_operation(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let width = 1 + g.below(3) as usize;
    // Per output column: true for text, false for an integer.
    let kinds: Vec<bool> = (0..width).map(|_| g.chance(30)).collect();
    let branches = 2 + g.below(2) as usize;
    let mut selects = Vec::new();
    for i in 0..branches {
        let table = if i == 0 {
            &schema.tables[t]
        } else {
            g.pick(&schema.tables)
        };
        let items: Vec<String> = kinds
            .iter()
            .map(|&text| {
                let has_c = table.columns.iter().any(|c| c.name == "c");
                let numeric_b = table
                    .columns
                    .iter()
                    .any(|c| c.name == "b" && matches!(c.ty, Type::Numeric(..)));
                match (text, g.below(10)) {
                    (_, 0) => "null".to_string(),
                    (true, 1) => "'x'".to_string(),
                    (false, 1) => g.range(-1, 3).to_string(),
                    (true, _) if has_c => "c".to_string(),
                    (true, _) => "a::text".to_string(),
                    // A numeric b beside integers prints equal values
                    // differently (`1` and `1.0`), whose order PostgreSQL's
                    // sort leaves undetermined: integers only.
                    (false, _) if numeric_b => g.pick(&["id", "a"]).to_string(),
                    (false, _) => g.pick(&["id", "a", "b"]).to_string(),
                }
            })
            .collect();
        let filter = if g.chance(60) {
            format!(" where {}", condition(g, &table.columns, None, 1))
        } else {
            String::new()
        };
        selects.push(format!(
            "select {} from {}{filter}",
            items.join(", "),
            table.name
        ));
    }
    let op = |g: &mut Gen| {
        *g.pick(&[
            "union",
            "union all",
            "intersect",
            "intersect all",
            "except",
            "except all",
        ])
    };
    let mut sql = selects[0].clone();
    for (i, s) in selects.iter().enumerate().skip(1) {
        sql = format!("{sql} {} {s}", op(g));
        if i == 1 && branches == 3 && g.chance(30) {
            sql = format!("({sql})");
        }
    }
    if g.chance(15) {
        // In an IN subquery, whose first column the outer `a` compares with.
        let outer = &schema.tables[t].name;
        let not = if g.chance(40) { "not " } else { "" };
        let one_column: Vec<String> = selects
            .iter()
            .map(|s| {
                let from = s.find(" from ").unwrap_or(s.len());
                let items = &s["select ".len()..from];
                let first = items.split(", ").next().unwrap_or("a");
                let first = if kinds[0] { "a" } else { first };
                format!("select {first}{}", &s[from..])
            })
            .collect();
        let mut inner = one_column[0].clone();
        for s in &one_column[1..] {
            inner = format!("{inner} {} {s}", op(g));
        }
        return Item::same(
            format!("select id, a from {outer} where a {not}in ({inner})"),
            Check::Unordered,
        );
    }
    let limit = if g.chance(30) {
        format!(" limit {}", g.range(0, 5))
    } else {
        String::new()
    };
    if g.chance(50) {
        let order: Vec<String> = (1..=width)
            .map(|i| {
                let dir = *g.pick(&["", " desc"]);
                let nulls = *g.pick(&["", "", " nulls first", " nulls last"]);
                format!("{i}{dir}{nulls}")
            })
            .collect();
        let offset = if g.chance(20) { " offset 1" } else { "" };
        Item::same(
            format!("{sql} order by {}{limit}{offset}", order.join(", ")),
            Check::Ordered,
        )
    } else if limit.is_empty() {
        Item::same(sql, Check::Unordered)
    } else {
        Item::same(format!("{sql}{limit}"), Check::CountOnly)
    }
}
