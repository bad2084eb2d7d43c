//! Partial indexes (`CREATE INDEX … WHERE`): only the rows the predicate
//! holds for get entries, a query uses the index only when its WHERE implies
//! the predicate, and rows move in and out as UPDATE changes them. Each
//! expected answer is PostgreSQL 15's for the same script.

use crate::common;

use common::{both, error, explain_lines, rows};
use indexlab_engine::scenario::run_pg;

const TABLE: &str = "create table t (id int primary key, v text, n int, flag boolean);
insert into t select i, 'v' || i, i % 10, i % 3 = 0 from generate_series(1, 10000) i;
create index t_p on t (id) where n > 5;
create index t_f on t (v) where flag;
create unique index t_u on t (n) where id <= 10;
vacuum analyze t;\n";

#[test]
fn a_partial_index_holds_only_its_rows_and_answers_queries_that_imply_it() {
    let script = format!(
        "{TABLE}select relname, relpages, reltuples from pg_class where relname in ('t', 't_p', 't_u') order by 1;
select relname, reltuples from pg_class where relname = 't_f';
explain (costs off) select id from t where n > 5 and id < 100;
explain (costs off) select id from t where n = 8 and id < 100;
explain (costs off) select v from t where flag and v = 'v3';
explain (costs off) select * from t where n > 5;
explain (costs off) select id from t where n > 4 and id < 100;
select count(*) from t where n > 5 and id < 100;\n"
    );
    let r = run_pg(&script, &[]).0;
    assert_eq!(error(&r), "");
    assert_eq!(
        rows(&r, 6),
        [
            ["t", "64", "10000"],
            ["t_p", "13", "4000"],
            ["t_u", "2", "10"]
        ]
    );
    assert_eq!(rows(&r, 7), [["t_f", "3333"]]);
    let plan = |i: usize| explain_lines(&r.statements[i]).join("\n");
    // The predicate's own clause needs no checking: the index covers the rest.
    assert_eq!(
        plan(8),
        "Index Only Scan using t_p on t\n  Index Cond: (id < 100)"
    );
    // n = 8 implies n > 5 but still narrows the rows: a filter.
    assert_eq!(
        plan(9),
        "Index Scan using t_p on t\n  Index Cond: (id < 100)\n  Filter: (n = 8)"
    );
    assert_eq!(
        plan(10),
        "Index Only Scan using t_f on t\n  Index Cond: (v = 'v3'::text)"
    );
    assert_eq!(plan(11), "Index Scan using t_p on t");
    // n > 4 does not imply n > 5: t_p lacks rows the query wants.
    assert!(
        plan(12).starts_with("Index Scan using t_pkey on t"),
        "{}",
        plan(12)
    );
    assert_eq!(rows(&r, 13), [["40"]]);
}

#[test]
fn rows_move_in_and_out_of_a_partial_index_as_they_change() {
    let script = format!(
        "{TABLE}insert into t values (10001, 'x', 1, true);
insert into t values (10002, 'y', 1, false);
select v from t where flag and v in ('x', 'y', 'v3') order by v;
update t set flag = false where id = 3;
update t set flag = true where id = 10002;
select v from t where flag and v in ('x', 'y', 'v3') order by v;
insert into t values (10003, 'z', 3, true);
update t set n = 4 where id = 3;\n"
    );
    for r in both(&script) {
        assert_eq!(rows(&r, 8), [["v3"], ["x"]]);
        assert_eq!(rows(&r, 11), [["x"], ["y"]]);
        // Unique among the rows with id <= 10 only.
        assert_eq!(
            error(&r).lines().next(),
            Some("duplicate key value violates unique constraint \"t_u\"")
        );
        assert_eq!(r.statements.len(), 13);
    }
}

#[test]
fn an_update_of_a_predicate_column_is_not_hot_and_one_that_keeps_it_is() {
    // PostgreSQL compares old and new values: `set n = n` changes nothing
    // an index reads, so the new version stays in the HOT chain.
    let script = "create table t (id int primary key, n int, w int);
create index t_w on t (w) where n > 5;
insert into t values (1, 7, 1), (2, 7, 2);
update t set n = 8 where id = 1;
update t set n = n where id = 2;
vacuum t;
insert into t values (3, 1, 3);
select ctid, id from t order by id;\n";
    let r = run_pg(script, &[]).0;
    assert_eq!(error(&r), "");
    // Row 1's old version went with VACUUM (its slot reused by row 3); row
    // 2's is a redirect to its HOT version.
    assert_eq!(
        rows(&r, 7),
        [["(0,3)", "1"], ["(0,4)", "2"], ["(0,1)", "3"]]
    );
}

#[test]
fn a_predicate_postgresql_refuses_is_refused_with_its_message() {
    for (predicate, expected) in [
        (
            "now() > '2020-01-01'",
            "functions in index predicate must be marked IMMUTABLE",
        ),
        (
            "random() > 0.5",
            "functions in index predicate must be marked IMMUTABLE",
        ),
        ("zz > 1", "column \"zz\" does not exist"),
        ("(select 1) = 1", "cannot use subquery in index predicate"),
        (
            "count(*) > 1",
            "aggregate functions are not allowed in index predicates",
        ),
        (
            "n + 1",
            "argument of WHERE must be type boolean, not type integer",
        ),
    ] {
        let script = format!(
            "create table t (id int primary key, n int);
create index t_bad on t (id) where {predicate};\n"
        );
        for r in both(&script) {
            assert_eq!(error(&r), expected, "{predicate}");
        }
    }
}

#[test]
fn describe_prints_the_predicate_as_psql_does() {
    let script = "create table t (id int primary key, v text, n int, flag boolean);
create index t_x on t (n) where (n > 5 or n < 2) and v is not null;
create index t_f on t (v) where flag;
\\d t\n";
    let r = run_pg(script, &[]).0;
    let text = r.statements[3].outcome.footers.join("\n");
    assert!(
        text.contains("\"t_x\" btree (n) WHERE (n > 5 OR n < 2) AND v IS NOT NULL"),
        "{text}"
    );
    assert!(text.contains("\"t_f\" btree (v) WHERE flag"), "{text}");
}

#[test]
fn a_partial_index_whose_predicate_the_where_implies_makes_a_bitmap_without_a_condition() {
    // `a = 35` implies `a < 50`: every entry of t1_b_part is a candidate,
    // so a bitmap of the whole index selects half the table, then the heap
    // pages are read in order and `a = 35` checked (never vacuumed, the
    // covering index would fetch every row's heap page). PostgreSQL 15 printed
    // the same plan, rows, heap blocks and buffers (hit + read).
    let p = crate::pg_plans::plans(
        "create table t1 (id int, a int, b int, c text, pad text);
         insert into t1 select i, (i * 7919) % 100, i, 'v' || i, repeat('x', 400)
             from generate_series(1, 7985) i;
         create index t1_b_part on t1 (b) where a < 50;
         create index t1_b_incl on t1 (b) include (a);
         explain (analyze, buffers, costs off, timing off, summary off)
             select a from t1 where a = 35;",
    );
    assert_eq!(
        p[0],
        [
            "Bitmap Heap Scan on t1 (actual rows=80 loops=1)",
            "  Recheck Cond: (a < 50)",
            "  Filter: (a = 35)",
            "  Rows Removed by Filter: 3912",
            "  Heap Blocks: exact=444",
            "  Buffers: 456",
            "  ->  Bitmap Index Scan on t1_b_part (actual rows=3992 loops=1)",
            "        Buffers: 12",
        ]
    );
}
