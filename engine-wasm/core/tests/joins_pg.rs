//! Nested Loop on the PostgreSQL profile: the inner index is searched once per
//! outer row, and the result equals a naive nested loop.

use indexlab_engine::scenario::run_pg;
use proptest::prelude::*;

fn run(script: &str) -> indexlab_engine::scenario::Report {
    let (r, _) = run_pg(script, &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    r
}

#[test]
fn inner_index_scan_runs_once_per_outer_row() {
    let r = run("create table demo (id bigint primary key, x int);
        insert into demo select generate_series(1,2000), 0;
        explain (analyze, costs off) with a as (select * from demo)
          select * from a join demo b using(id) where b.x=0;");
    let plan = r
        .statements
        .last()
        .unwrap()
        .outcome
        .explain
        .clone()
        .unwrap()
        .join("\n");
    assert!(plan.starts_with("Nested Loop (actual"), "{plan}");
    assert!(plan.contains("->  Seq Scan on demo a (actual"), "{plan}");
    assert!(
        plan.contains("->  Index Scan using demo_pkey on demo b"),
        "{plan}"
    );
    assert!(plan.contains("rows=1 loops=2000"), "{plan}");
    assert!(plan.contains("Index Cond: (id = a.id)"), "{plan}");
    assert!(plan.contains("Filter: (x = 0)"), "{plan}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn join_equals_a_naive_nested_loop(
        left in proptest::collection::vec((0i64..40, 0i64..5), 0..40),
        right in proptest::collection::btree_map(0i64..40, 0i64..5, 0..40),
    ) {
        let mut script = String::from(
            "create table l (k bigint, v bigint);\ncreate table r (k bigint primary key, w bigint);\n",
        );
        for (k, v) in &left {
            script += &format!("insert into l values ({k}, {v});\n");
        }
        for (k, w) in &right {
            script += &format!("insert into r values ({k}, {w});\n");
        }
        script += "select l.k, l.v, r.w from l join r on l.k = r.k where r.w >= l.v;\n";
        let report = run(&script);
        let got: Vec<(i64, i64, i64)> = report.statements.last().unwrap().outcome.rows.iter()
            .map(|r| (num(&r[0]), num(&r[1]), num(&r[2])))
            .collect();
        let mut want = Vec::new();
        for (k, v) in &left {
            if let Some(w) = right.get(k) {
                if w >= v {
                    want.push((*k, *v, *w));
                }
            }
        }
        prop_assert_eq!(got, want);
    }
}

fn num(cell: &Option<String>) -> i64 {
    cell.as_deref().expect("not NULL").parse().unwrap()
}
