//! The tag → frame lookup (PostgreSQL's buf_table.c), as a dense table.
//!
//! Every buffer access starts with this lookup, so it is the pool's hot path.
//! Relation ids are small and dense (an engine numbers its relations 0, 1, 2 …)
//! and a relation's pages are numbered from 0, so a vector per (relation, fork)
//! indexed by page number answers with two bounds checks instead of hashing a tag.
//! Memory is 4 bytes per page number ever cached, a small fraction of what the
//! simulated pages themselves take.

use super::frame::FrameId;
use super::tag::{BufferTag, Fork};

const NONE: FrameId = FrameId::MAX;
const FORKS: usize = 3;

fn fork_index(f: Fork) -> usize {
    match f {
        Fork::Main => 0,
        Fork::Fsm => 1,
        Fork::Vm => 2,
    }
}

#[cfg(test)]
const FORK_OF: [Fork; FORKS] = [Fork::Main, Fork::Fsm, Fork::Vm];

#[derive(Debug, Clone, Default)]
pub(super) struct PageTable {
    /// `rels[rel][fork][page]`: the frame holding that page, or `NONE`.
    rels: Vec<[Vec<FrameId>; FORKS]>,
    len: usize,
}

impl PageTable {
    pub(super) fn get(&self, tag: &BufferTag) -> Option<FrameId> {
        let id = *self
            .rels
            .get(tag.rel as usize)?
            .get(fork_index(tag.fork))?
            .get(tag.page as usize)?;
        (id != NONE).then_some(id)
    }

    pub(super) fn insert(&mut self, tag: BufferTag, id: FrameId) {
        let rel = tag.rel as usize;
        if self.rels.len() <= rel {
            self.rels.resize_with(rel + 1, Default::default);
        }
        let pages = &mut self.rels[rel][fork_index(tag.fork)];
        let page = tag.page as usize;
        if pages.len() <= page {
            pages.resize((page + 1).max(pages.len() * 2), NONE);
        }
        if pages[page] == NONE {
            self.len += 1;
        }
        pages[page] = id;
    }

    pub(super) fn remove(&mut self, tag: &BufferTag) {
        let slot = self
            .rels
            .get_mut(tag.rel as usize)
            .and_then(|forks| forks[fork_index(tag.fork)].get_mut(tag.page as usize));
        if let Some(slot) = slot.filter(|s| **s != NONE) {
            *slot = NONE;
            self.len -= 1;
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Every (tag, frame) held, in tag order.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = (BufferTag, FrameId)> + '_ {
        self.rels.iter().enumerate().flat_map(|(rel, forks)| {
            forks.iter().enumerate().flat_map(move |(f, pages)| {
                pages
                    .iter()
                    .enumerate()
                    .filter(|(_, &id)| id != NONE)
                    .map(move |(page, &id)| {
                        (
                            BufferTag::new(rel as super::RelId, FORK_OF[f], page as u32),
                            id,
                        )
                    })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_map() {
        let mut t = PageTable::default();
        let a = BufferTag::main(3, 10);
        let b = BufferTag::new(3, Fork::Vm, 10);
        t.insert(a, 7);
        t.insert(b, 8);
        t.insert(a, 9);
        assert_eq!(t.get(&a), Some(9));
        assert_eq!(t.get(&b), Some(8));
        assert_eq!(t.get(&BufferTag::main(3, 11)), None);
        assert_eq!(t.get(&BufferTag::main(40, 0)), None);
        assert_eq!(t.len(), 2);
        t.remove(&a);
        t.remove(&a);
        assert_eq!(t.len(), 1);
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![(b, 8)]);
    }
}
