//! Range scans: a cursor that holds page numbers and offsets, never borrows.
//!
//! `seek` descends from the root to the first qualifying entry in the scan's
//! direction (_bt_first); `next` returns entries in order and crosses to the sibling
//! leaf through the page links (_bt_steppage), reporting each leaf once, when it
//! arrives. A forward scan stops at a leaf whose high key is past the upper bound
//! without reading the next leaf (as PostgreSQL does); a backward scan stops at a
//! leaf whose low key (its left sibling's high key) is before the lower bound, so
//! both directions read the same leaves for the same range.
//!
//! Because the cursor holds no borrow, the caller may modify the tree between two
//! calls. If the cursor's current leaf changed, the next call descends again to the
//! last entry returned and carries on after it (reporting that descent), so no
//! entry is returned twice or skipped — a stand-in for PostgreSQL's page-at-a-time
//! scans that never see their own later changes to a page they already read.

use std::ops::Bound;

use super::page::Page;
use super::range::KeyRange;
use super::tree::BTree;
use crate::storage::{Access, PageAccess, PageNo};

/// Scan direction in the tree's (key, payload) order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Forward,
    Backward,
}

/// One entry returned by a cursor, borrowed from the tree until its next change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'t> {
    pub key: &'t [u8],
    pub payload: u64,
}

/// A position in a scan. Create it with [`BTree::seek`].
#[derive(Debug, Clone)]
pub struct Cursor {
    range: KeyRange,
    dir: Direction,
    /// The current leaf; None once the scan is over.
    page: Option<PageNo>,
    /// Forward: the next offset to return. Backward: one past it.
    pos: usize,
    version: u32,
    last_key: Vec<u8>,
    last_payload: u64,
    has_last: bool,
    leaves: u32,
    /// PostgreSQL's plain index scan drops its pin on a leaf once it has read
    /// the leaf's matches (`_bt_drop_lock_and_maybe_pin`); stepping left must
    /// then read that leaf again for its left link (`_bt_readnextpage`). An
    /// index-only scan keeps the pin, and a forward step uses the right link
    /// saved with the matches, so neither reads it twice.
    drops_pin: bool,
    /// Whether the current leaf has given an entry (its pin then was dropped).
    yielded_here: bool,
}

enum Step {
    Yield(usize),
    Move(PageNo),
    Done,
}

impl BTree {
    /// Positions a cursor on the first entry in `dir` within the prefix bounds (see
    /// [`KeyRange`]), reporting a Read of each page from the root to the leaf.
    pub fn seek(
        &self,
        lower: Bound<&[u8]>,
        upper: Bound<&[u8]>,
        dir: Direction,
        io: &mut dyn PageAccess,
    ) -> Cursor {
        let mut cursor = Cursor {
            range: KeyRange::new(lower, upper),
            dir,
            page: None,
            pos: 0,
            version: 0,
            last_key: Vec::new(),
            last_payload: 0,
            has_last: false,
            leaves: 0,
            drops_pin: false,
            yielded_here: false,
        };
        cursor.descend(self, io);
        cursor
    }

    /// Collects up to `limit` entries of a scan (a convenience over [`Cursor`]).
    pub fn scan(
        &self,
        lower: Bound<&[u8]>,
        upper: Bound<&[u8]>,
        dir: Direction,
        limit: usize,
        io: &mut dyn PageAccess,
    ) -> Vec<(Vec<u8>, u64)> {
        let mut out = Vec::new();
        if limit == 0 {
            return out;
        }
        let mut cursor = self.seek(lower, upper, dir, io);
        while let Some(e) = cursor.next(self, io) {
            out.push((e.key.to_vec(), e.payload));
            if out.len() == limit {
                break;
            }
        }
        out
    }
}

