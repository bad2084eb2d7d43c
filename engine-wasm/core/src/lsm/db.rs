//! The tree: a mutable memtable, sealed (immutable) memtables waiting for flush,
//! and levels of SSTs; writes, flushes and snapshots. Compactions are in
//! `compact.rs`, reads in `read.rs`, introspection in `introspect.rs`.
//!
//! Everything runs inline and deterministically: where RocksDB hands flushes and
//! compactions to background threads, this tree runs them at the point RocksDB
//! would schedule them (a sealed memtable is flushed at once, and compactions run
//! after every flush until the policy has nothing left to do).

use std::collections::BTreeMap;

use super::compaction::{LevelsSnapshot, SstMeta};
use super::error::LsmError;
use super::events::{LsmEvent, SstInfo};
use super::flush::flush_memtable;
use super::memtable::Memtable;
use super::options::{CompactionStyle, LsmOptions, MAX_KEY_LEN, MAX_VALUE_LEN};
use super::read::Snapshot;
use super::sst::Sst;
use super::stats::LsmStats;
use super::types::{SeqNo, SstId, ValueKind, MAX_SEQ};
use super::write_batch::WriteBatch;

/// An LSM tree over byte keys.
#[derive(Debug, Clone)]
pub struct Lsm {
    pub(crate) opts: LsmOptions,
    pub(crate) mem: Memtable,
    /// Sealed memtables, oldest first.
    pub(crate) imm: Vec<Memtable>,
    pub(crate) levels: LevelsSnapshot,
    pub(crate) ssts: BTreeMap<SstId, Sst>,
    pub(crate) last_seq: SeqNo,
    pub(crate) next_sst: SstId,
    next_memtable: u64,
    pub(crate) next_compaction: u64,
    /// Live snapshots: sequence number → how many handles.
    snapshots: BTreeMap<SeqNo, u32>,
    pub(crate) stats: LsmStats,
    pub(crate) events: Vec<LsmEvent>,
    /// Reused by `write_batch` to order a batch.
    batch_order: Vec<(u64, u32)>,
    /// What the memtable counted for the last entry written (see [`Lsm::last_charge`]).
    last_charge: u64,
}

impl Lsm {
    pub fn new(opts: LsmOptions) -> Result<Self, LsmError> {
        opts.validate()?;
        // Universal compaction keeps every sorted run in L0 (YugabyteDB's single
        // level); leveled compaction has `num_levels` levels.
        let num_levels = match opts.compaction.style {
            CompactionStyle::Universal => 1,
            CompactionStyle::Leveled => opts.compaction.num_levels as usize,
        };
        Ok(Lsm {
            opts,
            mem: Memtable::new(1),
            imm: Vec::new(),
            levels: LevelsSnapshot::new(num_levels),
            ssts: BTreeMap::new(),
            last_seq: 0,
            next_sst: 1,
            next_memtable: 2,
            next_compaction: 1,
            snapshots: BTreeMap::new(),
            stats: LsmStats::default(),
            events: Vec::new(),
            batch_order: Vec::new(),
            last_charge: 0,
        })
    }

    pub fn options(&self) -> &LsmOptions {
        &self.opts
    }

    /// Writes `key = value`; returns the write's sequence number.
    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<SeqNo, LsmError> {
        self.write(key, ValueKind::Put, value)
    }

    /// The bytes the memtable counted for the last entry written: its key and
    /// value with their length prefixes, sequence number and kind, and the
    /// skip list's links. Their sum is what `write_buffer_size` is compared
    /// against, so a view adding them up seals where the engine does.
    pub fn last_charge(&self) -> u64 {
        self.last_charge
    }

    /// Takes back the writes made at `seqs`: YugabyteDB cleans up an aborted
    /// transaction's provisional records, which never reach the regular
    /// records. Here they went into the mutable memtable; they can be taken
    /// back while they are all still there (false, and nothing changed, once
    /// one of them was sealed or flushed).
    pub fn discard(&mut self, seqs: &std::collections::BTreeSet<SeqNo>) -> Result<bool, LsmError> {
        let Some(&first) = seqs.iter().next() else {
            return Ok(true);
        };
        match self.mem.sequence_range() {
            Some((smallest, _)) if smallest <= first => {}
            _ => return Ok(false),
        }
        self.mem = self.mem.without(seqs)?;
        Ok(true)
    }

