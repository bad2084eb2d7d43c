//! One thing an engine did, as the player replays it.

use crate::storage::PageNo;
use serde::Serialize;

/// A relation's name as events carry it: shared, so the many detail events of
/// a big load copy a pointer, not the text.
pub type RelName = std::rc::Rc<str>;

/// An SST as the player draws it: id, size, entries (tombstones among them)
/// and key range (hex).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SstSummary {
    pub id: u64,
    pub bytes: u64,
    pub entries: u64,
    /// Tombstones among the entries.
    pub deletes: u64,
    pub smallest: String,
    pub largest: String,
}

/// An iterator call's key comparisons by where it made them: the memtable's
/// skip list; a level's files; an SST's index block, one data block's
/// restart points, the keys after one; the merging iterator picking among
/// sources; DBIter comparing a key with the one it left.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KeyComparisons {
    pub memtable: u64,
    pub files: u64,
    pub index: u64,
    pub restarts: u64,
    pub keys: u64,
    pub merge: u64,
    pub versions: u64,
}

impl KeyComparisons {
    pub fn total(&self) -> u64 {
        self.memtable
            + self.files
            + self.index
            + self.restarts
            + self.keys
            + self.merge
            + self.versions
    }
}

/// A top-N heapsort's work (PostgreSQL's bounded tuplesort): the first
/// `held` rows are kept as they come; once more than twice the bound have
/// come, the best `bound` of them become a heap, and each later row is
/// compared with the heap's worst: better, it `replaced` it; otherwise it is
/// `dropped` after that one comparison. `entered` counts the rows that went
/// into memory (held or replacing) in each of 32 equal slices of the input,
/// so the view can draw how rarely a late row still gets in.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TopNHeap {
    pub bound: u64,
    pub held: u64,
    pub replaced: u64,
    pub dropped: u64,
    pub entered: Vec<u64>,
}

