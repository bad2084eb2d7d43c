//! Compaction: pure policies over an id-based snapshot of the levels (in the
//! style of skyzh/mini-lsm: `pick(snapshot) -> task`, `apply(snapshot, task,
//! outputs) -> snapshot`), and an executor that merges the input SSTs.
//!
//! - [`leveled`]: RocksDB's leveled compaction (L0 file-count trigger, level
//!   target sizes, highest score first, min-overlapping-ratio file choice,
//!   trivial moves).
//! - [`universal`]: RocksDB's universal (size-tiered) compaction, YugabyteDB's
//!   default, with every sorted run kept in L0 as YugabyteDB's single-level
//!   universal compaction does.
//! - `executor`: the k-way merge that writes the output SSTs.

pub mod leveled;
pub mod universal;

pub(crate) mod executor;
pub(super) mod gc;
mod merge;
mod run;

use super::error::LsmError;
use super::options::{CompactionOptions, CompactionStyle};
use super::sst::Sst;
use super::types::{SeqNo, SstId};

/// What the policies know about an SST.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SstMeta {
    pub id: SstId,
    /// File size in bytes.
    pub size: u64,
    pub entries: u64,
    /// Smallest and largest user keys.
    pub smallest: Vec<u8>,
    pub largest: Vec<u8>,
    pub smallest_seq: SeqNo,
    pub largest_seq: SeqNo,
}

impl SstMeta {
    pub(crate) fn of(sst: &Sst) -> Self {
        let p = sst.properties();
        SstMeta {
            id: sst.id(),
            size: p.file_size,
            entries: p.num_entries,
            smallest: sst.smallest_key().to_vec(),
            largest: sst.largest_key().to_vec(),
            smallest_seq: p.smallest_seq,
            largest_seq: p.largest_seq,
        }
    }

    /// Whether the file's key range meets `[lo, hi]`.
    pub fn overlaps(&self, lo: &[u8], hi: &[u8]) -> bool {
        self.smallest.as_slice() <= hi && lo <= self.largest.as_slice()
    }
}

/// The levels: `levels[0]` is L0, newest file first; every other level is sorted
/// by key with disjoint files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LevelsSnapshot {
    pub levels: Vec<Vec<SstMeta>>,
}

impl LevelsSnapshot {
    pub fn new(num_levels: usize) -> Self {
        LevelsSnapshot {
            levels: vec![Vec::new(); num_levels.max(1)],
        }
    }

    pub fn level_bytes(&self, level: usize) -> u64 {
        self.levels
            .get(level)
            .map_or(0, |l| l.iter().map(|f| f.size).sum())
    }

    pub fn num_files(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }

    pub fn total_bytes(&self) -> u64 {
        (0..self.levels.len()).map(|l| self.level_bytes(l)).sum()
    }

    /// Level and position of an SST.
    pub fn find(&self, id: SstId) -> Option<(usize, usize)> {
        self.levels
            .iter()
            .enumerate()
            .find_map(|(l, files)| files.iter().position(|f| f.id == id).map(|i| (l, i)))
    }

    /// Files of `level` overlapping `[lo, hi]`.
    pub fn overlapping(&self, level: usize, lo: &[u8], hi: &[u8]) -> Vec<&SstMeta> {
        self.levels.get(level).map_or(Vec::new(), |l| {
            l.iter().filter(|f| f.overlaps(lo, hi)).collect()
        })
    }

    /// The deepest level holding files (0 when all are empty).
    pub fn deepest_nonempty(&self) -> usize {
        self.levels.iter().rposition(|l| !l.is_empty()).unwrap_or(0)
    }
}

/// The key range covered by some files.
pub(crate) fn key_range<'a>(
    files: impl IntoIterator<Item = &'a SstMeta>,
) -> Option<(&'a [u8], &'a [u8])> {
    files.into_iter().fold(None, |acc, f| {
        let (lo, hi) = (f.smallest.as_slice(), f.largest.as_slice());
        Some(match acc {
            None => (lo, hi),
            Some((a, b)) => (a.min(lo), b.max(hi)),
        })
    })
}

/// Why a compaction runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompactionReason {
    /// Leveled: L0 reached its file-count trigger (or L0 bytes the base size).
    L0FileCount,
    /// Leveled: a level exceeded its target size.
    LevelSize,
    /// Universal: the older runs are small next to the newer ones' total.
    SizeAmplification,
    /// Universal: runs of similar size.
    SizeRatio,
    /// Universal: too many sorted runs.
    SortedRunCount,
    /// `compact_all`.
    Manual,
}

/// The inputs taken from one level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelInputs {
    pub level: usize,
    pub ssts: Vec<SstId>,
}

