//! Model-based tests: random operation sequences against a `BTreeMap`, with
//! write buffers and blocks small enough that every few operations flush and
//! compact, under both compaction styles.

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::lsm::*;

type Model = BTreeMap<Vec<u8>, Vec<u8>>;

#[derive(Debug, Clone)]
pub(super) enum Op {
    Put(Vec<u8>, Vec<u8>),
    Delete(Vec<u8>),
    /// A write batch: puts (Some) and deletes (None), applied in order.
    Batch(Vec<(Vec<u8>, Option<Vec<u8>>)>),
    Get(Vec<u8>),
    /// Seek, then up to n nexts.
    SeekNext(Vec<u8>, usize),
    /// SeekForPrev, then up to n prevs.
    SeekPrev(Vec<u8>, usize),
    /// Seek, then a walk of nexts (true) and prevs (false).
    Zigzag(Vec<u8>, Vec<bool>),
    Flush,
    CompactAll,
    TakeSnapshot,
    /// Read the n-th live snapshot: a full scan in both directions and a get.
    ReadSnapshot(usize, Vec<u8>),
    ReleaseSnapshot(usize),
}

fn key() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![0u8, 1, 2, 3, 0x7f, 0xfe, 0xff]),
        0..4,
    )
}

fn value() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..8),
        1 => prop::collection::vec(any::<u8>(), 20..60),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        30 => (key(), value()).prop_map(|(k, v)| Op::Put(k, v)),
        8 => key().prop_map(Op::Delete),
        3 => prop::collection::vec((key(), prop::option::of(value())), 0..20).prop_map(Op::Batch),
        6 => key().prop_map(Op::Get),
        4 => (key(), 0usize..12).prop_map(|(k, n)| Op::SeekNext(k, n)),
        4 => (key(), 0usize..12).prop_map(|(k, n)| Op::SeekPrev(k, n)),
        3 => (key(), prop::collection::vec(any::<bool>(), 0..12)).prop_map(|(k, w)| Op::Zigzag(k, w)),
        2 => Just(Op::Flush),
        1 => Just(Op::CompactAll),
        1 => Just(Op::TakeSnapshot),
        2 => (any::<usize>(), key()).prop_map(|(i, k)| Op::ReadSnapshot(i, k)),
        1 => any::<usize>().prop_map(Op::ReleaseSnapshot),
    ]
}

/// Small everything, so flushes and compactions happen every few operations.
fn options(style: CompactionStyle) -> impl Strategy<Value = LsmOptions> {
    (
        (256u64..2048, 64u32..256, 1u32..5, 64u32..200),
        (
            prop::sample::select(vec![0u32, 4, 10]),
            any::<bool>(),
            2u32..5,
        ),
        (512u64..4096, 2u32..5, 256u64..1024, 3u32..6),
        (0u32..50, 2u32..5, 50u32..300),
        // Mostly inline flushes; sometimes sealed memtables pile up until a Flush.
        prop::sample::select(vec![true, true, true, false]),
    )
        .prop_map(
            move |(
                (wbs, block, restart, index),
                (bloom, prefix, trigger),
                (base, mult, target, levels),
                (ratio, width, amp),
                auto_flush,
            )| LsmOptions {
                owner: 1,
                write_buffer_size: wbs,
                table: TableOptions {
                    block_size: block,
                    block_restart_interval: restart,
                    index_block_size: index,
                    min_keys_per_index_block: 2,
                    filter_block_size: 64,
                    bloom_bits_per_key: bloom,
                    bloom_key: if prefix {
                        BloomKey::fixed_prefix(1)
                    } else {
                        BloomKey::whole_key()
                    },
                    ..TableOptions::default()
                },
                compaction: CompactionOptions {
                    style,
                    level0_file_num_compaction_trigger: trigger,
                    max_bytes_for_level_base: base,
                    max_bytes_for_level_multiplier: mult as f64,
                    target_file_size_base: target,
                    num_levels: levels,
                    universal_size_ratio: ratio,
                    universal_min_merge_width: width,
                    universal_max_size_amplification_percent: amp,
                    ..CompactionOptions::default()
                },
                auto_flush,
                ..LsmOptions::default()
            },
        )
}

pub(super) struct Harness {
    pub(super) lsm: Lsm,
    pub(super) cache: BlockCache,
    pub(super) model: Model,
    snapshots: Vec<(Snapshot, Model)>,
}

fn read_at(snapshot: Option<Snapshot>) -> ReadOptions {
    ReadOptions {
        snapshot,
        ..ReadOptions::default()
    }
}

