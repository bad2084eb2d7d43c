//! The SQL people write in their own experiments, on both profiles: aggregates
//! and GROUP BY, DISTINCT and OFFSET, DROP INDEX, ANALYZE and VACUUM ANALYZE,
//! psql's display commands, and PostgreSQL's planner settings (recognized,
//! not yet applied). Each answer is PostgreSQL 15's for the same script.

use indexlab_engine::scenario::{run_pg, run_yb, Report};

fn both(script: &str) -> Vec<Report> {
    vec![run_pg(script, &[]).0, run_yb(script, &[]).0]
}

fn rows(r: &Report, statement: usize) -> Vec<Vec<String>> {
    r.statements[statement]
        .outcome
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.clone().unwrap_or_else(|| "NULL".into()))
                .collect()
        })
        .collect()
}

const TABLE: &str = "create table t (id int primary key, k int, v text);
insert into t select i, i % 3, 'v' from generate_series(1, 10) i;
insert into t values (11, null, null);\n";

#[test]
fn aggregates_group_by_having_as_postgresql_answers() {
    let script = format!(
        "{TABLE}select count(*), count(k), count(distinct k), sum(id), min(v), max(id) from t;
select k, count(*), sum(id) from t group by k order by k;
select k, count(*) from t group by k having count(*) > 3;
select count(*), sum(id), max(v) from t where id > 100;
select k, count(*) from t where id > 100 group by k;\n"
    );
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(
            rows(&r, 3),
            [["11", "10", "3", "66", "v", "11"]],
            "{}",
            r.profile
        );
        assert_eq!(
            rows(&r, 4),
            [
                ["0", "3", "18"],
                ["1", "4", "22"],
                ["2", "3", "15"],
                ["NULL", "1", "11"]
            ],
            "{}",
            r.profile
        );
        assert_eq!(rows(&r, 5), [["1", "4"]], "{}", r.profile);
        // No rows: one row of aggregates without GROUP BY, none with it.
        assert_eq!(rows(&r, 6), [["0", "NULL", "NULL"]], "{}", r.profile);
        assert!(rows(&r, 7).is_empty(), "{}", r.profile);
    }
}

#[test]
fn an_ungrouped_column_is_postgresql_s_error() {
    for r in both(&format!("{TABLE}select id, count(*) from t group by k;")) {
        let e = r.error.expect("an error");
        assert_eq!(
            e.message,
            "column \"id\" must appear in the GROUP BY clause or be used in an aggregate function"
        );
    }
    for r in both(&format!("{TABLE}select * from t where count(*) > 1;")) {
        assert_eq!(
            r.error.expect("an error").message,
            "aggregate functions are not allowed in WHERE"
        );
    }
}

#[test]
fn distinct_and_offset() {
    let script = format!(
        "{TABLE}select distinct k from t order by k nulls first;
select id from t order by id limit 3 offset 2;
select id from t order by id desc offset 9;\n"
    );
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(
            rows(&r, 3),
            [["NULL"], ["0"], ["1"], ["2"]],
            "{}",
            r.profile
        );
        assert_eq!(rows(&r, 4), [["3"], ["4"], ["5"]], "{}", r.profile);
        assert_eq!(rows(&r, 5), [["2"], ["1"]], "{}", r.profile);
    }
}

#[test]
fn explain_shows_the_aggregate_over_its_scan() {
    let script = format!(
        "{TABLE}explain (analyze, costs off, timing off, summary off) select k, count(*) from t group by k having count(*) > 3;"
    );
    let r = run_pg(&script, &[]).0;
    let plan = r.statements[3].outcome.explain.clone().unwrap();
    assert_eq!(plan[0], "HashAggregate (actual rows=1 loops=1)");
    assert_eq!(plan[1], "  Group Key: k");
    assert_eq!(plan[2], "  Filter: (count(*) > 3)");
    assert_eq!(plan[3], "  Rows Removed by Filter: 3");
    assert!(plan[4].contains("Seq Scan on t"), "{plan:?}");
}

#[test]
fn drop_index_changes_the_plan_and_keeps_constraints() {
    let script = format!(
        "{TABLE}set enable_seqscan = off;
create index t_k on t (k);
explain (costs off) select * from t where k = 1;
drop index t_k;
explain (costs off) select * from t where k = 1;
drop index if exists t_k;
drop index t_pkey;"
    );
    for r in both(&script) {
        let plan = |i: usize| r.statements[i].outcome.explain.clone().unwrap().join("\n");
        // Eleven rows: PostgreSQL reads them with a Seq Scan unless told not to.
        assert!(plan(5).contains("t_k"), "{}", r.profile);
        assert!(plan(7).starts_with("Seq Scan on t"), "{}", r.profile);
        assert_eq!(
            r.statements[8].outcome.notices,
            ["index \"t_k\" does not exist, skipping"]
        );
        let e = r.error.expect("the primary key's index is a constraint's");
        assert_eq!(
            e.message,
            "cannot drop index t_pkey because constraint t_pkey on table t requires it"
        );
        assert_eq!(e.line, 10);
    }
}

