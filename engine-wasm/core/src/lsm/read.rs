//! Read paths: point lookups (RocksDB's `DB::Get`) and iterator creation.
//!
//! A lookup checks the memtables newest first, then the L0 SSTs newest first,
//! then the one SST per deeper level whose range holds the key; the first version
//! at or below the read's sequence number answers. Each SST probe costs, as with
//! `cache_index_and_filter_blocks`: the filter index and one filter block (when
//! the table has a filter; a negative answer stops there), the index blocks, and
//! the data block(s).

pub(super) mod ctx;
mod iterator;
mod level_cursor;
mod merging;
mod options;
mod stats;

pub use iterator::DbIter;
pub use options::{ReadOptions, Snapshot};
pub use stats::{Comparisons, IterOp, Position, ReadEvent, ReadStats};

use ctx::ReadCtx;
use level_cursor::LevelCursor;
use merging::{Child, Children, MergingIter};

use super::cache::BlockCache;
use super::db::Lsm;
use super::memtable::cursor::{MemCursor, TailCursor};
use super::sst::cursor::TableCursor;
use super::sst::Sst;
use super::types::{seek_trailer, trailer_kind, SeqNo, ValueKind};

/// What a point lookup found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GetResult {
    /// The value, or `None` if the key is absent or deleted.
    pub value: Option<Vec<u8>>,
    /// Where the deciding version (value or tombstone) was.
    pub position: Option<Position>,
    pub stats: ReadStats,
    pub events: Vec<ReadEvent>,
}

impl Lsm {
    fn read_seq(&self, opts: &ReadOptions) -> SeqNo {
        opts.snapshot.map_or(self.last_seq, |s| s.0)
    }

