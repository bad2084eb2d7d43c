//! Which pages each operation reports, and how.

use std::ops::Bound;

use super::*;
use crate::storage::{Access, AccessLog, NoAccounting, PageNo};

use Access::{Extend, Read, Write};

fn key(n: u64) -> [u8; 8] {
    n.to_be_bytes()
}

fn logged(f: impl FnOnce(&mut AccessLog)) -> Vec<(PageNo, Access)> {
    let mut log = AccessLog::default();
    f(&mut log);
    log.0
}

#[test]
fn creation_extends_the_metapage_and_the_root() {
    let log = logged(|io| {
        BTree::new(BTreeConfig::default(), io).unwrap();
    });
    assert_eq!(log, vec![(0, Extend), (1, Extend)]);
}

#[test]
fn inserts_report_descent_leaf_and_splits() {
    let mut t = BTree::new(BTreeConfig::with_page_size(256), &mut NoAccounting).unwrap();
    // 256-byte pages: 216 usable bytes, 10 items of 20 bytes on the rightmost leaf.
    for n in 0..10 {
        assert_eq!(
            logged(|io| {
                t.insert(&key(n), n, 16, io).unwrap();
            }),
            vec![(1, Write)]
        );
    }
    let log = logged(|io| {
        t.insert(&key(10), 10, 16, io).unwrap();
    });
    assert_eq!(log, vec![(1, Write), (2, Extend), (3, Extend), (0, Write)]);
    assert_eq!(t.root(), 3);
    // Fill the left leaf (block 1, now with a sibling) from the left until it splits.
    let mut n = 0;
    let log = loop {
        n += 1;
        let log = logged(|io| {
            t.insert(&key(0), 100 + n, 16, io).unwrap();
        });
        if log.len() > 2 {
            break log;
        }
        assert_eq!(log, vec![(3, Read), (1, Write)]);
    };
    assert_eq!(
        log,
        vec![(3, Read), (1, Write), (4, Extend), (2, Write), (3, Write)]
    );
    t.check_invariants().unwrap();
}

#[test]
fn delete_writes_the_leaf_only_when_it_removes() {
    let mut t = BTree::new(BTreeConfig::with_page_size(256), &mut NoAccounting).unwrap();
    for n in 0..40 {
        t.insert(&key(n), n, 16, &mut NoAccounting).unwrap();
    }
    let root = t.root();
    let hit = logged(|io| assert!(t.delete(&key(5), 5, io)));
    assert_eq!(hit.len(), t.height() as usize);
    assert_eq!(hit[0], (root, Read));
    assert_eq!(hit.last().unwrap().1, Write);
    let miss = logged(|io| assert!(!t.delete(&key(5), 5, io)));
    assert_eq!(miss.last().unwrap().1, Read);
}

#[test]
fn a_scan_reports_the_path_then_each_leaf_once() {
    let mut t = BTree::new(BTreeConfig::with_page_size(256), &mut NoAccounting).unwrap();
    for n in 0..1000 {
        t.insert(&key(n), n, 16, &mut NoAccounting).unwrap();
    }
    let chain = t.leaf_chain();
    let log = logged(|io| {
        let all = t.scan(
            Bound::Unbounded,
            Bound::Unbounded,
            Direction::Forward,
            usize::MAX,
            io,
        );
        assert_eq!(all.len(), 1000);
    });
    let h = t.height() as usize;
    assert!(log.iter().all(|(_, how)| *how == Read));
    assert_eq!(log.len(), h - 1 + chain.len());
    let leaves: Vec<PageNo> = log[h - 1..].iter().map(|(p, _)| *p).collect();
    assert_eq!(leaves, chain);
    // Backward: the same leaves in reverse.
    let log = logged(|io| {
        t.scan(
            Bound::Unbounded,
            Bound::Unbounded,
            Direction::Backward,
            usize::MAX,
            io,
        );
    });
    let back: Vec<PageNo> = log[h - 1..].iter().map(|(p, _)| *p).collect();
    assert_eq!(back, chain.iter().rev().copied().collect::<Vec<_>>());
}

#[test]
fn a_bounded_scan_stops_on_the_high_key_in_both_directions() {
    let mut t = BTree::new(BTreeConfig::with_page_size(256), &mut NoAccounting).unwrap();
    for n in 0..1000 {
        t.insert(&key(n), n, 16, &mut NoAccounting).unwrap();
    }
    for (lo, hi) in [(0, 0), (10, 30), (95, 400), (0, 999), (500, 499)] {
        let (l, h) = (key(lo), key(hi));
        let mut fwd = AccessLog::default();
        let mut c = t.seek(
            Bound::Included(&l),
            Bound::Included(&h),
            Direction::Forward,
            &mut fwd,
        );
        let mut got = Vec::new();
        while let Some(e) = c.next(&t, &mut fwd) {
            got.push(e.payload);
        }
        let expect: Vec<u64> = (lo..=hi).collect();
        assert_eq!(got, expect);
        let mut bwd = AccessLog::default();
        let mut d = t.seek(
            Bound::Included(&l),
            Bound::Included(&h),
            Direction::Backward,
            &mut bwd,
        );
        while d.next(&t, &mut bwd).is_some() {}
        assert_eq!(c.leaves_visited(), d.leaves_visited(), "range {lo}..={hi}");
        assert_eq!(fwd.0.len(), bwd.0.len(), "range {lo}..={hi}");
    }
}

#[test]
fn ascending_inserts_take_the_fastpath_once_the_root_is_at_level_two() {
    let mut t = BTree::new(BTreeConfig::with_page_size(256), &mut NoAccounting).unwrap();
    let mut n = 0;
    while t.height() < 3 {
        t.insert(&key(n), n, 16, &mut NoAccounting).unwrap();
        n += 1;
    }
    let mut fast = 0;
    let mut slow = 0;
    for _ in 0..500 {
        let log = logged(|io| {
            t.insert(&key(n), n, 16, io).unwrap();
        });
        n += 1;
        let leaf = *t.leaf_chain().last().unwrap();
        if log == vec![(leaf, Write)] {
            fast += 1;
        } else {
            slow += 1;
            assert_eq!(
                log[0].1, Read,
                "a failed fastpath check or a descent reads first"
            );
        }
    }
    // A 256-byte rightmost leaf takes about 10 entries: most inserts skip the descent.
    assert!(fast >= 3 * slow, "fast {fast} slow {slow}");
    t.check_invariants().unwrap();
}
