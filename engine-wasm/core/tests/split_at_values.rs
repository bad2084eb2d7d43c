//! YugabyteDB's `SPLIT AT VALUES`: a range-sharded table or index cut into
//! tablets at the key values given. Rows go to the tablet whose range holds
//! their key, a range scan asks only the tablets it meets (one read request
//! each), and a scan in key order, forward or backward, crosses them in
//! order.

use crate::common;

use common::{error, explain_lines, explains, number_after, rows, run_yb_ok};
use indexlab_engine::scenario::{run_pg, run_yb};

const TABLE: &str = "create table t (id int, v text, primary key (id asc)) split at values ((1000), (2000), (3000));
insert into t select i, 'v' || i from generate_series(1, 4000) i;\n";

fn read_requests(lines: &[String]) -> f64 {
    lines
        .iter()
        .filter_map(|l| number_after(l, "Storage Table Read Requests: "))
        .sum()
}

#[test]
fn a_range_scan_reads_only_the_tablets_its_range_meets() {
    let script = format!(
        "{TABLE}explain (analyze, dist, costs off) select * from t where id between 1500 and 2500;
explain (analyze, dist, costs off) select * from t where id < 10;
explain (analyze, dist, costs off) select * from t where id between 500 and 3500;
select count(*) from t where id between 1500 and 2500;\n"
    );
    let r = run_yb_ok(&script, &[]);
    let plans = explains(&r);
    let requests: Vec<f64> = plans
        .iter()
        .map(|s| read_requests(explain_lines(s)))
        .collect();
    // Two tablets, one, and all four.
    assert_eq!(requests, [2.0, 1.0, 4.0]);
    assert_eq!(rows(&r, 5), [["1001"]]);
}

#[test]
fn key_order_crosses_the_tablets_in_order_both_ways() {
    let script = format!(
        "{TABLE}select id from t order by id desc limit 3;
select id from t where id between 998 and 1002 order by id;
select id from t where id between 2998 and 3001 order by id desc;\n"
    );
    let r = run_yb_ok(&script, &[]);
    assert_eq!(rows(&r, 2), [["4000"], ["3999"], ["3998"]]);
    assert_eq!(
        rows(&r, 3),
        [["998"], ["999"], ["1000"], ["1001"], ["1002"]]
    );
    assert_eq!(rows(&r, 4), [["3001"], ["3000"], ["2999"], ["2998"]]);
}

#[test]
fn an_index_can_be_split_too_and_a_hash_key_cannot() {
    let script = format!(
        "{TABLE}create index t_v on t (v asc) split at values (('v2'), ('v5'));
select id from t where v = 'v3001';\n"
    );
    let r = run_yb_ok(&script, &[]);
    assert_eq!(rows(&r, 3), [["3001"]]);
    let r = run_yb(
        "create table h (id int primary key) split at values ((5));\n",
        &[],
    )
    .0;
    assert!(
        error(&r).starts_with("SPLIT AT VALUES needs a range-sharded key"),
        "{}",
        error(&r)
    );
    let r = run_yb(
        "create table o (id int, primary key (id asc)) split at values ((5), (1));\n",
        &[],
    )
    .0;
    assert!(error(&r).contains("in the key's order"), "{}", error(&r));
}

#[test]
fn the_pg_profile_notes_that_postgresql_has_no_such_clause() {
    let r = run_pg(TABLE, &[]).0;
    assert_eq!(error(&r), "");
    assert!(r.statements[0].outcome.notices[0].contains("SPLIT AT VALUES is YugabyteDB syntax"));
}
