//! RocksDB's leveled compaction policy (db/compaction_picker.cc,
//! `LevelCompactionPicker`), with static level targets
//! (`level_compaction_dynamic_level_bytes = false`).
//!
//! - Score of L0: files / `level0_file_num_compaction_trigger`, or L0 bytes /
//!   `max_bytes_for_level_base` if larger.
//! - Score of Ln (1 ≤ n < last): bytes / (base × multiplier^(n-1)). The last level
//!   has no target.
//! - The level with the highest score ≥ 1 compacts into the next one.
//! - From L0: the oldest file and every L0 file overlapping the growing range
//!   (L0 files overlap each other), plus the overlapping L1 files.
//! - From Ln: the file with the smallest overlap with Ln+1 relative to its own
//!   size (`kMinOverlappingRatio`, RocksDB's default since 6.x), plus the files it
//!   overlaps in Ln+1.
//! - No overlap below: the file moves down without being rewritten (trivial move).
//! - Output is cut at `target_file_size_base`.

use super::{key_range, CompactionReason, CompactionTask, LevelInputs, LevelsSnapshot, SstMeta};
use crate::lsm::options::CompactionOptions;

/// Target size of `level` (≥ 1).
pub fn level_target(opts: &CompactionOptions, level: usize) -> u64 {
    let factor = opts
        .max_bytes_for_level_multiplier
        .powi(level.saturating_sub(1) as i32);
    (opts.max_bytes_for_level_base as f64 * factor).min(u64::MAX as f64 / 2.0) as u64
}

fn num_levels(snapshot: &LevelsSnapshot, opts: &CompactionOptions) -> usize {
    snapshot.levels.len().min(opts.num_levels as usize)
}

/// Compaction score of every level that can compact (all but the last).
pub fn scores(snapshot: &LevelsSnapshot, opts: &CompactionOptions) -> Vec<(usize, f64)> {
    let n = num_levels(snapshot, opts);
    let mut out = Vec::with_capacity(n);
    if n < 2 {
        return out;
    }
    let l0 = &snapshot.levels[0];
    let by_count = l0.len() as f64 / opts.level0_file_num_compaction_trigger.max(1) as f64;
    let by_size = snapshot.level_bytes(0) as f64 / opts.max_bytes_for_level_base.max(1) as f64;
    out.push((0, by_count.max(by_size)));
    for level in 1..n - 1 {
        let target = level_target(opts, level).max(1);
        out.push((level, snapshot.level_bytes(level) as f64 / target as f64));
    }
    out
}

/// The next leveled compaction, if a level's score reaches 1.
pub fn pick(snapshot: &LevelsSnapshot, opts: &CompactionOptions) -> Option<CompactionTask> {
    let (level, _) = scores(snapshot, opts)
        .into_iter()
        .filter(|(_, s)| *s >= 1.0)
        .fold(None, |best: Option<(usize, f64)>, (l, s)| match best {
            Some((_, bs)) if bs >= s => best,
            _ => Some((l, s)),
        })?;
    if level == 0 {
        pick_l0(snapshot, opts)
    } else {
        pick_level(snapshot, opts, level)
    }
}

/// No file below `output_level` overlaps the range.
fn nothing_below(snapshot: &LevelsSnapshot, output_level: usize, lo: &[u8], hi: &[u8]) -> bool {
    (output_level + 1..snapshot.levels.len()).all(|l| snapshot.overlapping(l, lo, hi).is_empty())
}

fn ids<'a>(files: impl IntoIterator<Item = &'a SstMeta>) -> Vec<u64> {
    files.into_iter().map(|f| f.id).collect()
}

fn pick_l0(snapshot: &LevelsSnapshot, opts: &CompactionOptions) -> Option<CompactionTask> {
    let l0 = &snapshot.levels[0];
    let oldest = l0.last()?;
    let mut chosen = vec![false; l0.len()];
    chosen[l0.len() - 1] = true;
    let (mut lo, mut hi) = (oldest.smallest.as_slice(), oldest.largest.as_slice());
    // Grow the set to every L0 file overlapping its range, until stable.
    let mut grew = true;
    while grew {
        grew = false;
        for (i, f) in l0.iter().enumerate() {
            if !chosen[i] && f.overlaps(lo, hi) {
                chosen[i] = true;
                lo = lo.min(f.smallest.as_slice());
                hi = hi.max(f.largest.as_slice());
                grew = true;
            }
        }
    }
    let picked: Vec<&SstMeta> = l0
        .iter()
        .zip(&chosen)
        .filter(|(_, c)| **c)
        .map(|(f, _)| f)
        .collect();
    let below = snapshot.overlapping(1, lo, hi);
    let disjoint = pairwise_disjoint(&picked);
    // The L1 files pulled in can reach past the L0 range, and their tombstones
    // are inputs too: "nothing below" must hold over the range of every input.
    let (lo, hi) = key_range(picked.iter().chain(&below).copied())?;
    Some(task(
        snapshot,
        opts,
        CompactionReason::L0FileCount,
        0,
        ids(picked.iter().copied()),
        ids(below.iter().copied()),
        disjoint,
        lo,
        hi,
    ))
}

