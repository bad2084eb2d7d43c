//! Builds an [`Sst`] from entries in internal-key order (flush and compaction
//! output), accounting every block as `BlockBasedTableBuilder` would write it:
//! data blocks closed by the size policy, one index entry per data block keyed by
//! the shortest separator between the block's last key and the next block's first
//! key, filter keys hashed into fixed-size filter blocks.
//!
//! A compaction's builder copies each entry's bytes; a flush's builder lists
//! the memtable's nodes and takes the arena over when it finishes (see
//! [`SstEntries`]).

use super::block::{
    block_is_full, short_successor, shortest_separator, BlockSizer, BLOCK_TRAILER_BYTES,
    FOOTER_BYTES,
};
use super::entries::SstEntries;
use super::filter::FilterBuilder;
use super::index::IndexBuilder;
use super::properties::TableProperties;
use super::Sst;
use crate::lsm::error::LsmError;
use crate::lsm::memtable::arena::Arena;
use crate::lsm::options::TableOptions;
use crate::lsm::types::{
    internal_common_prefix, seek_trailer, trailer_kind, trailer_seq, KeyList, SstId, ValueKind,
    MAX_SEQ,
};

pub(crate) struct SstBuilder<'o, S = Copies> {
    opts: &'o TableOptions,
    id: SstId,
    store: S,
    trailers: Vec<u64>,
    /// The last key added (prefix compression and the next index separator
    /// compare with it), and the last filter key added.
    last_key: Vec<u8>,
    last_filter_key: Option<Vec<u8>>,
    older_versions: u64,
    block_first: Vec<u32>,
    block_bytes: Vec<u32>,
    block: BlockSizer,
    index: IndexBuilder,
    filter: Option<FilterBuilder>,
    sep_buf: Vec<u8>,
    props: TableProperties,
}

/// A builder's store of copies of its entries' bytes.
pub(crate) struct Copies {
    keys: KeyList,
    values: KeyList,
}

/// A builder's list of nodes, in an arena it is handed when it finishes.
pub(crate) struct Nodes(Vec<u32>);

/// Expected size of a table, to size its arrays once.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SizeHint {
    pub(crate) entries: usize,
    pub(crate) key_bytes: usize,
    pub(crate) value_bytes: usize,
}

/// RocksDB's `InternalKeyComparator::FindShortestSeparator` / `FindShortSuccessor`:
/// shorten the user key; keep the shortened key only if it is physically shorter
/// and logically larger, then tag it with the largest trailer so it sorts before
/// every real version of that user key. Writes the separator's user key to `out`
/// and returns its trailer.
fn internal_separator(
    last: &[u8],
    last_trailer: u64,
    next: Option<&[u8]>,
    out: &mut Vec<u8>,
) -> u64 {
    let shortened = match next {
        Some(n) => shortest_separator(last, n, out),
        None => short_successor(last, out),
    };
    if shortened && out.len() < last.len() && last < out.as_slice() {
        seek_trailer(MAX_SEQ)
    } else {
        out.clear();
        out.extend_from_slice(last);
        last_trailer
    }
}

impl<'o> SstBuilder<'o, Copies> {
    /// A builder that copies the entries it is given.
    pub(crate) fn new(id: SstId, opts: &'o TableOptions, hint: SizeHint) -> Self {
        let store = Copies {
            keys: KeyList::with_capacity(hint.entries, hint.key_bytes),
            values: KeyList::with_capacity(hint.entries, hint.value_bytes),
        };
        Self::with_store(id, opts, hint, store)
    }

    /// Adds a copy of the next entry; entries must come in strictly increasing
    /// internal order.
    #[inline]
    pub(crate) fn add(&mut self, key: &[u8], trailer: u64, value: &[u8]) -> Result<(), LsmError> {
        if !self.store.keys.push(key) || !self.store.values.push(value) {
            return Err(LsmError::TableTooLarge);
        }
        self.account(key, trailer, value)
    }

    /// The finished table (`None` if nothing was added).
    pub(crate) fn finish(self) -> Result<Option<Sst>, LsmError> {
        self.finish_with(
            |Copies {
                 mut keys,
                 mut values,
             }| {
                keys.shrink_to_fit();
                values.shrink_to_fit();
                SstEntries::Packed { keys, values }
            },
        )
    }
}

impl<'o> SstBuilder<'o, Nodes> {
    /// A builder over a memtable's nodes ([`add_node`](Self::add_node), then
    /// [`finish_over`](Self::finish_over) the memtable's arena).
    pub(crate) fn over_nodes(id: SstId, opts: &'o TableOptions, hint: SizeHint) -> Self {
        Self::with_store(id, opts, hint, Nodes(Vec::with_capacity(hint.entries)))
    }

    /// Adds the next entry: node `node`, which holds `key`, `trailer` and
    /// `value`, of the arena the table will keep.
    #[inline]
    pub(crate) fn add_node(
        &mut self,
        node: u32,
        key: &[u8],
        trailer: u64,
        value: &[u8],
    ) -> Result<(), LsmError> {
        self.store.0.push(node);
        self.account(key, trailer, value)
    }

    /// The finished table over the nodes of `arena` (`None` if nothing was
    /// added), which it keeps.
    pub(crate) fn finish_over(self, arena: Arena) -> Result<Option<Sst>, LsmError> {
        self.finish_with(|Nodes(mut nodes)| {
            nodes.shrink_to_fit();
            SstEntries::Nodes { arena, nodes }
        })
    }
}

