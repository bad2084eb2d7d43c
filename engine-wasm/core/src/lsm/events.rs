//! Structural events of a tree, for the trace: they carry ids and key ranges,
//! never references, and the caller drains them
//! ([`Lsm::take_events`](super::Lsm::take_events)).

use super::compaction::{CompactionReason, LevelInputs};
use super::types::SstId;

/// An SST as events and introspection describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SstInfo {
    pub id: SstId,
    pub level: u32,
    pub file_size: u64,
    pub entries: u64,
    /// Tombstones among the entries: Deletes, and values the table options
    /// recognise as tombstones.
    pub deletes: u64,
    pub smallest: Vec<u8>,
    pub largest: Vec<u8>,
    pub data_blocks: u64,
    pub index_blocks: u64,
    pub filter_blocks: u64,
    pub smallest_seq: u64,
    pub largest_seq: u64,
}

/// One structural change.
#[derive(Debug, Clone, PartialEq)]
pub enum LsmEvent {
    /// The mutable memtable became immutable (full, or a flush was asked for).
    MemtableSealed {
        memtable: u64,
        entries: u64,
        bytes: u64,
    },
    /// An immutable memtable was written to a new L0 SST.
    Flush {
        memtable: u64,
        sst: SstInfo,
        dropped: u64,
    },
    /// A compaction begins.
    CompactionStart {
        id: u64,
        reason: CompactionReason,
        inputs: Vec<LevelInputs>,
        output_level: u32,
        trivial_move: bool,
    },
    /// A compaction ended: inputs deleted, outputs added.
    CompactionFinish {
        id: u64,
        inputs: Vec<SstId>,
        outputs: Vec<SstInfo>,
        read_bytes: u64,
        write_bytes: u64,
        dropped_versions: u64,
        dropped_tombstones: u64,
    },
}
