//! Compaction end to end: tombstones go only when safe, counters, events, the
//! introspection shape, and refusals.

use crate::lsm::sst::builder::{SizeHint, SstBuilder};
use crate::lsm::*;

fn manual(style: CompactionStyle) -> LsmOptions {
    LsmOptions {
        auto_compact: false,
        compaction: CompactionOptions {
            style,
            num_levels: 3,
            ..CompactionOptions::default()
        },
        ..LsmOptions::default()
    }
}

fn entries_for(lsm: &Lsm, key: &[u8]) -> Vec<ValueKind> {
    let mut out = Vec::new();
    for files in &lsm.levels().levels {
        for f in files {
            let sst = lsm.sst(f.id).expect("sst");
            out.extend(
                (0..sst.len())
                    .map(|i| sst.entry(i))
                    .filter(|e| e.0 == key)
                    .map(|e| e.2),
            );
        }
    }
    out
}

fn get(lsm: &Lsm, key: &[u8]) -> Option<Vec<u8>> {
    lsm.get(&mut BlockCache::new(0), key, &ReadOptions::default())
        .value
}

fn task(inputs: Vec<LevelInputs>, output_level: usize, trivial_move: bool) -> CompactionTask {
    CompactionTask {
        reason: CompactionReason::Manual,
        inputs,
        output_level,
        max_output_file_size: None,
        trivial_move,
        bottommost: false,
    }
}

/// L2 holds `old` (and whatever else `others` adds); L0 a tombstone for `k`.
fn leveled_with_tombstone_above(others: &[&[u8]]) -> Lsm {
    let mut lsm = Lsm::new(manual(CompactionStyle::Leveled)).expect("options");
    for k in others {
        lsm.put(k, b"old").expect("put");
    }
    lsm.compact_all().expect("to L1");
    let id = lsm.levels().levels[1][0].id;
    lsm.run_compaction(&task(
        vec![LevelInputs {
            level: 1,
            ssts: vec![id],
        }],
        2,
        true,
    ))
    .expect("move to L2");
    lsm.put(b"k", b"v").expect("put");
    lsm.delete(b"k").expect("delete");
    lsm.put(b"z", b"z").expect("put");
    lsm.flush().expect("flush");
    let l0 = lsm.levels().levels[0][0].id;
    lsm.run_compaction(&task(
        vec![LevelInputs {
            level: 0,
            ssts: vec![l0],
        }],
        1,
        false,
    ))
    .expect("L0 to L1");
    lsm
}

#[test]
fn leveled_keeps_a_tombstone_while_older_data_lies_below() {
    let lsm = leveled_with_tombstone_above(&[b"a", b"k"]);
    // L2 [a, k] holds k: the tombstone stays in L1; k's value above it goes.
    assert_eq!(
        entries_for(&lsm, b"k"),
        vec![ValueKind::Delete, ValueKind::Put]
    );
    assert_eq!(get(&lsm, b"k"), None);
    let mut lsm = lsm;
    lsm.compact_all().expect("full");
    assert!(entries_for(&lsm, b"k").is_empty());
    assert_eq!(get(&lsm, b"a"), Some(b"old".to_vec()));
    lsm.check_invariants().expect("invariants");
}

#[test]
fn leveled_drops_a_tombstone_when_nothing_below_holds_its_key() {
    // L2 covers [a, b] only: nothing older for k, the tombstone goes at once.
    let lsm = leveled_with_tombstone_above(&[b"a", b"b"]);
    assert!(entries_for(&lsm, b"k").is_empty());
    assert_eq!(lsm.stats().compaction_dropped_tombstones, 1);
    assert_eq!(get(&lsm, b"z"), Some(b"z".to_vec()));
}

#[test]
fn universal_keeps_a_tombstone_unless_the_oldest_run_is_merged() {
    let mut lsm = Lsm::new(manual(CompactionStyle::Universal)).expect("options");
    lsm.put(b"k", b"v").expect("put");
    lsm.flush().expect("oldest run");
    lsm.put(b"x", b"x").expect("put");
    lsm.flush().expect("middle run");
    lsm.delete(b"k").expect("delete");
    lsm.flush().expect("newest run");
    let runs: Vec<u64> = lsm.levels().levels[0].iter().map(|f| f.id).collect();
    assert_eq!(runs.len(), 3);
    lsm.run_compaction(&task(
        vec![LevelInputs {
            level: 0,
            ssts: runs[..2].to_vec(),
        }],
        0,
        false,
    ))
    .expect("newest two");
    assert_eq!(
        entries_for(&lsm, b"k"),
        vec![ValueKind::Delete, ValueKind::Put]
    );
    assert_eq!(get(&lsm, b"k"), None);
    lsm.check_invariants().expect("invariants");
    lsm.compact_all().expect("all runs");
    assert!(entries_for(&lsm, b"k").is_empty());
    assert_eq!(lsm.levels().levels[0].len(), 1);
}

