//! Model-based test of the whole PostgreSQL profile: random INSERT / UPDATE /
//! DELETE / VACUUM / range scans (both directions, with limits) run through SQL on
//! small pages and a small buffer pool, and every query must return exactly what a
//! `BTreeMap` model holds — through thousands of splits, evictions and vacuums.

use indexlab_engine::scenario::run_pg;
use proptest::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
enum Op {
    Insert(i64, i64),
    InsertRange(u16),
    Update(i64, i64),
    Delete(i64),
    DeleteBelow(i64),
    Vacuum,
    Checkpoint,
    ScanKey {
        lo: i64,
        hi: i64,
        desc: bool,
        limit: Option<u16>,
    },
    ScanValue {
        lo: i64,
        hi: i64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let key = 0i64..3000;
    prop_oneof![
        4 => (key.clone(), -500i64..500).prop_map(|(k, v)| Op::Insert(k, v)),
        1 => (50u16..600).prop_map(Op::InsertRange),
        2 => (key.clone(), -500i64..500).prop_map(|(k, v)| Op::Update(k, v)),
        2 => key.clone().prop_map(Op::Delete),
        1 => key.clone().prop_map(Op::DeleteBelow),
        1 => Just(Op::Vacuum),
        1 => Just(Op::Checkpoint),
        2 => (key.clone(), key.clone(), any::<bool>(), proptest::option::of(1u16..300))
            .prop_map(|(a, b, desc, limit)| Op::ScanKey { lo: a.min(b), hi: a.max(b), desc, limit }),
        1 => (-500i64..500, -500i64..500)
            .prop_map(|(a, b)| Op::ScanValue { lo: a.min(b), hi: a.max(b) }),
    ]
}

/// Turns ops into a script and the result each query must return.
fn build(ops: &[Op]) -> (String, Vec<Vec<(i64, i64)>>) {
    let mut model = BTreeMap::new();
    let mut script = String::from(
        "create table t (k bigint primary key, v bigint);\ncreate index t_v on t (v);\n",
    );
    let mut expected = Vec::new();
    let mut next_range = 1_000_000i64;
    for op in ops {
        match op {
            Op::Insert(k, v) if !model.contains_key(k) => {
                model.insert(*k, *v);
                script += &format!("insert into t values ({k}, {v});\n");
            }
            Op::Insert(..) => {}
            Op::InsertRange(n) => {
                let (a, b) = (next_range, next_range + i64::from(*n) - 1);
                for k in a..=b {
                    model.insert(k, k % 97);
                }
                script += &format!(
                    "insert into t select generate_series, generate_series % 97 \
                     from generate_series({a}, {b});\n"
                );
                next_range += 1_000_000;
            }
            Op::Update(k, v) => {
                if let Some(x) = model.get_mut(k) {
                    *x = *v;
                }
                script += &format!("update t set v = {v} where k = {k};\n");
            }
            Op::Delete(k) => {
                model.remove(k);
                script += &format!("delete from t where k = {k};\n");
            }
            Op::DeleteBelow(k) => {
                model.retain(|key, _| *key >= *k);
                script += &format!("delete from t where k < {k};\n");
            }
            Op::Vacuum => script += "vacuum t;\n",
            Op::Checkpoint => script += "\\checkpoint\n",
            Op::ScanKey {
                lo,
                hi,
                desc,
                limit,
            } => {
                let mut rows: Vec<(i64, i64)> =
                    model.range(lo..=hi).map(|(k, v)| (*k, *v)).collect();
                if *desc {
                    rows.reverse();
                }
                if let Some(l) = limit {
                    rows.truncate(usize::from(*l));
                }
                expected.push(rows);
                let dir = if *desc { "desc" } else { "asc" };
                let lim = limit.map_or(String::new(), |l| format!(" limit {l}"));
                script += &format!(
                    "select k, v from t where k between {lo} and {hi} order by k {dir}{lim};\n"
                );
            }
            Op::ScanValue { lo, hi } => {
                let mut rows: Vec<(i64, i64)> = model
                    .iter()
                    .filter(|(_, v)| (lo..=hi).contains(v))
                    .map(|(k, v)| (*k, *v))
                    .collect();
                rows.sort_by_key(|(k, v)| (*v, *k));
                expected.push(rows);
                script +=
                    &format!("select k, v from t where v >= {lo} and v <= {hi} order by v, k;\n");
            }
        }
    }
    let all: Vec<(i64, i64)> = model.iter().map(|(k, v)| (*k, *v)).collect();
    expected.push(all);
    script += "select k, v from t order by k;\n";
    (script, expected)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn sql_results_match_a_btreemap(ops in proptest::collection::vec(op(), 1..120)) {
        let (script, expected) = build(&ops);
        // 1 kB pages and 64 frames: splits and evictions on every run.
        let settings = vec![
            ("page_size".to_string(), "1kB".to_string()),
            ("shared_buffers".to_string(), "64".to_string()),
        ];
        let (report, engine) = run_pg(&script, &settings);
        prop_assert!(report.error.is_none(), "{:?}", report.error);
        let selects: Vec<_> = report
            .statements
            .iter()
            .filter(|s| s.outcome.tag.starts_with("SELECT"))
            .collect();
        prop_assert_eq!(selects.len(), expected.len());
        for (i, (s, want)) in selects.iter().zip(&expected).enumerate() {
            let got: Vec<(i64, i64)> = s
                .outcome
                .rows
                .iter()
                .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
                .collect();
            // Reports keep the first 1000 rows; the count is exact.
            prop_assert_eq!(s.outcome.row_count as usize, want.len(), "query {}", i);
            let shown = want.len().min(1000);
            prop_assert_eq!(&got[..], &want[..shown], "query {}", i);
        }
        let engine = engine.expect("engine");
        let pool = engine.buffer_pool();
        prop_assert!(pool.used_frames() <= pool.capacity());
    }
}
