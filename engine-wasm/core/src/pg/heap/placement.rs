//! Choosing the page for a new tuple: hio.c `RelationGetBufferForTuple`.
//!
//! 1. The relation's target page (where the last insert went), if it has room.
//! 2. Otherwise, with no target (a new session, or after VACUUM reset it), the free
//!    space map; if the FSM knows nothing, the last page of the relation.
//! 3. Each candidate found too full is recorded in the FSM with its real free space
//!    and the FSM is asked again; when it has nothing, the relation is extended.
//!
//! "Room" means the tuple plus the fillfactor reserve fits in `PageGetHeapFreeSpace`.
//! Candidates are read to check them (a `Read` access each); the chosen page is
//! modified (`Write`), or added (`Extend`, which the buffer pool counts as a new,
//! dirty page).

use super::page::HeapPage;
use super::{Heap, HeapError};
use crate::storage::{Access, PageAccess, PageNo};

/// PostgreSQL's `MaxBlockNumber`: the last valid block is 0xFFFFFFFE.
const MAX_PAGES: u64 = 0xFFFF_FFFF;

impl<T> Heap<T> {
    /// Finds (or adds) the page for a tuple of `len` MAXALIGN'd bytes and reports the
    /// accesses. `held` is a page the caller already has locked and modified (the
    /// old version's page during UPDATE): it is not counted again when examined.
    pub(super) fn place(
        &mut self,
        len: u32,
        io: &mut dyn PageAccess,
        held: Option<PageNo>,
    ) -> Result<(PageNo, bool), HeapError> {
        let need = self.geom.target_free_space(len);
        let mut candidate = self.first_candidate(need);
        while let Some(page) = candidate {
            let Some(p) = self.pages.get(page as usize) else {
                break;
            };
            let free = p.heap_free_space(&self.geom);
            if need <= free {
                io.access(page, Access::Write);
                self.target = Some(page);
                return Ok((page, false));
            }
            if held != Some(page) {
                io.access(page, Access::Read);
            }
            candidate = self.fsm.record_and_search(page, free, need);
        }
        self.extend(len, io).map(|page| (page, true))
    }

    fn first_candidate(&mut self, need: u32) -> Option<PageNo> {
        self.target
            .or_else(|| self.fsm.search(need))
            .or_else(|| self.page_count().checked_sub(1))
    }

    /// Adds an empty page at the end; it becomes the target.
    fn extend(&mut self, len: u32, io: &mut dyn PageAccess) -> Result<PageNo, HeapError> {
        // As u64: on wasm32 a usize cannot exceed the limit, but a 64-bit host can.
        if self.pages.len() as u64 >= MAX_PAGES {
            return Err(HeapError::RelationFull);
        }
        let page = self.pages.len() as PageNo;
        // Reserve the line pointers one page of such tuples will need.
        let estimate = self.geom.rows_per_page(len as u16).max(1) as usize;
        self.pages
            .push(HeapPage::new(estimate, self.geom.page_size));
        io.access(page, Access::Extend);
        self.target = Some(page);
        Ok(page)
    }
}
