//! One B+tree page: a slotted page with PostgreSQL's byte accounting.
//!
//! Items are kept as a sorted ring of slots (PostgreSQL's line-pointer array) and
//! their key bytes in a page-local arena. An insert copies the key once and shifts
//! the slots on the shorter side — a load in descending key order (an index on
//! `value desc` over increasing timestamps) inserts at slot 0 every time, and a
//! ring makes that O(1) where an array would move the whole page — so nothing is
//! allocated per entry and a binary search stays inside one page.
//!
//! `used` counts what PostgreSQL would store: each item's MAXALIGN'd tuple plus its
//! 4-byte line pointer, plus the high key on every page but the rightmost of a level.
//! The 24-byte page header and 16-byte special space are outside the usable bytes.

use std::cmp::Ordering;
use std::collections::VecDeque;

use super::compare::{abbrev, cmp_bytes, Target};
use crate::storage::PageNo;

/// PageHeaderData.
pub const PAGE_HEADER_BYTES: u32 = 24;
/// BTPageOpaqueData (prev, next, level, flags, cycle id), MAXALIGN'd.
pub const SPECIAL_BYTES: u32 = 16;
/// ItemIdData.
pub const LINE_POINTER_BYTES: u32 = 4;
/// The first item of an internal page is a pivot truncated to no key attributes —
/// "minus infinity" — which is a bare 8-byte IndexTupleData.
pub const MINUS_INFINITY_BYTES: u16 = 8;

/// A separator: the key, payload and on-page size of a pivot tuple. It is the high
/// key of the page on its left and the low bound of the page on its right.
///
/// A leaf split's pivot is suffix-truncated (see [`super::truncate`]): its key
/// may be a prefix of the first right item's, and its payload is 0 (heap TID
/// truncated) or the last left item's heap TID + 1 (heap TID kept).
#[derive(Debug, Clone)]
pub struct Pivot {
    pub key: Vec<u8>,
    pub payload: u64,
    pub size: u16,
    /// The heap TID of the item it was built from (the first item moved right by
    /// a leaf split): a leaf high key keeps its block in its TID field, which
    /// pageinspect shows. Not part of the pivot's value.
    pub origin: u64,
}

impl PartialEq for Pivot {
    fn eq(&self, other: &Self) -> bool {
        (&self.key, self.payload, self.size) == (&other.key, other.payload, other.size)
    }
}

impl Eq for Pivot {}

impl Pivot {
    /// Bytes the pivot takes when stored as an item (tuple + line pointer).
    pub(crate) fn item_bytes(&self) -> u32 {
        self.size as u32 + LINE_POINTER_BYTES
    }
}

/// The LP_DEAD hint of an item (an index scan or a uniqueness check found
/// its row dead to everyone), kept in the top bit of [`Slot::size`]: tuples
/// are far below 32 KiB, and a slot stays 24 bytes.
const LP_DEAD: u16 = 0x8000;

#[derive(Debug, Clone, Copy)]
struct Slot {
    /// The key's first 8 bytes, big-endian and zero-padded ("abbreviated key"):
    /// most comparisons end here without touching the arena, which matters when
    /// random inserts make every leaf a cache miss.
    abbrev: u64,
    payload: u64,
    off: u32,
    len: u16,
    /// The tuple's size, with the LP_DEAD bit on top.
    size: u16,
}

impl Slot {
    fn bytes(&self) -> u16 {
        self.size & !LP_DEAD
    }

