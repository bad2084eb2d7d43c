//! A seeded generator of scripts within the SQL subset IndexLab documents
//! (README, DESIGN §2.4): tables with and without primary keys (ASC, DESC, or
//! neither, which YugabyteDB hashes), zero to three secondary indexes (unique or not), inserts with NULLs and
//! the odd duplicate key, updates (key columns too), deletes, VACUUM, and queries
//! with WHERE (comparisons, IN, NOT IN, BETWEEN, IS NULL), ORDER BY, LIMIT,
//! joins, CTEs and set operations (UNION, INTERSECT, EXCEPT), and DO blocks (a FOR loop inserting rows, a PERFORM loop).
//!
//! Values are drawn from small ranges so that conditions match, keys collide and
//! NULLs meet every operator. Text values are never empty: IndexLab's report
//! prints NULL as an empty string, as psql does, so '' and NULL would read alike.

mod documents;
mod query;
mod schema;
mod values;

use crate::script::{Check, Item, Script};
use indexlab_engine::rng::Rng;
use schema::{Schema, Table};

/// What a generated script may contain.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Statements after the tables are made.
    pub statements: usize,
    /// Emit `\flush` and `\compact` (LSM-only; PostgreSQL skips them).
    pub lsm_commands: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            statements: 24,
            lsm_commands: true,
        }
    }
}

/// The schema a script makes now and then for its tables (the PostgreSQL
/// side drops it before each script).
pub const GENERATED_SCHEMA: &str = "app";

/// The script of one seed: the same seed always gives the same script.
pub fn script(seed: u64, options: Options) -> Script {
    let mut g = Gen::new(seed);
    let mut items = Vec::new();
    let setting = g.chance(40);
    if setting {
        items.push(engine_setting(&mut g));
    }
    let mut schema = Schema {
        features: Gen::features(seed),
        sizes_comparable: !setting,
        ..Schema::default()
    };
    // Now and then the tables live in a schema of their own, found through
    // search_path: every later name resolves there. Drawn from a stream of
    // its own, so the other seeds' scripts stay as they were.
    if Gen::schemas(seed).chance(10) {
        items.push(Item::same(
            format!("create schema {GENERATED_SCHEMA}"),
            Check::Statement,
        ));
        items.push(Item::same(
            format!("set search_path = {GENERATED_SCHEMA}, public"),
            Check::Statement,
        ));
    }
    let tables = 1 + g.below(3) as usize;
    for i in 0..tables {
        let mut table = Table::random(&mut g, format!("t{i}"));
        // Column b is now and then numeric, drawn from the features stream so
        // that the main stream's scripts stay as they were.
        if schema.features.chance(25) {
            table.columns[2].ty = *schema.features.pick(&[
                values::Type::Numeric(6, 2),
                values::Type::Numeric(6, 2),
                values::Type::Numeric(4, 1),
            ]);
        }
        items.push(table.create_item());
        schema.tables.push(table);
        for _ in 0..g.below(4) {
            if let Some(item) = schema.create_index(&mut g, i) {
                items.push(item);
            }
        }
        let rows = 3 + g.below(6) as usize;
        items.push(schema.insert(&mut g, i, rows));
    }
    // At most one rolled-back change per script: the yb profile refuses
    // the ROLLBACK by name, which ends its run there.
    let statements = options.statements as u64;
    let rollback_at = schema
        .features
        .chance(30)
        .then(|| schema.features.below(statements));
    for i in 0..statements {
        if Some(i) == rollback_at {
            items.extend(rolled_back(&mut g, &mut schema));
        } else {
            items.push(statement(&mut g, &mut schema, options));
        }
    }
    if schema.sizes_comparable && g.chance(50) {
        let t = g.below(schema.tables.len() as u64) as usize;
        match g.below(5) {
            0 => items.push(query::sizes(&mut g, &schema, t)),
            1 => items.push(query::heap_addresses(&mut g, &schema, t)),
            2 => items.push(query::pg_indexes(&schema)),
            3 => items.extend(query::heap_page_items(&schema, t)),
            _ => items.push(query::pg_class(&mut g, &schema)),
        }
    }
    Script { items }
}