/// (In TypeScript `TraceEvent`: `Event` is the DOM's.)
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TraceEvent"))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    StatementStart {
        /// The statement's place in the report (0-based).
        index: u32,
        sql: String,
        at_us: f64,
    },
    StatementEnd {
        index: u32,
        at_us: f64,
        /// How much of the statement was recorded (see [`super::TraceBudget`]).
        detail: super::StatementDetail,
    },
    /// A buffer access to page `page` of `relation`'s fork `fork` (main, fsm,
    /// vm) in buffer `frame`: `hit` false means it was read from storage into
    /// that frame. Every access EXPLAIN's `Buffers:` counts is one of these
    /// (an Index Only Scan's visibility-map page too).
    PageAccess {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        fork: &'static str,
        page: PageNo,
        frame: u32,
        hit: bool,
        dirtied: bool,
    },
    /// A page (of fork `fork`: main, fsm, vm) left buffer `frame` to make
    /// room; `written` when it was dirty and written back first.
    PageEvict {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        fork: &'static str,
        page: PageNo,
        frame: u32,
        written: bool,
    },
    /// B+tree page `page` at `level` (0: leaf) split: `new_page` is its new
    /// right sibling; a root split also made `new_root`, one level up. The
    /// fills (used fraction of a page's space) are after the insert that
    /// caused the split, so a view draws them instead of guessing.
    PageSplit {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        page: PageNo,
        new_page: PageNo,
        level: u32,
        root_split: bool,
        new_root: Option<PageNo>,
        /// The key posted to the parent, as text: the left page's new high key.
        separator: String,
        /// The page was the rightmost of its level: PostgreSQL then leaves
        /// `fillfactor` percent on the left (sequential inserts leave full
        /// pages behind), any other page splits about in half.
        rightmost: bool,
        /// The fillfactor this page's kind splits at (leaf or internal), in percent.
        fillfactor: u8,
        left_fill: f64,
        right_fill: f64,
        /// The page the separator went into (the new root after a root split)
        /// and its fill afterwards.
        parent: Option<PageNo>,
        parent_fill: Option<f64>,
    },
    TupleInsert {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        page: PageNo,
        offset: u16,
    },
    VisibilityChange {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        page: PageNo,
        all_visible: bool,
    },
    /// An index cursor moved onto a leaf: by descending from the root (the
    /// first leaf a search lands on) or along a sibling link.
    CursorStep {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        page: PageNo,
        backward: bool,
        /// Reached by the descent from the root, not by a sibling link.
        descended: bool,
    },
    /// An index scan read a row from heap page `page`: every row of a plain
    /// Index Scan, and in an Index Only Scan each row whose page the
    /// visibility map does not mark all-visible (EXPLAIN's `Heap Fetches`).
    /// A Bitmap Heap Scan's (`bitmap`) come after its index was read whole,
    /// in page order.
    HeapFetch {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        page: PageNo,
        index_only: bool,
        bitmap: bool,
    },
    Checkpoint {
        pages_written: u32,
    },
    /// A plan node finished one phase of its work, so the scan view can say
    /// which steps belonged to which phase and why: a Hash Join's `build`
    /// (the inner side read into a hash table) then `probe` (each outer row
    /// looked up in it); a Merge Join's `outer` and `inner` reads in key
    /// order, then its `merge` pass; a Sort's `sort` (a quicksort of every
    /// row, or a top-N heapsort under a LIMIT, `heap`).
    PlanPhase {
        /// The plan node: "Hash Join", "Merge Join", "Sort".
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        node: &'static str,
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        phase: &'static str,
        /// The table (its alias) the phase read, or "" (a merge, a sort).
        relation: String,
        /// Rows the phase took in, and rows it handed on (hashed, joined, kept).
        rows_in: u64,
        rows_out: u64,
        /// What EXPLAIN ANALYZE prints of it ("Buckets: … Memory Usage: …",
        /// "Sort Method: …"), or "".
        detail: String,
        heap: Option<TopNHeap>,
    },
    /// An entry went into a tablet's memtable (`bytes`: key and value).
    MemtableInsert {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        tablet: u32,
        bytes: u64,
        /// What the memtable counts for it against `write_buffer_size`:
        /// `bytes` plus length prefixes, sequence number and skip-list links.
        charged: u64,
    },
    /// A tablet's memtable became immutable.
    MemtableSealed {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        tablet: u32,
        entries: u64,
        bytes: u64,
    },
    /// An immutable memtable became SST `sst`.
    Flush {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        tablet: u32,
        sst: SstSummary,
    },
    CompactionStart {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        tablet: u32,
        id: u64,
        inputs: Vec<u64>,
        output_level: u32,
    },
    CompactionFinish {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        tablet: u32,
        id: u64,
        inputs: Vec<u64>,
        outputs: Vec<SstSummary>,
        read_bytes: u64,
        write_bytes: u64,
        /// Versions no snapshot could read any more, and tombstones with
        /// nothing left below them to hide: what the merge threw away.
        dropped_versions: u64,
        dropped_tombstones: u64,
    },
    /// A tablet server's block cache holds `used` bytes now (recorded when it
    /// changed: reads fill it, compactions' deleted files leave it).
    BlockCache {
        tserver: u32,
        used: u64,
        capacity: u64,
    },
    /// One read request to a tablet: where it started, what it read.
    ReadRequest {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        tablet: u32,
        seeks: u64,
        nexts: u64,
        prevs: u64,
        rows: u64,
        cache_hits: u64,
        cache_misses: u64,
    },
    /// A loop of a nested loop join begins: the join keys of its batch of
    /// outer rows (`keys` of them, `first_key` to `last_key`) go to the inner
    /// table in one lookup (`= ANY` in a Batched Nested Loop; one key a loop
    /// in a plain one). Only the yb profile records it.
    JoinLoop {
        /// 1-based, in the join.
        number: u32,
        keys: u32,
        first_key: String,
        last_key: String,
        at_us: f64,
    },
    /// One call on a tablet's DocDB iterator during a read request (RocksDB's
    /// `Seek`, `Next`, `Prev`…): where it landed — the memtable, or data
    /// block `block` of SST `sst` on `level` — or nowhere (`found` false),
    /// the key comparisons it made and the blocks it read. Recorded for
    /// scans while the statement's detail is kept.
    IterStep {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        relation: RelName,
        tablet: u32,
        /// `seek`, `seek_for_prev`, `seek_to_first`, `seek_to_last`, `next`, `prev`.
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        op: &'static str,
        found: bool,
        /// The SST landed in (`None`: the memtable, or nowhere).
        sst: Option<u64>,
        level: Option<u32>,
        block: Option<u32>,
        comparisons: KeyComparisons,
        blocks_read: u32,
    },
    /// A message between nodes (`from`/`to` as `ysql`, `tserver-N`): a read or
    /// write request, its response, or a Raft replication to a follower.
    Rpc {
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        kind: &'static str,
        from: String,
        to: String,
        tablet: u32,
        ops: u32,
        rows: u64,
        bytes: u64,
        send_us: f64,
        arrive_us: f64,
    },
}

impl Event {
    /// Structural events are kept whatever the detail budget: they change the
    /// shape a view draws (a split, a flush), and there are few of them.
    pub fn is_structural(&self) -> bool {
        matches!(
            self,
            Event::StatementStart { .. }
                | Event::StatementEnd { .. }
                | Event::PageSplit { .. }
                | Event::VisibilityChange { .. }
                | Event::PageEvict { written: true, .. }
                | Event::Checkpoint { .. }
                | Event::MemtableSealed { .. }
                | Event::Flush { .. }
                | Event::CompactionStart { .. }
                | Event::CompactionFinish { .. }
        )
    }
}
