//! Runs a compaction task: merges the input SSTs in internal-key order, drops what
//! [`VersionFilter`] says is obsolete, and writes
//! the survivors into new SSTs, cut at the task's output file size — never inside
//! a user key, so that a key's versions stay in one file and files of a level stay
//! disjoint by user key.
//!
//! A task whose one input keeps every entry and is under the output file size
//! rewrites that file as it is (`yb-ts-cli compact_all_tablets` after a flush
//! does exactly this: RocksDB rewrites a lone L0 file into the bottom level).
//! The table builder is a function of the entries and the table options, which
//! an LSM never changes, so the new file would be the old one entry for entry,
//! block for block: it is counted as a rewrite (bytes read and written, a new
//! file number) but takes over the input's arrays instead of building copies.

use std::collections::BTreeMap;

use super::gc::VersionFilter;
use super::merge::{MergeHeap, Run};
use super::{older_ranges, CompactionTask, LevelsSnapshot};
use crate::lsm::error::LsmError;
use crate::lsm::options::TableOptions;
use crate::lsm::sst::builder::{SizeHint, SstBuilder};
use crate::lsm::sst::Sst;
use crate::lsm::types::{SeqNo, SstId};

/// What a compaction produced.
#[derive(Debug)]
pub(crate) struct CompactionOutput {
    pub(crate) ssts: Vec<Sst>,
    /// The input rewritten unchanged, and the id of its copy (see the module
    /// comment); the caller moves it.
    pub(crate) rewritten_as_is: Option<(SstId, SstId)>,
    pub(crate) read_bytes: u64,
    pub(crate) write_bytes: u64,
    pub(crate) input_entries: u64,
    pub(crate) dropped_versions: u64,
    pub(crate) dropped_tombstones: u64,
}

/// The input files grouped into sorted runs: each L0 file alone, each deeper
/// level's files together (they are disjoint and already in key order).
fn runs<'a>(
    task: &CompactionTask,
    ssts: &'a BTreeMap<SstId, Sst>,
) -> Result<Vec<Run<'a>>, LsmError> {
    let mut out = Vec::new();
    for input in &task.inputs {
        let mut files = Vec::with_capacity(input.ssts.len());
        for id in &input.ssts {
            files.push(ssts.get(id).ok_or(LsmError::UnknownSst { id: *id })?);
        }
        if input.level == 0 {
            out.extend(files.into_iter().map(|f| Run::new(vec![f])));
        } else {
            files.sort_by(|a, b| a.smallest_key().cmp(b.smallest_key()));
            out.push(Run::new(files));
        }
    }
    Ok(out)
}

