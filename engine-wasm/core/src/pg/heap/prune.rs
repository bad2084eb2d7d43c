//! Page pruning (pruneheap.c `heap_page_prune`): reclaims the space of dead tuples
//! on one page, keeping what index entries still need.
//!
//! Index entries point at the *root* of each HOT chain (a tuple that is not
//! heap-only). For each chain:
//! - if some version is live, the root stays addressable: it becomes a redirect to
//!   the first live version (or stays as is, when the root is itself live), and the
//!   dead heap-only versions before it are freed outright — no index entry points
//!   at them;
//! - if no version is live, the root becomes `LP_DEAD` (its storage freed, the
//!   pointer kept until VACUUM has removed the index entries that name it) and the
//!   heap-only versions are freed.
//!
//! Freeing storage is `PageRepairFragmentation`'s compaction: here the page's tuple
//! byte count simply drops.

use super::super::tid::OffsetNumber;
use super::page::{HeapPage, LinePointer};

/// What pruning did to a page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct PruneResult {
    /// Something changed (the page must be written).
    pub changed: bool,
}

/// Prunes one page. Single session and autocommit: every dead tuple is dead to
/// everyone, so all of them can go.
pub(super) fn prune_page<T>(page: &mut HeapPage<T>) -> PruneResult {
    let n = page.items.len() as OffsetNumber;
    let mut changed = false;
    for root in 1..=n {
        if is_chain_root(page, root) {
            changed |= prune_chain(page, root);
        }
    }
    // Dead heap-only versions not reached from any root (cannot arise from the
    // operations here, but an unreachable dead tuple must never stay forever).
    for off in 1..=n {
        if matches!(page.get(off), Some(LinePointer::Normal(t)) if !t.live) {
            page.set(off, LinePointer::Unused);
            changed = true;
        }
    }
    // Nothing is left for a later prune until the next delete or update.
    page.prunable = false;
    PruneResult { changed }
}

fn is_chain_root<T>(page: &HeapPage<T>, off: OffsetNumber) -> bool {
    match page.get(off) {
        Some(LinePointer::Normal(t)) => !t.heap_only,
        Some(LinePointer::Redirect(_)) => true,
        _ => false,
    }
}

/// Prunes the chain starting at `root`; returns whether anything changed.
fn prune_chain<T>(page: &mut HeapPage<T>, root: OffsetNumber) -> bool {
    let live = first_live(page, root);
    if live == Some(root) {
        return false;
    }
    let mut changed = false;
    let mut cur = next_in_chain(page, root);
    let mut steps = 0;
    while let Some(off) = cur {
        if Some(off) == live || steps > page.items.len() {
            break;
        }
        steps += 1;
        cur = next_in_chain(page, off);
        page.set(off, LinePointer::Unused);
        changed = true;
    }
    let new_root = match live {
        Some(l) => LinePointer::Redirect(l),
        None => LinePointer::Dead,
    };
    let unchanged = match (page.get(root), &new_root) {
        (Some(LinePointer::Redirect(a)), LinePointer::Redirect(b)) => a == b,
        (Some(LinePointer::Dead), LinePointer::Dead) => true,
        _ => false,
    };
    if !unchanged {
        page.set(root, new_root);
    }
    changed || !unchanged
}

/// The first live version of the chain, if any.
fn first_live<T>(page: &HeapPage<T>, root: OffsetNumber) -> Option<OffsetNumber> {
    let mut cur = Some(root);
    for _ in 0..=page.items.len() {
        let off = cur?;
        if matches!(page.get(off), Some(LinePointer::Normal(t)) if t.live) {
            return Some(off);
        }
        cur = next_in_chain(page, off);
    }
    None
}

/// The next version in a HOT chain: a redirect's target, or a dead HOT-updated
/// tuple's successor — only if that is a heap-only tuple, as a chain must be.
fn next_in_chain<T>(page: &HeapPage<T>, off: OffsetNumber) -> Option<OffsetNumber> {
    let next = match page.get(off)? {
        LinePointer::Redirect(to) => *to,
        LinePointer::Normal(t) if !t.live => t.hot_next?,
        _ => return None,
    };
    page.tuple(next).filter(|t| t.heap_only).map(|_| next)
}