fn pairwise_disjoint(files: &[&SstMeta]) -> bool {
    let mut sorted: Vec<&&SstMeta> = files.iter().collect();
    sorted.sort_by(|a, b| a.smallest.cmp(&b.smallest));
    sorted.windows(2).all(|w| w[0].largest < w[1].smallest)
}

fn pick_level(
    snapshot: &LevelsSnapshot,
    opts: &CompactionOptions,
    level: usize,
) -> Option<CompactionTask> {
    let files = &snapshot.levels[level];
    let overlap_bytes = |f: &SstMeta| -> u64 {
        snapshot
            .overlapping(level + 1, &f.smallest, &f.largest)
            .iter()
            .map(|g| g.size)
            .sum()
    };
    // Smallest overlap ratio, compared as overlap_a * size_b < overlap_b * size_a.
    let best = files.iter().min_by(|a, b| {
        let (oa, ob) = (overlap_bytes(a) as u128, overlap_bytes(b) as u128);
        (oa * b.size.max(1) as u128).cmp(&(ob * a.size.max(1) as u128))
    })?;
    let below = snapshot.overlapping(level + 1, &best.smallest, &best.largest);
    let (lo, hi) = key_range(below.iter().copied().chain(std::iter::once(best)))?;
    let below_ids = ids(below.iter().copied());
    Some(task(
        snapshot,
        opts,
        CompactionReason::LevelSize,
        level,
        vec![best.id],
        below_ids,
        true,
        lo,
        hi,
    ))
}