    fn dead(&self) -> bool {
        self.size & LP_DEAD != 0
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Page {
    /// 0 for leaves; a parent is one level above its children (btpo_level).
    pub(crate) level: u8,
    pub(crate) prev: Option<PageNo>,
    pub(crate) next: Option<PageNo>,
    /// The left sibling's high key, kept here so a backward scan can stop at the same
    /// page boundary a forward scan stops at (PostgreSQL would read the left page).
    /// Not stored on the page, so not counted in `used`.
    pub(crate) low: Option<Pivot>,
    high: Option<Pivot>,
    /// Bumped whenever items move, so a cursor can tell its offset went stale.
    pub(crate) version: u32,
    slots: VecDeque<Slot>,
    /// Downlinks of an internal page, parallel to `slots`; empty on leaves.
    children: Vec<PageNo>,
    arena: Vec<u8>,
    garbage: u32,
    used: u32,
    /// BTP_HAS_GARBAGE: set with an LP_DEAD hint, cleared when VACUUM
    /// deletes items or a split rewrites the page.
    pub(crate) has_garbage: bool,
}

impl Page {
    pub(crate) fn new(level: u8) -> Self {
        Page {
            level,
            prev: None,
            next: None,
            low: None,
            high: None,
            version: 0,
            slots: VecDeque::new(),
            children: Vec::new(),
            arena: Vec::new(),
            garbage: 0,
            used: 0,
            has_garbage: false,
        }
    }

    /// A new root above a split: minus infinity → left, separator → right (_bt_newroot).
    pub(crate) fn new_root(level: u8, left: PageNo, sep: &Pivot, right: PageNo) -> Self {
        let mut page = Page::new(level);
        page.insert_at(0, &[], 0, MINUS_INFINITY_BYTES, Some(left));
        page.insert_at(1, &sep.key, sep.payload, sep.size, Some(right));
        page
    }

    pub(crate) fn is_leaf(&self) -> bool {
        self.level == 0
    }

    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Bytes of items, line pointers and high key.
    pub(crate) fn used(&self) -> u32 {
        self.used
    }

    pub(crate) fn high(&self) -> Option<&Pivot> {
        self.high.as_ref()
    }

    pub(crate) fn key(&self, i: usize) -> &[u8] {
        self.slot_key(&self.slots[i])
    }

    pub(crate) fn payload(&self, i: usize) -> u64 {
        self.slots[i].payload
    }

    pub(crate) fn tuple_size(&self, i: usize) -> u16 {
        self.slots[i].bytes()
    }

    /// Whether item `i` carries the LP_DEAD hint.
    pub(crate) fn is_dead(&self, i: usize) -> bool {
        self.slots[i].dead()
    }

    pub(crate) fn has_dead(&self) -> bool {
        self.slots.iter().any(Slot::dead)
    }

    /// Sets the LP_DEAD hint of item `i` (_bt_killitems): a hint, so the
    /// items do not move and cursors stay valid (no `touch`).
    pub(crate) fn mark_dead(&mut self, i: usize) {
        self.slots[i].size |= LP_DEAD;
        self.has_garbage = true;
    }

    pub(crate) fn item_bytes(&self, i: usize) -> u32 {
        self.slots[i].bytes() as u32 + LINE_POINTER_BYTES
    }

    pub(crate) fn child(&self, i: usize) -> PageNo {
        self.children[i]
    }

    fn slot_key(&self, s: &Slot) -> &[u8] {
        &self.arena[s.off as usize..s.off as usize + s.len as usize]
    }

    #[inline]
    fn cmp_slot(&self, s: &Slot, t: &Target) -> Ordering {
        let by_key = match s.abbrev.cmp(&t.abbrev) {
            Ordering::Equal => cmp_bytes(self.slot_key(s), t.key),
            other => other,
        };
        by_key.then(s.payload.cmp(&t.payload))
    }

    /// Leaf search by (key, payload): Ok(i) if present, Err(i) where it would go.
    /// Loads in key order insert at one end of a page, so both ends are checked
    /// before bisecting: two well-predicted comparisons instead of a dozen.
    pub(crate) fn search(&self, key: &[u8], payload: u64) -> Result<usize, usize> {
        let t = &Target::new(key, payload);
        let n = self.slots.len();
        if n == 0 {
            return Err(0);
        }
        match self.cmp_slot(&self.slots[0], t) {
            Ordering::Greater => return Err(0),
            Ordering::Equal => return Ok(0),
            Ordering::Less => {}
        }
        match self.cmp_slot(&self.slots[n - 1], t) {
            Ordering::Less => return Err(n),
            Ordering::Equal => return Ok(n - 1),
            Ordering::Greater => {}
        }
        let i = self.partition_from(1, n - 1, |s| self.cmp_slot(s, t) == Ordering::Less);
        if i < n - 1 && self.cmp_slot(&self.slots[i], t) == Ordering::Equal {
            Ok(i)
        } else {
            Err(i)
        }
    }

    /// Internal search (_bt_binsrch on a non-leaf page): the last pivot ≤ the target.
    /// Slot 0 is minus infinity, so it always qualifies. Ends first, as in `search`.
    pub(crate) fn child_slot(&self, key: &[u8], payload: u64) -> usize {
        let t = &Target::new(key, payload);
        let n = self.slots.len();
        let above = |i: usize| self.cmp_slot(&self.slots[i], t) == Ordering::Greater;
        if n <= 1 || above(1) {
            return 0;
        }
        if !above(n - 1) {
            return n - 1;
        }
        self.partition_from(2, n - 1, |s| self.cmp_slot(s, t) != Ordering::Greater) - 1
    }

    /// The first index in `lo..hi` whose slot fails `pred` (`hi` if none does),
    /// `pred` being true then false over that range: `partition_point` on a ring.
    #[inline]
    fn partition_from(&self, mut lo: usize, mut hi: usize, pred: impl Fn(&Slot) -> bool) -> usize {
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(&self.slots[mid]) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Internal search by a monotone predicate over each pivot's key and
    /// payload (0 when its heap TID was truncated away), true, …, true, false,
    /// …: the last slot whose pivot satisfies it, minus infinity counting as
    /// satisfying.
    pub(crate) fn child_slot_by_pivot(&self, pred: impl Fn(&[u8], u64) -> bool) -> usize {
        self.partition_from(1, self.slots.len(), |s| pred(self.slot_key(s), s.payload)) - 1
    }

    /// Leaf search by a monotone predicate: the first item that fails it.
    pub(crate) fn partition(&self, pred: impl Fn(&[u8]) -> bool) -> usize {
        self.partition_from(0, self.slots.len(), |s| pred(self.slot_key(s)))
    }

    pub(crate) fn insert_at(
        &mut self,
        i: usize,
        key: &[u8],
        payload: u64,
        size: u16,
        child: Option<PageNo>,
    ) {
        let off = self.arena.len() as u32;
        self.arena.extend_from_slice(key);
        let slot = Slot {
            abbrev: abbrev(key),
            payload,
            off,
            len: key.len() as u16,
            size,
        };
        self.slots.insert(i, slot);
        if let Some(child) = child {
            self.children.insert(i, child);
        }
        self.used += size as u32 + LINE_POINTER_BYTES;
        self.touch();
    }

    pub(crate) fn remove(&mut self, i: usize) {
        let slot = self.slots.remove(i).expect("slot index in range");
        if !self.children.is_empty() {
            self.children.remove(i);
        }
        self.garbage += slot.len as u32;
        self.used -= slot.bytes() as u32 + LINE_POINTER_BYTES;
        self.has_garbage = false;
        self.compact_if_wasteful();
        self.touch();
    }

    /// Keeps the items `keep` accepts (leaves only); returns how many were removed.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&[u8], u64) -> bool) -> usize {
        let before = self.slots.len();
        let Page {
            slots,
            arena,
            garbage,
            used,
            ..
        } = self;
        slots.retain(|s| {
            let key = &arena[s.off as usize..s.off as usize + s.len as usize];
            let kept = keep(key, s.payload);
            if !kept {
                *garbage += s.len as u32;
                *used -= s.bytes() as u32 + LINE_POINTER_BYTES;
            }
            kept
        });
        let removed = before - self.slots.len();
        if removed > 0 {
            self.has_garbage = false;
            self.compact_if_wasteful();
            self.touch();
        }
        removed
    }

    /// Moves items `k..` to a new page and returns it with the separator (`sep`, or
    /// a copy of the first item moved). This page's high key becomes the separator and the new
    /// page inherits the old high key (_bt_split). On an internal page the first item
    /// moved becomes the new page's minus infinity: its key lives on as the separator.
    ///
    /// `right_fills`: the new page is where the following inserts go (a split of
    /// the rightmost page under an ascending load), so it is sized once for what
    /// this overfull page holds instead of growing by doubling. Otherwise it gets
    /// room for what it receives: a page that stays half full (the right halves an
    /// ever-smaller key leaves behind) would keep a full page's room for nothing,
    /// a third of a descending load's memory.
    ///
    /// `spare` is an arena to compact this page's keys into (it gets the old one
    /// back): a split leaves half the keys dead, and a load splits thousands of
    /// pages, so the buffers are recycled rather than allocated each time.
    ///
    /// `sep` is the separator a leaf split built (a truncated pivot); without it
    /// the separator is a copy of item `k` (an internal split: pivots are
    /// already truncated).
    pub(crate) fn split_off(
        &mut self,
        k: usize,
        right_fills: bool,
        spare: &mut Vec<u8>,
        sep: Option<Pivot>,
    ) -> (Page, Pivot) {
        let sep = sep.unwrap_or_else(|| Pivot {
            key: self.key(k).to_vec(),
            payload: self.payload(k),
            size: self.tuple_size(k),
            origin: self.payload(k),
        });
        let mut right = Page::new(self.level);
        if right_fills {
            right.slots.reserve(self.slots.len());
            right
                .arena
                .reserve((self.arena.len() as u32 - self.garbage) as usize);
        } else {
            right.slots.reserve(self.slots.len() - k);
            let moved: usize = self.slots.range(k..).map(|s| s.len as usize).sum();
            right.arena.reserve(moved);
        }
        for (j, s) in self.slots.range(k..).enumerate() {
            if j == 0 && !self.is_leaf() {
                right.push_slot(&[], 0, MINUS_INFINITY_BYTES);
            } else {
                right.push_slot(self.slot_key(s), s.payload, s.bytes());
            }
            self.garbage += s.len as u32;
        }
        right.children = self.children.split_off(k.min(self.children.len()));
        self.slots.truncate(k);
        // _bt_split writes both halves afresh: no LP_DEAD hint survives.
        self.slots.iter_mut().for_each(|s| s.size = s.bytes());
        self.has_garbage = false;
        right.high = self.high.replace(sep.clone());
        right.low = Some(sep.clone());
        if self.wasteful() {
            self.compact_into(spare);
        }
        self.recount();
        right.recount();
        self.touch();
        (right, sep)
    }

    pub(crate) fn set_prev(&mut self, prev: PageNo) {
        self.prev = Some(prev);
    }

    fn push_slot(&mut self, key: &[u8], payload: u64, size: u16) {
        let off = self.arena.len() as u32;
        self.arena.extend_from_slice(key);
        self.slots.push_back(Slot {
            abbrev: abbrev(key),
            payload,
            off,
            len: key.len() as u16,
            size,
        });
    }

    /// Recomputes `used` from the items and the high key.
    fn recount(&mut self) {
        self.used = self.computed_used();
    }

    pub(crate) fn computed_used(&self) -> u32 {
        let items: u32 = self
            .slots
            .iter()
            .map(|s| s.bytes() as u32 + LINE_POINTER_BYTES)
            .sum();
        items + self.high.as_ref().map_or(0, Pivot::item_bytes)
    }

    /// True when the arena holds exactly the live keys plus the counted garbage.
    pub(crate) fn arena_consistent(&self) -> bool {
        let live: u32 = self.slots.iter().map(|s| s.len as u32).sum();
        live + self.garbage == self.arena.len() as u32
            && self.children.len() == if self.is_leaf() { 0 } else { self.slots.len() }
    }

    /// Rewrites the arena once more than half of it is dead keys, like PostgreSQL's
    /// PageRepairFragmentation: amortised O(1) per delete.
    fn compact_if_wasteful(&mut self) {
        if self.wasteful() {
            // Keep the capacity: the page may refill (bounded by the page size).
            self.compact_into(&mut Vec::with_capacity(self.arena.capacity()));
        }
    }

    fn wasteful(&self) -> bool {
        self.garbage >= 64 && self.garbage * 2 >= self.arena.len() as u32
    }

    /// Copies the live keys into `arena` and swaps it in; `arena` gets the old one.
    fn compact_into(&mut self, arena: &mut Vec<u8>) {
        arena.clear();
        for s in &mut self.slots {
            let start = s.off as usize;
            s.off = arena.len() as u32;
            arena.extend_from_slice(&self.arena[start..start + s.len as usize]);
        }
        std::mem::swap(&mut self.arena, arena);
        self.garbage = 0;
    }

    fn touch(&mut self) {
        self.version = self.version.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf_with(keys: &[u8], size: u16) -> Page {
        let mut p = Page::new(0);
        for (i, k) in keys.iter().enumerate() {
            p.insert_at(i, &[*k], *k as u64, size, None);
        }
        p
    }

    #[test]
    fn counts_items_and_line_pointers() {
        let p = leaf_with(&[1, 2, 3], 24);
        assert_eq!(p.used(), 3 * (24 + 4));
        assert_eq!(p.computed_used(), p.used());
    }

    #[test]
    fn split_sizes_the_new_page_for_what_comes_next() {
        let keys: Vec<u8> = (0..200).collect();
        // A right half left behind keeps room for what it holds, not a full page.
        let mut p = leaf_with(&keys, 16);
        let (right, _) = p.split_off(100, false, &mut Vec::new(), None);
        assert!(right.slots.capacity() < 150, "{}", right.slots.capacity());
        assert!(right.arena.capacity() < 150, "{}", right.arena.capacity());
        // The page the next inserts go to has room for a whole page at once.
        let mut p = leaf_with(&keys, 16);
        let (right, _) = p.split_off(180, true, &mut Vec::new(), None);
        assert!(right.slots.capacity() >= 200 && right.arena.capacity() >= 200);
    }

    #[test]
    fn split_compacts_the_left_keys_into_the_spare_arena() {
        let keys: Vec<u8> = (0..200).collect();
        let mut p = leaf_with(&keys, 16);
        let old = p.arena.as_ptr();
        let mut spare = Vec::with_capacity(256);
        let spare_buf = spare.as_ptr();
        p.split_off(100, false, &mut spare, None);
        // Half the keys moved out: the rest were compacted into the spare buffer,
        // and the old buffer is the spare now (no allocation either way).
        assert_eq!(p.arena.len(), 100);
        assert_eq!((p.arena.as_ptr(), spare.as_ptr()), (spare_buf, old));
        assert!(p.arena_consistent());
        assert_eq!(p.key(99), &[99]);
    }

    #[test]
    fn split_moves_high_key_and_counts_it() {
        let mut p = leaf_with(&[1, 2, 3, 4], 16);
        let (right, sep) = p.split_off(2, false, &mut Vec::new(), None);
        assert_eq!(sep.key, vec![3]);
        // Left: two items + high key (a copy of the separator).
        assert_eq!(p.used(), 2 * 20 + 20);
        // Right: the rightmost page has no high key.
        assert_eq!(right.used(), 2 * 20);
        assert_eq!(right.low.as_ref(), Some(&sep));
        assert!(p.arena_consistent() && right.arena_consistent());
    }

    #[test]
    fn internal_split_turns_first_right_item_into_minus_infinity() {
        let sep = Pivot {
            key: vec![5],
            payload: 0,
            size: 24,
            origin: 0,
        };
        let mut p = Page::new_root(1, 1, &sep, 2);
        p.insert_at(2, &[7], 0, 24, Some(3));
        p.insert_at(3, &[9], 0, 24, Some(4));
        assert_eq!(p.used(), 12 + 3 * 28);
        let (right, sep) = p.split_off(2, false, &mut Vec::new(), None);
        assert_eq!(sep.key, vec![7]);
        assert_eq!(right.key(0), &[] as &[u8]);
        assert_eq!(right.used(), 12 + 28);
        assert_eq!(right.child(0), 3);
        assert_eq!(p.used(), 12 + 28 + 28);
    }

    #[test]
    fn lp_dead_hints_take_no_bytes_and_do_not_survive_a_split() {
        let mut p = leaf_with(&[1, 2, 3, 4], 16);
        let version = p.version;
        p.mark_dead(1);
        assert!(p.is_dead(1) && p.has_garbage && p.has_dead());
        // A hint: sizes, accounting and cursors' version are unchanged.
        assert_eq!(
            (p.tuple_size(1), p.used(), p.version),
            (16, 4 * 20, version)
        );
        let (right, _) = p.split_off(2, false, &mut Vec::new(), None);
        assert!(!p.has_dead() && !p.has_garbage && !right.has_dead());
        assert_eq!(p.used(), 2 * 20 + 20);
    }

    #[test]
    fn deletes_leave_garbage_then_compact() {
        let keys: Vec<u8> = (0..200).collect();
        let mut p = leaf_with(&keys, 16);
        assert_eq!(p.retain(|k, _| k[0] % 4 == 0), 150);
        assert!(p.arena_consistent());
        assert_eq!(p.len(), 50);
        assert_eq!(p.used(), 50 * 20);
        assert_eq!(p.search(&[8], 8), Ok(2));
    }
}
