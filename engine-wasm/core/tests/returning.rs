//! RETURNING on INSERT, UPDATE and DELETE, and `INSERT … ON CONFLICT`, on
//! both profiles. Each expected answer is what PostgreSQL 15 printed for the
//! same script.

use crate::common;

use common::{both, error, rows};
use indexlab_engine::scenario::{run_pg, Report};

const TABLE: &str = "create table t (id int primary key, a int, b text unique);
insert into t values (1, 10, 'x'), (2, 20, 'y');\n";

fn tag(r: &Report, statement: usize) -> &str {
    &r.statements[statement].outcome.tag
}

fn columns(r: &Report, statement: usize) -> &[String] {
    &r.statements[statement].outcome.columns
}

#[test]
fn returning_gives_the_rows_written_under_the_dml_tag() {
    let script = format!(
        "{TABLE}insert into t values (3, 30, 'z') returning *, a * 2 as dbl;
update t set a = a + 1 where id < 3 returning id, a;
delete from t where id = 2 returning b, id * 2;
delete from t where id = 200 returning *;
insert into t values (4, 40, 'w') returning (select max(id) from t), id;\n"
    );
    for r in both(&script) {
        assert_eq!(error(&r), "", "{}", r.profile);
        assert_eq!(columns(&r, 2), ["id", "a", "b", "dbl"]);
        assert_eq!(rows(&r, 2), [["3", "30", "z", "60"]]);
        assert_eq!(tag(&r, 2), "INSERT 0 1");
        let mut updated = rows(&r, 3);
        updated.sort();
        assert_eq!(updated, [["1", "11"], ["2", "21"]], "{}", r.profile);
        assert_eq!(tag(&r, 3), "UPDATE 2");
        assert_eq!(columns(&r, 4), ["b", "?column?"]);
        assert_eq!(rows(&r, 4), [["y", "4"]]);
        assert_eq!(tag(&r, 4), "DELETE 1");
        assert!(rows(&r, 5).is_empty());
        assert_eq!(r.statements[5].outcome.row_count, 0);
        // The subquery sees the table as the statement began.
        assert_eq!(columns(&r, 6), ["max", "id"]);
        assert_eq!(rows(&r, 6), [["3", "4"]]);
    }
}

#[test]
fn do_nothing_skips_conflicting_rows() {
    let script = format!(
        "{TABLE}insert into t values (1, 11, 'z') on conflict do nothing returning id;
insert into t values (3, 11, 'q'), (3, 12, 'r') on conflict (id) do nothing returning *;
insert into t values (4, 1, 'x') on conflict on constraint t_b_key do nothing;
create table u (id int, v int);
insert into u values (1, 1), (1, 1) on conflict do nothing;
select count(*) from u;\n"
    );
    for r in both(&script) {
        assert_eq!(error(&r), "", "{}", r.profile);
        assert!(rows(&r, 2).is_empty());
        assert_eq!(tag(&r, 2), "INSERT 0 0");
        // The second (3, …) meets the first, inserted by this statement.
        assert_eq!(rows(&r, 3), [["3", "11", "q"]]);
        assert_eq!(tag(&r, 3), "INSERT 0 1");
        assert_eq!(tag(&r, 4), "INSERT 0 0");
        // Without a unique index nothing conflicts.
        assert_eq!(tag(&r, 6), "INSERT 0 2");
        assert_eq!(rows(&r, 7), [["2"]]);
    }
}

#[test]
fn do_update_updates_the_existing_row_with_excluded() {
    let script = format!(
        "{TABLE}insert into t values (1, 11, 'z') on conflict (id) do update set a = t.a + excluded.a returning *;
insert into t values (1, 11, 'q') on conflict (id) do update set a = 99 where t.a > 1000 returning *;
insert into t values (1, 11, 'q') on conflict (id) do update set a = 99 where excluded.a = 11 returning *;
insert into t values (5, 0, 'y') on conflict (b) do update set a = 5 returning t.*;
insert into t (id, a) values (1, 5), (7, 6) on conflict (id) do update set b = excluded.b || 'n' returning b, id;
insert into t values (1, 1, 'k') on conflict (id) do update set id = 20 returning *;
select * from t order by id;\n"
    );
    for r in both(&script) {
        assert_eq!(error(&r), "", "{}", r.profile);
        assert_eq!(rows(&r, 2), [["1", "21", "x"]], "{}", r.profile);
        assert_eq!(tag(&r, 2), "INSERT 0 1");
        // WHERE turned the update down: no row, not counted.
        assert!(rows(&r, 3).is_empty());
        assert_eq!(tag(&r, 3), "INSERT 0 0");
        assert_eq!(rows(&r, 4), [["1", "99", "x"]]);
        assert_eq!(rows(&r, 5), [["2", "5", "y"]]);
        // excluded.b is NULL: the existing row gets NULL; 7 is inserted.
        assert_eq!(rows(&r, 6), [["NULL", "1"], ["NULL", "7"]]);
        assert_eq!(tag(&r, 6), "INSERT 0 2");
        assert_eq!(rows(&r, 7), [["20", "99", "NULL"]]);
        assert_eq!(
            rows(&r, 8),
            [["2", "5", "y"], ["7", "6", "NULL"], ["20", "99", "NULL"]],
            "{}",
            r.profile
        );
    }
}