/// Merges the task's inputs into new SSTs numbered from `next_id`.
pub(crate) fn execute(
    task: &CompactionTask,
    snapshot: &LevelsSnapshot,
    ssts: &BTreeMap<SstId, Sst>,
    opts: &TableOptions,
    snapshots: &[SeqNo],
    next_id: &mut SstId,
) -> Result<CompactionOutput, LsmError> {
    let runs = runs(task, ssts)?;
    let read_bytes: u64 = task
        .input_ids()
        .filter_map(|id| ssts.get(&id))
        .map(|s| s.file_size())
        .sum();
    let input_entries: u64 = task
        .input_ids()
        .filter_map(|id| ssts.get(&id))
        .map(|s| s.len() as u64)
        .sum();
    // Asked per tombstone even for a bottommost task: the exact check is cheap
    // (tombstones only), and a picker that misjudged `bottommost` must not be
    // able to bring a deleted key back.
    let older = older_ranges(snapshot, task);
    let below = |k: &[u8]| {
        let nothing_older = !older.iter().any(|(lo, hi)| *lo <= k && k <= *hi);
        // Tests (the model proptests) hold the pickers to their word.
        debug_assert!(
            nothing_older || !task.bottommost,
            "a bottommost task has older data below for {k:?}"
        );
        nothing_older
    };
    let max_size = task.max_output_file_size.unwrap_or(u64::MAX);
    if let Some(input) = kept_whole(&runs, &below, snapshots, max_size) {
        let id = *next_id;
        *next_id += 1;
        return Ok(CompactionOutput {
            ssts: Vec::new(),
            rewritten_as_is: Some((input.id(), id)),
            read_bytes,
            write_bytes: input.file_size(),
            input_entries,
            dropped_versions: 0,
            dropped_tombstones: 0,
        });
    }
    let mut heap = MergeHeap::new(runs);
    let mut filter = VersionFilter::new(snapshots);
    let hint = output_hint(task, ssts, read_bytes, max_size);
    let mut outputs = Vec::new();
    let mut builder = SstBuilder::new(*next_id, opts, hint);
    while let Some((key, trailer, value)) = heap.peek() {
        let new_key = !filter.same_key(key);
        if filter.keep(key, trailer, below) {
            if new_key && !builder.is_empty() && builder.file_size() >= max_size {
                let done =
                    std::mem::replace(&mut builder, SstBuilder::new(*next_id + 1, opts, hint));
                push_finished(done, &mut outputs, next_id)?;
            }
            builder.add(key, trailer, value)?;
        }
        heap.advance();
    }
    push_finished(builder, &mut outputs, next_id)?;
    let write_bytes = outputs.iter().map(Sst::file_size).sum();
    Ok(CompactionOutput {
        ssts: outputs,
        rewritten_as_is: None,
        read_bytes,
        write_bytes,
        input_entries,
        dropped_versions: filter.dropped_versions,
        dropped_tombstones: filter.dropped_tombstones,
    })
}

/// The one input file of a task that keeps all of it and stays under
/// `max_size` (so no cut either): the output would be that file again. A file
/// with one version of each key and no tombstone keeps everything whatever the
/// snapshots (the builder counted both); any other is run through the filter.
fn kept_whole<'a>(
    runs: &[Run<'a>],
    below: &impl Fn(&[u8]) -> bool,
    snapshots: &[SeqNo],
    max_size: u64,
) -> Option<&'a Sst> {
    let [run] = runs else { return None };
    let &[sst] = run.files() else { return None };
    // Data bytes bound the builder's running size, which decides the cuts.
    if sst.properties().data_size >= max_size {
        return None;
    }
    if sst.older_versions == 0 && sst.properties().num_deletions == 0 {
        return Some(sst);
    }
    let mut filter = VersionFilter::new(snapshots);
    (0..sst.len() as u32)
        .all(|i| filter.keep(sst.user_key(i), sst.trailer(i), below))
        .then_some(sst)
}

/// Arrays sized for one output file: the inputs' totals, scaled down when the
/// output is cut into files of `max_size`.
fn output_hint(
    task: &CompactionTask,
    ssts: &BTreeMap<SstId, Sst>,
    read_bytes: u64,
    max_size: u64,
) -> SizeHint {
    let inputs = || task.input_ids().filter_map(|id| ssts.get(&id));
    let entries: u64 = inputs().map(|s| s.properties().num_entries).sum();
    let keys: u64 = inputs().map(|s| s.properties().raw_key_size).sum::<u64>() - 8 * entries;
    let values: u64 = inputs().map(|s| s.properties().raw_value_size).sum();
    let scale = |n: u64| {
        (n as f64 * (max_size as f64 / read_bytes.max(1) as f64).min(1.0) * 1.05) as usize + 16
    };
    SizeHint {
        entries: scale(entries),
        key_bytes: scale(keys),
        value_bytes: scale(values),
    }
}

fn push_finished(
    builder: SstBuilder,
    outputs: &mut Vec<Sst>,
    next_id: &mut SstId,
) -> Result<(), LsmError> {
    if let Some(sst) = builder.finish()? {
        *next_id = sst.id() + 1;
        outputs.push(sst);
    }
    Ok(())
}