impl<'o, S> SstBuilder<'o, S> {
    fn with_store(id: SstId, opts: &'o TableOptions, hint: SizeHint, store: S) -> Self {
        let filter = (opts.bloom_bits_per_key > 0)
            .then(|| FilterBuilder::new(opts.filter_block_size, opts.bloom_bits_per_key));
        SstBuilder {
            opts,
            id,
            store,
            trailers: Vec::with_capacity(hint.entries),
            last_key: Vec::new(),
            last_filter_key: None,
            older_versions: 0,
            block_first: Vec::new(),
            block_bytes: Vec::new(),
            block: BlockSizer::new(opts.block_restart_interval),
            index: IndexBuilder::new(
                opts.index_block_size,
                opts.block_size_deviation,
                opts.min_keys_per_index_block,
            ),
            filter,
            sep_buf: Vec::new(),
            props: TableProperties {
                smallest_seq: MAX_SEQ,
                ..TableProperties::default()
            },
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.trailers.is_empty()
    }

    /// Bytes written so far (data blocks, including the open one): what RocksDB's
    /// `FileSize()` reports when compaction decides to cut an output file.
    pub(crate) fn file_size(&self) -> u64 {
        self.props.data_size
            + if self.block.is_empty() {
                0
            } else {
                self.block.size()
            }
    }

    /// Accounts for the entry just stored: the data block it lands in (closing
    /// the one before), its filter key, the properties.
    #[inline]
    fn account(&mut self, key: &[u8], trailer: u64, value: &[u8]) -> Result<(), LsmError> {
        let key_len = key.len() as u32 + 8;
        let value_len = value.len() as u32;
        let o = self.opts;
        if block_is_full(
            &self.block,
            o.block_size,
            o.block_size_deviation,
            1,
            key_len,
            value_len,
        ) {
            self.close_block(Some(key))?;
        }
        let n = self.trailers.len();
        let shared = if self.block.next_is_restart() {
            0
        } else {
            internal_common_prefix(&self.last_key, self.trailers[n - 1], key, trailer) as u32
        };
        if self.block.is_empty() {
            self.block_first.push(n as u32);
        }
        self.block.add(shared, key_len, value_len);
        self.trailers.push(trailer);
        if n > 0 && self.last_key == key {
            self.older_versions += 1;
        }
        self.last_key.clear();
        self.last_key.extend_from_slice(key);
        if let Some(f) = &mut self.filter {
            let fk = o.bloom_key.apply(key);
            let last = self.last_filter_key.as_deref();
            if !fk.is_empty() && last != Some(fk) {
                f.add(fk, last);
                let last = self.last_filter_key.get_or_insert_with(Vec::new);
                last.clear();
                last.extend_from_slice(fk);
            }
        }
        self.count(key_len, value_len, trailer);
        if o.tombstone_value.is_some_and(|f| f(value)) {
            self.props.num_tombstone_values += 1;
        }
        Ok(())
    }

    #[inline]
    fn count(&mut self, key_len: u32, value_len: u32, trailer: u64) {
        let p = &mut self.props;
        p.num_entries += 1;
        p.raw_key_size += key_len as u64;
        p.raw_value_size += value_len as u64;
        if trailer_kind(trailer) == ValueKind::Delete {
            p.num_deletions += 1;
        }
        let seq = trailer_seq(trailer);
        p.smallest_seq = p.smallest_seq.min(seq);
        p.largest_seq = p.largest_seq.max(seq);
    }

    /// Closes the open data block and adds its index entry.
    fn close_block(&mut self, next: Option<&[u8]>) -> Result<(), LsmError> {
        let bytes = self.block.size();
        let n = self.trailers.len() - 1;
        let sep_trailer =
            internal_separator(&self.last_key, self.trailers[n], next, &mut self.sep_buf);
        let offset = self.props.data_size;
        if !self.index.add(&self.sep_buf, sep_trailer, offset, bytes) {
            return Err(LsmError::TableTooLarge);
        }
        self.block_bytes.push(bytes as u32);
        self.props.data_size += bytes + BLOCK_TRAILER_BYTES;
        self.props.data_block_bytes += bytes;
        self.props.num_data_blocks += 1;
        self.block.reset();
        Ok(())
    }

    /// The finished table, its entries stored as `entries` makes them of the
    /// store (`None` if nothing was added).
    fn finish_with(
        mut self,
        entries: impl FnOnce(S) -> SstEntries,
    ) -> Result<Option<Sst>, LsmError> {
        if self.is_empty() {
            return Ok(None);
        }
        self.close_block(None)?;
        let index = self.index.finish();
        let filter = self
            .filter
            .and_then(|f| f.finish(self.last_filter_key.as_deref()));
        let mut props = self.props;
        props.index_size = index.total_bytes;
        props.num_index_blocks = index.num_blocks() as u64;
        props.index_levels = index.num_levels() as u64;
        if let Some(f) = &filter {
            props.filter_size = f.blocks_total_bytes();
            props.num_filter_blocks = f.blocks.len() as u64;
            props.filter_index_size = f.index_total_bytes();
            props.filter_keys = f.keys;
        }
        props.file_size = props.data_size
            + props.index_size
            + props.filter_size
            + props.filter_index_size
            + FOOTER_BYTES;
        let mut trailers = self.trailers;
        trailers.shrink_to_fit();
        Ok(Some(Sst {
            id: self.id,
            entries: entries(self.store),
            older_versions: self.older_versions,
            trailers,
            block_first: self.block_first,
            block_bytes: self.block_bytes,
            restart_interval: self.opts.block_restart_interval.max(1),
            index,
            filter,
            props,
        }))
    }
}
