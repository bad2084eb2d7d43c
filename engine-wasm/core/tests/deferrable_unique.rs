//! DEFERRABLE unique constraints on the pg profile: an equal key is let
//! into the index and checked again when the statement ends, or at COMMIT
//! once deferred (SET CONSTRAINTS). Expected rows and errors: psql 15
//! (`-A -t`) on a cluster fresh from initdb, for the same script.

use crate::psql;

use indexlab_engine::pg::PgEngine;
use indexlab_engine::scenario::{run_profile_continuing, run_yb};

const SCRIPT: &str = "create table t (id int, v text, constraint t_id_key unique (id) deferrable);
insert into t select g, 'x' from generate_series(1,5) g;
update t set id = id + 1;
select id from t order by id;
insert into t values (3, 'dup');
begin;
set constraints t_id_key deferred;
insert into t values (3, 'dup');
select count(*) from t where id = 3;
delete from t where v = 'dup';
commit;
begin;
set constraints all deferred;
insert into t values (4, 'dup');
commit;
select count(*) from t;
begin;
set constraints all deferred;
insert into t values (5, 'dup');
set constraints t_id_key immediate;
rollback;
select count(*), count(distinct id) from t;
create extension pageinspect;
begin;
set constraints t_id_key deferred;
update t set v = 'y' where id = 2;
insert into t values (2, 'dup');
select itemoffset, htid, dead from bt_page_items('t_id_key', 1) where data like '02 %' order by itemoffset;
rollback;
insert into t values (6, 'y') on conflict (id) do nothing;
create table w (id int unique);
begin;
set constraints w_id_key deferred;
rollback;";

#[test]
fn rows_are_postgresqls() {
    let mut errors = Vec::new();
    let mut failed = Vec::new();
    let (report, _) = run_profile_continuing::<PgEngine>(SCRIPT, &[], &mut |e| {
        failed.push(e.line);
        errors.push(e.message)
    });
    assert_eq!(
        errors,
        [
            "duplicate key value violates unique constraint \"t_id_key\"\nDETAIL:  Key (id)=(3) already exists.",
            "duplicate key value violates unique constraint \"t_id_key\"\nDETAIL:  Key (id)=(4) already exists.",
            "duplicate key value violates unique constraint \"t_id_key\"\nDETAIL:  Key (id)=(5) already exists.",
            "ON CONFLICT does not support deferrable unique constraints/exclusion constraints as arbiters",
            "constraint \"w_id_key\" is not deferrable",
        ]
    );
    // The errors come where PostgreSQL raised them: the INSERT (checked
    // when it ends), the COMMIT, and SET CONSTRAINTS … IMMEDIATE.
    assert_eq!(failed, [5, 15, 20, 30, 33]);
    let expect = |line: u32, rows: &[&str]| {
        assert_eq!(
            psql::lines(&report, psql::at(&report, line)),
            rows,
            "line {line}"
        );
    };
    expect(4, &["2", "3", "4", "5", "6"]);
    expect(9, &["2"]);
    expect(16, &["5"]);
    expect(22, &["5|5"]);
    // Both entries of key 2 sit in the index until the check.
    expect(28, &["2|(0,2)|t", "3|(0,6)|f", "4|(0,16)|f"]);
}

/// psql's `\d` adds DEFERRABLE and INITIALLY DEFERRED to the index line.
#[test]
fn describe_names_the_deferral() {
    let (report, errors) = psql::run(
        "create table u (id int unique deferrable initially deferred, w int primary key deferrable);
alter table u add constraint u_k unique (w) initially deferred;
\\d u",
    );
    assert!(errors.is_empty(), "{errors:?}");
    let footers = &report.statements[2].outcome.footers;
    assert_eq!(
        footers[1..],
        [
            "    \"u_pkey\" PRIMARY KEY, btree (w) DEFERRABLE",
            "    \"u_id_key\" UNIQUE CONSTRAINT, btree (id) DEFERRABLE INITIALLY DEFERRED",
            "    \"u_k\" UNIQUE CONSTRAINT, btree (w) DEFERRABLE INITIALLY DEFERRED",
        ]
    );
}

/// EXPLAIN ANALYZE prints the rechecks the statement fired, as
/// PostgreSQL's `Trigger for constraint` line.
#[test]
fn explain_analyze_counts_the_rechecks() {
    let (report, errors) = psql::run(
        "create table t (id int, constraint t_id_key unique (id) deferrable);
insert into t select generate_series(1, 5);
explain (analyze, costs off, timing off, summary off) update t set id = id + 1;",
    );
    assert!(errors.is_empty(), "{errors:?}");
    let plan = report.statements[2]
        .outcome
        .explain
        .clone()
        .unwrap_or_default();
    assert_eq!(
        plan.last().map(String::as_str),
        Some("Trigger for constraint t_id_key: calls=4")
    );
}

/// YugabyteDB checks uniqueness row by row in DocDB and refuses the clause.
#[test]
fn yugabytedb_refuses_deferrable_keys() {
    let (r, _) = run_yb(
        "create table t (id int, constraint k unique (id) deferrable);",
        &[],
    );
    let e = r.error.map(|e| e.message).unwrap_or_default();
    assert!(
        e.contains("DEFERRABLE unique constraints are not supported yet"),
        "{e}"
    );
}