    /// Writes a tombstone for `key`.
    pub fn delete(&mut self, key: &[u8]) -> Result<SeqNo, LsmError> {
        self.write(key, ValueKind::Delete, &[])
    }

    fn write(&mut self, key: &[u8], kind: ValueKind, value: &[u8]) -> Result<SeqNo, LsmError> {
        check_sizes(key, value)?;
        if self.last_seq >= MAX_SEQ {
            return Err(LsmError::SequenceExhausted);
        }
        let seq = self.last_seq + 1;
        self.add_to_memtable(key, seq, kind, value)?;
        self.after_write()?;
        Ok(seq)
    }

    /// Applies a batch: consecutive sequence numbers in batch order, inserted in
    /// key order, all into the current memtable. Returns the last sequence number
    /// (the current one for an empty batch). Nothing is written if any entry's
    /// size is refused.
    pub fn write_batch(&mut self, batch: &WriteBatch) -> Result<SeqNo, LsmError> {
        for i in 0..batch.len() {
            let (_, key, value) = batch.op(i);
            check_sizes(key, value)?;
        }
        if MAX_SEQ - self.last_seq < batch.len() as u64 {
            return Err(LsmError::SequenceExhausted);
        }
        if batch.is_empty() {
            return Ok(self.last_seq);
        }
        let first = self.last_seq + 1;
        let mut order = std::mem::take(&mut self.batch_order);
        batch.sorted_order(&mut order);
        let mut result = Ok(());
        for &(_, i) in &order {
            let (kind, key, value) = batch.op(i as usize);
            result = self.add_to_memtable(key, first + i as u64, kind, value);
            if result.is_err() {
                break;
            }
        }
        self.batch_order = order;
        result?;
        self.last_seq = first + batch.len() as u64 - 1;
        self.after_write()?;
        Ok(self.last_seq)
    }

    fn add_to_memtable(
        &mut self,
        key: &[u8],
        seq: SeqNo,
        kind: ValueKind,
        value: &[u8],
    ) -> Result<(), LsmError> {
        self.last_charge = self.mem.add(key, seq, kind, value)?;
        self.last_seq = self.last_seq.max(seq);
        match kind {
            ValueKind::Put => self.stats.puts += 1,
            ValueKind::Delete => self.stats.deletes += 1,
        }
        self.stats.user_bytes_written += (key.len() + value.len()) as u64;
        Ok(())
    }

    /// Seals a full memtable (and flushes it, with `auto_flush`).
    fn after_write(&mut self) -> Result<(), LsmError> {
        if self.mem.approximate_bytes() >= self.opts.write_buffer_size {
            self.seal_memtable();
            if self.opts.auto_flush {
                self.flush_immutables()?;
            }
        }
        Ok(())
    }

    /// Makes the mutable memtable immutable (false if it is empty).
    pub fn seal_memtable(&mut self) -> bool {
        if self.mem.is_empty() {
            return false;
        }
        let fresh = Memtable::new(self.next_memtable);
        self.next_memtable += 1;
        let sealed = std::mem::replace(&mut self.mem, fresh);
        self.events.push(LsmEvent::MemtableSealed {
            memtable: sealed.id(),
            entries: sealed.len() as u64,
            bytes: sealed.approximate_bytes(),
        });
        self.stats.memtables_sealed += 1;
        self.imm.push(sealed);
        true
    }

    /// Seals the memtable and flushes every immutable memtable; then compacts
    /// if `auto_compact`. Returns the new SST ids.
    pub fn flush(&mut self) -> Result<Vec<SstId>, LsmError> {
        self.seal_memtable();
        self.flush_immutables()
    }

