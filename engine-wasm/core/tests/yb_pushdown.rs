//! YugabyteDB's expression pushdown on the yb profile: the conditions DocDB
//! can evaluate travel with the read request (`Storage Filter`, `Storage
//! Index Filter`), a request pages after the rows it *returns*, and a LIMIT
//! below the page size becomes the request's row limit. The answers stay
//! PostgreSQL's.

use crate::yb_plans::{answers_as_pg, explains, figure};

const SETUP: &str = "create table t (id int primary key, k int, v text, w int);
    insert into t select n, n % 100, 'v' || n, n % 7 from generate_series(1, 20000) n;
    create index t_k on t (k asc);
    create index t_kv on t (k asc) include (w);\n";

fn plans(script: &str) -> Vec<Vec<String>> {
    explains(&format!("{SETUP}{script}"))
}

fn has(plan: &[String], line: &str) -> bool {
    plan.iter().any(|l| l.trim() == line)
}

#[test]
fn a_seq_scan_filters_in_docdb_and_pages_on_the_rows_it_returns() {
    let p = plans(
        "explain (analyze, dist, costs off) select * from t where w = 3 and v like 'v1%';
         set yb_enable_expression_pushdown = off;
         explain (analyze, dist, costs off) select * from t where w = 3 and v like 'v1%';",
    );
    let (on, off) = (&p[0], &p[1]);
    assert!(
        has(on, "Storage Filter: ((v ~~ 'v1%'::text) AND (w = 3))"),
        "{on:?}"
    );
    assert!(!on.iter().any(|l| l.contains("Rows Removed")), "{on:?}");
    // Every row is still read in DocDB; far fewer travel back, so far
    // fewer requests of 1024 rows are needed.
    assert_eq!(figure(on, "Storage Table Rows Scanned"), 20_000);
    assert!(
        has(off, "Filter: ((v ~~ 'v1%'::text) AND (w = 3))"),
        "{off:?}"
    );
    let kept = (1..=20_000)
        .filter(|n| n % 7 == 3 && n.to_string().starts_with('1'))
        .count() as u64;
    assert_eq!(figure(off, "Rows Removed by Filter"), 20_000 - kept);
    let (requests_on, requests_off) = (
        figure(on, "Storage Table Read Requests"),
        figure(off, "Storage Table Read Requests"),
    );
    assert!(requests_off >= 20_000 / 1024, "{off:?}");
    assert!(
        requests_on * 5 < requests_off,
        "{requests_on} vs {requests_off}"
    );
}

#[test]
fn what_docdb_cannot_evaluate_stays_on_postgresql_s_side() {
    let p = plans(
        "explain (analyze, dist, costs off) select * from t where w = 3 and k + random() < 0;",
    );
    assert!(has(&p[0], "Storage Filter: (w = 3)"), "{:?}", p[0]);
    assert!(
        has(
            &p[0],
            "Filter: (((k)::double precision + random()) < '0'::double precision)"
        ) || p[0]
            .iter()
            .any(|l| l.trim().starts_with("Filter: ") && l.contains("random()")),
        "{:?}",
        p[0]
    );
    assert!(p[0]
        .iter()
        .any(|l| l.trim().starts_with("Rows Removed by Filter:")));
}

#[test]
fn an_index_scan_filters_the_index_then_the_table() {
    let p = plans(
        "explain (analyze, dist, costs off) select * from t where k = 5 and w = 1 and id > 100 and v <> 'x';
         explain (analyze, dist, costs off) select k, w from t where k = 5 and w = 1;",
    );
    // w is in t_kv: checked on its entries before the table is read; v is
    // only in the table.
    assert_eq!(
        p[0][0].split(" (").next(),
        Some("Index Scan using t_kv on t")
    );
    let labels: Vec<&str> = p[0]
        .iter()
        .filter_map(|l| l.trim().split(':').next())
        .filter(|l| l.contains("Filter") || l.contains("Cond"))
        .collect();
    assert_eq!(
        labels,
        ["Index Cond", "Storage Index Filter", "Storage Filter"],
        "{:?}",
        p[0]
    );
    // The primary key is not one of the index's columns (its entries hold
    // the row's ybctid): `id > 100` is checked on the table's rows.
    assert!(
        has(&p[0], "Storage Filter: ((id > 100) AND (v <> 'x'::text))"),
        "{:?}",
        p[0]
    );
    // Only the entries that pass are looked up in the table.
    let rows = (1..=20_000).filter(|n| n % 100 == 5 && n % 7 == 1).count() as u64;
    assert_eq!(figure(&p[0], "Storage Table Rows Scanned"), rows);
    assert_eq!(figure(&p[0], "Storage Index Rows Scanned"), 200);
    // An Index Only Scan's pushed condition is its Storage Filter.
    assert_eq!(
        p[1][0].split(" (").next(),
        Some("Index Only Scan using t_kv on t")
    );
    assert!(has(&p[1], "Storage Filter: (w = 1)"), "{:?}", p[1]);
}

#[test]
fn a_limit_below_the_page_size_is_the_request_s_row_limit() {
    let p = plans(
        "explain (analyze, dist, costs off) select * from t limit 10;
         explain (analyze, dist, costs off) select * from t where w = 2 limit 10;
         explain (analyze, dist, costs off) select * from t where k = 3 limit 7 offset 3;
         explain (analyze, dist, costs off) select * from t limit 3000;
         explain (analyze, dist, costs off) select * from t where k + random() > 0 limit 10;",
    );
    assert_eq!(figure(&p[0], "Storage Table Rows Scanned"), 10);
    // The storage filter runs first: the request stops at 10 rows returned.
    assert_eq!(figure(&p[1], "Storage Table Read Requests"), 1);
    assert!(
        figure(&p[1], "Storage Table Rows Scanned") < 1024,
        "{:?}",
        p[1]
    );
    // LIMIT 7 OFFSET 3: ten entries of the index, ten rows of the table.
    assert_eq!(figure(&p[2], "Storage Index Rows Scanned"), 10);
    assert_eq!(figure(&p[2], "Storage Table Rows Scanned"), 10);
    // A LIMIT above the page size leaves every request a full page.
    assert_eq!(
        figure(&p[3], "Storage Table Rows Scanned") % 1024,
        0,
        "{:?}",
        p[3]
    );
    // A condition PostgreSQL's side checks could drop rows: no limit sent.
    assert_eq!(
        figure(&p[4], "Storage Table Rows Scanned"),
        1024,
        "{:?}",
        p[4]
    );
}

#[test]
fn pushed_conditions_answer_as_postgresql_does() {
    let queries = [
        "select count(*) from t where w = 3 and v like 'v1%'",
        "select id from t where k = 5 and w = 1 and id > 100 and v <> 'x' order by id",
        "select k, w from t where k = 5 and w in (1, 2) order by 1, 2",
        "select count(*) from t where (w = 1 or v is null) and k between 3 and 9",
        "select count(*) from t where case when w > 3 then k < 10 else k > 90 end",
        "select count(*) from t where length(v) = 4 and abs(w - 3) = 1",
        "select id from t where w = 2 order by id limit 10",
    ];
    let script = format!("{SETUP}{};", queries.join(";\n"));
    let yb = answers_as_pg(&script, queries.len());
    assert!(yb.iter().all(|r| !r.is_empty()));
}
