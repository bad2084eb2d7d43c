//! Model-based property test: random accesses, pins, checkpoints and drops against a
//! model of what storage holds (each page's latest version, as a counter).
//!
//! The model checks the one rule a buffer pool must never break — a modified page is
//! never lost: a page read from storage is always its latest version, an evicted
//! clean page was already current in storage, and after a final checkpoint storage
//! holds every page's latest version. It also checks the counters against their
//! definitions and that the pool never holds more pages than frames.

use super::*;
use crate::storage::Access;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone)]
enum Op {
    Access {
        rel: u32,
        page: u32,
        how: Access,
        pin: bool,
    },
    Unpin(usize),
    Checkpoint,
    Drop(u32),
}

fn op() -> impl Strategy<Value = Op> {
    let how = prop_oneof![
        4 => Just(Access::Read),
        3 => Just(Access::Write),
        1 => Just(Access::Extend),
    ];
    prop_oneof![
        20 => (0..3u32, 0..12u32, how, prop::bool::weighted(0.1))
            .prop_map(|(rel, page, how, pin)| Op::Access { rel, page, how, pin }),
        3 => (0..8usize).prop_map(Op::Unpin),
        1 => Just(Op::Checkpoint),
        1 => (0..3u32).prop_map(Op::Drop),
    ]
}

#[derive(Default)]
struct Model {
    latest: BTreeMap<BufferTag, u64>,
    storage: BTreeMap<BufferTag, u64>,
    dirty: BTreeSet<BufferTag>,
    pinned: Vec<BufferTag>,
    lookups: u64,
    dirtied: u64,
    written: u64,
}

impl Model {
    fn current_in_storage(&self, tag: &BufferTag) -> bool {
        self.storage.get(tag).copied().unwrap_or(0) == self.latest.get(tag).copied().unwrap_or(0)
    }

    fn write_back(&mut self, tag: BufferTag) {
        assert!(self.dirty.remove(&tag), "{tag} written but was clean");
        let v = self.latest.get(&tag).copied().unwrap_or(0);
        self.storage.insert(tag, v);
        self.written += 1;
    }
}

fn apply(pool: &mut BufferPool, m: &mut Model, op: Op) {
    match op {
        Op::Access {
            rel,
            page,
            how,
            pin,
        } => access(pool, m, BufferTag::main(rel, page), how, pin),
        Op::Unpin(i) => {
            if !m.pinned.is_empty() {
                let tag = m.pinned.swap_remove(i % m.pinned.len());
                pool.unpin(tag).unwrap();
            }
        }
        Op::Checkpoint => {
            let written = pool.checkpoint();
            assert_eq!(written.iter().copied().collect::<BTreeSet<_>>(), m.dirty);
            written.into_iter().for_each(|t| m.write_back(t));
        }
        Op::Drop(rel) => {
            pool.drop_relation(rel);
            m.latest.retain(|t, _| t.rel != rel);
            m.storage.retain(|t, _| t.rel != rel);
            m.dirty.retain(|t| t.rel != rel);
            m.pinned.retain(|t| t.rel != rel);
        }
    }
}

fn access(pool: &mut BufferPool, m: &mut Model, tag: BufferTag, how: Access, pin: bool) {
    let was_resident = pool.lookup(tag).is_some();
    let before = pool.stats();
    let result = if pin {
        pool.access_pinned(tag, how)
    } else {
        pool.access(tag, how)
    };
    let o = match result {
        Ok(o) => o,
        Err(e) => {
            assert_eq!(e, BufferError::NoUnpinnedBuffers);
            assert!(
                pool.frames().all(|f| f.pins > 0),
                "error with a free victim"
            );
            assert_eq!(pool.stats(), before);
            return;
        }
    };
    if how != Access::Extend {
        m.lookups += 1;
        let expected = if was_resident {
            AccessKind::Hit
        } else {
            AccessKind::Read
        };
        assert_eq!(o.kind, expected);
    } else {
        m.written += 1;
    }
    if o.kind == AccessKind::Read {
        assert!(m.current_in_storage(&tag), "{tag} read back stale");
    }
    if let Some(ev) = o.evicted {
        if ev.written_back {
            m.write_back(ev.tag);
        } else {
            assert!(!m.dirty.contains(&ev.tag), "dirty {} dropped", ev.tag);
            assert!(m.current_in_storage(&ev.tag));
        }
    }
    if how != Access::Read {
        *m.latest.entry(tag).or_insert(0) += 1;
        assert_eq!(o.dirtied, m.dirty.insert(tag));
        m.dirtied += o.dirtied as u64;
    }
    if pin {
        m.pinned.push(tag);
    }
}

fn check_counters(pool: &BufferPool, m: &Model) {
    pool.check_invariants();
    assert!(pool.used_frames() <= pool.capacity());
    let s = pool.stats();
    assert_eq!(s.shared_hit + s.shared_read, m.lookups);
    assert_eq!(s.shared_dirtied, m.dirtied);
    assert_eq!(s.shared_written, m.written);
    assert_eq!(s.io_write_bytes, s.shared_written * pool.page_size() as u64);
    assert_eq!(s.io_read_bytes, s.shared_read * pool.page_size() as u64);
    assert_eq!(pool.dirty_frames(), m.dirty.len());
}

fn run(frames: usize, policy: ReplacementPolicy, ops: Vec<Op>) {
    let mut pool = BufferPool::new(frames, 8192, policy).unwrap();
    let mut m = Model::default();
    for op in ops {
        apply(&mut pool, &mut m, op);
        check_counters(&pool, &m);
    }
    apply(&mut pool, &mut m, Op::Checkpoint);
    check_counters(&pool, &m);
    for (tag, v) in &m.latest {
        assert_eq!(m.storage.get(tag), Some(v), "{tag} lost its last version");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn clock_sweep_never_loses_a_write(frames in 4usize..=16, ops in prop::collection::vec(op(), 1..400)) {
        run(frames, ReplacementPolicy::ClockSweep, ops);
    }

    #[test]
    fn lru_never_loses_a_write(frames in 4usize..=16, ops in prop::collection::vec(op(), 1..400)) {
        run(frames, ReplacementPolicy::Lru, ops);
    }
}
