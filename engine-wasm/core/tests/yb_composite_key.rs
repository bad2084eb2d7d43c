//! On yb an equality on a composite key's first columns and a condition on
//! the next make one DocDB seek to their prefix: `Index Cond` names them
//! all and the index reads only the rows they select (not every row of the
//! first value, filtered afterwards). The answers are PostgreSQL's.

use crate::yb_plans::{answers_as_pg, explains};

const SETUP: &str = "create table t (id int primary key, a int, b int, c text);
    insert into t select n, n % 7, n % 13, 'x' || (n % 5) from generate_series(1, 2000) n;
    insert into t values (3001, 1, null, null), (3002, null, 3, 'x1');
    create index t_ab on t (a hash, b asc);
    create index t_cb on t (c asc, b desc);
    create table r (a int, b int, c int, primary key (a asc, b asc, c asc));
    insert into r select n % 10, n % 17, n from generate_series(1, 3000) n;\n";

const QUERIES: &[&str] = &[
    "select count(*) from t where a = 1 and b > 5",
    "select count(*) from t where a = 1 and b >= 5 and b < 9",
    "select count(*) from t where a = 1 and b = 5",
    "select count(*) from t where a = 1 and b < 3",
    "select count(*) from t where c = 'x1' and b > 5",
    "select count(*) from t where c = 'x1' and b <= 5",
    "select b from t where c = 'x2' and b < 4 order by b desc limit 5",
    "select count(*) from r where a = 3 and b = 5 and c > 1000",
    "select count(*) from r where a = 3 and b > 14",
    "select * from r where a = 3 and b = 4 and c = 293",
    "select count(*) from r where a = 3 and b in (1, 2)",
    "select c from r where a in (3, 4) and b in (2, 1, null) and c > 100 order by c",
    "select * from r where a = 3 and b in (1, 2) order by b, c limit 5",
];

#[test]
fn prefix_reads_answer_as_postgresql_does() {
    let script = format!("{SETUP}{};", QUERIES.join(";\n"));
    let yb = answers_as_pg(&script, QUERIES.len());
    // Not vacuous: the point lookup finds its row, the lists theirs.
    let point = QUERIES.iter().position(|q| q.ends_with("c = 293")).unwrap();
    assert_eq!(yb[point].len(), 1);
    assert!(yb[yb.len() - 2].len() > 10);
    assert_eq!(yb[yb.len() - 1].len(), 5);
}

/// EXPLAIN's lines for the last statement of `script` on yb.
fn plan(script: &str) -> Vec<String> {
    let mut all = explains(&format!("{SETUP}{script}"));
    all.pop().expect("the script ends with an EXPLAIN")
}

#[test]
fn the_index_reads_only_the_prefix_it_seeks_to() {
    let p = plan(
        "explain (analyze, dist, costs off) select * from t where c = 'x1' and b between 2 and 4;",
    );
    assert_eq!(
        p[1].trim(),
        "Index Cond: ((c = 'x1'::text) AND (b >= 2) AND (b <= 4))"
    );
    assert!(!p.iter().any(|l| l.contains("Filter")), "{p:?}");
    // 'x1' and b in 2..4: the rows of n % 5 = 1 with n % 13 in 2..4, and 3002.
    let rows: usize = (1..=2000)
        .filter(|n| n % 5 == 1 && (2..=4).contains(&(n % 13)))
        .count()
        + 1;
    assert!(
        p.iter()
            .any(|l| l.trim() == format!("Storage Index Rows Scanned: {rows}")),
        "{p:?}"
    );
    // Hash then range: the hash column's equality, then b's range.
    let p = plan("explain (analyze, dist, costs off) select a, b from t where a = 1 and b > 5;");
    assert_eq!(p[1].trim(), "Index Cond: ((a = 1) AND (b > 5))");
    let rows = (1..=2000).filter(|n| n % 7 == 1 && n % 13 > 5).count();
    assert!(
        p.iter()
            .any(|l| l.trim() == format!("Storage Index Rows Scanned: {rows}")),
        "{p:?}"
    );
}

#[test]
fn a_whole_primary_key_reads_one_row_and_an_in_list_seeks_each_value() {
    let p = plan(
        "explain (analyze, dist, costs off) select * from r where a = 3 and b = 4 and c = 293;",
    );
    assert_eq!(
        p[0].split(" (").next(),
        Some("Index Scan using r_pkey on r")
    );
    assert_eq!(
        p[1].trim(),
        "Index Cond: ((a = 3) AND (b = 4) AND (c = 293))"
    );
    assert!(
        p.iter()
            .any(|l| l.trim() == "Storage Table Rows Scanned: 1"),
        "{p:?}"
    );
    // An IN list after the prefix is part of the key (YugabyteDB's hybrid
    // scan): one seek per value, in one read request, and only the rows of
    // a = 3 with b = 1 or 2 are read.
    let p = plan("explain (analyze, dist, costs off) select * from r where a = 3 and b in (1, 2);");
    assert_eq!(
        p[1].trim(),
        "Index Cond: ((a = 3) AND (b = ANY ('{1,2}'::integer[])))"
    );
    let rows = (1..=3000)
        .filter(|n| n % 10 == 3 && [1, 2].contains(&(n % 17)))
        .count();
    assert!(
        p.iter()
            .any(|l| l.trim() == format!("Storage Table Rows Scanned: {rows}")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|l| l.trim() == "Storage Table Read Requests: 1"),
        "{p:?}"
    );
    // Where the key gives the ORDER BY, the list would cost that order:
    // it stays a check on each row, as PostgreSQL's planner keeps the
    // ordered path.
    let p = plan(
        "explain (costs off) select * from r where a = 3 and b in (1, 2) order by b, c limit 5;",
    );
    assert_eq!(p[2].trim(), "Index Cond: (a = 3)", "{p:?}");
    assert!(p[3].trim().starts_with("Storage Filter: (b = ANY"), "{p:?}");
}

#[test]
fn a_fixed_hash_column_leaves_the_range_columns_order_and_no_sort() {
    // t_ab is (a HASH, b ASC): with a fixed, one hash's entries come in b's
    // order; without it, the hashes come in hash order and a Sort is needed.
    let p = plan("explain (costs off) select a, b from t where a = 2 and b > 3 order by b desc;");
    assert_eq!(p[0], "Index Only Scan Backward using t_ab on t", "{p:?}");
    let p = plan("explain (costs off) select a, b from t where a in (1, 2) order by b;");
    assert_eq!(p[0], "Sort", "{p:?}");
    let script = format!("{SETUP}select b from t where a = 2 and b > 3 order by b desc;");
    let yb = answers_as_pg(&script, 1);
    assert!(yb[0].len() > 10);
}
