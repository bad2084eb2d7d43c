//! Unit tests: page capacity, placement, MVCC states, VACUUM, visibility map.

use super::*;
use crate::storage::{AccessLog, NoAccounting};

const ROW: u16 = 40; // (bigint, timestamptz)

fn heap(fillfactor: u8) -> Heap<u64> {
    Heap::new(HeapConfig {
        page_size: 8192,
        fillfactor,
    })
    .unwrap()
}

fn filled(rows: u64) -> (Heap<u64>, Vec<Tid>) {
    let mut h = heap(100);
    let tids = (0..rows)
        .map(|i| h.insert(i, ROW, 1, &mut NoAccounting).unwrap().tid)
        .collect();
    (h, tids)
}

#[test]
fn article_000_rows_per_page_and_page_count() {
    let (h, tids) = filled(1_000_000);
    assert_eq!(h.page_info(0).unwrap().live, 185);
    assert_eq!(h.page_count(), 5406);
    assert_eq!(tids[185], Tid::new(1, 1));
    let info = h.page_info(0).unwrap();
    assert_eq!(info.used_bytes, 24 + 185 * 44);
    assert!(info.free_bytes < 40);
    // The last 50 000 rows (article 000's query) span ≈270 heap pages.
    let first = tids[1_000_000 - 50_000].page;
    let last = tids[999_999].page;
    assert_eq!(last - first + 1, 271);
}

#[test]
fn held_page_makes_consecutive_fetches_one_access_per_page() {
    let (h, tids) = filled(20_000);
    let mut log = AccessLog::default();
    let mut held = HeldPage::new();
    for &tid in tids[1000..6000].iter().rev() {
        assert!(h.fetch(tid, &mut held, &mut log).is_some());
    }
    let pages = tids[5999].page - tids[1000].page + 1;
    assert_eq!(log.0.len() as u32, pages);
    assert!(log.0.iter().all(|&(_, how)| how == Access::Read));
}

#[test]
fn insert_reports_extend_write_and_the_full_page_check() {
    let mut h = heap(100);
    let mut log = AccessLog::default();
    for i in 0..187 {
        h.insert(i, ROW, 1, &mut log).unwrap();
    }
    assert_eq!(log.0[0], (0, Access::Extend));
    assert_eq!(log.0[1], (0, Access::Write));
    assert_eq!(log.0[184], (0, Access::Write));
    // Row 186: page 0 is found full (read), page 1 is added.
    assert_eq!(log.0[185], (0, Access::Read));
    assert_eq!(log.0[186], (1, Access::Extend));
    assert_eq!(log.0[187], (1, Access::Write));
    assert_eq!(log.0.len(), 188);
}

#[test]
fn fillfactor_leaves_room_that_updates_use() {
    let mut h = heap(50);
    let tids: Vec<Tid> = (0..200)
        .map(|i| h.insert(i, ROW, 1, &mut NoAccounting).unwrap().tid)
        .collect();
    assert_eq!(h.page_info(0).unwrap().live, 92);
    // Updates of page 0's rows stay on page 0 (HOT) while the reserve lasts.
    let mut log = AccessLog::default();
    let out = h.update(tids[0], 1000, ROW, true, 1, &mut log).unwrap();
    assert!(out.same_page && out.hot);
    assert_eq!(log.0, vec![(0, Access::Write)]);
    let info = h.page_info(0).unwrap();
    assert_eq!((info.live, info.dead), (92, 1));
}

#[test]
fn update_hot_chain_is_followed_from_the_root() {
    let mut h = heap(100);
    let root = h.insert(1, ROW, 1, &mut NoAccounting).unwrap().tid;
    let a = h.update(root, 2, ROW, true, 1, &mut NoAccounting).unwrap();
    let b = h
        .update(a.new_tid, 3, ROW, true, 1, &mut NoAccounting)
        .unwrap();
    assert!(a.hot && b.hot);
    let mut held = HeldPage::new();
    assert_eq!(
        h.fetch(root, &mut held, &mut NoAccounting),
        Some((b.new_tid, &3))
    );
    assert_eq!(h.get(root), None);
    assert_eq!(h.get(b.new_tid), Some(&3));
    // A non-HOT update ends the chain: the old index entry finds nothing.
    let c = h
        .update(b.new_tid, 4, ROW, false, 1, &mut NoAccounting)
        .unwrap();
    assert!(c.same_page && !c.hot);
    assert_eq!(h.fetch(root, &mut held, &mut NoAccounting), None);
    assert_eq!(
        h.fetch(c.new_tid, &mut held, &mut NoAccounting),
        Some((c.new_tid, &4))
    );
    assert_eq!(
        h.update(root, 9, ROW, true, 1, &mut NoAccounting),
        Err(HeapError::NotLive(root))
    );
}

