//! Opportunistic pruning (`heap_page_prune_opt`, pruneheap.c): a scan that
//! reads a heap page first prunes it when the page is nearly full and holds
//! dead tuples no running transaction can still see. Space and line
//! pointers come back without VACUUM, so an UPDATE-heavy table reuses its
//! pages (and `ctid`s) between vacuums.
//!
//! "Nearly full" is PostgreSQL's test: less free space than the fillfactor
//! reserves, or a tenth of the page if that is more. A page whose dead
//! tuples were deleted by the transaction still running is left alone (they
//! are not yet dead to everyone; PostgreSQL would still prune the others).

use super::prune::prune_page;
use super::{Heap, LinePointer, TransactionId};
use crate::storage::{Access, PageAccess, PageNo};

impl<T> Heap<T> {
    /// Prunes page `p` if PostgreSQL's scan would; `running` is the id of the
    /// transaction running now, if it has one. Returns whether it pruned.
    pub fn prune_opt(
        &mut self,
        p: PageNo,
        running: Option<TransactionId>,
        io: &mut dyn PageAccess,
    ) -> bool {
        let geom = self.geom;
        let Some(page) = self.pages.get_mut(p as usize) else {
            return false;
        };
        // `PageIsPrunable`: a delete or update set `pd_prune_xid` (an insert
        // never does, so a page holding only aborted inserts waits for VACUUM).
        if page.dead == 0 || !page.prunable {
            return false;
        }
        let killed_by_running = page
            .items
            .iter()
            .any(|lp| matches!(lp, LinePointer::Normal(t) if !t.live && Some(t.xmax) == running));
        if killed_by_running {
            return false;
        }
        let minfree = geom.save_free_space.max(geom.page_size / 10);
        if page.heap_free_space(&geom) >= minfree {
            return false;
        }
        let dead_before = page.dead;
        page.check_all(running);
        prune_page(page);
        self.dead -= u64::from(dead_before - page.dead);
        io.access(p, Access::Write);
        true
    }
}
