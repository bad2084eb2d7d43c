//! The state one read carries down to the cursors: the block cache, how to use
//! it, the counters, and the optional event list.

use super::stats::{ReadEvent, ReadStats};
use crate::lsm::cache::{BlockCache, BlockId, BlockKind, CacheMode};
use crate::lsm::sst::Sst;

pub(crate) struct ReadCtx<'c> {
    cache: &'c mut BlockCache,
    owner: u32,
    pub(crate) mode: CacheMode,
    /// Data blocks read through the cache before later ones bypass it (YB's scan
    /// readahead; article 000: 2 cached data blocks per read request).
    pub(crate) bypass_after: Option<u64>,
    data_blocks: u64,
    pub(crate) stats: ReadStats,
    pub(crate) events: Option<Vec<ReadEvent>>,
}

impl<'c> ReadCtx<'c> {
    pub(crate) fn new(
        cache: &'c mut BlockCache,
        owner: u32,
        mode: CacheMode,
        record: bool,
    ) -> Self {
        ReadCtx {
            cache,
            owner,
            mode,
            bypass_after: None,
            data_blocks: 0,
            stats: ReadStats::default(),
            events: record.then(Vec::new),
        }
    }

    /// Reads one block of an SST.
    pub(crate) fn read_block(
        &mut self,
        sst: &Sst,
        level: u32,
        kind: BlockKind,
        block: u32,
        bytes: u32,
    ) {
        let mut mode = self.mode;
        if kind == BlockKind::Data {
            self.data_blocks += 1;
            if self.bypass_after.is_some_and(|n| self.data_blocks > n) {
                mode = CacheMode::Bypass;
            }
        }
        let id = BlockId {
            owner: self.owner,
            sst: sst.id(),
            kind,
            block,
        };
        let outcome = self.cache.access(id, bytes, mode);
        self.stats.cache.record(kind, outcome, bytes);
        if let Some(ev) = &mut self.events {
            ev.push(ReadEvent::Block {
                block: id,
                level,
                bytes,
                outcome,
            });
        }
    }

    /// Probes an SST's bloom filter for `bloom_key`: the filter index block, then
    /// the filter block it points to. True when the SST may hold the key (or has
    /// no usable filter).
    pub(crate) fn bloom_may_match(&mut self, sst: &Sst, level: u32, bloom_key: &[u8]) -> bool {
        let Some((block, may)) = sst.filter_probe(bloom_key) else {
            return true;
        };
        self.stats.bloom_filter_checked += 1;
        let n = sst.num_filter_blocks();
        self.read_block(sst, level, BlockKind::Filter, n, sst.filter_index_bytes());
        if let Some(b) = block {
            self.read_block(sst, level, BlockKind::Filter, b, sst.filter_block_bytes());
        }
        if !may {
            self.stats.bloom_filter_useful += 1;
        }
        if let Some(ev) = &mut self.events {
            ev.push(ReadEvent::Bloom {
                sst: sst.id(),
                level,
                may_match: may,
            });
        }
        may
    }

    pub(crate) fn recording(&self) -> bool {
        self.events.is_some()
    }

    pub(crate) fn push(&mut self, event: ReadEvent) {
        if let Some(ev) = &mut self.events {
            ev.push(event);
        }
    }
}