#[test]
fn update_of_a_row_on_a_full_page_moves_it() {
    let (mut h, tids) = filled(185);
    let mut log = AccessLog::default();
    let out = h.update(tids[3], 7, ROW, true, 1, &mut log).unwrap();
    assert!(!out.same_page && !out.hot && out.extended);
    assert_eq!(out.new_tid, Tid::new(1, 1));
    // Old page modified; it is the target page, found full but not read again.
    assert_eq!(log.0, vec![(0, Access::Write), (1, Access::Extend)]);
}

#[test]
fn delete_only_marks_and_scans_skip_dead_rows() {
    let (mut h, tids) = filled(400);
    for &t in tids.iter().step_by(2) {
        h.delete(t, 1, &mut NoAccounting).unwrap();
    }
    assert_eq!(
        h.delete(tids[0], 1, &mut NoAccounting),
        Err(HeapError::NotLive(tids[0]))
    );
    assert_eq!((h.live_rows(), h.dead_tuples()), (200, 200));
    assert_eq!(
        h.page_info(0).unwrap().used_bytes,
        24 + 185 * 44,
        "space kept"
    );
    let mut log = AccessLog::default();
    let rows: Vec<u64> = h.scan(&mut log).map(|(_, r)| *r).collect();
    assert_eq!(rows, (1..400).step_by(2).collect::<Vec<u64>>());
    assert_eq!(
        log.0,
        vec![(0, Access::Read), (1, Access::Read), (2, Access::Read)]
    );
}

#[test]
fn vacuum_reclaims_space_and_the_fsm_reuses_it() {
    let (mut h, tids) = filled(185 * 3);
    for &t in &tids[185..195] {
        h.delete(t, 1, &mut NoAccounting).unwrap();
    }
    let prune = h.vacuum_prune(&mut NoAccounting);
    assert_eq!(prune.dead_tids, tids[185..195].to_vec());
    assert!(prune.is_dead(tids[190]) && !prune.is_dead(tids[0]));
    assert_eq!(prune.tuples_removed, 10);
    let report = h.vacuum_finish(prune, &mut NoAccounting);
    assert_eq!(report.dead_pointers_removed, 10);
    assert_eq!(h.dead_tuples(), 0);
    assert!(h.page_info(1).unwrap().free_bytes >= 10 * 40);
    // The next inserts go to page 1's freed line pointers, not a new page.
    let t = h.insert(9, ROW, 1, &mut NoAccounting).unwrap().tid;
    assert_eq!(t, Tid::new(1, 1));
    for i in 0..9 {
        assert_eq!(h.insert(i, ROW, 1, &mut NoAccounting).unwrap().tid.page, 1);
    }
    assert_eq!(h.insert(0, ROW, 1, &mut NoAccounting).unwrap().tid.page, 3);
}

#[test]
fn visibility_map_set_by_vacuum_cleared_by_changes() {
    let (mut h, tids) = filled(185 * 3);
    assert_eq!(h.visibility_map().fork_pages(), 0);
    let report = h.vacuum_no_indexes(&mut NoAccounting);
    assert_eq!(report.pages_set_all_visible, 3);
    assert_eq!(report.vm_accesses, vec![(0, Access::Extend)]);
    assert!((0..3).all(|p| h.visibility_map().is_all_visible(p)));
    let d = h.delete(tids[0], 1, &mut NoAccounting).unwrap();
    assert_eq!(d.vm_cleared, Some(0));
    // Page 1 is full: the new version goes to a new page, which has no VM bit.
    let u = h
        .update(tids[200], 1, ROW, false, 1, &mut NoAccounting)
        .unwrap();
    assert_eq!(u.new_tid.page, 3);
    assert_eq!(u.vm_cleared, [Some(0), None]);
    let i = h.insert(5, ROW, 1, &mut NoAccounting).unwrap();
    assert_eq!((i.tid.page, i.vm_cleared), (3, None));
    assert_eq!(h.visibility_map().all_visible_count(), 1, "page 2 only");
    h.vacuum_no_indexes(&mut NoAccounting);
    assert_eq!(h.visibility_map().all_visible_count(), 4);
    // A full page's row moves to the slot VACUUM freed on page 0 (found via the FSM).
    let u = h
        .update(tids[400], 2, ROW, false, 1, &mut NoAccounting)
        .unwrap();
    assert_eq!(u.new_tid, Tid::new(0, 1));
    assert_eq!(u.vm_cleared, [Some(0), Some(0)]);
    assert!(!h.visibility_map().is_all_visible(2) && !h.visibility_map().is_all_visible(0));
}

