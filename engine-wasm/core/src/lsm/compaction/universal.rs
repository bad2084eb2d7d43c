//! RocksDB's universal (size-tiered) compaction policy
//! (db/compaction_picker_universal.cc), YugabyteDB's default. Every file is a
//! sorted run, kept in L0 newest first (YugabyteDB runs universal compaction with
//! a single level); a compaction merges consecutive runs into one file.
//!
//! Nothing happens below `level0_file_num_compaction_trigger` runs. Then, in order:
//! 1. Size amplification: if the runs other than the oldest add up to
//!    `max_size_amplification_percent` of the oldest run or more, merge all runs.
//! 2. Size ratio: from the newest run, keep adding the next older run while it is
//!    no larger than (1 + `size_ratio`%) × the total picked so far; merge if at
//!    least `min_merge_width` runs qualify (trying each start in turn).
//! 3. Run count: with more runs than the trigger, merge the
//!    `runs - trigger + 1` newest regardless of size — still only if that is at
//!    least `min_merge_width` runs.

use super::{CompactionReason, CompactionTask, LevelInputs, LevelsSnapshot};
use crate::lsm::options::CompactionOptions;

/// The next universal compaction, if any.
pub fn pick(snapshot: &LevelsSnapshot, opts: &CompactionOptions) -> Option<CompactionTask> {
    let runs = snapshot.levels.first()?;
    let sizes: Vec<u64> = runs.iter().map(|f| f.size).collect();
    let n = sizes.len();
    if n < 2 || n < opts.level0_file_num_compaction_trigger as usize {
        return None;
    }
    if size_amplification_exceeded(&sizes, opts.universal_max_size_amplification_percent) {
        return Some(task(snapshot, 0, n, CompactionReason::SizeAmplification));
    }
    let (min_w, max_w) = (
        opts.universal_min_merge_width as usize,
        opts.universal_max_merge_width as usize,
    );
    if let Some((start, count)) = pick_runs(&sizes, Some(opts.universal_size_ratio), max_w, min_w) {
        return Some(task(snapshot, start, count, CompactionReason::SizeRatio));
    }
    let trigger = opts.level0_file_num_compaction_trigger as usize;
    if n > trigger {
        let max_files = (n - trigger + 1).min(max_w);
        if let Some((start, count)) = pick_runs(&sizes, None, max_files, min_w) {
            return Some(task(
                snapshot,
                start,
                count,
                CompactionReason::SortedRunCount,
            ));
        }
    }
    None
}

/// RocksDB: compact when `candidate_size * 100 >= ratio * earliest_file_size`,
/// the candidates being every run but the oldest.
pub fn size_amplification_exceeded(sizes: &[u64], max_percent: u32) -> bool {
    let Some((&earliest, newer)) = sizes.split_last() else {
        return false;
    };
    let candidate: u128 = newer.iter().map(|&s| s as u128).sum();
    candidate * 100 >= max_percent as u128 * earliest as u128
}

/// `PickCompactionToReduceSortedRuns`: the first start whose run of qualifying
/// successors reaches `min_width`. `ratio = None` accepts any size.
fn pick_runs(
    sizes: &[u64],
    ratio: Option<u32>,
    max_files: usize,
    min_width: usize,
) -> Option<(usize, usize)> {
    for start in 0..sizes.len() {
        let mut total = sizes[start] as f64;
        let mut count = 1;
        for &next in &sizes[start + 1..] {
            if count >= max_files {
                break;
            }
            if let Some(r) = ratio {
                if total * (100.0 + r as f64) / 100.0 < next as f64 {
                    break;
                }
            }
            total += next as f64;
            count += 1;
        }
        if count >= min_width && count > 1 {
            return Some((start, count));
        }
    }
    None
}

