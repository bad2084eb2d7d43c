//! Running compactions on the tree: the policy loop after flushes, manual full
//! compactions, and installing a task's result (a new level snapshot, new SSTs,
//! counters and events).

use super::{apply, executor, full_compaction, pick, CompactionTask, SstMeta};
use crate::lsm::db::{sst_info, Lsm};
use crate::lsm::error::LsmError;
use crate::lsm::events::LsmEvent;
use crate::lsm::sst::Sst;
use crate::lsm::types::SstId;

/// More compactions than this in one call means a policy is not converging.
const MAX_COMPACTIONS_PER_CALL: usize = 10_000;

/// What one compaction did: outputs, bytes read and written, versions dropped.
type Outcome = (Vec<SstId>, u64, u64, u64, u64);

impl Lsm {
    /// Runs the compaction policy until it has nothing to do; returns how many
    /// compactions ran.
    pub fn maybe_compact(&mut self) -> Result<usize, LsmError> {
        let mut done = 0;
        while done < MAX_COMPACTIONS_PER_CALL {
            let Some(task) = pick(&self.levels, &self.opts.compaction) else {
                break;
            };
            self.run_compaction(&task)?;
            done += 1;
        }
        Ok(done)
    }

    /// A manual full compaction (RocksDB's `CompactRange` over everything, what
    /// `yb-ts-cli compact_all_tablets` runs): flush, then merge every SST into one
    /// sorted run, dropping every obsolete version and tombstone no snapshot needs.
    pub fn compact_all(&mut self) -> Result<(), LsmError> {
        let auto = std::mem::replace(&mut self.opts.auto_compact, false);
        let flushed = self.flush();
        self.opts.auto_compact = auto;
        flushed?;
        if let Some(task) = full_compaction(&self.levels, &self.opts.compaction) {
            self.run_compaction(&task)?;
        }
        Ok(())
    }

    /// Runs one task and installs its result.
    pub fn run_compaction(&mut self, task: &CompactionTask) -> Result<(), LsmError> {
        if let Some(id) = task.input_ids().find(|id| !self.ssts.contains_key(id)) {
            return Err(LsmError::UnknownSst { id });
        }
        let input_ids: Vec<SstId> = task.input_ids().collect();
        let (outputs, read, write, dropped_v, dropped_t) = if task.trivial_move {
            self.trivial_move(task)?
        } else {
            self.merge_inputs(task, &input_ids)?
        };
        // Recorded once the task succeeded, so a refused task leaves no event.
        let id = self.next_compaction;
        self.next_compaction += 1;
        self.events.push(LsmEvent::CompactionStart {
            id,
            reason: task.reason,
            inputs: task.inputs.clone(),
            output_level: task.output_level as u32,
            trivial_move: task.trivial_move,
        });
        let infos = outputs
            .iter()
            .filter_map(|id| {
                self.ssts
                    .get(id)
                    .map(|s| sst_info(s, task.output_level as u32))
            })
            .collect();
        self.events.push(LsmEvent::CompactionFinish {
            id,
            inputs: input_ids,
            outputs: infos,
            read_bytes: read,
            write_bytes: write,
            dropped_versions: dropped_v,
            dropped_tombstones: dropped_t,
        });
        self.stats.compactions += 1;
        Ok(())
    }

    fn trivial_move(&mut self, task: &CompactionTask) -> Result<Outcome, LsmError> {
        let ids: Vec<SstId> = task.input_ids().collect();
        let metas: Vec<SstMeta> = ids
            .iter()
            .map(|&id| {
                let (l, i) = self.levels.find(id).ok_or(LsmError::UnknownSst { id })?;
                Ok(self.levels.levels[l][i].clone())
            })
            .collect::<Result<_, LsmError>>()?;
        let bytes: u64 = metas.iter().map(|m| m.size).sum();
        self.levels = apply(&self.levels, task, metas)?;
        self.stats.trivial_moves += 1;
        self.stats.trivial_move_bytes += bytes;
        Ok((ids, 0, 0, 0, 0))
    }

    fn merge_inputs(
        &mut self,
        task: &CompactionTask,
        input_ids: &[SstId],
    ) -> Result<Outcome, LsmError> {
        let snapshots = self.live_snapshots();
        let out = executor::execute(
            task,
            &self.levels,
            &self.ssts,
            &self.opts.table,
            &snapshots,
            &mut self.next_sst,
        )?;
        let mut metas: Vec<SstMeta> = out.ssts.iter().map(SstMeta::of).collect();
        if let Some((input, id)) = out.rewritten_as_is {
            let sst = self
                .ssts
                .get(&input)
                .ok_or(LsmError::UnknownSst { id: input })?;
            metas.push(SstMeta {
                id,
                ..SstMeta::of(sst)
            });
        }
        self.levels = apply(&self.levels, task, metas)?;
        let mut outputs = out.ssts;
        // The input rewritten as it was is the output, under its new id.
        if let Some((input, id)) = out.rewritten_as_is {
            if let Some(mut sst) = self.ssts.remove(&input) {
                sst.id = id;
                outputs.push(sst);
            }
        }
        for id in input_ids {
            self.ssts.remove(id);
        }
        let ids = outputs.iter().map(Sst::id).collect();
        for sst in outputs {
            self.ssts.insert(sst.id(), sst);
        }
        let s = &mut self.stats;
        s.compaction_read_bytes += out.read_bytes;
        s.compaction_write_bytes += out.write_bytes;
        s.compaction_input_entries += out.input_entries;
        s.compaction_dropped_versions += out.dropped_versions;
        s.compaction_dropped_tombstones += out.dropped_tombstones;
        Ok((
            ids,
            out.read_bytes,
            out.write_bytes,
            out.dropped_versions,
            out.dropped_tombstones,
        ))
    }
}
