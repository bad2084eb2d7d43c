//! Reads: which blocks they touch, through the cache or around it, bloom filter
//! counters, snapshots, and the events they record.

use crate::lsm::*;

/// A 53-byte user key (61 bytes with RocksDB's trailer), like article 000's
/// index entries, ordered by `i`.
fn doc_key(i: u64) -> Vec<u8> {
    let mut k = Vec::with_capacity(53);
    k.extend_from_slice(b"\x48\x80\x00\x01\x53");
    k.extend_from_slice(&(i * 1_000_003).to_be_bytes());
    k.extend_from_slice(b"\x21\x49");
    k.extend_from_slice(&i.to_be_bytes());
    k.resize(53, 0x21);
    k
}

/// The document part of a key (everything before the padding): what DocDB's
/// bloom filter would hash.
fn doc_prefix(k: &[u8]) -> &[u8] {
    &k[..k.len().min(23)]
}

fn loaded(n: u64, opts: LsmOptions) -> Lsm {
    let mut lsm = Lsm::new(opts).expect("options");
    for i in 0..n {
        lsm.put(&doc_key(i), &[0x5a; 15]).expect("put");
    }
    lsm.compact_all().expect("compact");
    lsm
}

fn small_index() -> LsmOptions {
    LsmOptions {
        table: TableOptions {
            index_block_size: 1024,
            min_keys_per_index_block: 8,
            bloom_key: BloomKey::new(doc_prefix),
            ..TableOptions::default()
        },
        ..LsmOptions::default()
    }
}

#[test]
fn a_scan_request_reads_filter_index_and_data_like_article_000() {
    let lsm = loaded(40_000, small_index());
    let sst = lsm.sst(lsm.levels().levels[0][0].id).expect("one SST");
    assert_eq!(
        sst.properties().index_levels,
        2,
        "top block over leaf blocks"
    );
    let mut cache = BlockCache::new(64 << 20);
    let start = doc_key(20_000);
    let opts = ReadOptions {
        bloom_filter_key: Some(doc_prefix(&start).to_vec()),
        bypass_cache_after_data_blocks: Some(2),
        ..ReadOptions::default()
    };
    for round in 0..2 {
        let mut it = lsm.iter(&mut cache, &opts);
        assert!(it.seek(&start));
        let mut rows = 1;
        while rows < 1024 && it.next() {
            rows += 1;
        }
        let s = *it.stats();
        assert_eq!(
            (s.number_db_seek, s.number_db_next, s.number_db_next_found),
            (1, 1023, 1023)
        );
        assert_eq!(s.bloom_filter_checked, 1);
        let c = s.cache;
        // Filter index + filter block, top index + leaf index, 2 data blocks
        // through the cache; the rest of the 1024 rows bypass it.
        if round == 0 {
            assert_eq!((c.filter.miss, c.index.miss, c.data.miss), (2, 2, 2));
        } else {
            assert_eq!((c.filter.hit, c.index.hit, c.data.hit), (2, 2, 2));
            assert_eq!(c.hits(), 6);
        }
        assert!(c.bypass_reads >= 1, "1024 rows of 76 bytes span 3+ blocks");
        assert_eq!(s.iter_bytes_read, 1024 * (53 + 15));
    }
}

#[test]
fn steps_inside_a_block_read_nothing_new() {
    let lsm = loaded(5000, LsmOptions::default());
    let mut cache = BlockCache::new(64 << 20);
    let mut it = lsm.iter(&mut cache, &ReadOptions::default());
    it.seek_to_first();
    let mut n = 1;
    while it.next() {
        n += 1;
    }
    assert_eq!(n, 5000);
    let sst = lsm.sst(lsm.levels().levels[0][0].id).expect("sst");
    let s = it.stats();
    // Each data block entered once; the single index block once.
    assert_eq!(s.cache.data.miss as u32, sst.num_data_blocks());
    assert_eq!(s.cache.index.miss, 1);
    assert_eq!(s.cache.filter.miss, 0, "no filter key given");
    // Back again: the same blocks, now hits.
    let mut back = 1;
    it.seek_to_last();
    while it.prev() {
        back += 1;
    }
    assert_eq!(back, 5000);
    assert_eq!(it.stats().cache.data.hit as u32, sst.num_data_blocks());
}