#[test]
fn analyze_vacuum_analyze_and_extensions_run() {
    let script = format!(
        "{TABLE}analyze t;
vacuum analyze t;
vacuum (analyze, verbose) t;
analyze;
create extension if not exists pgstattuple;
create extension if not exists pgstattuple;
create extension nonsense;"
    );
    for r in both(&script) {
        let tags: Vec<&str> = r.statements[3..9]
            .iter()
            .map(|s| s.outcome.tag.as_str())
            .collect();
        assert_eq!(
            tags,
            [
                "ANALYZE",
                "VACUUM",
                "VACUUM",
                "ANALYZE",
                "CREATE EXTENSION",
                "CREATE EXTENSION"
            ],
            "{}",
            r.profile
        );
        assert_eq!(
            r.error.expect("unknown extension").message,
            "extension \"nonsense\" is not available"
        );
    }
    // ANALYZE reads the table: pg through its buffers, yb through read requests.
    let pg = run_pg(&format!("{TABLE}analyze t;"), &[]).0;
    assert!(pg.statements[3].metrics.get("shared_hit") > 0.0);
}

#[test]
fn psql_display_commands_run_and_shell_escapes_are_named() {
    let r = run_pg("\\timing on\nselect 1;\n\\! ls\nselect 2;", &[]).0;
    assert_eq!(r.statements.len(), 2, "\\timing and select 1 ran");
    let e = r.error.expect("\\! stops the script");
    assert!(
        e.message.contains("\\! is not supported by IndexLab"),
        "{}",
        e.message
    );
    assert_eq!(e.line, 3);
}

#[test]
fn planner_settings_are_recognized_and_unknown_ones_refused() {
    let script = "set enable_seqscan = off;\nshow enable_seqscan;\nreset enable_seqscan;\nshow enable_seqscan;\nset random_page_cost = 1.1;\nset no_such_setting = 1;";
    for r in both(script) {
        assert_eq!(rows(&r, 1), [["off"]]);
        assert_eq!(rows(&r, 3), [["on"]]);
        // pg's planner applies it, silently as PostgreSQL; yb's says it does not.
        let notices = &r.statements[0].outcome.notices;
        match r.profile {
            "pg" => assert!(notices.is_empty(), "{notices:?}"),
            _ => assert!(notices[0].contains("does not apply it yet")),
        }
        assert_eq!(
            r.error.expect("unknown").message,
            "unrecognized configuration parameter \"no_such_setting\""
        );
    }
}

#[test]
fn statements_sqlparser_does_not_know_are_named_not_syntax_errors() {
    for sql in [
        "lock table t;",
        "comment on table t is 'x';",
        "create publication p for all tables;",
        "security label on table t is 'x';",
    ] {
        let r = run_pg(sql, &[]).0;
        let e = r.error.expect("refused");
        assert!(
            e.message.contains("is not supported by IndexLab"),
            "{sql}: {}",
            e.message
        );
    }
}

#[test]
fn explain_analyze_of_dml_runs_it_and_counts_its_buffers_and_wal() {
    let script = "create table t (id int primary key, v text);
explain (analyze, buffers, wal, costs off, timing off, summary off) insert into t select i, 'x' from generate_series(1, 1000) i;
explain (costs off) delete from t where id > 990;
select count(*) from t;
explain (wal) select 1;";
    let r = run_pg(script, &[]).0;
    let plan = r.statements[1].outcome.explain.clone().unwrap();
    assert_eq!(plan[0], "Insert on t (actual rows=0 loops=1)");
    assert!(plan[1].starts_with("  Buffers: shared hit="), "{plan:?}");
    assert!(plan[2].starts_with("  WAL: records=2002"), "{plan:?}");
    assert_eq!(
        plan[3],
        "  ->  Function Scan on generate_series i (actual rows=1000 loops=1)"
    );
    // EXPLAIN without ANALYZE runs nothing: the 1 000 rows are all there.
    let plan = r.statements[2].outcome.explain.clone().unwrap();
    assert_eq!(plan[0], "Delete on t");
    assert_eq!(rows(&r, 3), [["1000"]]);
    assert_eq!(
        r.error.expect("WAL needs ANALYZE").message,
        "EXPLAIN option WAL requires ANALYZE"
    );
}