/// A compaction to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactionTask {
    pub reason: CompactionReason,
    pub inputs: Vec<LevelInputs>,
    pub output_level: usize,
    /// Cut output files at this size (leveled); `None`: one output file.
    pub max_output_file_size: Option<u64>,
    /// Move the inputs to the output level without rewriting them.
    pub trivial_move: bool,
    /// No data older than the inputs lies below the output anywhere.
    pub bottommost: bool,
}

impl CompactionTask {
    pub fn input_ids(&self) -> impl Iterator<Item = SstId> + '_ {
        self.inputs.iter().flat_map(|l| l.ssts.iter().copied())
    }
}

/// The next compaction the configured policy wants, if any.
pub fn pick(snapshot: &LevelsSnapshot, opts: &CompactionOptions) -> Option<CompactionTask> {
    match opts.style {
        CompactionStyle::Leveled => leveled::pick(snapshot, opts),
        CompactionStyle::Universal => universal::pick(snapshot, opts),
    }
}

/// A manual full compaction: every file into one sorted run (the deepest
/// non-empty level for leveled, at least L1; L0 for universal).
pub fn full_compaction(
    snapshot: &LevelsSnapshot,
    opts: &CompactionOptions,
) -> Option<CompactionTask> {
    if snapshot.num_files() == 0 {
        return None;
    }
    let inputs: Vec<LevelInputs> = snapshot
        .levels
        .iter()
        .enumerate()
        .filter(|(_, files)| !files.is_empty())
        .map(|(level, files)| LevelInputs {
            level,
            ssts: files.iter().map(|f| f.id).collect(),
        })
        .collect();
    let (output_level, max_output_file_size) = match opts.style {
        CompactionStyle::Leveled => (
            snapshot.deepest_nonempty().max(1),
            Some(opts.target_file_size_base),
        ),
        CompactionStyle::Universal => (0, None),
    };
    Some(CompactionTask {
        reason: CompactionReason::Manual,
        inputs,
        output_level,
        max_output_file_size,
        trivial_move: false,
        bottommost: true,
    })
}

fn invalid(reason: &str) -> LsmError {
    LsmError::InvalidTask {
        reason: reason.to_string(),
    }
}

/// The snapshot after a compaction: inputs removed, `outputs` added to the output
/// level (in L0 where the newest input was; elsewhere in key order). For a
/// trivial move, `outputs` are the moved inputs.
pub fn apply(
    snapshot: &LevelsSnapshot,
    task: &CompactionTask,
    outputs: Vec<SstMeta>,
) -> Result<LevelsSnapshot, LsmError> {
    let mut next = snapshot.clone();
    if task.output_level >= next.levels.len() {
        return Err(invalid("output level out of range"));
    }
    if task.inputs.iter().all(|l| l.ssts.is_empty()) {
        return Err(invalid("no inputs"));
    }
    // Data only moves down: older data above newer would be read first.
    if task.inputs.iter().any(|l| l.level > task.output_level) {
        return Err(invalid("output level above an input level"));
    }
    let mut l0_slot: Option<usize> = None;
    for input in &task.inputs {
        let files = next
            .levels
            .get_mut(input.level)
            .ok_or_else(|| invalid("input level out of range"))?;
        for &id in &input.ssts {
            let pos = files
                .iter()
                .position(|f| f.id == id)
                .ok_or(LsmError::UnknownSst { id })?;
            files.remove(pos);
            if input.level == 0 {
                l0_slot = Some(l0_slot.map_or(pos, |s| s.min(pos)));
            }
        }
    }
    let target = &mut next.levels[task.output_level];
    if task.output_level == 0 {
        let at = l0_slot.unwrap_or(0).min(target.len());
        target.splice(at..at, outputs);
    } else {
        target.extend(outputs);
        target.sort_by(|a, b| a.smallest.cmp(&b.smallest));
        if target.windows(2).any(|w| w[0].largest >= w[1].smallest) {
            return Err(invalid("output files overlap within the level"));
        }
    }
    Ok(next)
}

/// Key ranges of the files holding data older than the task's inputs outside the
/// task: deeper levels, and in L0 the files after the oldest input.
pub(crate) fn older_ranges<'s>(
    snapshot: &'s LevelsSnapshot,
    task: &CompactionTask,
) -> Vec<(&'s [u8], &'s [u8])> {
    let ids: Vec<SstId> = task.input_ids().collect();
    let mut out = Vec::new();
    if task.output_level == 0 {
        let l0 = &snapshot.levels[0];
        let last_input = l0.iter().rposition(|f| ids.contains(&f.id));
        if let Some(p) = last_input {
            out.extend(
                l0[p + 1..]
                    .iter()
                    .map(|f| (f.smallest.as_slice(), f.largest.as_slice())),
            );
        }
    }
    for files in snapshot.levels.iter().skip(task.output_level + 1) {
        out.extend(
            files
                .iter()
                .map(|f| (f.smallest.as_slice(), f.largest.as_slice())),
        );
    }
    out
}