fn sst_blocks(lsm: &Lsm) -> u32 {
    lsm.sst(lsm.levels().levels[0][0].id)
        .expect("sst")
        .num_data_blocks()
}

/// A seek in an SST searches its index block, then the restart points of one
/// data block, then at most one restart interval of keys; a next compares one
/// key (with the one it left, to skip older versions). The virtual clock
/// charges these comparisons, so a seek costs many nexts.
#[test]
fn a_seek_compares_many_keys_a_next_one() {
    let lsm = loaded(5000, LsmOptions::default());
    let sst = lsm.sst(lsm.levels().levels[0][0].id).expect("sst");
    let mut cache = BlockCache::new(64 << 20);
    let mut it = lsm.iter(&mut cache, &ReadOptions::default());
    it.seek(&doc_key(2500));
    let parts = it.stats().key_comparisons;
    let seek = parts.total();
    // One SST, one source: its index block, then a data block.
    assert_eq!((parts.memtable, parts.merge), (0, 0));
    assert!(
        parts.index >= u64::from(sst_blocks(&lsm).ilog2()) && parts.restarts > 0,
        "{parts:?}"
    );
    let blocks = sst.num_data_blocks();
    let per_block = sst.len() as u32 / blocks;
    let restarts = per_block.div_ceil(TableOptions::default().block_restart_interval);
    // At least the two binary searches; at most those and one interval's walk.
    let least = u64::from(blocks.ilog2() + restarts.ilog2());
    let most = least + 2 + u64::from(TableOptions::default().block_restart_interval) + 2;
    assert!(
        (least..=most).contains(&seek),
        "{seek} comparisons, {least}..={most} expected"
    );
    it.next();
    let next = it.stats().key_comparisons.total() - seek;
    assert_eq!(next, 1, "one source, one version a key: one comparison");
}

#[test]
fn no_fill_reads_leave_the_cache_empty() {
    let lsm = loaded(2000, LsmOptions::default());
    let mut cache = BlockCache::new(64 << 20);
    let opts = ReadOptions {
        cache_mode: CacheMode::NoFill,
        ..ReadOptions::default()
    };
    let mut it = lsm.iter(&mut cache, &opts);
    it.seek_to_first();
    while it.next() {}
    let misses = it.stats().cache.misses();
    drop(it);
    assert!(misses > 0);
    assert!(cache.is_empty());
    assert_eq!(cache.stats().adds(), 0);
}

fn unflushed_ssts(n: u64) -> Lsm {
    let opts = LsmOptions {
        auto_compact: false,
        ..LsmOptions::default()
    };
    let mut lsm = Lsm::new(opts).expect("options");
    for f in 0..n {
        for i in 0..100 {
            lsm.put(&doc_key(f * 1000 + i * 10), b"v").expect("put");
        }
        lsm.flush().expect("flush");
    }
    lsm
}

#[test]
fn gets_probe_bloom_filters_newest_first() {
    let lsm = unflushed_ssts(4);
    assert_eq!(lsm.levels().levels[0].len(), 4);
    let mut cache = BlockCache::new(64 << 20);
    // A key inside the range of the oldest file only: one filter probe, a hit.
    let r = lsm.get(&mut cache, &doc_key(50), &ReadOptions::default());
    assert_eq!(r.value.as_deref(), Some(&b"v"[..]));
    assert_eq!(
        (r.stats.bloom_filter_checked, r.stats.bloom_filter_useful),
        (1, 0)
    );
    assert_eq!(r.stats.memtable_miss, 1);
    // A missing key inside that range: the filter says no, no index or data read.
    let r = lsm.get(&mut cache, &doc_key(55), &ReadOptions::default());
    assert_eq!(r.value, None);
    if r.stats.bloom_filter_useful == 1 {
        assert_eq!(r.stats.cache.index.hit + r.stats.cache.index.miss, 0);
        assert_eq!(r.stats.data_blocks_read(), 0);
    }
    // Over many missing keys the filter is useful about 99 % of the time.
    let useful: u64 = (0..400)
        .map(|i| {
            lsm.get(&mut cache, &doc_key(i * 10 + 5), &ReadOptions::default())
                .stats
                .bloom_filter_useful
        })
        .sum();
    assert!(useful > 385, "{useful}");
}