impl Harness {
    pub(super) fn new(opts: LsmOptions) -> Self {
        Harness {
            lsm: Lsm::new(opts).expect("valid options"),
            cache: BlockCache::new(4096),
            model: Model::new(),
            snapshots: Vec::new(),
        }
    }

    pub(super) fn apply(&mut self, op: &Op) -> Result<(), TestCaseError> {
        match op {
            Op::Put(k, v) => {
                self.lsm
                    .put(k, v)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                self.model.insert(k.clone(), v.clone());
            }
            Op::Delete(k) => {
                self.lsm
                    .delete(k)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                self.model.remove(k);
            }
            Op::Batch(ops) => {
                let mut b = WriteBatch::new();
                for (k, v) in ops {
                    match v {
                        Some(v) => {
                            b.put(k, v);
                            self.model.insert(k.clone(), v.clone());
                        }
                        None => {
                            b.delete(k);
                            self.model.remove(k);
                        }
                    }
                }
                let before = self.lsm.last_sequence();
                let last = self
                    .lsm
                    .write_batch(&b)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(last, before + ops.len() as u64);
            }
            Op::Get(k) => check_get(&self.lsm, &mut self.cache, &self.model, None, k)?,
            Op::SeekNext(k, n) => {
                check_seek_next(&self.lsm, &mut self.cache, &self.model, None, k, *n)?
            }
            Op::SeekPrev(k, n) => {
                check_seek_prev(&self.lsm, &mut self.cache, &self.model, None, k, *n)?
            }
            Op::Zigzag(k, walk) => check_zigzag(&self.lsm, &mut self.cache, &self.model, k, walk)?,
            Op::Flush => {
                self.lsm
                    .flush()
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            Op::CompactAll => {
                self.lsm
                    .compact_all()
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let runs = self
                    .lsm
                    .levels()
                    .levels
                    .iter()
                    .filter(|l| !l.is_empty())
                    .count();
                prop_assert!(runs <= 1, "compact_all left {} levels", runs);
            }
            Op::TakeSnapshot => {
                let s = self.lsm.snapshot();
                self.snapshots.push((s, self.model.clone()));
            }
            Op::ReadSnapshot(i, k) if !self.snapshots.is_empty() => {
                let (s, m) = &self.snapshots[i % self.snapshots.len()];
                check_scan(&self.lsm, &mut self.cache, m, Some(*s))?;
                check_get(&self.lsm, &mut self.cache, m, Some(*s), k)?;
                check_seek_prev(&self.lsm, &mut self.cache, m, Some(*s), k, 3)?;
            }
            Op::ReleaseSnapshot(i) if !self.snapshots.is_empty() => {
                let (s, _) = self.snapshots.remove(i % self.snapshots.len());
                self.lsm.release_snapshot(s);
            }
            Op::ReadSnapshot(..) | Op::ReleaseSnapshot(_) => {}
        }
        self.lsm.check_invariants().map_err(TestCaseError::fail)
    }
}

fn check_get(
    lsm: &Lsm,
    cache: &mut BlockCache,
    model: &Model,
    s: Option<Snapshot>,
    k: &[u8],
) -> Result<(), TestCaseError> {
    let got = lsm.get(cache, k, &read_at(s));
    prop_assert_eq!(got.value.as_ref(), model.get(k), "get {:?}", k);
    Ok(())
}

fn entry(it: &DbIter) -> (Vec<u8>, Vec<u8>) {
    (it.key().to_vec(), it.value().to_vec())
}

fn check_seek_next(
    lsm: &Lsm,
    cache: &mut BlockCache,
    model: &Model,
    s: Option<Snapshot>,
    k: &[u8],
    n: usize,
) -> Result<(), TestCaseError> {
    let want: Vec<_> = model
        .range(k.to_vec()..)
        .take(n + 1)
        .map(|(a, b)| (a.clone(), b.clone()))
        .collect();
    let mut it = lsm.iter(cache, &read_at(s));
    let mut got = Vec::new();
    let mut ok = it.seek(k);
    while ok && got.len() < n + 1 {
        got.push(entry(&it));
        if got.len() < n + 1 {
            ok = it.next();
        }
    }
    prop_assert_eq!(got, want, "seek {:?} + nexts", k);
    Ok(())
}

fn check_seek_prev(
    lsm: &Lsm,
    cache: &mut BlockCache,
    model: &Model,
    s: Option<Snapshot>,
    k: &[u8],
    n: usize,
) -> Result<(), TestCaseError> {
    let want: Vec<_> = model
        .range(..=k.to_vec())
        .rev()
        .take(n + 1)
        .map(|(a, b)| (a.clone(), b.clone()))
        .collect();
    let mut it = lsm.iter(cache, &read_at(s));
    let mut got = Vec::new();
    let mut ok = it.seek_for_prev(k);
    while ok && got.len() < n + 1 {
        got.push(entry(&it));
        if got.len() < n + 1 {
            ok = it.prev();
        }
    }
    prop_assert_eq!(got, want, "seek_for_prev {:?} + prevs", k);
    Ok(())
}

fn check_zigzag(
    lsm: &Lsm,
    cache: &mut BlockCache,
    model: &Model,
    k: &[u8],
    walk: &[bool],
) -> Result<(), TestCaseError> {
    let keys: Vec<&Vec<u8>> = model.keys().collect();
    let mut pos = keys.partition_point(|x| x.as_slice() < k) as isize;
    let mut it = lsm.iter(cache, &ReadOptions::default());
    it.seek(k);
    for &forward in walk {
        let expected = keys.get(pos as usize).filter(|_| pos >= 0);
        prop_assert_eq!(it.valid(), expected.is_some());
        match expected {
            Some(key) => {
                prop_assert_eq!(it.key(), key.as_slice());
                prop_assert_eq!(it.value(), model[*key].as_slice());
            }
            None => return Ok(()),
        }
        pos += if forward { 1 } else { -1 };
        if forward {
            it.next();
        } else {
            it.prev();
        }
    }
    Ok(())
}

/// A full scan both ways equals the model.
pub(super) fn check_scan(
    lsm: &Lsm,
    cache: &mut BlockCache,
    model: &Model,
    s: Option<Snapshot>,
) -> Result<(), TestCaseError> {
    let want: Vec<_> = model.iter().map(|(a, b)| (a.clone(), b.clone())).collect();
    let mut it = lsm.iter(cache, &read_at(s));
    let mut fwd = Vec::new();
    let mut ok = it.seek_to_first();
    while ok {
        fwd.push(entry(&it));
        ok = it.next();
    }
    prop_assert_eq!(&fwd, &want);
    let mut back = Vec::new();
    let mut ok = it.seek_to_last();
    while ok {
        back.push(entry(&it));
        ok = it.prev();
    }
    back.reverse();
    prop_assert_eq!(&back, &want);
    Ok(())
}

fn run(opts: LsmOptions, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut h = Harness::new(opts);
    for op in ops {
        h.apply(op)?;
    }
    check_scan(&h.lsm, &mut h.cache, &h.model, None)?;
    for (s, m) in &h.snapshots {
        check_scan(&h.lsm, &mut h.cache, m, Some(*s))?;
    }
    h.lsm
        .compact_all()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    check_scan(&h.lsm, &mut h.cache, &h.model, None)?;
    for (s, m) in &h.snapshots {
        check_scan(&h.lsm, &mut h.cache, m, Some(*s))?;
    }
    h.lsm.check_invariants().map_err(TestCaseError::fail)
}

/// Every write is a new key (DocDB's case: the hybrid time is in the key), so
/// every byte written reaches an SST at least once.
fn run_unique(opts: LsmOptions, keys: &[u64]) -> Result<(), TestCaseError> {
    let mut lsm = Lsm::new(opts).expect("valid options");
    for (i, k) in keys.iter().enumerate() {
        let key = [k.to_be_bytes(), (i as u64).to_be_bytes()].concat();
        lsm.put(&key, &[7; 5])
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    lsm.flush()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let wa = lsm.stats().write_amplification();
    prop_assert!(wa >= 1.0, "write amplification {}", wa);
    lsm.check_invariants().map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn universal_matches_btreemap(opts in options(CompactionStyle::Universal), ops in prop::collection::vec(op(), 1..400)) {
        run(opts, &ops)?;
    }

    #[test]
    fn leveled_matches_btreemap(opts in options(CompactionStyle::Leveled), ops in prop::collection::vec(op(), 1..400)) {
        run(opts, &ops)?;
    }

    #[test]
    fn write_amplification_is_at_least_one(
        opts in prop_oneof![options(CompactionStyle::Universal), options(CompactionStyle::Leveled)],
        keys in prop::collection::vec(any::<u64>(), 1..600),
    ) {
        run_unique(opts, &keys)?;
    }
}