#[allow(clippy::too_many_arguments)]
fn task(
    snapshot: &LevelsSnapshot,
    opts: &CompactionOptions,
    reason: CompactionReason,
    level: usize,
    upper: Vec<u64>,
    lower: Vec<u64>,
    upper_disjoint: bool,
    lo: &[u8],
    hi: &[u8],
) -> CompactionTask {
    let output_level = level + 1;
    let trivial_move = lower.is_empty() && upper_disjoint;
    let mut inputs = vec![LevelInputs { level, ssts: upper }];
    if !lower.is_empty() {
        inputs.push(LevelInputs {
            level: output_level,
            ssts: lower,
        });
    }
    CompactionTask {
        reason,
        inputs,
        output_level,
        max_output_file_size: Some(opts.target_file_size_base),
        trivial_move,
        bottommost: nothing_below(snapshot, output_level, lo, hi),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::compaction::apply;
    use crate::lsm::options::CompactionStyle;

    fn meta(id: u64, lo: &str, hi: &str, size: u64) -> SstMeta {
        SstMeta {
            id,
            size,
            entries: 1,
            smallest: lo.as_bytes().to_vec(),
            largest: hi.as_bytes().to_vec(),
            smallest_seq: id,
            largest_seq: id,
        }
    }

    fn opts() -> CompactionOptions {
        CompactionOptions {
            style: CompactionStyle::Leveled,
            level0_file_num_compaction_trigger: 4,
            max_bytes_for_level_base: 1000,
            max_bytes_for_level_multiplier: 10.0,
            target_file_size_base: 300,
            num_levels: 4,
            ..CompactionOptions::default()
        }
    }

    fn snap(levels: Vec<Vec<SstMeta>>) -> LevelsSnapshot {
        let mut s = LevelsSnapshot::new(4);
        for (i, l) in levels.into_iter().enumerate() {
            s.levels[i] = l;
        }
        s
    }

    #[test]
    fn targets_grow_by_the_multiplier() {
        let o = opts();
        assert_eq!(level_target(&o, 1), 1000);
        assert_eq!(level_target(&o, 2), 10_000);
        assert_eq!(level_target(&o, 3), 100_000);
    }

    #[test]
    fn nothing_under_the_trigger() {
        let s = snap(vec![vec![meta(3, "a", "c", 10), meta(2, "b", "d", 10)]]);
        assert_eq!(pick(&s, &opts()), None);
    }

    #[test]
    fn l0_trigger_takes_overlapping_l0_and_l1_files() {
        // Newest first. 4 files reach the trigger; 9 overlaps the others' range.
        let l0 = vec![
            meta(9, "m", "p", 10),
            meta(8, "a", "c", 10),
            meta(7, "b", "e", 10),
            meta(6, "d", "n", 10),
        ];
        let l1 = vec![
            meta(1, "a", "b", 100),
            meta(2, "c", "f", 100),
            meta(3, "x", "z", 100),
        ];
        let t = pick(&snap(vec![l0, l1]), &opts()).expect("task");
        assert_eq!(t.reason, CompactionReason::L0FileCount);
        assert_eq!(
            t.inputs[0],
            LevelInputs {
                level: 0,
                ssts: vec![9, 8, 7, 6]
            }
        );
        assert_eq!(
            t.inputs[1],
            LevelInputs {
                level: 1,
                ssts: vec![1, 2]
            }
        );
        assert_eq!(t.output_level, 1);
        assert!(!t.trivial_move);
        assert!(t.bottommost);
        assert_eq!(t.max_output_file_size, Some(300));
    }

    #[test]
    fn l0_leaves_out_files_outside_the_range() {
        let l0 = vec![
            meta(9, "x", "y", 10),
            meta(8, "a", "c", 10),
            meta(7, "q", "r", 10),
            meta(6, "b", "d", 10),
        ];
        let t = pick(&snap(vec![l0]), &opts()).expect("task");
        // Oldest is 6 [b, d]; 8 overlaps it; 7 and 9 stay.
        assert_eq!(t.inputs[0].ssts, vec![8, 6]);
        assert!(!t.trivial_move, "8 and 6 overlap each other");
    }

    #[test]
    fn sequential_l0_files_move_trivially() {
        let l0 = vec![
            meta(9, "g", "h", 10),
            meta(8, "e", "f", 10),
            meta(7, "c", "d", 10),
            meta(6, "a", "b", 10),
        ];
        let s = snap(vec![l0, vec![meta(1, "x", "z", 10)]]);
        let t = pick(&s, &opts()).expect("task");
        assert!(t.trivial_move);
        assert_eq!(t.inputs.len(), 1);
        // Only the oldest and what overlaps it: file 6 alone.
        assert_eq!(t.inputs[0].ssts, vec![6]);
        let moved = vec![s.levels[0][3].clone()];
        let next = apply(&s, &t, moved).expect("apply");
        assert_eq!(
            next.levels[1].iter().map(|f| f.id).collect::<Vec<_>>(),
            vec![6, 1]
        );
        assert_eq!(next.levels[0].len(), 3);
    }

    #[test]
    fn highest_score_wins_and_min_overlap_file_is_chosen() {
        // L1 is 1500 bytes against a 1000 target: score 1.5. L0 has 1 file.
        let l1 = vec![
            meta(1, "a", "c", 500),
            meta(2, "d", "f", 500),
            meta(3, "g", "i", 500),
        ];
        let l2 = vec![
            meta(10, "a", "b", 900),
            meta(11, "d", "e", 100),
            meta(12, "g", "h", 5000),
        ];
        let s = snap(vec![vec![meta(20, "a", "z", 10)], l1, l2]);
        let t = pick(&s, &opts()).expect("task");
        assert_eq!(t.reason, CompactionReason::LevelSize);
        // Ratios: file 1 → 900/500, file 2 → 100/500, file 3 → 5000/500.
        assert_eq!(
            t.inputs[0],
            LevelInputs {
                level: 1,
                ssts: vec![2]
            }
        );
        assert_eq!(
            t.inputs[1],
            LevelInputs {
                level: 2,
                ssts: vec![11]
            }
        );
        assert_eq!(t.output_level, 2);
        assert!(t.bottommost);
    }

    #[test]
    fn not_bottommost_when_deeper_files_overlap() {
        let l1 = vec![meta(1, "a", "c", 600), meta(2, "d", "f", 600)];
        let l3 = vec![meta(30, "b", "b", 10)];
        let s = snap(vec![vec![], l1, vec![], l3]);
        let t = pick(&s, &opts()).expect("task");
        // Both L1 files have no L2 overlap (ratio 0): the first is taken.
        assert_eq!(t.inputs[0].ssts, vec![1]);
        assert!(t.trivial_move);
        assert!(!t.bottommost, "L3 holds older data for [a, c]");
    }

    #[test]
    fn l0_task_is_bottommost_only_if_nothing_lies_below_its_l1_inputs_either() {
        // L0 touches only "a", but the L1 file it pulls in spans [a, c] and may
        // hold a tombstone for "c" whose older value sits in L2's [b, d]: the
        // proptest found exactly this (a deleted key came back).
        let l0 = (20..24).map(|id| meta(id, "a", "a", 10)).collect();
        let l1 = vec![meta(10, "a", "c", 100)];
        let l2 = vec![meta(5, "b", "d", 100)];
        let s = snap(vec![l0, l1, l2]);
        let t = pick(&s, &opts()).expect("task");
        assert_eq!(t.reason, CompactionReason::L0FileCount);
        assert_eq!(t.inputs[1].ssts, vec![10]);
        assert!(!t.bottommost, "L2 holds older data for [b, c]");
    }

    #[test]
    fn the_last_level_is_never_scored() {
        let s = snap(vec![
            vec![],
            vec![],
            vec![],
            vec![meta(1, "a", "z", 1 << 40)],
        ]);
        assert_eq!(pick(&s, &opts()), None);
    }
}