#[test]
fn iterators_skip_files_the_filter_excludes() {
    let lsm = unflushed_ssts(4);
    let mut cache = BlockCache::new(64 << 20);
    let key = doc_key(2020);
    let opts = ReadOptions {
        bloom_filter_key: Some(key.clone()),
        ..ReadOptions::default()
    };
    let mut it = lsm.iter(&mut cache, &opts);
    assert!(it.seek(&key));
    assert_eq!(it.key(), key.as_slice());
    // Only the third file's range holds the key: one probe, no other file opened.
    assert_eq!(it.stats().bloom_filter_checked, 1);
    assert_eq!(it.stats().cache.index.miss, 1);
}

#[test]
fn events_show_the_cursor_moving_through_blocks() {
    let lsm = loaded(3000, LsmOptions::default());
    let mut cache = BlockCache::new(64 << 20);
    let opts = ReadOptions {
        record_events: true,
        ..ReadOptions::default()
    };
    let mut it = lsm.iter(&mut cache, &opts);
    it.seek(&doc_key(0));
    for _ in 0..1000 {
        it.next();
    }
    let events = it.take_events();
    let blocks: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            ReadEvent::Iter {
                position: Some(Position::Sst { block, .. }),
                ..
            } => Some(*block),
            _ => None,
        })
        .collect();
    assert_eq!(blocks.len(), 1001);
    assert!(blocks.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
    let data_reads = events
        .iter()
        .filter(|e| matches!(e, ReadEvent::Block { block, .. } if block.kind == BlockKind::Data))
        .count();
    assert_eq!(data_reads as u32, blocks[1000] - blocks[0] + 1);
    assert!(matches!(&events[0], ReadEvent::Block { block, .. } if block.kind == BlockKind::Index));
    assert!(it.take_events().is_empty(), "drained");
}

#[test]
fn memtable_positions_and_get_events() {
    let mut lsm = Lsm::new(LsmOptions::default()).expect("options");
    lsm.put(b"a", b"1").expect("put");
    let mut cache = BlockCache::new(1 << 20);
    let opts = ReadOptions {
        record_events: true,
        ..ReadOptions::default()
    };
    let r = lsm.get(&mut cache, b"a", &opts);
    assert_eq!(
        r.position,
        Some(Position::Memtable {
            memtable: lsm.memtable().id()
        })
    );
    assert_eq!(r.stats.memtable_hit, 1);
    assert!(matches!(
        &r.events[..],
        [ReadEvent::Iter {
            op: IterOp::Get,
            ..
        }]
    ));
}

#[test]
fn snapshots_see_old_values_until_released() {
    let mut lsm = Lsm::new(LsmOptions::default()).expect("options");
    let mut cache = BlockCache::new(1 << 20);
    lsm.put(b"k", b"old").expect("put");
    lsm.put(b"gone", b"x").expect("put");
    let snap = lsm.snapshot();
    lsm.put(b"k", b"new").expect("put");
    lsm.delete(b"gone").expect("delete");
    lsm.compact_all().expect("compact");
    let at = ReadOptions {
        snapshot: Some(snap),
        ..ReadOptions::default()
    };
    assert_eq!(
        lsm.get(&mut cache, b"k", &at).value.as_deref(),
        Some(&b"old"[..])
    );
    assert_eq!(
        lsm.get(&mut cache, b"gone", &at).value.as_deref(),
        Some(&b"x"[..])
    );
    assert_eq!(
        lsm.get(&mut cache, b"k", &ReadOptions::default())
            .value
            .as_deref(),
        Some(&b"new"[..])
    );
    assert_eq!(
        lsm.get(&mut cache, b"gone", &ReadOptions::default()).value,
        None
    );
    let before =
        lsm.stats().compaction_dropped_versions + lsm.stats().compaction_dropped_tombstones;
    lsm.release_snapshot(snap);
    lsm.compact_all().expect("compact");
    let s = lsm.stats();
    // Released: k@old, gone's tombstone and gone@x can all go now.
    assert_eq!(
        s.compaction_dropped_versions + s.compaction_dropped_tombstones - before,
        3
    );
    let sst = lsm.sst(lsm.levels().levels[0][0].id).expect("sst");
    assert_eq!(sst.len(), 1);
}

