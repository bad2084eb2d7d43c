//! Model-based tests: random operation sequences against a `BTreeMap`, on pages
//! small enough that thousands of splits happen.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

use proptest::prelude::*;

use super::*;
use crate::rng::Rng;
use crate::storage::{AccessLog, NoAccounting, PageNo};

type Model = BTreeMap<(Vec<u8>, u64), ()>;

#[derive(Debug, Clone)]
enum Op {
    Insert(Vec<u8>, u64, u16),
    DeleteNth(usize),
    DeleteMissing(Vec<u8>, u64),
    BulkDelete(u64, u64),
    Scan(Bound<Vec<u8>>, Bound<Vec<u8>>, Direction, usize),
}

fn key() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![0u8, 1, 2, 0x7f, 0xfe, 0xff]),
        0..5,
    )
}

fn bound() -> impl Strategy<Value = Bound<Vec<u8>>> {
    prop_oneof![
        Just(Bound::Unbounded),
        key().prop_map(Bound::Included),
        key().prop_map(Bound::Excluded),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let dir = prop_oneof![Just(Direction::Forward), Just(Direction::Backward)];
    let limit = prop_oneof![Just(usize::MAX), 0usize..40];
    prop_oneof![
        14 => (key(), 0u64..16, 1u16..=7).prop_map(|(k, p, s)| Op::Insert(k, p, s * 8)),
        3 => any::<usize>().prop_map(Op::DeleteNth),
        1 => (key(), 0u64..16).prop_map(|(k, p)| Op::DeleteMissing(k, p)),
        1 => (2u64..6, 0u64..6).prop_map(|(m, r)| Op::BulkDelete(m, r % m)),
        3 => (bound(), bound(), dir, limit).prop_map(|(l, u, d, n)| Op::Scan(l, u, d, n)),
    ]
}

/// The documented prefix-bound semantics, written independently of `KeyRange`.
fn in_range(key: &[u8], lower: &Bound<Vec<u8>>, upper: &Bound<Vec<u8>>) -> bool {
    let prefix = |b: &[u8]| key[..key.len().min(b.len())].to_vec();
    let lower_ok = match lower {
        Bound::Unbounded => true,
        Bound::Included(b) => prefix(b) >= *b,
        Bound::Excluded(b) => prefix(b) > *b,
    };
    let upper_ok = match upper {
        Bound::Unbounded => true,
        Bound::Included(b) => prefix(b) <= *b,
        Bound::Excluded(b) => prefix(b) < *b,
    };
    lower_ok && upper_ok
}

fn expected(
    model: &Model,
    lower: &Bound<Vec<u8>>,
    upper: &Bound<Vec<u8>>,
    dir: Direction,
    limit: usize,
) -> Vec<(Vec<u8>, u64)> {
    let hits = model
        .keys()
        .filter(|(k, _)| in_range(k, lower, upper))
        .cloned();
    match dir {
        Direction::Forward => hits.take(limit).collect(),
        Direction::Backward => hits.rev().take(limit).collect(),
    }
}

fn as_slice(b: &Bound<Vec<u8>>) -> Bound<&[u8]> {
    b.as_ref().map(Vec::as_slice)
}

struct ScanRun {
    rows: Vec<(Vec<u8>, u64)>,
    leaves: u32,
    accesses: Vec<PageNo>,
}

fn run_scan(
    t: &BTree,
    lower: &Bound<Vec<u8>>,
    upper: &Bound<Vec<u8>>,
    dir: Direction,
    limit: usize,
) -> ScanRun {
    let mut log = AccessLog::default();
    let mut c = t.seek(as_slice(lower), as_slice(upper), dir, &mut log);
    let mut rows = Vec::new();
    while rows.len() < limit {
        match c.next(t, &mut log) {
            Some(e) => rows.push((e.key.to_vec(), e.payload)),
            None => break,
        }
    }
    let accesses = log.0.iter().map(|(p, _)| *p).collect();
    ScanRun {
        rows,
        leaves: c.leaves_visited(),
        accesses,
    }
}

fn apply(t: &mut BTree, model: &mut Model, op: &Op) -> Result<(), TestCaseError> {
    match op {
        Op::Insert(k, p, size) => {
            let dup = model.contains_key(&(k.clone(), *p));
            let r = t.insert(k, *p, *size, &mut NoAccounting);
            prop_assert_eq!(r.is_err(), dup, "{:?}", r);
            model.insert((k.clone(), *p), ());
        }
        Op::DeleteNth(n) if !model.is_empty() => {
            let (k, p) = model.keys().nth(n % model.len()).unwrap().clone();
            prop_assert!(t.delete(&k, p, &mut NoAccounting));
            model.remove(&(k, p));
        }
        Op::DeleteNth(_) => {}
        Op::DeleteMissing(k, p) => {
            let present = model.remove(&(k.clone(), *p)).is_some();
            prop_assert_eq!(t.delete(k, *p, &mut NoAccounting), present);
        }
        Op::BulkDelete(m, r) => {
            let removed = t.bulk_delete(|_, p| p % m == *r, &mut NoAccounting);
            let before = model.len();
            model.retain(|(_, p), _| p % m != *r);
            prop_assert_eq!(removed as usize, before - model.len());
        }
        Op::Scan(lower, upper, dir, limit) => check_scan(t, model, lower, upper, *dir, *limit)?,
    }
    Ok(())
}

fn check_scan(
    t: &BTree,
    model: &Model,
    lower: &Bound<Vec<u8>>,
    upper: &Bound<Vec<u8>>,
    dir: Direction,
    limit: usize,
) -> Result<(), TestCaseError> {
    let run = run_scan(t, lower, upper, dir, limit);
    prop_assert_eq!(&run.rows, &expected(model, lower, upper, dir, limit));
    let distinct: BTreeSet<_> = run.accesses.iter().collect();
    prop_assert_eq!(distinct.len(), run.accesses.len(), "a page reported twice");
    if limit == usize::MAX {
        let other = match dir {
            Direction::Forward => Direction::Backward,
            Direction::Backward => Direction::Forward,
        };
        // A descent goes right of a pivot whose heap TID was truncated and whose
        // key is the bound (`_bt_compare`), as PostgreSQL's does: a forward scan
        // from `>= k` skips the leaf left of a pivot `k`, which a backward scan
        // down to `k` still reads, and a backward scan from `< k` starts right
        // of it and steps back. So the directions may differ by a leaf at each end.
        let back = run_scan(t, lower, upper, other, limit);
        prop_assert!(
            back.leaves.abs_diff(run.leaves) <= 2,
            "leaves differ by direction: {} and {}",
            back.leaves,
            run.leaves
        );
        prop_assert!(back.accesses.len().abs_diff(run.accesses.len()) <= 2);
    }
    Ok(())
}

fn check_all(t: &BTree, model: &Model) -> Result<(), TestCaseError> {
    t.check_invariants().map_err(TestCaseError::fail)?;
    prop_assert_eq!(t.len() as usize, model.len());
    let all = (Bound::Unbounded, Bound::Unbounded);
    check_scan(t, model, &all.0, &all.1, Direction::Forward, usize::MAX)?;
    check_scan(t, model, &all.0, &all.1, Direction::Backward, usize::MAX)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn tree_matches_btreemap(
        page_size in prop::sample::select(vec![256u32, 320, 384, 512]),
        ops in prop::collection::vec(op(), 1..600),
    ) {
        let mut t = BTree::new(BTreeConfig::with_page_size(page_size), &mut NoAccounting).unwrap();
        let mut model = Model::new();
        for op in &ops {
            apply(&mut t, &mut model, op)?;
            check_all(&t, &model)?;
        }
    }

    /// The caller may change the tree between two `next` calls: entries present
    /// throughout are returned exactly once, in order.
    #[test]
    fn cursor_survives_changes_between_calls(
        seed in any::<u64>(),
        backward in any::<bool>(),
        initial in 50usize..400,
    ) {
        let mut rng = Rng::new(seed);
        let mut t = BTree::new(BTreeConfig::with_page_size(256), &mut NoAccounting).unwrap();
        let mut model = Model::new();
        let random_entry = |rng: &mut Rng| (vec![rng.below(40) as u8, rng.below(4) as u8], rng.below(8));
        while model.len() < initial {
            let (k, p) = random_entry(&mut rng);
            if t.insert(&k, p, 16, &mut NoAccounting).is_ok() {
                model.insert((k, p), ());
            }
        }
        let dir = if backward { Direction::Backward } else { Direction::Forward };
        let start: BTreeSet<_> = model.keys().cloned().collect();
        let mut deleted = BTreeSet::new();
        let mut seen: Vec<(Vec<u8>, u64)> = Vec::new();
        let mut c = t.seek(Bound::Unbounded, Bound::Unbounded, dir, &mut NoAccounting);
        while let Some(e) = c.next(&t, &mut NoAccounting) {
            let entry = (e.key.to_vec(), e.payload);
            prop_assert!(model.contains_key(&entry), "returned an entry not in the tree");
            if let Some(prev) = seen.last() {
                prop_assert!(if backward { *prev > entry } else { *prev < entry }, "order");
            }
            seen.push(entry);
            for _ in 0..rng.below(4) {
                let (k, p) = random_entry(&mut rng);
                if rng.below(3) == 0 {
                    if t.delete(&k, p, &mut NoAccounting) {
                        model.remove(&(k.clone(), p));
                        deleted.insert((k, p));
                    }
                } else if t.insert(&k, p, 16, &mut NoAccounting).is_ok() {
                    model.insert((k, p), ());
                }
            }
        }
        let seen: BTreeSet<_> = seen.into_iter().collect();
        for entry in start.difference(&deleted) {
            prop_assert!(seen.contains(entry), "lost {:?}", entry);
        }
        t.check_invariants().map_err(TestCaseError::fail)?;
    }
}

/// A long deterministic run: tens of thousands of operations on 256-byte pages.
#[test]
fn long_random_run_keeps_every_entry() {
    let mut rng = Rng::new(7);
    let mut t = BTree::new(BTreeConfig::with_page_size(256), &mut NoAccounting).unwrap();
    let mut model = Model::new();
    let mut splits = 0;
    for step in 0..60_000u32 {
        let k = rng.below(50_000).to_be_bytes()[5..].to_vec();
        let p = rng.below(4);
        match rng.below(1000) {
            0..=699 => {
                if let Ok(out) = t.insert(&k, p, 8 * (1 + rng.below(7) as u16), &mut NoAccounting) {
                    splits += out.splits.len();
                    model.insert((k, p), ());
                }
            }
            700..=997 => assert_eq!(
                t.delete(&k, p, &mut NoAccounting),
                model.remove(&(k, p)).is_some()
            ),
            _ => {
                let r = rng.below(20) as u8;
                let dead = |k: &[u8]| k.last().is_some_and(|b| b % 20 == r);
                t.bulk_delete(|k, _| dead(k), &mut NoAccounting);
                model.retain(|(k, _), _| !dead(k));
            }
        }
        if step % 5000 == 0 {
            t.check_invariants().unwrap();
        }
    }
    t.check_invariants().unwrap();
    assert!(splits > 2000, "{splits} splits");
    let all = t.scan(
        Bound::Unbounded,
        Bound::Unbounded,
        Direction::Forward,
        usize::MAX,
        &mut NoAccounting,
    );
    let want: Vec<_> = model.keys().cloned().collect();
    assert_eq!(all, want);
}
