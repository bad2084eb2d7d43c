//! YugabyteDB's aggregate pushdown on the yb profile: `count(*)`, `min`,
//! `max` and small sums of one table's rows are computed in DocDB, each read
//! request answering with one partial row (`Partial Aggregate: true`) that a
//! `Finalize Aggregate` combines: one request a tablet instead of one per
//! 1024 rows, and the answer PostgreSQL's.

use crate::yb_plans::{answers_as_pg, explains, figure};

const SETUP: &str = "create table t (id int primary key, k int, v text, n numeric);
    insert into t select g, g % 100, 'v' || g, g from generate_series(1, 30000) g;
    create index t_k on t (k asc);\n";

fn plans(script: &str) -> Vec<Vec<String>> {
    explains(&format!("{SETUP}{script}"))
}

/// The rows= of line `i`.
fn rows(plan: &[String], i: usize) -> u64 {
    let at = plan[i].find("rows=").expect("rows=") + 5;
    plan[i][at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn count_star_is_one_request_a_tablet_answering_one_row_each() {
    let p = plans(
        "explain (analyze, dist, costs off) select count(*) from t;
         explain (analyze, dist, costs off) select avg(k) from t;",
    );
    let (pushed, local) = (&p[0], &p[1]);
    assert!(pushed[0].starts_with("Finalize Aggregate"), "{pushed:?}");
    assert!(
        pushed[1].trim().starts_with("->  Seq Scan on t"),
        "{pushed:?}"
    );
    assert!(pushed.iter().any(|l| l.trim() == "Partial Aggregate: true"));
    assert_eq!(figure(pushed, "Storage Table Rows Scanned"), 30_000);
    // One request a tablet, each answering with its partial count.
    let requests = figure(pushed, "Storage Table Read Requests");
    assert_eq!(rows(pushed, 1), requests);
    // avg is not pushed: every row comes up, 1024 a request.
    assert!(local[0].starts_with("Aggregate"), "{local:?}");
    assert_eq!(rows(local, 1), 30_000);
    assert!(figure(local, "Storage Table Read Requests") >= 30_000 / 1024);
    assert!(requests * 5 < figure(local, "Storage Table Read Requests"));
}

#[test]
fn a_storage_filter_or_an_index_only_scan_still_pushes_a_local_filter_does_not() {
    let p = plans(
        "explain (analyze, dist, costs off) select count(*), max(v) from t where v like 'v1%';
         explain (analyze, dist, costs off) select min(k), count(k) from t where k = 7;
         explain (analyze, dist, costs off) select count(*) from t where k + random() > 0;
         explain (analyze, dist, costs off) select sum(n) from t;",
    );
    assert!(p[0][0].starts_with("Finalize Aggregate"), "{:?}", p[0]);
    assert!(p[0].iter().any(|l| l.trim().starts_with("Storage Filter:")));
    assert!(p[1][0].starts_with("Finalize Aggregate"), "{:?}", p[1]);
    assert!(
        p[1][1].contains("Index Only Scan using t_k on t"),
        "{:?}",
        p[1]
    );
    assert!(p[2][0].starts_with("Aggregate"), "{:?}", p[2]);
    assert!(!p[2].iter().any(|l| l.contains("Partial Aggregate")));
    // A numeric sum runs in a numeric, which DocDB does not hold.
    assert!(p[3][0].starts_with("Aggregate"), "{:?}", p[3]);
}

#[test]
fn pushed_aggregates_answer_as_postgresql_does() {
    let queries = [
        "select count(*) from t",
        "select count(*), max(v), min(k) from t where v like 'v1%'",
        "select min(k), count(k), sum(k) from t where k = 7",
        "select count(*) from t where k > 200",
        "select max(id) - min(id) from t",
        "select count(*) from t having count(*) > 5",
    ];
    let script = format!("{SETUP}{};", queries.join(";\n"));
    let yb = answers_as_pg(&script, queries.len());
    assert_eq!(yb[0].len(), 1);
}