/// A row change undone by ROLLBACK: its versions stay on the pages as
/// aborted ones (what later inserts, pruning and VACUUM then meet), and the
/// rows it deleted or replaced are live again.
fn rolled_back(g: &mut Gen, schema: &mut Schema) -> [Item; 3] {
    let t = g.below(schema.tables.len() as u64) as usize;
    let change = match g.below(3) {
        0 => {
            let rows = 1 + g.below(3) as usize;
            schema.insert(g, t, rows)
        }
        1 => schema.update(g, t),
        _ => schema.delete(g, t),
    };
    [
        Item::same("begin", Check::Statement),
        change,
        Item::same("rollback", Check::PgStorage),
    ]
}

/// VACUUM, now and then one that gives the table new files: VACUUM FULL,
/// CLUSTER on one of its indexes, REINDEX TABLE (the yb profile refuses the
/// last two by name, which ends its run there), or VACUUM FREEZE.
fn maintenance(g: &mut Gen, features: &mut Gen, schema: &Schema, t: usize) -> Item {
    let name = &schema.tables[t].name;
    let prefix = format!("{name}_");
    let indexes: Vec<&String> = schema
        .index_names
        .iter()
        .filter(|n| n.starts_with(&prefix))
        .collect();
    match features.below(100) {
        0..=9 => Item::same(format!("vacuum full {name}"), Check::Statement),
        10..=14 => Item::same(format!("vacuum freeze {name}"), Check::Statement),
        15..=24 if !indexes.is_empty() => {
            let index = indexes[g.below(indexes.len() as u64) as usize];
            Item::same(format!("cluster {name} using {index}"), Check::PgStorage)
        }
        25..=29 => Item::same(format!("reindex table {name}"), Check::PgStorage),
        _ => Item::same(format!("vacuum {name}"), Check::Statement),
    }
}

/// One statement after the tables exist, by a weighted choice.
fn statement(g: &mut Gen, schema: &mut Schema, options: Options) -> Item {
    let t = g.below(schema.tables.len() as u64) as usize;
    match g.below(100) {
        0..=17 => {
            let n = 1 + g.below(5) as usize;
            schema.insert(g, t, n)
        }
        18..=21 => schema.insert_series(g, t),
        22..=31 if schema.tables.len() > 1 && schema.features.chance(15) => {
            with_features(schema, |f, s| query::joined_write(g, f, s, t))
        }
        22..=31 => schema.update(g, t),
        32..=37 => schema.delete(g, t),
        38..=41 => with_features(schema, |f, s| maintenance(g, f, s, t)),
        42..=43 => schema
            .create_index(g, t)
            .unwrap_or_else(|| query::select(g, schema, t)),
        66..=73 => with_features(schema, |f, s| query::grouping(g, f, s, t)),
        78..=83 if schema.features.chance(30) => documents::documents(g, schema, t),
        78..=83 => query::functions(g, schema, t),
        84..=87 => query::subquery(g, schema, t),
        88 => query::create_table_as(g, schema, t),
        89 => Item::same(
            format!("truncate {}", schema.tables[t].name),
            Check::Statement,
        ),
        // Later inserts leave this much room: the heap's pages (and so the
        // sizes and ctids a script may end with) must follow.
        // A column added or dropped: later statements run on the new shape.
        90 if schema.features.chance(30) => with_features(schema, |f, s| match f.chance(50) {
            true => s.drop_column(f, t),
            false => s.add_column(f, t),
        })
        .unwrap_or_else(|| query::select(g, schema, t)),
        90 => Item::same(
            format!(
                "alter table {} set (fillfactor = {})",
                schema.tables[t].name,
                g.range(10, 100)
            ),
            Check::Statement,
        ),
        91 => schema.do_insert_loop(g, t),
        92 => schema.do_perform_loop(g, t),
        74..=75 => schema.drop_index(g),
        76 => Item::same(
            format!("analyze {}", schema.tables[t].name),
            Check::Statement,
        ),
        77 => Item::same(
            format!("vacuum analyze {}", schema.tables[t].name),
            Check::Statement,
        ),
        44..=46 if options.lsm_commands => {
            let which = if g.chance(50) { "\\flush" } else { "\\compact" };
            Item::meta(format!("{which} {}", schema.tables[t].name))
        }
        47..=55 if schema.tables.len() > 1 => query::join(g, schema, t),
        56..=57 => query::set_operation(g, schema, t),
        58..=60 => with_features(schema, |f, s| query::cte(g, f, s, t)),
        61..=62 => with_features(schema, |f, _| query::constant(g, f)),
        63..=64 => with_features(schema, |f, s| query::arithmetic(g, f, s, t)),
        65 => schema.returning(g, t),
        _ => query::select(g, schema, t),
    }
}