    fn read_ctx<'a>(&self, cache: &'a mut BlockCache, opts: &ReadOptions) -> ReadCtx<'a> {
        let mut ctx = ReadCtx::new(cache, self.opts.owner, opts.cache_mode, opts.record_events);
        ctx.bypass_after = opts.bypass_cache_after_data_blocks;
        ctx
    }

    /// The value of `key` at the read's snapshot.
    pub fn get(&self, cache: &mut BlockCache, key: &[u8], opts: &ReadOptions) -> GetResult {
        let seq = self.read_seq(opts);
        let mut ctx = self.read_ctx(cache, opts);
        ctx.stats.number_keys_read += 1;
        let mems = std::iter::once(&self.mem).chain(self.imm.iter().rev());
        let in_mem = mems
            .filter_map(|m| {
                m.get(key, seq)
                    .map(|(kind, v)| (kind, v, Position::Memtable { memtable: m.id() }))
            })
            .next();
        let found = match in_mem {
            Some(f) => {
                ctx.stats.memtable_hit += 1;
                Some(f)
            }
            None => {
                ctx.stats.memtable_miss += 1;
                self.get_from_ssts(&mut ctx, key, seq)
            }
        };
        let (value, position) = match found {
            Some((ValueKind::Put, v, p)) => (Some(v.to_vec()), Some(p)),
            Some((ValueKind::Delete, _, p)) => (None, Some(p)),
            None => (None, None),
        };
        ctx.stats.bytes_read += value.as_ref().map_or(0, |v| v.len() as u64);
        ctx.push(ReadEvent::Iter {
            op: IterOp::Get,
            target: Some(key.to_vec()),
            key: value.as_ref().map(|_| key.to_vec()),
            position,
            comparisons: ctx.stats.key_comparisons,
        });
        GetResult {
            value,
            position,
            stats: ctx.stats,
            events: ctx.events.take().unwrap_or_default(),
        }
    }

    fn get_from_ssts<'a>(
        &'a self,
        ctx: &mut ReadCtx,
        key: &[u8],
        seq: SeqNo,
    ) -> Option<(ValueKind, &'a [u8], Position)> {
        let bloom_key = self.opts.table.bloom_key.apply(key);
        for (level, files) in self.levels.levels.iter().enumerate() {
            let candidates: Vec<&Sst> = if level == 0 {
                files
                    .iter()
                    .filter(|f| f.smallest.as_slice() <= key && key <= f.largest.as_slice())
                    .filter_map(|f| self.ssts.get(&f.id))
                    .collect()
            } else {
                let i = files.partition_point(|f| f.largest.as_slice() < key);
                files
                    .get(i)
                    .filter(|f| f.smallest.as_slice() <= key)
                    .and_then(|f| self.ssts.get(&f.id))
                    .into_iter()
                    .collect()
            };
            for sst in candidates {
                if let Some(found) = probe(ctx, sst, level as u32, key, bloom_key, seq) {
                    return Some(found);
                }
            }
        }
        None
    }

    /// An iterator at the read's snapshot. It borrows the tree (no writes while
    /// it lives) and the block cache.
    ///
    /// The iterator is made first and its sources are added in place: it is
    /// large (its counters, its sources inline), and one assembled from parts
    /// would be copied whole on return, a copy that stalls the reads right after
    /// it (DocDB opens one per write).
    pub fn iter<'a>(&'a self, cache: &'a mut BlockCache, opts: &ReadOptions) -> DbIter<'a> {
        let ctx = self.read_ctx(cache, opts);
        let mut it = DbIter::new(MergingIter::new(Children::new()), ctx, self.read_seq(opts));
        self.add_sources(&mut it, opts);
        it
    }

    /// Runs `f` with an iterator made in this call's frame. A caller that
    /// wants only what the iterator found (DocDB's look at a key before
    /// writing it, twice a row) is spared moving the iterator — hundreds of
    /// bytes — out of [`iter`](Self::iter).
    #[inline]
    pub fn with_iter<'a, R>(
        &'a self,
        cache: &'a mut BlockCache,
        opts: &ReadOptions,
        f: impl FnOnce(&mut DbIter<'a>) -> R,
    ) -> R {
        let ctx = self.read_ctx(cache, opts);
        let mut it = DbIter::new(MergingIter::new(Children::new()), ctx, self.read_seq(opts));
        self.add_sources(&mut it, opts);
        f(&mut it)
    }

    /// Adds the tree's sources to a new iterator: memtables, then the L0
    /// SSTs and one cursor per deeper level, each only if its range and bloom
    /// filter may hold the read's filter key.
    fn add_sources<'a>(&'a self, it: &mut DbIter<'a>, opts: &ReadOptions) {
        let (children, ctx) = it.sources_mut();
        for m in std::iter::once(&self.mem).chain(self.imm.iter().rev()) {
            if m.list().len() > 0 {
                children.push(Child::Mem(MemCursor::new(m)));
            }
            if m.has_tail() {
                children.push(Child::Tail(TailCursor::new(m)));
            }
        }
        let bloom = opts.bloom_filter_key.as_deref();
        for (level, files) in self.levels.levels.iter().enumerate() {
            if files.is_empty() {
                continue;
            }
            let ssts: Vec<&Sst> = files
                .iter()
                .filter_map(|f| self.ssts.get(&f.id))
                .filter(|s| self.may_hold(ctx, s, level as u32, bloom))
                .collect();
            if level == 0 {
                children.extend(
                    ssts.into_iter()
                        .map(|s| Child::Table(TableCursor::new(s, 0))),
                );
            } else if !ssts.is_empty() {
                children.push(Child::Level(LevelCursor::new(ssts, level as u32)));
            }
        }
    }

    /// Whether an SST may hold keys with the iterator's filter key: its range
    /// first (no I/O), then its bloom filter.
    fn may_hold(&self, ctx: &mut ReadCtx, sst: &Sst, level: u32, bloom: Option<&[u8]>) -> bool {
        let Some(b) = bloom else { return true };
        let extract = |k| self.opts.table.bloom_key.apply(k);
        if b < extract(sst.smallest_key()) || extract(sst.largest_key()) < b {
            return false;
        }
        ctx.bloom_may_match(sst, level, b)
    }
}

/// Looks `key` up in one SST: bloom filter, then index and data blocks.
fn probe<'a>(
    ctx: &mut ReadCtx,
    sst: &'a Sst,
    level: u32,
    key: &[u8],
    bloom_key: &[u8],
    seq: SeqNo,
) -> Option<(ValueKind, &'a [u8], Position)> {
    if !ctx.bloom_may_match(sst, level, bloom_key) {
        return None;
    }
    let mut cursor = TableCursor::new(sst, level);
    cursor.seek(ctx, key, seek_trailer(seq));
    (cursor.valid() && cursor.key() == key).then(|| {
        (
            trailer_kind(cursor.trailer()),
            cursor.value(),
            cursor.position(),
        )
    })
}