fn task(
    snapshot: &LevelsSnapshot,
    start: usize,
    count: usize,
    reason: CompactionReason,
) -> CompactionTask {
    let runs = &snapshot.levels[0];
    let ssts = runs[start..start + count].iter().map(|f| f.id).collect();
    let includes_oldest = start + count == runs.len();
    let deeper_empty = snapshot.levels.iter().skip(1).all(Vec::is_empty);
    CompactionTask {
        reason,
        inputs: vec![LevelInputs { level: 0, ssts }],
        output_level: 0,
        max_output_file_size: None,
        trivial_move: false,
        bottommost: includes_oldest && deeper_empty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::compaction::{apply, SstMeta};

    fn snap(sizes: &[u64]) -> LevelsSnapshot {
        let mut s = LevelsSnapshot::new(1);
        let n = sizes.len() as u64;
        s.levels[0] = sizes
            .iter()
            .enumerate()
            .map(|(i, &size)| SstMeta {
                id: n - i as u64, // newest first: highest id first
                size,
                entries: 1,
                smallest: b"a".to_vec(),
                largest: b"z".to_vec(),
                smallest_seq: 0,
                largest_seq: 0,
            })
            .collect();
        s
    }

    fn opts() -> CompactionOptions {
        CompactionOptions {
            level0_file_num_compaction_trigger: 4,
            universal_size_ratio: 20,
            universal_min_merge_width: 4,
            universal_max_size_amplification_percent: 200,
            ..CompactionOptions::default()
        }
    }

    fn picked(t: &CompactionTask) -> Vec<u64> {
        t.input_ids().collect()
    }

    #[test]
    fn below_the_trigger_nothing_happens() {
        assert_eq!(pick(&snap(&[10, 10, 10]), &opts()), None);
    }

    #[test]
    fn similar_sizes_merge_by_ratio() {
        // Newer runs total 30 against 100: no size amplification.
        let s = snap(&[10, 10, 10, 11, 100]);
        let t = pick(&s, &opts()).expect("task");
        assert_eq!(t.reason, CompactionReason::SizeRatio);
        assert_eq!(picked(&t), vec![5, 4, 3, 2]);
        assert!(!t.bottommost);
        let next = apply(
            &s,
            &t,
            vec![SstMeta {
                id: 9,
                size: 41,
                ..s.levels[0][0].clone()
            }],
        )
        .expect("apply");
        assert_eq!(
            next.levels[0].iter().map(|f| f.id).collect::<Vec<_>>(),
            vec![9, 1]
        );
    }

    #[test]
    fn size_amplification_merges_everything() {
        // 10+10+10+200 = 230 ≥ 200 % of 100.
        let t = pick(&snap(&[10, 10, 10, 200, 100]), &opts()).expect("task");
        assert_eq!(t.reason, CompactionReason::SizeAmplification);
        assert_eq!(picked(&t).len(), 5);
        assert!(t.bottommost);
        assert!(size_amplification_exceeded(&[100, 50], 200));
        assert!(!size_amplification_exceeded(&[100, 51], 200));
    }

    #[test]
    fn a_large_next_run_stops_the_ratio_rule() {
        // 10, then 13 > 12: stops at width 1; from 13: 13, 14, 15 (≤ 1.2 × totals)
        // but 200 is too big, and 3 < min width 4. No ratio pick; 6 runs > 4
        // triggers the run-count rule: the 6 - 4 + 1 = 3 newest, below the min
        // width of 4, so nothing.
        let s = snap(&[10, 13, 14, 15, 200, 1000]);
        assert_eq!(pick(&s, &opts()), None);
        // With a min width of 2 the ratio rule takes 13, 14, 15.
        let o = CompactionOptions {
            universal_min_merge_width: 2,
            ..opts()
        };
        let t = pick(&s, &o).expect("task");
        assert_eq!(t.reason, CompactionReason::SizeRatio);
        assert_eq!(picked(&t), vec![5, 4, 3]);
    }

    #[test]
    fn too_many_runs_merge_the_newest() {
        // Sizes growing fast: no ratio pick. 8 runs, trigger 4: merge 5 newest.
        let s = snap(&[
            1,
            100,
            10_000,
            1_000_000,
            100_000_000,
            1 << 40,
            1 << 50,
            1 << 60,
        ]);
        let o = CompactionOptions {
            universal_max_size_amplification_percent: u32::MAX,
            ..opts()
        };
        let t = pick(&s, &o).expect("task");
        assert_eq!(t.reason, CompactionReason::SortedRunCount);
        assert_eq!(picked(&t), vec![8, 7, 6, 5, 4]);
    }
}
