//! Unit tests of the counter rules and the replacement policies.

use super::*;
use crate::storage::{Access, PageAccess};

fn pool(frames: usize) -> BufferPool {
    BufferPool::new(frames, 8192, ReplacementPolicy::ClockSweep).unwrap()
}

fn t(page: PageNo) -> BufferTag {
    BufferTag::main(1, page)
}

fn resident(p: &BufferPool) -> Vec<Option<PageNo>> {
    p.frames().map(|f| f.tag.map(|t| t.page)).collect()
}

#[test]
fn default_size_is_16384_frames() {
    let p = BufferPool::with_shared_buffers(
        DEFAULT_SHARED_BUFFERS,
        DEFAULT_PAGE_SIZE,
        ReplacementPolicy::default(),
    )
    .unwrap();
    assert_eq!(p.capacity(), 16384);
    assert!(BufferPool::new(0, 8192, ReplacementPolicy::Lru).is_err());
    assert!(BufferPool::new(4, 1000, ReplacementPolicy::Lru).is_err());
    assert!(BufferPool::with_shared_buffers(1 << 60, 8192, ReplacementPolicy::Lru).is_err());
}

#[test]
fn first_access_reads_then_hits() {
    let mut p = pool(4);
    let o = p.access(t(7), Access::Read).unwrap();
    assert_eq!(o.kind, AccessKind::Read);
    assert!(!o.dirtied && o.evicted.is_none());
    assert_eq!(p.access(t(7), Access::Read).unwrap().kind, AccessKind::Hit);
    assert_eq!(p.access(t(7), Access::Write).unwrap().kind, AccessKind::Hit);
    let s = p.stats();
    assert_eq!((s.shared_read, s.shared_hit), (1, 2));
    assert_eq!(s.io_read_bytes, 8192);
    p.check_invariants();
}

#[test]
fn dirtied_counts_once_until_written() {
    let mut p = pool(4);
    assert!(p.access(t(1), Access::Write).unwrap().dirtied);
    assert!(!p.access(t(1), Access::Write).unwrap().dirtied);
    assert_eq!(p.stats().shared_dirtied, 1);
    assert_eq!(p.checkpoint(), vec![t(1)]);
    assert_eq!(p.stats().shared_written, 1);
    assert_eq!(p.dirty_frames(), 0);
    assert!(p.checkpoint().is_empty(), "nothing left to write");
    assert!(p.access(t(1), Access::Write).unwrap().dirtied);
    assert_eq!(p.stats().shared_dirtied, 2);
}

#[test]
fn dirty_victim_is_written_back_clean_one_is_not() {
    let mut p = pool(2);
    p.access(t(0), Access::Write).unwrap();
    p.access(t(1), Access::Read).unwrap();
    // Both usage counts are 1: the sweep clears them and takes frame 0 (page 0).
    let o = p.access(t(2), Access::Read).unwrap();
    assert_eq!(
        o.evicted,
        Some(Eviction {
            tag: t(0),
            written_back: true
        })
    );
    let o = p.access(t(3), Access::Read).unwrap();
    assert_eq!(
        o.evicted,
        Some(Eviction {
            tag: t(1),
            written_back: false
        })
    );
    let s = p.stats();
    assert_eq!(
        (s.shared_written, s.evictions, s.io_write_bytes),
        (1, 2, 8192)
    );
}

#[test]
fn checkpoint_writes_in_tag_order() {
    let mut p = pool(8);
    for tag in [
        BufferTag::main(2, 0),
        t(5),
        BufferTag::new(1, Fork::Vm, 0),
        t(3),
    ] {
        p.access(tag, Access::Write).unwrap();
    }
    p.access(t(9), Access::Read).unwrap();
    let written = p.checkpoint();
    assert_eq!(
        written,
        vec![
            t(3),
            t(5),
            BufferTag::new(1, Fork::Vm, 0),
            BufferTag::main(2, 0)
        ]
    );
    assert_eq!(p.relation_stats(1).shared_written, 3);
    assert_eq!(p.relation_stats(2).shared_written, 1);
}

