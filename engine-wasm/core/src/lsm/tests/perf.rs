//! Many puts through flushes and compactions: the test checks invariants only
//! (speed is measured by `npm run bench`, never asserted in tests).

use crate::lsm::*;
use crate::rng::Rng;

/// A 53-byte key (61 with the trailer) and a 15-byte value: 76 bytes a row.
fn key(k: u64, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(b"\x53\x80\x00\x00\x01");
    out.extend_from_slice(&k.to_be_bytes());
    out.resize(53, 0x4a);
}

fn options(style: CompactionStyle, write_buffer_size: u64) -> LsmOptions {
    LsmOptions {
        write_buffer_size,
        compaction: CompactionOptions {
            style,
            max_bytes_for_level_base: 4 * write_buffer_size,
            target_file_size_base: write_buffer_size,
            ..CompactionOptions::default()
        },
        ..LsmOptions::default()
    }
}

/// `n` puts, one at a time (`batch` = 0) or in write batches of `batch`.
fn load(style: CompactionStyle, n: u64, random: bool, write_buffer_size: u64, batch: usize) -> Lsm {
    let mut lsm = Lsm::new(options(style, write_buffer_size)).expect("options");
    let mut rng = Rng::new(42);
    let mut k = Vec::with_capacity(64);
    let mut b = WriteBatch::new();
    for i in 0..n {
        key(if random { rng.next_u64() } else { i }, &mut k);
        if batch == 0 {
            lsm.put(&k, b"fifteen-bytes!!").expect("put");
            continue;
        }
        b.put(&k, b"fifteen-bytes!!");
        if b.len() == batch {
            lsm.write_batch(&b).expect("batch");
            b.clear();
        }
    }
    lsm.write_batch(&b).expect("batch");
    lsm
}

#[test]
fn two_hundred_thousand_puts_keep_invariants() {
    for style in [CompactionStyle::Universal, CompactionStyle::Leveled] {
        for random in [false, true] {
            let mut lsm = load(
                style,
                200_000,
                random,
                1 << 20,
                if random { 100 } else { 0 },
            );
            lsm.check_invariants().expect("invariants");
            let s = *lsm.stats();
            assert!(s.flushes >= 10 && s.compactions >= 1, "{style:?}: {s:?}");
            assert!(s.write_amplification() >= 1.0, "{s:?}");
            let mut cache = BlockCache::new(8 << 20);
            let mut it = lsm.iter(&mut cache, &ReadOptions::default());
            let mut n = u64::from(it.seek_to_first());
            while it.next() {
                n += 1;
            }
            assert_eq!(n, 200_000);
            drop(it);
            let mut k = Vec::new();
            key(if random { Rng::new(42).next_u64() } else { 0 }, &mut k);
            assert!(lsm
                .get(&mut cache, &k, &ReadOptions::default())
                .value
                .is_some());
            lsm.compact_all().expect("compact");
            lsm.check_invariants().expect("invariants");
        }
    }
}