/// A seek repeated on one iterator (DocDB's three seeks before a write) counts
/// exactly what three iterators seeking once each count: seeks, bytes, the
/// versions and tombstones stepped over, and the events — whether the sources
/// are memtables only (where the repeat is not redone) or include SSTs.
#[test]
fn a_repeated_seek_counts_as_three_seeks() {
    let mut lsm = Lsm::new(LsmOptions::default()).expect("options");
    let key = |i: u64| doc_key(i);
    for round in 0..3u8 {
        for i in 0..50 {
            lsm.put(&key(i), &[round; 15]).expect("put");
        }
    }
    // Key 10 ends in a tombstone: a seek to it steps over the tombstone and
    // the versions under it, and lands on key 11.
    lsm.delete(&key(10)).expect("delete");
    let opts = ReadOptions {
        record_events: true,
        ..ReadOptions::default()
    };
    let once = |lsm: &Lsm, target: &[u8]| {
        let mut cache = BlockCache::new(1 << 20);
        let mut it = lsm.iter(&mut cache, &opts);
        let found = it
            .seek(target)
            .then(|| (it.key().to_vec(), it.value().to_vec()));
        (found, *it.stats(), it.take_events())
    };
    for in_memory in [true, false] {
        if !in_memory {
            lsm.flush().expect("flush");
            lsm.put(&key(11), b"newest").expect("put");
        }
        for target in [key(10), key(11), key(25), key(99)] {
            let (found, one, events) = once(&lsm, &target);
            if in_memory && target == key(10) {
                // The tombstone and the versions under it were stepped over:
                // the test covers those counts.
                assert_eq!(
                    (one.internal_delete_skipped, one.internal_key_skipped),
                    (1, 3)
                );
            }
            let mut cache = BlockCache::new(1 << 20);
            let mut it = lsm.iter(&mut cache, &opts);
            for _ in 0..3 {
                it.seek(&target);
                let here = it.valid().then(|| (it.key().to_vec(), it.value().to_vec()));
                assert_eq!(here, found);
            }
            let mut three = ReadStats::default();
            for _ in 0..3 {
                three.merge(&one);
            }
            // The block cache is shared by the three in the real case; here
            // each `once` had a cold cache, so compare the counters a memtable
            // read sets, and the cache's only when nothing was read from SSTs.
            let got = *it.stats();
            assert_eq!(got.number_db_seek, three.number_db_seek);
            assert_eq!(got.number_db_seek_found, three.number_db_seek_found);
            assert_eq!(got.iter_bytes_read, three.iter_bytes_read);
            assert_eq!(got.internal_key_skipped, three.internal_key_skipped);
            assert_eq!(got.internal_delete_skipped, three.internal_delete_skipped);
            if in_memory {
                assert_eq!(got, three);
            }
            let mut want_events = events.clone();
            want_events.extend(events.iter().cloned());
            want_events.extend(events.iter().cloned());
            if in_memory {
                assert_eq!(it.take_events(), want_events);
            }
        }
    }
}