#[test]
fn functions_sizes_subqueries_and_create_table_as() {
    let script = "create table t (id int primary key, v text);
insert into t select i, 'k' || lpad(i::text, 4, '0') from generate_series(1, 1000) i;
select upper(v), length(v), md5(v) from t where v like 'k000%' and id in (select id from t where id < 3) order by id;
select pg_relation_size('t'), pg_table_size('t'), pg_indexes_size('t'), pg_size_pretty(pg_total_relation_size('t'::regclass));
create table c as select id, v from t where id <= 10;
select count(*), max(v) from c;
select id from t where id = (select max(id) from c);";
    let r = run_pg(script, &[]).0;
    assert_eq!(r.error, None);
    assert_eq!(
        rows(&r, 2),
        [
            ["K0001", "5", "be466aeb6466c057e278f8baa04262c8"],
            ["K0002", "5", "7f4f483b50c1592db6e9e73d4fcc14c1"]
        ]
    );
    // PostgreSQL 15.18 answered exactly these (heap 6 pages; + FSM 3 + TOAST index 1; 5 B-tree pages).
    assert_eq!(rows(&r, 3), [["49152", "81920", "40960", "120 kB"]]);
    assert_eq!(r.statements[4].outcome.tag, "SELECT 10");
    assert_eq!(rows(&r, 5), [["10", "k0010"]]);
    assert_eq!(rows(&r, 6), [["10"]]);
}

#[test]
fn prepared_statements_run_with_their_values() {
    let script = "create table t (id int primary key, v text);
insert into t select i, 'v' || i from generate_series(1, 100) i;
prepare q(int) as select v from t where id = $1;
execute q(42);
explain (costs off) execute q(7);
prepare d as delete from t where id < $1;
execute d(10);
select count(*) from t;
deallocate q;
execute q(1);";
    for r in both(script) {
        assert_eq!(rows(&r, 3), [["v42"]], "{}", r.profile);
        let plan = r.statements[4].outcome.explain.clone().unwrap();
        assert_eq!(plan[1], "  Index Cond: (id = 7)", "{}", r.profile);
        assert_eq!(r.statements[6].outcome.tag, "DELETE 9");
        assert_eq!(rows(&r, 7), [["91"]]);
        assert_eq!(
            r.error.expect("deallocated").message,
            "prepared statement \"q\" does not exist"
        );
    }
}

#[test]
fn a_transaction_block_keeps_now_and_rolls_back_what_it_can_undo() {
    let script = "create table t (id int);
begin;
select now();
insert into t select i from generate_series(1, 10000) i;
select now(), now() < clock_timestamp();
commit;
begin;
select 1;
rollback;
begin;
insert into t values (2);
rollback;
select count(*) from t;";
    for r in both(script) {
        // now() is the transaction's start, while the clock has moved on.
        assert_eq!(rows(&r, 2)[0][0], rows(&r, 4)[0][0], "{}", r.profile);
        assert_eq!(rows(&r, 4)[0][1], "t", "{}", r.profile);
        assert_eq!(r.statements[5].outcome.tag, "COMMIT");
        assert_eq!(r.statements[8].outcome.tag, "ROLLBACK");
        // pg marks the block's row versions aborted, yb cleans up its
        // provisional records: either way the row is gone.
        assert!(r.error.is_none(), "{}: {:?}", r.profile, r.error);
        assert_eq!(r.statements[11].outcome.tag, "ROLLBACK");
        assert_eq!(rows(&r, 12), vec![vec!["10000"]]);
    }
}

#[test]
fn constraint_names_as_written_name_their_indexes() {
    let script = "create table t (id int, a int, constraint t_id_pk primary key (id), constraint a_uq unique (a));
insert into t values (1, 1);
explain (costs off) select * from t where id = 1;
explain (costs off) select * from t where a = 1;
create table u (id int constraint u_key primary key);
explain (costs off) select id from u where id = 1;
drop index u_key;";
    for r in both(script) {
        let first = |i: usize| r.statements[i].outcome.explain.clone().unwrap()[0].clone();
        assert!(first(2).ends_with("using t_id_pk on t"), "{}", first(2));
        assert!(first(3).ends_with("using a_uq on t"), "{}", first(3));
        assert!(first(5).contains("using u_key on u"), "{}", first(5));
        assert!(r
            .error
            .expect("a constraint's index")
            .message
            .starts_with("cannot drop index u_key because constraint u_key"));
    }
}

