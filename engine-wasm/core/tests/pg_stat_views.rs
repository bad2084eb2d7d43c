//! The cumulative statistics views experiments read to see what a statement
//! did (`pg_stat_user_tables`, `pg_stat_user_indexes`) and the index list
//! `pg_indexes`. Each expected answer is PostgreSQL 15's for the same script,
//! run with `select pg_stat_force_next_flush();` before each read of a view
//! and before VACUUM and ANALYZE, so that its counters were sent (IndexLab
//! shows them sent at the end of each statement; see `pg::pgstat`).

use crate::common;

use common::{error, rows};
use indexlab_engine::scenario::{run_pg, run_yb};

const SETUP: &str = "create table t (id int primary key, v int, w text);
insert into t select g, g, 'x' from generate_series(1,100) g;
delete from t where v > 50;
update t set w = 'y' where v <= 10;
update t set v = v + 1000 where v between 11 and 15;
";

#[test]
fn writes_count_rows_and_a_committed_update_leaves_a_dead_one() {
    let script = format!(
        "{SETUP}select seq_scan, seq_tup_read, idx_scan, idx_tup_fetch, n_tup_ins, n_tup_upd, \
         n_tup_del, n_tup_hot_upd, n_live_tup, n_dead_tup, n_mod_since_analyze, \
         n_ins_since_vacuum from pg_stat_user_tables where relname = 't';\n"
    );
    let r = run_pg(&script, &[]).0;
    assert_eq!(error(&r), "");
    // One scan by the primary key's build over the empty table, then three
    // sequential scans (100 + 50 + 50 rows); the updates change no indexed
    // column, so all 15 are HOT.
    assert_eq!(
        rows(&r, 5),
        [["4", "200", "0", "0", "100", "15", "50", "15", "50", "65", "165", "100"]]
    );
}

#[test]
fn an_index_build_reads_dead_tuples_too() {
    let script = format!(
        "{SETUP}create index t_v on t (v);
select relname, seq_scan, seq_tup_read, idx_scan from pg_stat_user_tables where relid = 't'::regclass;\n"
    );
    let r = run_pg(&script, &[]).0;
    assert_eq!(error(&r), "");
    // 50 live tuples and 65 dead ones still holding storage.
    assert_eq!(rows(&r, 6), [["t", "5", "315", "0"]]);
}

#[test]
fn index_scans_count_one_descent_per_in_list_value() {
    let script = format!(
        "{SETUP}create index t_v on t (v);
set enable_seqscan = off;
set enable_bitmapscan = off;
select id from t where id in (1, 2, 3, 1000);
select * from t where v = 5;
select indexrelname, idx_scan, idx_tup_read, idx_tup_fetch from pg_stat_user_indexes where relname = 't' order by indexrelname;
vacuum t;
select id from t where id < 5;
select n_live_tup, n_dead_tup, vacuum_count, n_ins_since_vacuum, last_vacuum is not null from pg_stat_user_tables where relname = 't';
select indexrelname, idx_scan, idx_tup_read, idx_tup_fetch from pg_stat_user_indexes where relname = 't' order by indexrelname;\n"
    );
    let r = run_pg(&script, &[]).0;
    assert_eq!(error(&r), "");
    assert_eq!(
        rows(&r, 10),
        [["t_pkey", "4", "3", "3"], ["t_v", "1", "1", "1"]]
    );
    assert_eq!(rows(&r, 13), [["50", "0", "1", "0", "t"]]);
    // After VACUUM the index-only scan reads 4 entries and fetches no heap
    // tuple: the visibility map says every page is all-visible.
    assert_eq!(
        rows(&r, 14),
        [["t_pkey", "5", "7", "3"], ["t_v", "1", "1", "1"]]
    );
}

