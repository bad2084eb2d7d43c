//! Flush: a sealed memtable becomes an L0 SST. As RocksDB's flush, it runs the
//! entries through the same version filter as compaction (a version shadowed in
//! its snapshot stripe is not written), but keeps every tombstone: older data for
//! the key may lie in the SSTs below.
//!
//! The SST keeps the memtable's arena and lists the nodes it writes, instead of
//! copying their bytes (see `SstEntries` in `sst::entries`).

use super::compaction::gc::VersionFilter;
use super::error::LsmError;
use super::memtable::Memtable;
use super::options::TableOptions;
use super::sst::builder::{SizeHint, SstBuilder};
use super::sst::Sst;
use super::types::{SeqNo, SstId};

/// The SST for `mem` (`None` only for an empty memtable), and how many versions
/// were dropped.
pub(crate) fn flush_memtable(
    mem: Memtable,
    id: SstId,
    opts: &TableOptions,
    snapshots: &[SeqNo],
) -> Result<(Option<Sst>, u64), LsmError> {
    let hint = SizeHint {
        entries: mem.len(),
        key_bytes: mem.key_bytes(),
        value_bytes: mem.value_bytes(),
    };
    let mut builder = SstBuilder::over_nodes(id, opts, hint);
    let mut filter = VersionFilter::new(snapshots);
    mem.for_each_sorted(|node, key, trailer, value| {
        if filter.keep(key, trailer, |_| false) {
            builder.add_node(node, key, trailer, value)?;
        }
        Ok(())
    })?;
    let dropped = filter.dropped_versions;
    Ok((builder.finish_over(mem.into_arena())?, dropped))
}