#[test]
fn truncate_empties_the_table_and_its_indexes() {
    let script = "create table t (id serial primary key, v text);
insert into t (v) select 'x' from generate_series(1, 1000);
vacuum t;
truncate t;
select pg_relation_size('t'), pg_table_size('t'), pg_indexes_size('t');
insert into t (v) select 'y' from generate_series(1, 3);
select min(id), max(id) from t;
truncate table t restart identity;
insert into t (v) values ('z');
select id, v, pg_total_relation_size('t') from t;";
    // PostgreSQL 15.18 answered the same sizes: an empty heap, a TOAST
    // index's metapage, the primary key's metapage.
    let r = run_pg(script, &[]).0;
    assert_eq!(r.error, None);
    assert_eq!(rows(&r, 4), [["0", "8192", "8192"]]);
    assert_eq!(rows(&r, 6), [["1001", "1003"]]);
    assert_eq!(rows(&r, 9), [["1", "z", "32768"]]);
    let yb = run_yb(
        &script
            .replace(
                "select pg_relation_size('t'), pg_table_size('t'), pg_indexes_size('t');",
                "select count(*) from t;",
            )
            .replace(", pg_total_relation_size('t')", ""),
        &[],
    )
    .0;
    assert_eq!(yb.error, None);
    assert_eq!(rows(&yb, 4), [["0"]]);
    assert_eq!(rows(&yb, 6), [["1001", "1003"]]);
    assert_eq!(rows(&yb, 9), [["1", "z"]]);
}

#[test]
fn uuid_columns_hold_16_bytes_and_read_any_input_form() {
    let script = "create table d (id uuid primary key default gen_random_uuid(), n int);
insert into d (n) select i from generate_series(1, 1000) i;
insert into d values ('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 0), ('{b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', -1);
select id, n from d where id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
select count(distinct id) from d;
select pg_relation_size('d'), pg_indexes_size('d');
insert into d values ('nope', 5);";
    let r = run_pg(script, &[]).0;
    assert_eq!(rows(&r, 3), [["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "0"]]);
    assert_eq!(rows(&r, 4), [["1002"]]);
    // PostgreSQL 15.18: 7 heap pages of 16-byte keys and 4-byte ints, and a
    // 7-page primary key (random keys split leaves in the middle).
    assert_eq!(rows(&r, 5), [["57344", "57344"]]);
    assert_eq!(
        r.error.expect("not a uuid").message,
        "invalid input syntax for type uuid: \"nope\""
    );
    let yb = run_yb(
        &script.replace("select pg_relation_size('d'), pg_indexes_size('d');\n", ""),
        &[],
    )
    .0;
    assert_eq!(rows(&yb, 4), [["1002"]]);
}

#[test]
fn insert_without_a_column_list_gives_the_columns_after_its_values_their_defaults() {
    let script = "create table t (id int primary key, v text, n int default 7, s serial);
insert into t values (1, 'a');
select * from t;
insert into t (id, v, n) values (2, 'b');\n";
    for r in both(script) {
        assert_eq!(rows(&r, 2), [["1", "a", "7", "1"]]);
        let error = r.error.as_ref().map(|e| e.message.as_str());
        assert_eq!(
            error,
            Some("INSERT has more target columns than expressions")
        );
    }
}

#[test]
fn a_generated_column_is_computed_on_every_write_and_never_written_by_hand() {
    let script = "create table demo (id int primary key, username text, upper_username text generated always as (upper(username)) stored);
insert into demo (id, username) select i, 'user' || i from generate_series(1, 1000) i;
create index demo_u on demo (upper_username);
select * from demo where id < 3 order by id;
update demo set username = 'x' where id = 1;
select id, upper_username from demo where upper_username = 'X';
insert into demo values (5000, 'a', 'b');\n";
    for r in both(script) {
        assert_eq!(
            rows(&r, 3),
            [["1", "user1", "USER1"], ["2", "user2", "USER2"]]
        );
        assert_eq!(rows(&r, 5), [["1", "X"]]);
        let error = r.error.as_ref().map(|e| e.message.as_str());
        assert_eq!(
            error,
            Some("cannot insert a non-DEFAULT value into column \"upper_username\"")
        );
    }
    for (definition, expected) in [
        (
            "g int generated always as (random()::int) stored",
            "generation expression is not immutable",
        ),
        (
            "g int generated always as (h + 1) stored, h int generated always as (1) stored",
            "cannot use generated column \"h\" in column generation expression",
        ),
    ] {
        let r = run_pg(&format!("create table g (a int, {definition});\n"), &[]).0;
        assert_eq!(r.error.map(|e| e.message), Some(expected.to_string()));
    }
    let r = run_pg(
        "create table g (a int, b int generated always as (a * 2) stored);
insert into g values (1);
update g set b = 3;\n",
        &[],
    )
    .0;
    assert_eq!(
        r.error.map(|e| e.message),
        Some("column \"b\" can only be updated to DEFAULT".to_string())
    );
}
