//! Long deterministic runs per compaction style: the small options really make
//! flushes and compactions happen, and nothing is lost through them.

use super::model::{check_scan, Harness, Op};
use crate::lsm::*;

/// A long deterministic run per style, checking that the small options really
/// make flushes and compactions happen, and that nothing is lost through them.
fn long_run(style: CompactionStyle) -> LsmStats {
    let opts = LsmOptions {
        write_buffer_size: 2048,
        table: TableOptions {
            block_size: 128,
            index_block_size: 128,
            min_keys_per_index_block: 2,
            filter_block_size: 64,
            ..TableOptions::default()
        },
        compaction: CompactionOptions {
            style,
            level0_file_num_compaction_trigger: 3,
            max_bytes_for_level_base: 4096,
            max_bytes_for_level_multiplier: 3.0,
            target_file_size_base: 1024,
            num_levels: 5,
            ..CompactionOptions::default()
        },
        ..LsmOptions::default()
    };
    let mut h = Harness::new(opts);
    let mut rng = crate::rng::Rng::new(7);
    for i in 0..20_000u64 {
        let k = (rng.below(3000) as u32).to_be_bytes().to_vec();
        let op = match rng.below(10) {
            0..=5 => Op::Put(k, i.to_le_bytes().to_vec()),
            6 => Op::Delete(k),
            7 => Op::Get(k),
            8 => Op::SeekNext(k, 5),
            _ => Op::SeekPrev(k, 5),
        };
        h.apply(&op).expect("matches the model");
        if i % 2000 == 0 {
            check_scan(&h.lsm, &mut h.cache, &h.model, None).expect("full scan");
        }
    }
    check_scan(&h.lsm, &mut h.cache, &h.model, None).expect("full scan");
    *h.lsm.stats()
}

#[test]
fn universal_long_run_flushes_and_compacts() {
    let s = long_run(CompactionStyle::Universal);
    assert!(s.flushes > 50 && s.compactions > 10, "{s:?}");
    assert!(
        s.compaction_dropped_versions > 0 && s.compaction_dropped_tombstones > 0,
        "{s:?}"
    );
}

#[test]
fn leveled_long_run_flushes_and_compacts() {
    let s = long_run(CompactionStyle::Leveled);
    assert!(s.flushes > 50 && s.compactions > 10, "{s:?}");
    assert!(s.compaction_dropped_versions > 0, "{s:?}");
}
