//! Transaction ids as a new PostgreSQL 15 cluster hands them out: taken at a
//! transaction's first write (DDL, a changed row, ANALYZE of a table with
//! rows, `txid_current()`), kept to its end, and recorded in every row
//! version's `xmin` and `xmax`. Each expected answer is PostgreSQL 15's for
//! the same script, run on a cluster fresh from `initdb`.

use crate::common;

use common::{error, rows};
use indexlab_engine::scenario::{run_pg, run_yb};

const SCRIPT: &str = "create table t (id int primary key, v text);
select txid_current();
insert into t values (1, 'a');
begin;
insert into t values (2, 'b');
update t set v = 'c' where id = 1;
select txid_current();
commit;
select xmin, xmax, ctid, * from t order by id;
delete from t where id = 5;
analyze t;
create table e (a int);
analyze e;
vacuum t;
insert into t values (3, 'd') returning xmin, xmax;
delete from t where id = 2 returning xmin, xmax, ctid;
select xmin, xmax, id from t where xmin::text = '729';
";

#[test]
fn ids_are_taken_at_the_first_write_and_kept_to_the_commit() {
    let r = run_pg(SCRIPT, &[]).0;
    assert_eq!(error(&r), "");
    // CREATE TABLE took 724; txid_current() takes the next one.
    assert_eq!(rows(&r, 1), [["725"]]);
    // The block's insert and update share one id.
    assert_eq!(rows(&r, 6), [["727"]]);
    assert_eq!(
        rows(&r, 8),
        [
            ["727", "0", "(0,3)", "1", "c"],
            ["727", "0", "(0,2)", "2", "b"]
        ]
    );
}

#[test]
fn reads_vacuum_and_writes_of_nothing_take_no_id() {
    let r = run_pg(SCRIPT, &[]).0;
    // DELETE of no row, ANALYZE of an empty table and VACUUM took none; the
    // ANALYZE of t (728) and CREATE TABLE e (729) did.
    assert_eq!(rows(&r, 14), [["730", "0"]]);
    // RETURNING of a DELETE shows the old version, its xmax the deleter.
    assert_eq!(rows(&r, 15), [["727", "731", "(0,2)"]]);
    assert!(rows(&r, 16).is_empty());
}

#[test]
fn yugabytedb_has_no_postgresql_transaction_ids() {
    let script = "create table t (id int primary key);\ninsert into t values (1);\n";
    for tail in [
        "select xmin from t;\n",
        "select txid_current();\n",
        "insert into t values (2) returning xmax;\n",
    ] {
        let r = run_yb(&format!("{script}{tail}"), &[]).0;
        let e = error(&r);
        assert!(
            e.contains("on YugabyteDB") && e.contains("not supported by IndexLab"),
            "{e}"
        );
    }
}

/// `txid_status()` of a fresh cluster's ids, run as psql runs a script
/// without ON_ERROR_STOP (the failed INSERT's transaction took an id, then
/// aborted).
#[test]
fn txid_status_tells_committed_aborted_in_progress_and_too_old() {
    use indexlab_engine::pg::PgEngine;
    use indexlab_engine::scenario::run_profile_continuing;
    let script =
        "select txid_status(0), txid_status(1), txid_status(2), txid_status(3), txid_status(700);
create table t (id int primary key);
insert into t values (1);
insert into t values (1);
select txid_status(724), txid_status(725), txid_status(726), txid_status('726');
begin;
insert into t values (2);
select txid_status(727), txid_current();
commit;
select txid_status(900);
";
    let mut errors = Vec::new();
    let (r, _) = run_profile_continuing::<PgEngine>(script, &[], &mut |e| errors.push(e.message));
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[1].contains("transaction ID 900 is in the future"));
    let rows = |i: usize| common::rows(&r, i);
    assert_eq!(
        rows(0),
        [["NULL", "committed", "committed", "NULL", "NULL"]]
    );
    assert_eq!(rows(3), [["committed", "committed", "aborted", "aborted"]]);
    assert_eq!(rows(6), [["in progress", "727"]]);
}

#[test]
fn a_drop_or_create_that_changes_nothing_takes_no_id() {
    // PostgreSQL 15 on a fresh cluster: 724 (CREATE EXTENSION), then
    // nothing for the no-op DROP and CREATE EXTENSION, 725 for CREATE TABLE.
    let (r, _) = run_pg(
        "create extension pageinspect;
drop table if exists nothing_here;
drop index if exists nor_here;
create extension if not exists pageinspect;
create table t (a int);
insert into t values (1);
select xmin from t;",
        &[],
    );
    assert_eq!(rows(&r, 6), vec![vec!["726"]]);
}