    /// Flushes the immutable memtables, oldest first, into new L0 SSTs; then
    /// compacts if `auto_compact`.
    pub fn flush_immutables(&mut self) -> Result<Vec<SstId>, LsmError> {
        let snapshots = self.live_snapshots();
        let mut created = Vec::new();
        for mem in std::mem::take(&mut self.imm) {
            let (id, memtable) = (self.next_sst, mem.id());
            let (sst, dropped) = flush_memtable(mem, id, &self.opts.table, &snapshots)?;
            let Some(sst) = sst else { continue };
            self.next_sst += 1;
            self.stats.flushes += 1;
            self.stats.flush_bytes += sst.file_size();
            self.stats.flush_entries += sst.len() as u64;
            self.stats.flush_dropped += dropped;
            self.levels.levels[0].insert(0, SstMeta::of(&sst));
            let info = sst_info(&sst, 0);
            self.ssts.insert(id, sst);
            self.events.push(LsmEvent::Flush {
                memtable,
                sst: info,
                dropped,
            });
            created.push(id);
        }
        if self.opts.auto_compact && !created.is_empty() {
            self.maybe_compact()?;
        }
        Ok(created)
    }

    /// A snapshot of the current state; release it when done, or compaction
    /// keeps the versions it sees forever.
    pub fn snapshot(&mut self) -> Snapshot {
        *self.snapshots.entry(self.last_seq).or_insert(0) += 1;
        Snapshot(self.last_seq)
    }

    pub fn release_snapshot(&mut self, snapshot: Snapshot) {
        if let Some(n) = self.snapshots.get_mut(&snapshot.0) {
            *n -= 1;
            if *n == 0 {
                self.snapshots.remove(&snapshot.0);
            }
        }
    }

    /// Snapshot handles not released yet.
    pub fn live_snapshot_count(&self) -> usize {
        self.snapshots.values().map(|&n| n as usize).sum()
    }

    pub(crate) fn live_snapshots(&self) -> Vec<SeqNo> {
        self.snapshots.keys().copied().collect()
    }

    /// The sequence number of the last write.
    pub fn last_sequence(&self) -> SeqNo {
        self.last_seq
    }

    pub fn stats(&self) -> &LsmStats {
        &self.stats
    }

    /// The levels, as the compaction policies see them.
    pub fn levels(&self) -> &LevelsSnapshot {
        &self.levels
    }

    pub fn sst(&self, id: SstId) -> Option<&Sst> {
        self.ssts.get(&id)
    }

    pub fn memtable(&self) -> &Memtable {
        &self.mem
    }

    /// Sealed memtables not flushed yet, oldest first.
    pub fn immutables(&self) -> &[Memtable] {
        &self.imm
    }

    /// Structural events since the last call.
    /// Whether structural events wait to be taken.
    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    pub fn take_events(&mut self) -> Vec<LsmEvent> {
        std::mem::take(&mut self.events)
    }
}

fn check_sizes(key: &[u8], value: &[u8]) -> Result<(), LsmError> {
    if key.len() > MAX_KEY_LEN {
        return Err(LsmError::KeyTooLarge {
            len: key.len(),
            max: MAX_KEY_LEN,
        });
    }
    if value.len() > MAX_VALUE_LEN {
        return Err(LsmError::ValueTooLarge {
            len: value.len(),
            max: MAX_VALUE_LEN,
        });
    }
    Ok(())
}

/// How events and introspection describe an SST.
pub(crate) fn sst_info(sst: &Sst, level: u32) -> SstInfo {
    let p = sst.properties();
    SstInfo {
        id: sst.id(),
        level,
        file_size: p.file_size,
        entries: p.num_entries,
        deletes: p.num_deletions + p.num_tombstone_values,
        smallest: sst.smallest_key().to_vec(),
        largest: sst.largest_key().to_vec(),
        data_blocks: p.num_data_blocks,
        index_blocks: p.num_index_blocks,
        filter_blocks: p.num_filter_blocks,
        smallest_seq: p.smallest_seq,
        largest_seq: p.largest_seq,
    }
}