#[test]
fn clock_sweep_follows_usage_counts() {
    let mut p = pool(3);
    for page in [0, 1, 2] {
        p.access(t(page), Access::Read).unwrap(); // usage 1 each
    }
    p.access(t(0), Access::Read).unwrap();
    p.access(t(0), Access::Read).unwrap(); // page 0: usage 3
    p.access(t(1), Access::Read).unwrap(); // page 1: usage 2
                                           // Sweep: 3→2, 2→1, 1→0, 2→1, 1→0, then frame 2 (page 2) is at 0.
    let o = p.access(t(3), Access::Read).unwrap();
    assert_eq!(o.evicted.map(|e| e.tag), Some(t(2)));
    assert_eq!(o.frame, 2);
    assert_eq!(p.clock_hand(), Some(0));
    let usage: Vec<u8> = p.frames().map(|f| f.usage_count).collect();
    assert_eq!(usage, vec![1, 0, 1]);
    // Next victim: frame 0 at usage 1 → 0, frame 1 at usage 0 → page 1.
    let o = p.access(t(4), Access::Read).unwrap();
    assert_eq!(o.evicted.map(|e| e.tag), Some(t(1)));
    assert_eq!(resident(&p), vec![Some(0), Some(4), Some(3)]);
}

#[test]
fn usage_count_caps_at_five_and_ignores_held_pins() {
    let mut p = pool(2);
    for _ in 0..20 {
        p.access(t(0), Access::Read).unwrap();
    }
    assert_eq!(p.lookup(t(0)).unwrap().usage_count, MAX_USAGE_COUNT);
    p.access_pinned(t(1), Access::Read).unwrap();
    for _ in 0..3 {
        p.access(t(1), Access::Read).unwrap();
    }
    let f = p.lookup(t(1)).unwrap();
    assert_eq!((f.usage_count, f.pins), (1, 1), "re-reading a held page");
}

#[test]
fn pinned_frames_are_never_victims() {
    let mut p = pool(2);
    p.access_pinned(t(0), Access::Read).unwrap();
    for page in 1..50 {
        let o = p.access(t(page), Access::Read).unwrap();
        assert_ne!(o.evicted.map(|e| e.tag), Some(t(0)));
    }
    p.access_pinned(t(100), Access::Read).unwrap();
    let before = p.stats();
    assert_eq!(
        p.access(t(200), Access::Read),
        Err(BufferError::NoUnpinnedBuffers)
    );
    assert_eq!(p.stats(), before, "a failed access counts nothing");
    p.unpin(t(0)).unwrap();
    assert_eq!(p.unpin(t(0)), Err(BufferError::NotPinned(t(0))));
    assert_eq!(p.unpin(t(999)), Err(BufferError::NotResident(t(999))));
    let o = p.access(t(200), Access::Read).unwrap();
    assert_eq!(o.evicted.map(|e| e.tag), Some(t(0)));
    p.check_invariants();
}

#[test]
fn extend_is_neither_hit_nor_read() {
    let mut p = pool(1);
    let o = p.access(t(0), Access::Extend).unwrap();
    assert_eq!(o.kind, AccessKind::Extend);
    assert!(o.dirtied);
    let s = p.stats();
    assert_eq!((s.shared_hit, s.shared_read), (0, 0));
    assert_eq!((s.extends, s.shared_written, s.shared_dirtied), (1, 1, 1));
    // The filled page is written again when evicted.
    let o = p.access(t(1), Access::Extend).unwrap();
    assert_eq!(o.evicted.map(|e| e.written_back), Some(true));
    assert_eq!(p.stats().shared_written, 3);
    assert_eq!(p.stats().io_write_bytes, 3 * 8192);
}

#[test]
fn lru_evicts_least_recently_used() {
    let mut p = BufferPool::new(3, 8192, ReplacementPolicy::Lru).unwrap();
    for page in [0, 1, 2, 0, 0, 0, 1] {
        p.access(t(page), Access::Read).unwrap();
    }
    // Page 2 was used least recently, although page 1 has a lower usage count.
    let o = p.access(t(3), Access::Read).unwrap();
    assert_eq!(o.evicted.map(|e| e.tag), Some(t(2)));
    assert_eq!(p.clock_hand(), None);
    p.access_pinned(t(0), Access::Read).unwrap();
    let o = p.access(t(4), Access::Read).unwrap();
    assert_eq!(
        o.evicted.map(|e| e.tag),
        Some(t(1)),
        "0 is older but pinned"
    );
}

