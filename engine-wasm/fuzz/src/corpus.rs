//! The seed scripts mutations start from: the articles' scripts, the lessons'
//! scripts, and a few small built-in ones that reach the statements, clauses and
//! meta-commands the others do not.
//!
//! The articles load up to 1 000 000 rows; a fuzzer wants thousands of inputs a
//! minute, so every seed is scaled down first (see [`scale_down`]) and runs
//! under a small row budget ([`PRELUDE`]).

use std::path::{Path, PathBuf};

/// Put before every seed: a whole run stays within a few thousand rows, so an
/// input takes milliseconds even when a mutation repeats or widens a statement.
pub const PRELUDE: &str = "SET max_rows = 20000;\n";

/// The largest number a seed keeps: bigger ones (row counts, LIMITs, fetch
/// sizes) become this.
const MAX_SEED_NUMBER: u64 = 500;

/// The most runs a seed's `\watch` keeps.
const MAX_SEED_WATCH: u64 = 2;

/// Scripts written for the fuzzer: each is small and reaches something the
/// articles' scripts do not (DML, joins, CTEs, SET/SHOW, hints, meta-commands).
pub const BUILT_IN: &[&str] = &[
    "create table t (id int primary key, v text, n bigint);
create index t_v on t (v desc, id);
insert into t values (1, 'a', 10), (2, 'b', 20), (3, 'é', null);
insert into t select generate_series(4, 50), 'x', 7;
update t set n = n + 1 where id between 2 and 10;
delete from t where id in (4, 5, 6);
select id, v from t where id > 1 and v <> 'x' order by id desc limit 5;
select * from t where n is null or id = 3;
explain (analyze, buffers, costs off, summary off) select * from t where id < 20;
",
    "create table a (id bigint primary key, x int) split into 3 tablets;
create table b (id bigint, a_id bigint, primary key (id asc));
create unique index b_a on b (a_id);
insert into a select generate_series(1, 100), 0;
insert into b select g, g from generate_series(1, 100) g;
with c as (select * from a where x = 0)
select * from c join b on b.a_id = c.id where b.id < 10 order by b.id;
select * from a join b using (id) where a.id between 5 and 9;
explain (analyze, dist, debug, costs off) select * from a, b where a.id = b.a_id and a.id < 4;
",
    "set yb_bnl_batch_size = 10;
show yb_bnl_batch_size;
set cost_cpu_row = 2;
show cost_cpu_row;
reset all;
/*+ Set(yb_fetch_row_limit 5) */ select 1;
/*+ nestloop(a b) leading((a b)) Set(yb_bnl_batch_size 5) */ select 2;
set max_rows to 500;
show max_rows;
",
    "create table w (k serial primary key, t timestamptz);
insert into w (t) values (clock_timestamp())
\\watch c=3
\\flush w
\\compact
\\checkpoint
\\echo done 'quoted arg'
insert into w (t) select now() from generate_series(1, 20);
select k, t from w where k <= 3 order by k desc;
vacuum w;
drop table if exists w;
",
    "create table s (id int, f double precision, b boolean, primary key (id hash));
insert into s values (1, 1.5, true), (2, -0.25, false);
select id, f * 2, b from s where f between -1 and 2 order by f limit 1;
select * from s where id in (1, 2, 3) and not b;
select 'it''s', \"id\" from s;
explain select * from s where id = 1;
create table if not exists s (id int);
",
];

/// The repository's root, two levels above this crate.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every seed, scaled down and with the prelude: the built-in scripts, then
/// `tests/fidelity/*.sql` and `lessons/*/*.sql` in name order (read now, so a
/// new article or lesson joins the corpus without a code change).
pub fn seeds() -> Vec<Vec<u8>> {
    let root = repo_root();
    let mut files = sql_files(&root.join("tests/fidelity"));
    let lessons = std::fs::read_dir(root.join("lessons")).map_or_else(
        |_| Vec::new(),
        |dir| {
            let mut dirs: Vec<PathBuf> = dir.flatten().map(|e| e.path()).collect();
            dirs.sort();
            dirs
        },
    );
    for lesson in lessons {
        files.extend(sql_files(&lesson));
    }
    BUILT_IN
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .chain(files.iter().filter_map(|f| std::fs::read(f).ok()))
        .map(|script| {
            let mut seed = PRELUDE.as_bytes().to_vec();
            seed.extend(scale_down(&script));
            seed
        })
        .collect()
}

fn sql_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|f| f.extension().is_some_and(|e| e == "sql"));
    files.sort();
    files
}

/// Shrinks a script's workload: numbers above [`MAX_SEED_NUMBER`] (row counts,
/// limits) become it, and counts on a `\watch` line above [`MAX_SEED_WATCH`]
/// become that, so an article's million-row load becomes a few thousand rows.
pub fn scale_down(script: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(script.len());
    for line in script.split_inclusive(|&b| b == b'\n') {
        let cap = if line.trim_ascii_start().starts_with(b"\\watch") {
            MAX_SEED_WATCH
        } else {
            MAX_SEED_NUMBER
        };
        let mut i = 0;
        while i < line.len() {
            let digits = line[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                out.push(line[i]);
                i += 1;
                continue;
            }
            let after_word = i > 0 && (line[i - 1].is_ascii_alphabetic() || line[i - 1] == b'_');
            let number = &line[i..i + digits];
            let value = std::str::from_utf8(number)
                .ok()
                .and_then(|n| n.parse::<u64>().ok());
            match value {
                Some(v) if v > cap && !after_word && line.get(i + digits) != Some(&b'.') => {
                    out.extend(cap.to_string().as_bytes())
                }
                _ => out.extend(number),
            }
            i += digits;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scaled(s: &str) -> String {
        String::from_utf8(scale_down(s.as_bytes())).unwrap()
    }

    #[test]
    fn large_row_counts_and_watch_counts_shrink() {
        assert_eq!(
            scaled("insert into t select generate_series(1,10000)\n\\watch c=100 i=0.01\n"),
            "insert into t select generate_series(1,500)\n\\watch c=2 i=0.01\n"
        );
        assert_eq!(scaled("select 1 limit 50000;"), "select 1 limit 500;");
    }

    #[test]
    fn small_numbers_names_and_decimals_are_kept() {
        let s = "create table t2 (x int); select 12, 1234567.5, t99999, 500 from t2;";
        assert_eq!(scaled(s), s);
    }

    #[test]
    fn seeds_include_the_articles_and_the_lessons() {
        let seeds = seeds();
        assert!(seeds.len() >= BUILT_IN.len() + 6, "{} seeds", seeds.len());
        let any_has = |needle: &str| {
            seeds
                .iter()
                .any(|s| String::from_utf8_lossy(s).contains(needle))
        };
        assert!(
            any_has("yb_fetch_row_limit=500"),
            "article 000 (yb), scaled"
        );
        assert!(any_has("range scan on a B+tree"), "lesson 01");
        assert!(seeds.iter().all(|s| s.starts_with(PRELUDE.as_bytes())));
    }

    #[test]
    fn the_built_in_seeds_run_clean_on_both_profiles() {
        use indexlab_engine::scenario::{run_pg, run_yb};
        for (i, script) in BUILT_IN.iter().enumerate() {
            let text = format!(
                "{PRELUDE}{}",
                String::from_utf8(scale_down(script.as_bytes())).unwrap()
            );
            for report in [run_pg(&text, &[]).0, run_yb(&text, &[]).0] {
                assert_eq!(
                    report.error, None,
                    "built-in seed {i} on {}",
                    report.profile
                );
            }
        }
    }
}