/// A memtable seek takes a node's kind and lengths from its index entry; a
/// node too long for the entry's bits, a tombstone, a snapshot older than the
/// memtable's newest write and a flushed copy of the same data must all read
/// the same as through the node, with the same counters.
#[test]
fn memtable_entries_answer_seeks_as_their_nodes_do() {
    let key = |i: u64| -> Vec<u8> {
        let mut k = doc_key(i);
        if i % 7 == 3 {
            k.resize(5000, 0x33); // longer than an entry's key-length bits
        }
        k
    };
    let value = |i: u64| -> Vec<u8> { vec![i as u8; if i % 11 == 5 { 300_000 } else { 9 }] };
    let mut lsm = Lsm::new(small_index()).expect("options");
    for i in 0..60 {
        lsm.put(&key(i), &value(i)).expect("put");
    }
    let before_deletes = lsm.snapshot();
    for i in (0..60).step_by(4) {
        lsm.delete(&key(i)).expect("delete");
    }
    let read = |lsm: &Lsm, snapshot| {
        let mut cache = BlockCache::new(64 << 20);
        let opts = ReadOptions {
            snapshot,
            ..ReadOptions::default()
        };
        let mut seen = Vec::new();
        let mut it = lsm.iter(&mut cache, &opts);
        for i in 0..60 {
            // Seek just before key i (a byte shorter): lands on key i or after.
            let target = &key(i)[..22];
            if it.seek(target) {
                let starts = it.key_starts_with(target);
                assert_eq!(starts, it.key().starts_with(target), "seek {i}");
                let short = &key(i)[..5];
                assert_eq!(it.key_starts_with(short), it.key().starts_with(short));
                seen.push((it.key().to_vec(), it.value().to_vec(), starts));
            }
        }
        (seen, *it.stats())
    };
    let latest = read(&lsm, None);
    let old = read(&lsm, Some(before_deletes));
    let found = |seen: &[(Vec<u8>, Vec<u8>, bool)]| seen.iter().filter(|r| r.2).count();
    assert_eq!(found(&old.0), 60, "the snapshot sees every key");
    assert_eq!(found(&latest.0), 45, "tombstones hide every fourth key");
    for (i, (k, v, _)) in old.0.iter().enumerate() {
        assert_eq!((k, v), (&key(i as u64), &value(i as u64)));
    }
    // The same data read from an SST: same rows, same counters.
    lsm.flush().expect("flush");
    let flushed = read(&lsm, None);
    assert_eq!(latest.0, flushed.0);
    let counters = |s: &ReadStats| {
        (
            s.number_db_seek,
            s.number_db_seek_found,
            s.iter_bytes_read,
            s.internal_delete_skipped,
        )
    };
    assert_eq!(counters(&latest.1), counters(&flushed.1));
}

/// `key_starts_with` decides from a memtable entry's zero-padded 12-byte
/// prefix only when that proves the answer: short keys, prefixes past the
/// key's end or past 12 bytes, and zero bytes (which padding imitates) all
/// agree with `starts_with` on the key itself.
#[test]
fn key_starts_with_agrees_with_the_key_bytes() {
    let keys: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"a".to_vec(),
        b"a\x00".to_vec(),
        b"ab".to_vec(),
        b"abcdefghijk".to_vec(),
        b"abcdefghijkl".to_vec(),
        b"abcdefghijkl\x00".to_vec(),
        b"abcdefghijklmn".to_vec(),
        b"abcdefghijkm".to_vec(),
        b"b".to_vec(),
    ];
    let mut lsm = Lsm::new(LsmOptions::default()).expect("options");
    for k in keys.iter().filter(|k| !k.is_empty()) {
        lsm.put(k, b"v").expect("put");
    }
    let mut cache = BlockCache::new(1 << 20);
    let mut it = lsm.iter(&mut cache, &ReadOptions::default());
    let mut checked = 0;
    for target in &keys {
        if !it.seek(target) {
            continue;
        }
        for p in &keys {
            for extra in [&b""[..], b"\x00", b"z"] {
                let prefix = [&p[..], extra].concat();
                assert_eq!(
                    it.key_starts_with(&prefix),
                    it.key().starts_with(&prefix),
                    "key {:?}, prefix {:?}",
                    it.key(),
                    prefix
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "{checked} pairs");
}