#[test]
fn counters_and_events_describe_what_happened() {
    let mut lsm = Lsm::new(LsmOptions {
        write_buffer_size: 4096,
        ..LsmOptions::default()
    })
    .expect("options");
    for i in 0..2000u32 {
        lsm.put(&i.to_be_bytes(), b"some value").expect("put");
    }
    let s = *lsm.stats();
    assert!(s.memtables_sealed >= 5 && s.flushes == s.memtables_sealed);
    assert!(s.compactions >= 1, "{s:?}");
    assert_eq!(s.user_bytes_written, 2000 * 14);
    let wa = s.write_amplification();
    assert!(
        (wa - (s.flush_bytes + s.compaction_write_bytes) as f64 / s.user_bytes_written as f64)
            .abs()
            < 1e-9
    );
    let events = lsm.take_events();
    let flushes = events
        .iter()
        .filter(|e| matches!(e, LsmEvent::Flush { .. }))
        .count() as u64;
    let sealed = events
        .iter()
        .filter(|e| matches!(e, LsmEvent::MemtableSealed { .. }))
        .count() as u64;
    assert_eq!((flushes, sealed), (s.flushes, s.memtables_sealed));
    let mut read = 0;
    let mut written = 0;
    for e in &events {
        if let LsmEvent::CompactionFinish {
            read_bytes,
            write_bytes,
            outputs,
            ..
        } = e
        {
            read += read_bytes;
            written += write_bytes;
            assert_eq!(
                *write_bytes,
                outputs.iter().map(|o| o.file_size).sum::<u64>()
            );
        }
    }
    assert_eq!(
        (read, written),
        (s.compaction_read_bytes, s.compaction_write_bytes)
    );
    assert!(lsm.take_events().is_empty());
}

#[test]
fn shape_shows_memtables_levels_and_cache() {
    let mut lsm = Lsm::new(LsmOptions {
        owner: 3,
        auto_flush: false,
        ..LsmOptions::default()
    })
    .expect("options");
    lsm.put(b"a", b"1").expect("put");
    lsm.flush().expect("flush");
    lsm.put(b"b", b"2").expect("put");
    assert!(lsm.seal_memtable());
    lsm.put(b"c", b"3").expect("put");
    let mut cache = BlockCache::new(1 << 20);
    lsm.get(&mut cache, b"a", &ReadOptions::default());
    let shape = lsm.shape(Some(&cache));
    assert_eq!(shape.memtable.entries, 1);
    assert_eq!(shape.immutables.len(), 1);
    assert_eq!(shape.levels.len(), 1);
    let sst = &shape.levels[0].ssts[0];
    assert_eq!(
        (sst.entries, sst.smallest.as_slice(), sst.largest.as_slice()),
        (1, &b"a"[..], &b"a"[..])
    );
    assert_eq!(shape.levels[0].bytes, sst.file_size);
    let occ = shape.cache.expect("cache");
    assert_eq!(occ.blocks, 4, "filter index, filter, index, data");
    assert_eq!(shape.last_sequence, 3);
}

