//! Split rules and byte accounting, observed through whole trees.

use super::*;
use crate::storage::NoAccounting;

fn tree(page_size: u32) -> BTree {
    BTree::new(BTreeConfig::with_page_size(page_size), &mut NoAccounting).unwrap()
}

fn put(t: &mut BTree, n: u64, size: u16) -> InsertOutcome {
    t.insert(&n.to_be_bytes(), n, size, &mut NoAccounting)
        .unwrap()
}

fn fill(t: &BTree, page: u32) -> f64 {
    t.page_info(page).unwrap().fill()
}

#[test]
fn a_rightmost_8k_leaf_holds_291_tuples_of_24_bytes() {
    // 8152 usable bytes / (24 + 4) = 291 items; the 292nd forces the first split.
    let mut t = tree(8192);
    for n in 0..291 {
        assert!(!put(&mut t, n, 24).split(), "split at {n}");
    }
    assert_eq!(t.page_info(1).unwrap().used_bytes, 291 * 28);
    let out = put(&mut t, 291, 24);
    assert!(out.root_split());
    // The left page now carries a high key: 28 more bytes.
    let left = t.page_info(1).unwrap();
    assert_eq!(left.used_bytes, (left.entries as u32 + 1) * 28);
    t.check_invariants().unwrap();
}

#[test]
fn rightmost_leaf_splits_leave_ninety_percent() {
    let mut t = tree(8192);
    for n in 0..100_000 {
        put(&mut t, n, 16);
    }
    let chain = t.leaf_chain();
    let full = &chain[..chain.len() - 1];
    for &p in full {
        let f = fill(&t, p);
        assert!((0.895..=0.905).contains(&f), "leaf {p} fill {f}");
    }
    t.check_invariants().unwrap();
}

#[test]
fn leftmost_leaf_splits_go_fifty_fifty() {
    let mut t = tree(8192);
    let mut events = Vec::new();
    for n in (0..50_000u64).rev() {
        events.extend(
            put(&mut t, n, 24)
                .splits
                .into_iter()
                .filter(|s| s.level == 0),
        );
    }
    // The first split is of the rightmost (only) leaf: 90/10. All later ones split
    // the leftmost leaf, which is not rightmost: 50/50.
    assert!(events[0].left_entries > 8 * events[0].right_entries);
    for e in &events[1..] {
        assert!(e.left_entries.abs_diff(e.right_entries) <= 1, "{e:?}");
    }
    t.check_invariants().unwrap();
}

#[test]
fn middle_leaf_splits_balance_bytes() {
    let mut t = tree(8192);
    for n in 0..2_000u64 {
        put(&mut t, n * 1000, 16);
    }
    let chain = t.leaf_chain();
    assert!(chain.len() >= 4);
    // Fill the gap after key 500_000 (a middle leaf) until it splits.
    let mut n = 500_001;
    let event = loop {
        let out = put(&mut t, n, 16);
        n += 1;
        if let Some(e) = out.splits.into_iter().find(|s| s.level == 0) {
            break e;
        }
    };
    assert_ne!(event.left, chain[0]);
    assert_ne!(Some(event.left), chain.last().copied());
    let (l, r) = (fill(&t, event.left), fill(&t, event.right));
    assert!((l - r).abs() < 0.01, "left {l} right {r}");
    t.check_invariants().unwrap();
}

#[test]
fn rightmost_internal_splits_leave_seventy_percent() {
    let mut t = tree(8192);
    let mut first_internal_split = None;
    let mut n = 0u64;
    while first_internal_split.is_none() {
        let out = put(&mut t, n, 16);
        first_internal_split = out.splits.into_iter().find(|s| s.level == 1);
        n += 1;
    }
    let e = first_internal_split.unwrap();
    let f = fill(&t, e.left);
    assert!((0.69..=0.71).contains(&f), "internal left fill {f}");
    assert_eq!(t.height(), 3);
    t.check_invariants().unwrap();
}

#[test]
fn other_internal_splits_go_fifty_fifty() {
    let mut t = tree(1024);
    let mut events = Vec::new();
    for n in (0..60_000u64).rev() {
        events.extend(
            put(&mut t, n, 16)
                .splits
                .into_iter()
                .filter(|s| s.level == 1),
        );
    }
    assert!(events.len() > 3);
    // Counted when the split happened (the left page fills up again afterwards).
    for e in &events[1..] {
        assert!(e.left_entries.abs_diff(e.right_entries) <= 1, "{e:?}");
    }
    t.check_invariants().unwrap();
}

#[test]
fn caller_errors_are_typed() {
    let mut t = tree(8192);
    let big = t.insert(b"k", 1, 2712, &mut NoAccounting);
    assert_eq!(
        big,
        Err(BTreeError::TupleTooLarge {
            size: 2712,
            max: 2704
        })
    );
    assert!(t.insert(b"k", 1, 2704, &mut NoAccounting).is_ok());
    assert_eq!(
        t.insert(b"k", 1, 24, &mut NoAccounting),
        Err(BTreeError::DuplicateEntry { payload: 1 })
    );
    assert_eq!(
        t.insert(b"k", 2, 20, &mut NoAccounting),
        Err(BTreeError::TupleSizeInvalid { size: 20 })
    );
    assert!(t
        .insert(&vec![0; 70_000], 3, 24, &mut NoAccounting)
        .is_err());
    assert!(BTree::new(BTreeConfig::with_page_size(12), &mut NoAccounting).is_err());
    assert_eq!(t.len(), 1);
}

#[test]
fn max_size_tuples_always_split() {
    let mut t = tree(8192);
    for n in 0..300u64 {
        put(&mut t, (n * 7919) % 300, 2704);
    }
    t.check_invariants().unwrap();
    assert_eq!(t.len(), 300);
}

#[test]
fn shape_lists_levels_root_first() {
    let mut t = tree(512);
    for n in 0..2_000u64 {
        put(&mut t, n, 16);
    }
    let shape = t.shape();
    assert_eq!(shape.levels.len() as u32, t.height());
    assert_eq!(shape.levels[0].pages.len(), 1);
    assert_eq!(shape.levels[0].pages[0].page, t.root());
    let leaves = &shape.levels.last().unwrap().pages;
    assert_eq!(leaves.len() as u32, t.leaf_count());
    assert_eq!(
        leaves[0].first_key.as_deref(),
        Some(&0u64.to_be_bytes()[..])
    );
    assert_eq!(
        leaves.last().unwrap().last_key.as_deref(),
        Some(&1999u64.to_be_bytes()[..])
    );
    let per_level = t.pages_per_level();
    assert_eq!(per_level.iter().sum::<u32>() + 1, t.page_count());
    assert_eq!(per_level[0], t.leaf_count());
}