#[test]
fn drop_and_truncate_free_frames_without_writing() {
    let mut p = pool(8);
    for page in 0..4 {
        p.access(t(page), Access::Write).unwrap();
    }
    p.access(BufferTag::new(1, Fork::Vm, 0), Access::Write)
        .unwrap();
    p.access(BufferTag::main(2, 0), Access::Write).unwrap();
    assert_eq!(p.truncate_relation(1, Fork::Main, 2), 2);
    assert!(p.lookup(t(1)).is_some() && p.lookup(t(2)).is_none());
    assert_eq!(p.drop_relation(1), 3);
    assert_eq!(p.used_frames(), 1);
    assert_eq!(p.checkpoint(), vec![BufferTag::main(2, 0)]);
    assert_eq!(p.stats().shared_written, 1);
    // Freed frames are reused before anything is evicted.
    for page in 10..17 {
        assert!(p.access(t(page), Access::Read).unwrap().evicted.is_none());
    }
    p.check_invariants();
}

#[test]
fn per_relation_counters_and_snapshots() {
    let mut p = pool(2);
    p.access(BufferTag::main(1, 0), Access::Write).unwrap();
    let before = p.stats();
    p.access(BufferTag::main(2, 0), Access::Read).unwrap();
    p.access(BufferTag::main(2, 1), Access::Read).unwrap(); // evicts rel 1's dirty page
    let d = p.stats().since(&before);
    assert_eq!((d.shared_read, d.shared_written), (2, 1));
    assert_eq!(
        p.relation_stats(1).shared_written,
        1,
        "charged to the page's rel"
    );
    assert_eq!(p.relation_stats(2).shared_read, 2);
    assert_eq!(p.relation_stats(3), BufferStats::default());
    assert_eq!(p.relations().count(), 2);
    p.reset_stats();
    assert!(p.stats().is_empty());
    assert_eq!(p.used_frames(), 2, "reset keeps the cache");
}

#[test]
fn rel_access_forwards_counts_and_observes() {
    let mut p = pool(2);
    let mut events: Vec<BufferEvent> = Vec::new();
    {
        let mut io = RelAccess::new(&mut p, 5).observe(&mut events);
        io.access(0, Access::Extend);
        io.access(0, Access::Write);
        io.set_fork(Fork::Vm);
        io.access(0, Access::Read);
        io.access(1, Access::Read); // evicts VM page 0 (usage 1 < 2)
        io.access(2, Access::Read); // evicts the dirty main page
        let s = io.finish().unwrap();
        assert_eq!((s.extends, s.shared_hit, s.shared_read), (1, 1, 3));
        assert_eq!(
            (s.evictions, s.shared_written),
            (2, 2),
            "extend + write-back"
        );
    }
    assert_eq!(events.len(), 5);
    assert_eq!(events[2].tag, BufferTag::new(5, Fork::Vm, 0));
    assert_eq!(
        events[3].outcome.evicted.map(|e| e.written_back),
        Some(false)
    );
    assert_eq!(
        events[4].outcome.evicted.map(|e| e.written_back),
        Some(true)
    );
    let mut io = RelAccess::new(&mut p, 6);
    io.access_pinned(0, Access::Read).unwrap();
    io.access_pinned(1, Access::Read).unwrap();
    io.access(2, Access::Read);
    assert_eq!(io.error(), Some(&BufferError::NoUnpinnedBuffers));
    io.unpin(0).unwrap();
    io.access(2, Access::Read);
    assert_eq!(io.finish(), Err(BufferError::NoUnpinnedBuffers));
}

#[test]
fn pool_never_exceeds_capacity() {
    let mut p = pool(5);
    for i in 0..500u32 {
        let how = if i % 3 == 0 {
            Access::Write
        } else {
            Access::Read
        };
        p.access(BufferTag::main(i % 4, (i * 7) % 23), how).unwrap();
        assert!(p.used_frames() <= 5);
        p.check_invariants();
    }
    assert_eq!(p.stats().accesses(), 500);
}