#[test]
fn refusals_are_typed_errors() {
    let mut lsm = Lsm::new(LsmOptions::default()).expect("options");
    assert!(matches!(
        lsm.put(&vec![0; MAX_KEY_LEN + 1], b""),
        Err(LsmError::KeyTooLarge { .. })
    ));
    assert!(matches!(
        lsm.put(b"k", &vec![0; MAX_VALUE_LEN + 1]),
        Err(LsmError::ValueTooLarge { .. })
    ));
    assert_eq!(lsm.last_sequence(), 0);
    let bad = LsmOptions {
        write_buffer_size: 0,
        ..LsmOptions::default()
    };
    assert!(matches!(Lsm::new(bad), Err(LsmError::InvalidOption { .. })));
    let t = task(
        vec![LevelInputs {
            level: 0,
            ssts: vec![99],
        }],
        0,
        true,
    );
    assert!(matches!(
        lsm.run_compaction(&t),
        Err(LsmError::UnknownSst { id: 99 })
    ));
    let t = task(
        vec![LevelInputs {
            level: 0,
            ssts: vec![1],
        }],
        9,
        true,
    );
    assert!(matches!(
        compaction::apply(lsm.levels(), &t, vec![]),
        Err(LsmError::InvalidTask { .. })
    ));
    assert!(!LsmError::TableTooLarge.to_string().is_empty());
    // Data never moves up a level.
    let mut leveled = Lsm::new(manual(CompactionStyle::Leveled)).expect("options");
    leveled.put(b"k", b"v").expect("put");
    leveled.compact_all().expect("to L1");
    let l1 = leveled.levels().levels[1][0].id;
    let up = task(
        vec![LevelInputs {
            level: 1,
            ssts: vec![l1],
        }],
        0,
        true,
    );
    assert!(matches!(
        leveled.run_compaction(&up),
        Err(LsmError::InvalidTask { .. })
    ));
    leveled.check_invariants().expect("unchanged");
    assert_eq!(leveled.levels().levels[1][0].id, l1);
}

/// A full compaction of one flushed file that drops nothing writes that file
/// again: the result is what building it entry by entry gives (blocks, index,
/// filter, properties), under a new id, counted as read and written once.
#[test]
fn a_lone_file_kept_whole_is_rewritten_as_the_builder_would_build_it() {
    for style in [CompactionStyle::Leveled, CompactionStyle::Universal] {
        let mut lsm = Lsm::new(manual(style)).expect("options");
        for i in 0..5000u32 {
            // Overwrites: the flush keeps only the newest of each key.
            let k = (i.wrapping_mul(2_654_435_761) % 3000).to_be_bytes();
            lsm.put(&k, &i.to_le_bytes().repeat(1 + (i % 5) as usize))
                .expect("put");
        }
        lsm.flush().expect("flush");
        let input = lsm.sst(lsm.levels().levels[0][0].id).expect("L0").clone();
        let before = *lsm.stats();
        lsm.compact_all().expect("compact");
        let level = lsm.levels().levels.iter().rposition(|l| !l.is_empty());
        let files = &lsm.levels().levels[level.expect("a level")];
        assert_eq!(files.len(), 1, "{style:?}");
        let output = lsm.sst(files[0].id).expect("output");
        assert!(output.id() > input.id());

        let mut builder = SstBuilder::new(output.id(), &lsm.options().table, SizeHint::default());
        for i in 0..input.len() as u32 {
            builder
                .add(input.user_key(i), input.trailer(i), input.value(i))
                .expect("add");
        }
        let rebuilt = builder.finish().expect("finish").expect("entries");
        assert_eq!(format!("{rebuilt:?}"), format!("{output:?}"), "{style:?}");

        let s = lsm.stats();
        assert_eq!(
            s.compaction_read_bytes - before.compaction_read_bytes,
            input.file_size()
        );
        assert_eq!(
            s.compaction_write_bytes - before.compaction_write_bytes,
            rebuilt.file_size()
        );
        assert!(lsm.sst(input.id()).is_none(), "the input is gone");
    }
}

/// A lone file holding older versions (a snapshot kept them at the flush) is
/// not kept whole once that snapshot is gone: the compaction drops them. The
/// builder's count of older versions is what tells it to look.
#[test]
fn a_lone_file_with_versions_nobody_sees_is_rewritten_without_them() {
    for style in [CompactionStyle::Leveled, CompactionStyle::Universal] {
        let mut lsm = Lsm::new(manual(style)).expect("options");
        lsm.put(b"a", b"1").expect("put");
        lsm.put(b"k", b"old").expect("put");
        let snapshot = lsm.snapshot();
        lsm.put(b"k", b"new").expect("put");
        lsm.flush().expect("flush");
        let flushed = lsm.sst(lsm.levels().levels[0][0].id).expect("L0");
        assert_eq!((flushed.len(), flushed.older_versions), (3, 1), "{style:?}");
        lsm.release_snapshot(snapshot);
        lsm.compact_all().expect("compact");
        assert_eq!(entries_for(&lsm, b"k"), vec![ValueKind::Put], "{style:?}");
        assert_eq!(get(&lsm, b"k"), Some(b"new".to_vec()));
        assert_eq!(lsm.stats().compaction_dropped_versions, 1, "{style:?}");
    }
}