impl Cursor {
    /// The next entry, or None when the range is exhausted.
    pub fn next<'t>(&mut self, tree: &'t BTree, io: &mut dyn PageAccess) -> Option<Entry<'t>> {
        loop {
            let page = tree.get_page(self.page?)?;
            if page.version != self.version {
                self.relocate(tree, io);
                continue;
            }
            let step = match self.dir {
                Direction::Forward => self.step_forward(page),
                Direction::Backward => self.step_backward(page),
            };
            if !matches!(step, Step::Yield(_)) {
                self.leave_leaf(io);
            }
            match step {
                Step::Yield(i) => {
                    let entry = Entry {
                        key: page.key(i),
                        payload: page.payload(i),
                    };
                    self.remember(entry);
                    self.yielded_here = true;
                    return Some(entry);
                }
                Step::Move(to) => self.arrive_from_sibling(tree, to, io),
                Step::Done => {
                    self.page = None;
                    return None;
                }
            }
        }
    }

    /// Makes this cursor a plain index scan's: it drops its pin on each leaf
    /// it has returned entries from (see `drops_pin`).
    pub fn drop_pins(&mut self) {
        self.drops_pin = true;
    }

    /// Leaving the current leaf (to its sibling, or at the scan's end): a
    /// backward step from a leaf whose pin was dropped reads it again.
    fn leave_leaf(&mut self, io: &mut dyn PageAccess) {
        if let (true, true, Direction::Backward, Some(no)) =
            (self.drops_pin, self.yielded_here, self.dir, self.page)
        {
            io.access(no, Access::Read);
        }
    }

    pub fn direction(&self) -> Direction {
        self.dir
    }

    pub fn range(&self) -> &KeyRange {
        &self.range
    }

    /// The leaf the cursor is on (None when the scan is over).
    pub fn page(&self) -> Option<PageNo> {
        self.page
    }

    /// Leaves read so far, counting the one the descent reached.
    pub fn leaves_visited(&self) -> u32 {
        self.leaves
    }

    pub fn is_done(&self) -> bool {
        self.page.is_none()
    }

    fn step_forward(&mut self, page: &Page) -> Step {
        if self.pos < page.len() {
            if self.range.after(page.key(self.pos)) {
                return Step::Done;
            }
            self.pos += 1;
            return Step::Yield(self.pos - 1);
        }
        // The high key bounds everything to the right: no need to read the next leaf.
        if page.high().is_some_and(|h| self.range.after(&h.key)) {
            return Step::Done;
        }
        match page.next {
            Some(next) => Step::Move(next),
            None => Step::Done,
        }
    }

    fn step_backward(&mut self, page: &Page) -> Step {
        // Only a cursor used with another tree can be past the end; never index out.
        self.pos = self.pos.min(page.len());
        if self.pos > 0 {
            if self.range.before(page.key(self.pos - 1)) {
                return Step::Done;
            }
            self.pos -= 1;
            return Step::Yield(self.pos);
        }
        if page.low.as_ref().is_some_and(|l| self.range.before(&l.key)) {
            return Step::Done;
        }
        match page.prev {
            Some(prev) => Step::Move(prev),
            None => Step::Done,
        }
    }

    /// The initial descent (or a repeat of it if the tree changed before the first
    /// entry was returned).
    fn descend(&mut self, tree: &BTree, io: &mut dyn PageAccess) {
        let range = &self.range;
        let mut no = tree.root;
        loop {
            io.access(no, Access::Read);
            let page = tree.page(no);
            if page.is_leaf() {
                break;
            }
            // A pivot whose heap TID was truncated away (payload 0) and whose
            // kept attributes are exactly the bound compares below the scan
            // key (`_bt_compare`: "keysz == ntupatts && heapTid == NULL"), so
            // the descent goes right of it, as PostgreSQL's does.
            let truncated_equal = |k: &[u8], p: u64, b: Bound<&[u8]>| {
                p == 0 && matches!(b, Bound::Included(b) | Bound::Excluded(b) if b == k)
            };
            let slot = match self.dir {
                Direction::Forward => page.child_slot_by_pivot(|k, p| {
                    range.before(k)
                        || (truncated_equal(k, p, range.lower())
                            && matches!(range.lower(), Bound::Included(_)))
                }),
                Direction::Backward => page.child_slot_by_pivot(|k, p| {
                    !range.after(k)
                        || (truncated_equal(k, p, range.upper())
                            && matches!(range.upper(), Bound::Excluded(_)))
                }),
            };
            no = page.child(slot);
        }
        let page = tree.page(no);
        self.pos = match self.dir {
            Direction::Forward => page.partition(|k| range.before(k)),
            Direction::Backward => page.partition(|k| !range.after(k)),
        };
        self.arrive(no, page.version);
    }

    /// Finds the last returned entry's place again after the leaf changed.
    fn relocate(&mut self, tree: &BTree, io: &mut dyn PageAccess) {
        if !self.has_last {
            return self.descend(tree, io);
        }
        let leaf = tree.descend_exact(&self.last_key, self.last_payload, io, &mut |_, _| {});
        io.access(leaf, Access::Read);
        let page = tree.page(leaf);
        self.pos = match (self.dir, page.search(&self.last_key, self.last_payload)) {
            (Direction::Forward, Ok(i)) => i + 1,
            (_, Ok(i) | Err(i)) => i,
        };
        self.arrive(leaf, page.version);
    }

    fn arrive_from_sibling(&mut self, tree: &BTree, to: PageNo, io: &mut dyn PageAccess) {
        io.access(to, Access::Read);
        let Some(page) = tree.get_page(to) else {
            self.page = None;
            return;
        };
        self.pos = match self.dir {
            Direction::Forward => 0,
            Direction::Backward => page.len(),
        };
        self.arrive(to, page.version);
    }

    fn arrive(&mut self, no: PageNo, version: u32) {
        self.page = Some(no);
        self.version = version;
        self.leaves += 1;
        self.yielded_here = false;
    }

    fn remember(&mut self, entry: Entry<'_>) {
        self.last_key.clear();
        self.last_key.extend_from_slice(entry.key);
        self.last_payload = entry.payload;
        self.has_last = true;
    }
}
