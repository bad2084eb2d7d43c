//! Model-based property test of the heap against `BTreeMap`s.
//!
//! The model holds the live rows (tid → row) and the index entries a caller would
//! keep (tid → row id): one per INSERT and per non-HOT UPDATE, removed when VACUUM
//! reports their TID dead. Random INSERT / UPDATE / DELETE / VACUUM sequences must
//! keep: the live rows equal to the model (nothing lost, nothing resurrected), scans
//! never returning dead rows, every live row reachable from an index entry, no index
//! entry ever leading to another row (a line pointer is never reused while an entry
//! names it), and every page within its byte and line pointer limits.

use super::*;
use crate::storage::NoAccounting;
use proptest::prelude::*;
use std::collections::BTreeMap;

type Row = (u32, u64); // (row id, value)

#[derive(Debug, Clone)]
enum Op {
    Insert {
        value: u64,
        size: u16,
    },
    Update {
        pick: usize,
        value: u64,
        size: u16,
        hot: bool,
    },
    Delete {
        pick: usize,
    },
    Vacuum {
        insert_between: Option<u16>,
    },
    VacuumNoIndexes,
}

fn size() -> impl Strategy<Value = u16> {
    prop_oneof![Just(24u16), Just(40), 25..200u16, Just(700)]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (any::<u64>(), size()).prop_map(|(value, size)| Op::Insert { value, size }),
        6 => (any::<usize>(), any::<u64>(), size(), any::<bool>())
            .prop_map(|(pick, value, size, hot)| Op::Update { pick, value, size, hot }),
        4 => any::<usize>().prop_map(|pick| Op::Delete { pick }),
        1 => prop::option::of(size()).prop_map(|insert_between| Op::Vacuum { insert_between }),
    ]
}

#[derive(Default)]
struct Model {
    live: BTreeMap<Tid, Row>,
    index: BTreeMap<Tid, u32>,
    next_id: u32,
    /// Without indexes, VACUUM frees pointers at once and entries are not modelled.
    no_indexes: bool,
}

impl Model {
    fn pick(&self, pick: usize) -> Option<Tid> {
        let n = self.live.len();
        (n > 0).then(|| *self.live.keys().nth(pick % n).unwrap())
    }

    fn add_index_entry(&mut self, tid: Tid, id: u32) {
        if self.no_indexes {
            return;
        }
        let stale = self.index.insert(tid, id);
        assert!(stale.is_none(), "line pointer {tid} reused while indexed");
    }
}

fn insert(h: &mut Heap<Row>, m: &mut Model, value: u64, size: u16) {
    let id = m.next_id;
    m.next_id += 1;
    let out = h.insert((id, value), size, 1, &mut NoAccounting).unwrap();
    assert!(m.live.insert(out.tid, (id, value)).is_none());
    m.add_index_entry(out.tid, id);
}

fn apply(h: &mut Heap<Row>, m: &mut Model, op: Op) {
    match op {
        Op::Insert { value, size } => insert(h, m, value, size),
        Op::Update {
            pick,
            value,
            size,
            hot,
        } => {
            let Some(tid) = m.pick(pick) else { return };
            let (id, _) = m.live.remove(&tid).unwrap();
            let out = h
                .update(tid, (id, value), size, hot, 1, &mut NoAccounting)
                .unwrap();
            assert!(!out.hot || (hot && out.same_page));
            m.live.insert(out.new_tid, (id, value));
            if !out.hot {
                m.add_index_entry(out.new_tid, id);
            }
        }
        Op::Delete { pick } => {
            let Some(tid) = m.pick(pick) else { return };
            h.delete(tid, 1, &mut NoAccounting).unwrap();
            m.live.remove(&tid);
        }
        Op::Vacuum { insert_between } => {
            let prune = h.vacuum_prune(&mut NoAccounting);
            if let Some(size) = insert_between {
                insert(h, m, 0, size);
            }
            for tid in &prune.dead_tids {
                let mut held = HeldPage::new();
                assert!(h.fetch(*tid, &mut held, &mut NoAccounting).is_none());
                assert!(
                    m.index.remove(tid).is_some(),
                    "dead {tid} had no index entry"
                );
            }
            h.vacuum_finish(prune, &mut NoAccounting);
        }
        Op::VacuumNoIndexes => unreachable!("only used when the model has no index"),
    }
}

fn check(h: &Heap<Row>, m: &Model) {
    h.check_invariants();
    let scanned: BTreeMap<Tid, Row> = h.scan(&mut NoAccounting).map(|(t, r)| (t, *r)).collect();
    assert_eq!(scanned, m.live, "live rows differ from the model");
    assert_eq!(h.live_rows(), m.live.len() as u64);
    let current: BTreeMap<u32, Tid> = m.live.iter().map(|(t, r)| (r.0, *t)).collect();
    let mut reached = BTreeMap::new();
    let mut held = HeldPage::new();
    for (&entry, &id) in &m.index {
        if let Some((tid, row)) = h.fetch(entry, &mut held, &mut NoAccounting) {
            assert_eq!(row.0, id, "index entry {entry} leads to another row");
            assert_eq!(current.get(&id), Some(&tid));
            reached.insert(id, tid);
        }
    }
    assert_eq!(reached, current, "a live row is unreachable from the index");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn heap_matches_model(
        page_size in prop_oneof![Just(1024u32), Just(8192)],
        fillfactor in 10u8..=100,
        ops in prop::collection::vec(op(), 1..250),
    ) {
        let mut h: Heap<Row> = Heap::new(HeapConfig { page_size, fillfactor }).unwrap();
        let mut m = Model::default();
        for op in ops {
            apply(&mut h, &mut m, op);
            check(&h, &m);
        }
        apply(&mut h, &mut m, Op::Vacuum { insert_between: None });
        check(&h, &m);
        prop_assert_eq!(h.dead_tuples(), 0);
    }

    #[test]
    fn vacuum_without_indexes_keeps_rows(
        ops in prop::collection::vec(op(), 1..200),
        vacuum_every in 5usize..40,
    ) {
        let mut h: Heap<Row> = Heap::new(HeapConfig { page_size: 1024, fillfactor: 100 }).unwrap();
        let mut m = Model { no_indexes: true, ..Model::default() };
        for (i, op) in ops.into_iter().enumerate() {
            let op = match op {
                Op::Vacuum { .. } => Op::VacuumNoIndexes,
                other => other,
            };
            match op {
                Op::VacuumNoIndexes => { h.vacuum_no_indexes(&mut NoAccounting); }
                other => apply(&mut h, &mut m, other),
            }
            if i % vacuum_every == 0 {
                h.vacuum_no_indexes(&mut NoAccounting);
            }
            h.check_invariants();
            let scanned: BTreeMap<Tid, Row> = h.scan(&mut NoAccounting).map(|(t, r)| (t, *r)).collect();
            prop_assert_eq!(&scanned, &m.live);
        }
    }
}