#[test]
fn vacuum_skips_long_all_visible_runs_but_not_the_last_page() {
    let (mut h, _) = filled(185 * 100);
    h.vacuum_no_indexes(&mut NoAccounting);
    let mut log = AccessLog::default();
    let report = h.vacuum_no_indexes(&mut log);
    assert_eq!((report.pages_skipped, report.pages_scanned), (99, 1));
    assert_eq!(log.0, vec![(99, Access::Read)]);
    assert_eq!(report.vm_accesses, vec![(0, Access::Read)]);
}

#[test]
fn vacuum_after_delete_all_truncates_the_heap() {
    let (mut h, tids) = filled(1000);
    for &t in &tids {
        h.delete(t, 1, &mut NoAccounting).unwrap();
    }
    let prune = h.vacuum_prune(&mut NoAccounting);
    assert_eq!(prune.dead_tids.len(), 1000);
    let report = h.vacuum_finish(prune, &mut NoAccounting);
    assert_eq!(
        report.truncated,
        Some(Truncation {
            from_pages: 6,
            to_pages: 0,
            vm_fork_pages: 0
        })
    );
    assert_eq!(h.page_count(), 0);
    assert_eq!(
        h.insert(1, ROW, 1, &mut NoAccounting).unwrap().tid,
        Tid::new(0, 1)
    );
}

#[test]
fn pruning_keeps_hot_roots_as_redirects() {
    let mut h = heap(100);
    let root = h.insert(1, ROW, 1, &mut NoAccounting).unwrap().tid;
    let mut cur = root;
    for v in 2..6 {
        cur = h
            .update(cur, v, ROW, true, 1, &mut NoAccounting)
            .unwrap()
            .new_tid;
    }
    let prune = h.vacuum_prune(&mut NoAccounting);
    assert!(prune.dead_tids.is_empty(), "no index entry to remove");
    assert_eq!(prune.tuples_removed, 4);
    h.vacuum_finish(prune, &mut NoAccounting);
    let info = h.page_info(0).unwrap();
    assert_eq!(
        (info.live, info.dead, info.redirects, info.unused),
        (1, 0, 1, 3)
    );
    assert!(info.all_visible);
    let mut held = HeldPage::new();
    assert_eq!(h.fetch(root, &mut held, &mut NoAccounting), Some((cur, &5)));
    // Deleting the row: the redirect becomes a dead pointer for index cleanup.
    h.delete(cur, 1, &mut NoAccounting).unwrap();
    let prune = h.vacuum_prune(&mut NoAccounting);
    assert_eq!(prune.dead_tids, vec![root]);
    assert!(h.items(0).any(|i| matches!(i, HeapItem::DeadPointer)));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let mut h = heap(100);
    let too_big = h.insert(0, 8200, 1, &mut NoAccounting);
    assert!(matches!(
        too_big,
        Err(HeapError::TupleTooLarge { max: 8160, .. })
    ));
    let t = Tid::new(3, 1);
    assert_eq!(
        h.delete(t, 1, &mut NoAccounting),
        Err(HeapError::InvalidTid(t))
    );
    h.insert(0, ROW, 1, &mut NoAccounting).unwrap();
    let t = Tid::new(0, 0);
    assert_eq!(
        h.delete(t, 1, &mut NoAccounting),
        Err(HeapError::InvalidTid(t))
    );
    let mut held = HeldPage::new();
    assert_eq!(h.fetch(Tid::new(9, 1), &mut held, &mut NoAccounting), None);
    assert_eq!(h.fetch(Tid::new(0, 99), &mut held, &mut NoAccounting), None);
    assert!(Heap::<u64>::new(HeapConfig {
        page_size: 8192,
        fillfactor: 5
    })
    .is_err());
    assert_eq!(h.items(42).count(), 0);
    assert!(h.page_info(42).is_none());
}