/// Runs `make` with the features stream lent out of the schema: the newer
/// variants of a statement (numeric expressions) draw from it, so the main
/// stream, and with it the scripts of older seeds, stays as it was.
fn with_features<T>(schema: &mut Schema, make: impl FnOnce(&mut Gen, &mut Schema) -> T) -> T {
    let mut features = std::mem::take(&mut schema.features);
    let out = make(&mut features, schema);
    schema.features = features;
    out
}

/// Settings that change how the engines store and read rows but never what a
/// query returns: each run must still give PostgreSQL's answers. Only IndexLab
/// runs them (PostgreSQL has no such settings).
const ENGINE_SETTINGS: &[&str] = &[
    "set yb_enable_packed_row = false",
    "set write_buffer_size = '4kB'",
    "set block_size = '512'",
    "set yb_fetch_row_limit = 2",
    "set ysql_request_limit = 1",
    "set yb_bnl_batch_size = 3",
    "set num_tablets = 3",
    "set tablet_servers = 1",
    "set block_cache_size = 0",
    "set shared_buffers = '128kB'",
    "set page_size = '1kB'",
    "set leaf_fillfactor = 10",
    "set heap_fillfactor = 10",
];

fn engine_setting(g: &mut Gen) -> Item {
    Item {
        indexlab: g.pick(ENGINE_SETTINGS).to_string(),
        postgres: None,
        check: Check::Statement,
    }
}

/// The generator's random source with the small helpers every part uses.
pub(crate) struct Gen {
    rng: Rng,
}

impl std::fmt::Debug for Gen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Gen")
    }
}

impl Default for Gen {
    fn default() -> Gen {
        Gen::new(0)
    }
}

impl Gen {
    /// A second stream for a script's newer features (partial indexes):
    /// drawing them from the main stream would turn every seed into another
    /// script, and a divergence found at a seed would no longer be found
    /// there.
    fn features(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed ^ 0x7061_7274_6961_6c21),
        }
    }

    /// The draw of whether a script makes a schema of its own.
    fn schemas(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed ^ 0x7363_6865_6d61_7321),
        }
    }

    fn new(seed: u64) -> Gen {
        // SplitMix64 from seed 0 is fine; mixing in a constant keeps nearby
        // seeds' first draws apart.
        Gen {
            rng: Rng::new(seed ^ 0x1d8e_4e27_c47d_124f),
        }
    }

    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    /// True with `percent` % probability.
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.below(items.len() as u64) as usize]
    }

    /// An integer in `lo..=hi`.
    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.rng.below((hi - lo + 1) as u64) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_always_gives_the_same_script() {
        let a = script(7, Options::default());
        assert_eq!(a, script(7, Options::default()));
        assert_ne!(a, script(8, Options::default()));
    }

    #[test]
    fn scripts_cover_the_subset() {
        let text: String = (0..200)
            .map(|s| script(s, Options::default()).indexlab_text())
            .collect();
        for needle in [
            "primary key",
            "primary key (id desc",
            " split into ",
            " include (",
            " desc",
            "create unique index",
            "insert into",
            "generate_series",
            "update ",
            "delete from",
            "vacuum",
            " not in (",
            " between ",
            " is null",
            " order by ",
            " limit ",
            " join ",
            " left join ",
            "from (select ",
            " distinct from ",
            " = any(array[",
            " right join ",
            " full join ",
            " set a = t",
            " using t",
            "with ",
            "\\flush",
            "\\compact",
            "null",
            "count(*)",
            " group by ",
            " having ",
            "select distinct ",
            " offset ",
            "drop index",
            "analyze ",
            " like ",
            "coalesce(",
            "case when ",
            "md5(",
            "pg_total_relation_size(",
            " in (select ",
            "exists (select",
            " s where s.",
            "string_agg(",
            " cross join lateral (",
            "_copy",
            "truncate ",
            "do $$ ",
            " loop perform ",
            "reverse ",
            " union ",
            " intersect all ",
            " except ",
            " on conflict (",
            " do update set ",
            " do nothing",
            " returning ",
            ") where ",
            "lower(c)",
            " split at values (",
            "jsonb_build_object(",
            "json_build_object(",
            "doc->>'",
            "doc @> '",
            "to_char(",
            "format('%s-%L'",
            "with s as (select g from generate_series(",
            ", (select count(*) from t",
            " drop column ",
            " add column e ",
            "set search_path = app, public",
            ") filter (where ",
            "with recursive ",
        ] {
            assert!(text.contains(needle), "no generated script has {needle:?}");
        }
    }
}
