//! Batched Nested Loop against a naive nested loop: for random tables, batch
//! sizes and request limits, the join returns exactly the rows a naive loop
//! finds (none lost, none twice), and the inner side's read requests stay
//! within the bound the limits imply: ceil(keys of a loop / ysql_request_limit)
//! per loop.

use indexlab_engine::scenario::{run_pg, run_yb, Report};
use proptest::prelude::*;

fn script(outer: &[Option<i64>], inner: &[(i64, i64)], tablets: u32) -> String {
    let mut s = format!(
        "create table a (id int, k int, primary key (id asc));\n\
         create table b (id int primary key, x int) split into {tablets} tablets;\n"
    );
    for (i, k) in outer.iter().enumerate() {
        let k = k.map_or("null".to_string(), |v| v.to_string());
        s.push_str(&format!("insert into a values ({i}, {k});\n"));
    }
    for (id, x) in inner {
        s.push_str(&format!("insert into b values ({id}, {x});\n"));
    }
    s.push_str("select a.id, a.k, b.id, b.x from a join b on b.id = a.k;\n");
    s
}

fn rows(r: &Report) -> Vec<Vec<String>> {
    if let Some(e) = &r.error {
        panic!("line {}: {}", e.line, e.message);
    }
    let mut rows: Vec<Vec<String>> = r
        .statements
        .last()
        .unwrap()
        .outcome
        .rows
        .iter()
        .map(|row| row.iter().map(|c| c.clone().unwrap_or_default()).collect())
        .collect();
    rows.sort();
    rows
}

fn naive(outer: &[Option<i64>], inner: &[(i64, i64)]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (i, k) in outer.iter().enumerate() {
        for (id, x) in inner {
            if *k == Some(*id) {
                out.push(vec![
                    i.to_string(),
                    id.to_string(),
                    id.to_string(),
                    x.to_string(),
                ]);
            }
        }
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn batched_join_equals_a_naive_nested_loop(
        outer in prop::collection::vec(prop::option::weighted(0.9, 0i64..40), 0..60),
        inner_keys in prop::collection::btree_set(0i64..40, 0..30),
        tablets in 1u32..6,
        batch in 1usize..70,
        request_limit in 1u64..25,
    ) {
        let inner: Vec<(i64, i64)> = inner_keys.iter().map(|k| (*k, k * 7 % 5)).collect();
        let text = script(&outer, &inner, tablets);
        let set = vec![
            ("yb_bnl_batch_size".to_string(), batch.to_string()),
            ("ysql_request_limit".to_string(), request_limit.to_string()),
        ];
        let expected = naive(&outer, &inner);
        let (yb, _) = run_yb(&text, &set);
        prop_assert_eq!(rows(&yb), expected.clone());
        let (pg, _) = run_pg(&text, &set);
        prop_assert_eq!(rows(&pg), expected);

        // Read requests of the inner side: per loop, its distinct non-null keys
        // in rounds of at most ysql_request_limit operations (`a` is range
        // sharded on id, so its scan returns the rows in the order inserted
        // and the batches are the chunks below).
        let outer_rows = outer.len();
        let bound: u64 = if batch > 1 {
            (0..outer_rows.div_ceil(batch))
                .map(|l| {
                    let chunk = &outer[l * batch..((l + 1) * batch).min(outer_rows)];
                    let mut keys: Vec<i64> = chunk.iter().flatten().copied().collect();
                    keys.sort_unstable();
                    keys.dedup();
                    (keys.len() as u64).div_ceil(request_limit)
                })
                .sum()
        } else {
            outer_rows as u64
        };
        let stmt = yb.statements.last().unwrap();
        let b_requests = stmt.relations.by_relation.get("b").map_or(0.0, |m| m.get("storage_read_requests"));
        prop_assert!(b_requests as u64 <= bound, "{} requests > bound {}", b_requests, bound);
        if batch > 1 {
            // No request is wasted either: exactly one per round of keys.
            prop_assert_eq!(b_requests as u64, bound);
        }
    }
}
