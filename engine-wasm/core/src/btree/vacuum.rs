//! VACUUM's pass over an index (btbulkdelete → btvacuumscan).
//!
//! PostgreSQL reads every block of the index in physical order rather than following
//! the tree, because a sequential read is cheap and no page can be missed that way;
//! internal pages are read and skipped, and each leaf loses the tuples whose heap
//! TIDs the callback says are dead. Emptied leaves stay in place (page deletion is
//! not modelled).

use super::tree::BTree;
use crate::storage::{Access, PageAccess, PageNo};

impl BTree {
    /// Removes every entry for which `dead(key, payload)` is true and returns how
    /// many. Reports each page once in block order: internal pages as Read, leaves as
    /// Write if something was removed, otherwise Read.
    pub fn bulk_delete<F>(&mut self, mut dead: F, io: &mut dyn PageAccess) -> u64
    where
        F: FnMut(&[u8], u64) -> bool,
    {
        let mut removed = 0u64;
        for (i, page) in self.pages.iter_mut().enumerate() {
            let no = i as PageNo + 1;
            if !page.is_leaf() {
                io.access(no, Access::Read);
                continue;
            }
            let gone = page.retain(|key, payload| !dead(key, payload)) as u64;
            let how = if gone > 0 {
                Access::Write
            } else {
                Access::Read
            };
            io.access(no, how);
            removed += gone;
        }
        self.entries -= removed;
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::BTreeConfig;
    use super::*;
    use crate::storage::{AccessLog, NoAccounting};

    #[test]
    fn removes_what_the_callback_marks_and_reports_every_page() {
        let mut tree = BTree::new(BTreeConfig::with_page_size(256), &mut NoAccounting).unwrap();
        for i in 0..500u64 {
            tree.insert(&i.to_be_bytes(), i, 16, &mut NoAccounting)
                .unwrap();
        }
        let mut log = AccessLog::default();
        let removed = tree.bulk_delete(|_, p| p % 3 == 0, &mut log);
        assert_eq!(removed, 167);
        assert_eq!(tree.len(), 333);
        assert_eq!(log.0.len() as u32, tree.page_count() - 1);
        assert!(log.0.windows(2).all(|w| w[0].0 < w[1].0), "block order");
        tree.check_invariants().unwrap();
        let all = tree.scan(
            std::ops::Bound::Unbounded,
            std::ops::Bound::Unbounded,
            super::super::Direction::Forward,
            usize::MAX,
            &mut NoAccounting,
        );
        assert!(all.iter().all(|(_, p)| p % 3 != 0));
    }
}