#[test]
fn on_conflict_errors_are_postgresqls() {
    let cases = [
        (
            "insert into t values (1, 11, 'z') on conflict (id) do update set a = a + 1",
            "column reference \"a\" is ambiguous",
        ),
        (
            "insert into t values (3, 11, 'x') on conflict (id) do nothing",
            "duplicate key value violates unique constraint \"t_b_key\"",
        ),
        (
            "insert into t values (3, 11, 'q'), (3, 12, 'r') on conflict (id) do update set a = excluded.a",
            "ON CONFLICT DO UPDATE command cannot affect row a second time",
        ),
        (
            "insert into t values (4, 11, 'q') on conflict (id, a) do nothing",
            "there is no unique or exclusion constraint matching the ON CONFLICT specification",
        ),
        (
            "insert into t values (4, 11, 'q') on conflict do update set a = 1",
            "ON CONFLICT DO UPDATE requires inference specification or constraint name",
        ),
        (
            "insert into t values (5, 11, 'q') on conflict on constraint nope do nothing",
            "constraint \"nope\" for table \"t\" does not exist",
        ),
        (
            "insert into t values (3, 20, 'x') on conflict (b) do update set b = 'y'",
            "duplicate key value violates unique constraint \"t_b_key\"",
        ),
        (
            "insert into t values (9, 1, 'k') returning count(*)",
            "aggregate functions are not allowed in RETURNING",
        ),
        (
            "insert into t values (null, 3, 'z') on conflict do nothing",
            "null value in column \"id\" of relation \"t\" violates not-null constraint",
        ),
        (
            "do $$ begin insert into t values (5, 1, 'r') returning id; end $$",
            "query has no destination for result data",
        ),
    ];
    for (statement, message) in cases {
        for r in both(&format!("{TABLE}{statement};\n")) {
            // The first line (pg adds the key's DETAIL to a unique violation).
            let e = error(&r);
            assert_eq!(
                e.lines().next().unwrap_or_default(),
                message,
                "{}: {statement}",
                r.profile
            );
        }
    }
}

#[test]
fn a_unique_index_made_by_create_index_arbitrates_but_is_no_constraint() {
    let script = "create table u (a int, b int);
create unique index u_a on u (a);
insert into u values (1, 1), (2, 2), (1, 3) on conflict (a) do nothing returning *;
insert into u values (1, 5) on conflict (a) do update set b = excluded.b returning *;\n";
    for r in both(script) {
        assert_eq!(error(&r), "", "{}", r.profile);
        assert_eq!(rows(&r, 2), [["1", "1"], ["2", "2"]]);
        assert_eq!(rows(&r, 3), [["1", "5"]]);
    }
    let script =
        format!("{script}insert into u values (1, 1) on conflict on constraint u_a do nothing;\n");
    for r in both(&script) {
        assert_eq!(
            error(&r),
            "constraint \"u_a\" for table \"u\" does not exist"
        );
    }
}

#[test]
fn do_update_writes_a_new_heap_version_on_pg() {
    // PostgreSQL 15: the updated rows move to new line pointers, (0,6) and
    // (0,7); the primary key changed by DO UPDATE is a new version too.
    let script = "create table t (id int primary key, a int, b text);
insert into t select g, g, 'x' from generate_series(1, 5) g;
insert into t values (2, 0, 'y'), (3, 0, 'z') on conflict (id) do update set b = excluded.b returning ctid, *;
insert into t values (4, 0, 'y') on conflict (id) do update set id = 40 returning ctid, id;
delete from t where id = 5 returning ctid, id;
select ctid, id from t order by id;\n";
    let r = run_pg(script, &[]).0;
    assert_eq!(error(&r), "");
    assert_eq!(
        rows(&r, 2),
        [["(0,6)", "2", "2", "y"], ["(0,7)", "3", "3", "z"]]
    );
    assert_eq!(rows(&r, 3), [["(0,8)", "40"]]);
    assert_eq!(rows(&r, 4), [["(0,5)", "5"]]);
    assert_eq!(
        rows(&r, 5),
        [
            ["(0,1)", "1"],
            ["(0,6)", "2"],
            ["(0,7)", "3"],
            ["(0,8)", "40"]
        ]
    );
}

#[test]
fn explain_shows_the_conflict_resolution() {
    let script = format!(
        "{TABLE}explain (costs off) insert into t values (1, 1, 'k') on conflict (id) do update set a = 5;
explain (costs off) insert into t values (1, 1, 'k') on conflict do nothing;
explain (analyze, costs off, timing off, summary off) insert into t values (1, 1, 'k'), (8, 1, 'kkk') on conflict (id) do update set a = 3;\n"
    );
    for r in both(&script) {
        assert_eq!(error(&r), "", "{}", r.profile);
        let lines = |i: usize| r.statements[i].outcome.explain.clone().unwrap_or_default();
        assert_eq!(
            lines(2),
            [
                "Insert on t",
                "  Conflict Resolution: UPDATE",
                "  Conflict Arbiter Indexes: t_pkey",
                "  ->  Result"
            ],
            "{}",
            r.profile
        );
        assert_eq!(
            lines(3),
            [
                "Insert on t",
                "  Conflict Resolution: NOTHING",
                "  ->  Result"
            ]
        );
        assert_eq!(
            lines(4)[..5],
            [
                "Insert on t (actual rows=0 loops=1)",
                "  Conflict Resolution: UPDATE",
                "  Conflict Arbiter Indexes: t_pkey",
                "  Tuples Inserted: 1",
                "  Conflicting Tuples: 1",
            ],
            "{}",
            r.profile
        );
    }
}

#[test]
fn what_indexlab_cannot_show_is_refused_by_name() {
    for statement in [
        "explain insert into t values (5, 1, 'r') returning *",
        "explain insert into t values (1, 1, 'r') on conflict (id) do update set a = 1 where t.a > 0",
        "insert into t as x values (1, 1, 'r') on conflict (id) do update set a = x.a + 1",
    ] {
        for r in both(&format!("{TABLE}{statement};\n")) {
            assert!(
                error(&r).contains("is not supported by IndexLab"),
                "{}: {statement}: {}",
                r.profile,
                error(&r)
            );
        }
    }
}
