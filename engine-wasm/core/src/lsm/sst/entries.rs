//! Where an SST's keys and values live.
//!
//! A compaction's output copies its entries end to end ([`KeyList`]s). A
//! flush does not copy: the SST takes over the flushed memtable's arena and
//! lists its nodes in key order. The bytes are the same either way, and so is
//! every size the table reports (those are computed as the block-based format
//! would lay the entries out, not from where they sit in memory). Copying them
//! would be most of a flush's cost: a million-row memtable's keys and values
//! written again into freshly allocated memory, page by page, while the arena
//! that already holds them is about to be freed.

use std::fmt;

use crate::lsm::memtable::arena::Arena;
use crate::lsm::memtable::node;
use crate::lsm::types::KeyList;

#[derive(Clone)]
pub(crate) enum SstEntries {
    /// Copied end to end.
    Packed { keys: KeyList, values: KeyList },
    /// A flushed memtable's nodes, entry `i` being node `nodes[i]`. The
    /// arena also holds the versions the flush dropped; they are not listed.
    Nodes { arena: Arena, nodes: Vec<u32> },
}

impl SstEntries {
    #[inline]
    pub(crate) fn key(&self, i: usize) -> &[u8] {
        match self {
            SstEntries::Packed { keys, .. } => keys.get(i),
            SstEntries::Nodes { arena, nodes } => node::key(arena, nodes[i]),
        }
    }

    #[inline]
    pub(crate) fn value(&self, i: usize) -> &[u8] {
        match self {
            SstEntries::Packed { values, .. } => values.get(i),
            SstEntries::Nodes { arena, nodes } => node::value(arena, nodes[i]),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            SstEntries::Packed { keys, .. } => keys.len(),
            SstEntries::Nodes { nodes, .. } => nodes.len(),
        }
    }
}

/// The entries themselves, however they are stored: a table taken over from a
/// memtable prints as the same table copied entry by entry.
impl fmt::Debug for SstEntries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..self.len()).map(|i| (self.key(i), self.value(i))))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_and_copies_hold_the_same_entries() {
        let entries: Vec<(Vec<u8>, Vec<u8>)> = (0..500u32)
            .map(|i| (i.to_be_bytes().to_vec(), vec![i as u8; (i % 7) as usize]))
            .collect();
        let mut arena = Arena::default();
        // Written in another order than listed, as a memtable's nodes are.
        let mut ids: Vec<u32> = entries
            .iter()
            .rev()
            .map(|(k, v)| node::append(&mut arena, k, 1, v))
            .collect();
        ids.reverse();
        let (mut keys, mut values) = (KeyList::default(), KeyList::default());
        for (k, v) in &entries {
            assert!(keys.push(k) && values.push(v));
        }
        let packed = SstEntries::Packed { keys, values };
        let nodes = SstEntries::Nodes { arena, nodes: ids };
        assert_eq!((packed.len(), nodes.len()), (500, 500));
        for (i, (k, v)) in entries.iter().enumerate() {
            assert_eq!((nodes.key(i), nodes.value(i)), (&k[..], &v[..]));
            assert_eq!((packed.key(i), packed.value(i)), (&k[..], &v[..]));
        }
        assert_eq!(format!("{packed:?}"), format!("{nodes:?}"));
    }
}
