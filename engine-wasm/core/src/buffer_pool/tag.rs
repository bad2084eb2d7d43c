//! Buffer tags: which page of which relation fork a buffer holds.
//!
//! PostgreSQL identifies a cached page by its `BufferTag` (relation file locator,
//! fork number, block number; see buf_internals.h). IndexLab has one database, so a
//! relation is a plain numeric id chosen by the caller (tables and indexes share one
//! id space), and a fork distinguishes the main data from the visibility map and the
//! free-space map of the same relation.

use crate::storage::PageNo;
use std::fmt;

/// A relation (table or index) id, unique in one engine instance.
pub type RelId = u32;

/// One of a relation's files (PostgreSQL's ForkNumber).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fork {
    /// The relation's data: heap pages or index pages (`MAIN_FORKNUM`).
    Main,
    /// The free-space map (`FSM_FORKNUM`).
    Fsm,
    /// The visibility map (`VISIBILITYMAP_FORKNUM`).
    Vm,
}

impl Fork {
    /// The suffix PostgreSQL gives the fork's file (`main`, `fsm`, `vm`).
    pub fn name(self) -> &'static str {
        match self {
            Fork::Main => "main",
            Fork::Fsm => "fsm",
            Fork::Vm => "vm",
        }
    }
}

/// Which page a buffer holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BufferTag {
    pub rel: RelId,
    pub fork: Fork,
    pub page: PageNo,
}

impl BufferTag {
    pub fn new(rel: RelId, fork: Fork, page: PageNo) -> Self {
        BufferTag { rel, fork, page }
    }

    /// A page of the relation's main fork.
    pub fn main(rel: RelId, page: PageNo) -> Self {
        BufferTag::new(rel, Fork::Main, page)
    }
}

impl fmt::Display for BufferTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rel {} {} block {}",
            self.rel,
            self.fork.name(),
            self.page
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_order_by_relation_fork_page() {
        // Checkpoints write buffers sorted by tag, as PostgreSQL's BufferSync does.
        let mut tags = [
            BufferTag::new(2, Fork::Main, 0),
            BufferTag::new(1, Fork::Vm, 0),
            BufferTag::main(1, 5),
            BufferTag::main(1, 2),
        ];
        tags.sort();
        assert_eq!(tags[0], BufferTag::main(1, 2));
        assert_eq!(tags[2], BufferTag::new(1, Fork::Vm, 0));
        assert_eq!(tags[3].rel, 2);
        assert_eq!(tags[0].to_string(), "rel 1 main block 2");
    }
}