#[test]
fn analyze_counts_dead_rows_and_truncate_starts_again() {
    let script = format!(
        "{SETUP}vacuum t;
delete from t where v = 1;
analyze t;
select n_live_tup, n_dead_tup, n_mod_since_analyze, analyze_count, seq_scan from pg_stat_user_tables where relname = 't';
truncate t;
select seq_scan, n_tup_ins, n_live_tup, n_dead_tup from pg_stat_user_tables where relname = 't';
create table u (a int);
select relname, idx_scan, idx_tup_fetch from pg_stat_user_tables where relname like 'u%';\n"
    );
    let r = run_pg(&script, &[]).0;
    assert_eq!(error(&r), "");
    // ANALYZE's own reading of the table is not a counted scan.
    assert_eq!(rows(&r, 8), [["49", "1", "0", "1", "5"]]);
    // TRUNCATE rebuilds the primary key over the new, empty file: a scan.
    assert_eq!(rows(&r, 10), [["6", "100", "0", "0"]]);
    // A table without indexes has no index counters: NULL, not 0.
    assert_eq!(rows(&r, 12), [["u", "NULL", "NULL"]]);
}

#[test]
fn pg_indexes_prints_each_index_as_pg_get_indexdef_does() {
    let script = "create table t (id int primary key, n int, v text, a int, b int);
create index t_p on t (n) where n > 5 or v is not null;
create index t_e on t ((a + b), lower(v)) include (n);
select * from pg_indexes where tablename = 't' order by indexname;\n";
    let r = run_pg(script, &[]).0;
    assert_eq!(error(&r), "");
    assert_eq!(
        rows(&r, 3),
        [
            [
                "public",
                "t",
                "t_e",
                "NULL",
                "CREATE INDEX t_e ON public.t USING btree (((a + b)), lower(v)) INCLUDE (n)"
            ],
            [
                "public",
                "t",
                "t_p",
                "NULL",
                "CREATE INDEX t_p ON public.t USING btree (n) WHERE ((n > 5) OR (v IS NOT NULL))"
            ],
            [
                "public",
                "t",
                "t_pkey",
                "NULL",
                "CREATE UNIQUE INDEX t_pkey ON public.t USING btree (id)"
            ],
        ]
    );
}

#[test]
fn pg_indexes_on_yugabytedb_shows_lsm_indexes() {
    let script = "create table census (id int primary key, zipcode int);
create index idx_zip on census (zipcode asc) include (id);
select indexname, indexdef from pg_indexes where tablename = 'census';\n";
    let r = run_yb(script, &[]).0;
    assert_eq!(error(&r), "");
    assert_eq!(
        rows(&r, 2),
        [
            [
                "census_pkey",
                "CREATE UNIQUE INDEX census_pkey ON public.census USING lsm (id HASH)"
            ],
            [
                "idx_zip",
                "CREATE INDEX idx_zip ON public.census USING lsm (zipcode ASC) INCLUDE (id)"
            ],
        ]
    );
}

#[test]
fn the_views_refuse_what_is_not_modelled_by_name() {
    let r = run_pg("create table t (id int);\nselect * from pg_indexes;\n", &[]).0;
    assert!(
        error(&r).contains("PostgreSQL's own relations"),
        "{}",
        error(&r)
    );
    let r = run_pg(
        "create table t (id int);\nselect indexrelid from pg_stat_user_indexes;\n",
        &[],
    )
    .0;
    assert!(
        error(&r).contains("not supported by IndexLab"),
        "{}",
        error(&r)
    );
    let r = run_pg(
        "create table t (id int);\nselect * from pg_stat_user_tables;\n",
        &[],
    )
    .0;
    assert!(error(&r).contains("name the columns"), "{}", error(&r));
}

#[test]
fn scripts_may_wait_and_force_the_flush_as_they_do_on_postgresql() {
    let script = "select pg_sleep(1.5);\nselect pg_stat_force_next_flush();\n";
    let r = run_pg(script, &[]).0;
    assert_eq!(error(&r), "");
    // Both return void, which psql prints as an empty cell.
    assert_eq!(rows(&r, 0), [[""]]);
    assert_eq!(rows(&r, 1), [[""]]);
    assert!(r.statements[0].virtual_ms >= 1500.0);
    let r = run_pg("select pg_sleep(1) from generate_series(1, 3);\n", &[]).0;
    assert!(error(&r).contains("once per row"), "{}", error(&r));
}
