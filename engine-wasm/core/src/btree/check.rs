//! Structural invariants, checked by the tests after every operation.
//!
//! From the root down, each page must sit between the separators its parent gives
//! it (low ≤ items < high), have the parent's separators as its own low and high
//! keys, hold its items strictly sorted, and fit its bytes in the page. Each level
//! must be one doubly linked chain in key order, rightmost page without a high key.

use std::cmp::Ordering;

use super::page::{Page, Pivot, MINUS_INFINITY_BYTES};
use super::tree::BTree;
use crate::storage::PageNo;

/// A bound handed down from a parent: (key, payload) of a separator.
type Fence<'a> = Option<&'a Pivot>;

struct Walk {
    seen: Vec<bool>,
    /// Pages per level in the order the descent found them (index = level).
    order: Vec<Vec<PageNo>>,
    entries: u64,
}

impl BTree {
    /// Ok if the tree is well-formed; otherwise a description of the first problem.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut walk = Walk {
            seen: vec![false; self.pages.len()],
            order: vec![Vec::new(); self.height as usize],
            entries: 0,
        };
        let root = self.page(self.root);
        if root.level as u32 + 1 != self.height {
            return Err(format!(
                "root level {} but height {}",
                root.level, self.height
            ));
        }
        self.check_page(self.root, root.level, None, None, &mut walk)?;
        if let Some(i) = walk.seen.iter().position(|s| !s) {
            return Err(format!("page {} is not reachable from the root", i + 1));
        }
        if walk.entries != self.entries {
            return Err(format!(
                "{} entries found, {} counted",
                walk.entries, self.entries
            ));
        }
        for (level, order) in walk.order.iter().enumerate() {
            self.check_chain(level as u8, order)?;
        }
        Ok(())
    }

    fn check_page(
        &self,
        no: PageNo,
        level: u8,
        low: Fence,
        high: Fence,
        walk: &mut Walk,
    ) -> Result<(), String> {
        let page = self
            .get_page(no)
            .ok_or_else(|| format!("downlink to missing page {no}"))?;
        let idx = no as usize - 1;
        if std::mem::replace(&mut walk.seen[idx], true) {
            return Err(format!("page {no} is reached twice"));
        }
        if page.level != level {
            return Err(format!("page {no} has level {} not {level}", page.level));
        }
        walk.order[level as usize].push(no);
        self.check_bytes(no, page)?;
        check_fences(no, page, low, high)?;
        check_items(no, page, low, high)?;
        if page.is_leaf() {
            walk.entries += page.len() as u64;
            return Ok(());
        }
        let pivots: Vec<Pivot> = (0..page.len()).map(|i| pivot_at(page, i)).collect();
        for i in 0..page.len() {
            let child_low = if i == 0 { low } else { Some(&pivots[i]) };
            let child_high = pivots.get(i + 1).or(high);
            self.check_page(page.child(i), level - 1, child_low, child_high, walk)?;
        }
        Ok(())
    }

    fn check_bytes(&self, no: PageNo, page: &Page) -> Result<(), String> {
        if page.computed_used() != page.used() {
            return Err(format!(
                "page {no} counts {} bytes but holds {}",
                page.used(),
                page.computed_used()
            ));
        }
        if page.used() > self.usable {
            return Err(format!(
                "page {no} uses {} of {} bytes",
                page.used(),
                self.usable
            ));
        }
        if !page.arena_consistent() {
            return Err(format!("page {no} has an inconsistent key arena"));
        }
        Ok(())
    }

    /// The chain of a level, followed through the links, must equal the order the
    /// descent found, and the prev links must mirror the next links.
    fn check_chain(&self, level: u8, order: &[PageNo]) -> Result<(), String> {
        let chain = self.level_chain(level);
        if chain != order {
            return Err(format!(
                "level {level} chain {chain:?} differs from tree order {order:?}"
            ));
        }
        let mut prev = None;
        for &no in &chain {
            if self.page(no).prev != prev {
                return Err(format!(
                    "page {no} prev is {:?}, expected {prev:?}",
                    self.page(no).prev
                ));
            }
            prev = Some(no);
        }
        Ok(())
    }
}

fn pivot_at(page: &Page, i: usize) -> Pivot {
    Pivot {
        key: page.key(i).to_vec(),
        payload: page.payload(i),
        size: page.tuple_size(i),
        origin: page.payload(i),
    }
}

fn cmp(key: &[u8], payload: u64, fence: &Pivot) -> Ordering {
    key.cmp(&fence.key).then(payload.cmp(&fence.payload))
}

/// The page's own low and high keys must be the separators its parent holds; only
/// the leftmost page lacks a low key and only the rightmost lacks a high key.
fn check_fences(no: PageNo, page: &Page, low: Fence, high: Fence) -> Result<(), String> {
    if page.low.as_ref() != low {
        return Err(format!(
            "page {no} low key {:?} but parent gives {low:?}",
            page.low
        ));
    }
    if page.high() != high {
        return Err(format!(
            "page {no} high key {:?} but parent gives {high:?}",
            page.high()
        ));
    }
    if page.low.is_some() != page.prev.is_some() || page.high().is_some() != page.next.is_some() {
        return Err(format!("page {no}: fences and sibling links disagree"));
    }
    Ok(())
}

/// Items strictly ascending, within [low, high); an internal page starts with a
/// minus-infinity item.
fn check_items(no: PageNo, page: &Page, low: Fence, high: Fence) -> Result<(), String> {
    let first = if page.is_leaf() { 0 } else { 1 };
    if !page.is_leaf() && (page.len() == 0 || page.tuple_size(0) != MINUS_INFINITY_BYTES) {
        return Err(format!("internal page {no} lacks its minus-infinity item"));
    }
    for i in first..page.len() {
        let (key, payload) = (page.key(i), page.payload(i));
        if i > first && (page.key(i - 1), page.payload(i - 1)) >= (key, payload) {
            return Err(format!("page {no} items {} and {i} out of order", i - 1));
        }
        if low.is_some_and(|l| cmp(key, payload, l) == Ordering::Less) {
            return Err(format!("page {no} item {i} is below the page's low key"));
        }
        if high.is_some_and(|h| cmp(key, payload, h) != Ordering::Less) {
            return Err(format!(
                "page {no} item {i} is not below the page's high key"
            ));
        }
    }
    Ok(())
}
