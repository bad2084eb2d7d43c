//! Where to split a full page: PostgreSQL's nbtsplitloc.c (`_bt_findsplitloc`).
//!
//! Every point between two items is a candidate (the new item is already in the
//! sequence). For each, `_bt_recsplitloc` computes the free space left on both
//! halves: the left page gains a high key assumed to be the first right item plus a
//! heap TID's 8 bytes on a leaf (suffix truncation usually makes it smaller, but the
//! split plans for the worst case); the right page keeps the old high key, and on an
//! internal page its first item shrinks to a minus-infinity pivot. Each legal point
//! gets a delta (`_bt_deltasortsplits`):
//! - the rightmost page of a level keeps `fillfactor`% on the left
//!   (`delta = ff·leftfree − (1−ff)·rightfree`), because keys inserted in ascending
//!   order will never land on the left again; so does a leaf of a multi-column
//!   index where the new item continues a local ascending run
//!   (`_bt_afternewitemoff`), which may instead split right after the new item;
//! - any other page splits to balance free space (`delta = leftfree − rightfree`).
//!
//! The points are sorted by delta with PostgreSQL's own quicksort (`pg_qsort`, not
//! stable: which of two equal deltas comes first is its choice, and it decides
//! splits). The default strategy then looks at the first few — the "split
//! interval", those within 5% (leaf) or 7.5% (internal) of the total item bytes of
//! the best balance (`_bt_defaultinterval`) — and takes the one with the lowest
//! penalty (`_bt_bestsplitloc`): on a leaf, the number of key attributes the new
//! high key must keep (`_bt_split_penalty`, so a split between two different
//! leading values wins), on an internal page the size of the pivot that moves up.
//!
//! When no point in the interval avoids a heap TID in the new high key
//! (duplicates), `_bt_strategy` switches to the "many duplicates" strategy (any
//! legal point, the best-balanced one that avoids a heap TID) or the "single value"
//! strategy (a page full of one value: leave the left page 96% full). Those are
//! modelled too, but duplicates are otherwise not (PostgreSQL would deduplicate
//! them into posting lists first), so pages full of duplicates still differ.

/// BTREE_SINGLEVAL_FILLFACTOR.
const SINGLEVAL_FILLFACTOR: f64 = 0.96;
const LEAF_SPLIT_DISTANCE: f64 = 0.050;
const INTERNAL_SPLIT_DISTANCE: f64 = 0.075;
/// MAXALIGN(sizeof(ItemPointerData)).
const HEAP_TID: i32 = 8;
/// MAXALIGN(sizeof(IndexTupleData)) + sizeof(ItemIdData): a minus-infinity item.
const MINUS_INFINITY_ITEM: i32 = 8 + 4;
/// A tuple of two int8 attributes with its line pointer: the widest
/// `_bt_afternewitemoff` applies to.
const AFTER_NEW_ITEM_MAX: u32 = 24 + 4;

/// What the split rule needs to know about the page.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SplitInput {
    /// Usable bytes of a page.
    pub usable: u32,
    /// Bytes of the page's current high key (0 on the rightmost page).
    pub old_high: u32,
    pub leaf: bool,
    pub rightmost: bool,
    /// The fillfactor for this kind of page, in percent.
    pub fillfactor: u8,
    /// Where the new item is among the items.
    pub new_item: usize,
    /// Key attributes of the index (1 for opaque keys).
    pub key_atts: usize,
}

/// The items of the overfull page, new item included, in order.
pub(crate) trait SplitItems {
    /// Bytes of item `i` (MAXALIGN'd tuple + line pointer).
    fn bytes(&self, i: usize) -> u32;
    /// `_bt_keep_natts_fast` between items `a` and `b` (key attributes + 1
    /// when their keys are equal).
    fn keep_natts(&self, a: usize, b: usize) -> usize;
    /// The packed heap TID of leaf item `i`.
    fn heap_tid(&self, i: usize) -> u64;
    /// `_bt_keep_natts_fast` between the page's high key and the new item.
    fn high_keep_natts(&self) -> usize;
}

#[derive(Debug, Clone, Copy)]
struct SplitPoint {
    curdelta: i16,
    leftfree: i16,
    rightfree: i16,
    /// Items `0..k` go left.
    k: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strategy {
    Default,
    ManyDuplicates,
    SingleValue,
}

/// Picks k so that items `0..k` stay on the left page, given `n` items. None if no
/// point lets both halves fit — impossible with tuples under the one-third limit.
pub(crate) fn choose_split(input: &SplitInput, n: usize, items: &dyn SplitItems) -> Option<usize> {
    if n < 2 {
        return None;
    }
    let leftspace = input.usable as i32;
    let rightspace = leftspace - input.old_high as i32;
    let newitemsz = items.bytes(input.new_item);
    let total: i32 = (0..n).map(|i| items.bytes(i) as i32).sum();
    let olddataitemstotal = total - newitemsz as i32;
    let mut splits = Vec::with_capacity(n);
    let mut minfirstrightsz = u32::MAX;
    let mut left_items = 0i32;
    for k in 1..n {
        left_items += items.bytes(k - 1) as i32;
        let firstrightsz = items.bytes(k) as i32;
        let mut leftfree = leftspace - left_items;
        let mut rightfree = rightspace - (total - left_items);
        leftfree -= firstrightsz + if input.leaf { HEAP_TID } else { 0 };
        if !input.leaf {
            rightfree += firstrightsz - MINUS_INFINITY_ITEM;
        }
        // PostgreSQL keeps both in int16.
        let (leftfree, rightfree) = (leftfree as i16, rightfree as i16);
        if leftfree >= 0 && rightfree >= 0 {
            minfirstrightsz = minfirstrightsz.min(firstrightsz as u32);
            splits.push(SplitPoint {
                curdelta: 0,
                leftfree,
                rightfree,
                k,
            });
        }
    }
    if splits.is_empty() {
        return None;
    }
    let ctx = Context {
        input,
        items,
        n,
        newitemsz,
        olddataitemstotal,
        minfirstrightsz,
    };
    let leaf_ff = input.fillfactor as f64 / 100.0;
    let (mut usemult, mut fillfactormult) = if !input.leaf {
        // The internal fillfactor only applies to the rightmost page.
        (input.rightmost, leaf_ff)
    } else if input.rightmost {
        (true, leaf_ff)
    } else {
        match ctx.after_new_item(&splits) {
            Some(true) => (true, leaf_ff),
            Some(false) => {
                // Split right after the new item, if that is legal.
                if let Some(s) = splits.iter().find(|s| s.k == input.new_item + 1) {
                    return Some(s.k);
                }
                (false, 0.5)
            }
            None => (false, 0.5),
        }
    };
    let leftpage = splits[0];
    let rightpage = splits[splits.len() - 1];
    delta_sort(&mut splits, fillfactormult, usemult);
    let mut interval = ctx.default_interval(&splits);
    let (perfect, strategy) = ctx.strategy(&splits, interval, &leftpage, &rightpage);
    match strategy {
        Strategy::Default => {}
        Strategy::ManyDuplicates => interval = splits.len(),
        Strategy::SingleValue => {
            usemult = true;
            fillfactormult = SINGLEVAL_FILLFACTOR;
            delta_sort(&mut splits, fillfactormult, usemult);
            interval = 1;
        }
    }
    Some(ctx.best(&splits, interval, perfect, strategy))
}

struct Context<'a> {
    input: &'a SplitInput,
    items: &'a dyn SplitItems,
    n: usize,
    newitemsz: u32,
    olddataitemstotal: i32,
    minfirstrightsz: u32,
}

impl Context<'_> {
    /// `_bt_afternewitemoff`: None when it does not apply, else whether to use
    /// the leaf fillfactor (true) or split right after the new item (false).
    fn after_new_item(&self, _splits: &[SplitPoint]) -> Option<bool> {
        let (input, items) = (self.input, self.items);
        let nkeyatts = input.key_atts;
        if nkeyatts == 1 || input.new_item == 0 {
            return None;
        }
        // Equisized tuples, none wider than two int8 attributes.
        if self.newitemsz != self.minfirstrightsz
            || self.newitemsz as i32 * (self.n as i32 - 1) != self.olddataitemstotal
            || self.newitemsz > AFTER_NEW_ITEM_MAX
        {
            return None;
        }
        let continues = |prev: usize| {
            let keep = items.keep_natts(prev, input.new_item);
            keep > 1 && keep <= nkeyatts
        };
        if input.new_item == self.n - 1 {
            return continues(self.n - 2).then_some(true);
        }
        let prev = input.new_item - 1;
        if !adjacent_tids(items.heap_tid(prev), items.heap_tid(input.new_item)) {
            return None;
        }
        if !continues(prev) {
            return None;
        }
        // Offsets as on the page: data items start at 2 (a high key is item 1),
        // and maxoff counts the old items and the high key.
        let newitemoff = (input.new_item + 2) as f64;
        let maxoff = self.n as f64;
        let interp = newitemoff / (maxoff + 1.0);
        Some(interp > input.fillfactor as f64 / 100.0)
    }

    /// `_bt_defaultinterval`.
    fn default_interval(&self, splits: &[SplitPoint]) -> usize {
        let distance = if self.input.leaf {
            LEAF_SPLIT_DISTANCE
        } else {
            INTERNAL_SPLIT_DISTANCE
        };
        let tolerance = (self.olddataitemstotal as f64 * distance) as i16 as i32;
        let best = splits[0];
        let (lowleft, lowright) = (
            best.leftfree as i32 - tolerance,
            best.rightfree as i32 - tolerance,
        );
        let (highleft, highright) = (
            best.leftfree as i32 + tolerance,
            best.rightfree as i32 + tolerance,
        );
        for (i, s) in splits.iter().enumerate().skip(1) {
            let (l, r) = (s.leftfree as i32, s.rightfree as i32);
            if l < lowleft || r < lowright || l > highleft || r > highright {
                return i;
            }
        }
        splits.len()
    }

    /// `_bt_strategy`: the perfect penalty and the strategy.
    fn strategy(
        &self,
        splits: &[SplitPoint],
        interval: usize,
        leftpage: &SplitPoint,
        rightpage: &SplitPoint,
    ) -> (usize, Strategy) {
        let nkeyatts = self.input.key_atts;
        if !self.input.leaf {
            return (self.minfirstrightsz as usize, Strategy::Default);
        }
        let (left, right) = interval_edges(splits, interval);
        let perfect = self.items.keep_natts(left.k - 1, right.k);
        if perfect <= nkeyatts {
            return (perfect, Strategy::Default);
        }
        let perfect = self.items.keep_natts(leftpage.k - 1, rightpage.k);
        if perfect <= nkeyatts {
            return (nkeyatts, Strategy::ManyDuplicates);
        }
        if self.input.rightmost {
            return (perfect, Strategy::SingleValue);
        }
        // Is this the rightmost page of the value? Only if the high key holds it.
        let perfect = self.items.high_keep_natts();
        if perfect <= nkeyatts {
            (perfect, Strategy::SingleValue)
        } else {
            (perfect, Strategy::Default)
        }
    }

    /// `_bt_split_penalty`.
    fn penalty(&self, s: &SplitPoint) -> usize {
        if !self.input.leaf {
            return self.items.bytes(s.k) as usize;
        }
        self.items.keep_natts(s.k - 1, s.k)
    }

    /// `_bt_bestsplitloc`.
    fn best(
        &self,
        splits: &[SplitPoint],
        interval: usize,
        perfect: usize,
        strategy: Strategy,
    ) -> usize {
        let high = interval.min(splits.len());
        let (mut best, mut low) = (usize::MAX, 0);
        for (i, s) in splits.iter().enumerate().take(high) {
            let penalty = self.penalty(s);
            if penalty < best {
                best = penalty;
                low = i;
            }
            if penalty <= perfect {
                break;
            }
        }
        let mut chosen = splits[low];
        // A many-duplicates split just right of the new item, the new item going
        // right: PostgreSQL falls back to the best-balanced split.
        let newitemoff = self.input.new_item;
        let newitemonleft = chosen.k > newitemoff;
        let firstrightoff = if chosen.k > newitemoff {
            chosen.k - 1
        } else {
            chosen.k
        };
        if strategy == Strategy::ManyDuplicates
            && !self.input.rightmost
            && !newitemonleft
            && firstrightoff >= newitemoff
            && firstrightoff < newitemoff + 9
        {
            chosen = splits[0];
        }
        chosen.k
    }
}

/// `_bt_interval_edges`: the leftmost and rightmost split points of the interval,
/// as PostgreSQL finds them (scanning the sorted interval from its end).
fn interval_edges(splits: &[SplitPoint], interval: usize) -> (SplitPoint, SplitPoint) {
    let high = interval.min(splits.len());
    let optimal = splits[0];
    let (mut left, mut right) = (None, None);
    for s in splits[..high].iter().rev() {
        if s.k < optimal.k {
            left.get_or_insert(*s);
        } else if s.k > optimal.k {
            right.get_or_insert(*s);
        } else {
            left.get_or_insert(*s);
            right.get_or_insert(*s);
        }
        if left.is_some() && right.is_some() {
            break;
        }
    }
    (left.unwrap_or(optimal), right.unwrap_or(optimal))
}

/// `_bt_adjacenthtid`.
fn adjacent_tids(low: u64, high: u64) -> bool {
    let (lowblk, highblk) = (low >> 16, high >> 16);
    lowblk == highblk || (lowblk + 1 == highblk && high & 0xFFFF == 1)
}

/// `_bt_deltasortsplits`: deltas computed as PostgreSQL does (in double, kept in
/// an int16), then sorted by pg_qsort.
fn delta_sort(splits: &mut [SplitPoint], fillfactormult: f64, usemult: bool) {
    for s in splits.iter_mut() {
        let delta = if usemult {
            (fillfactormult * s.leftfree as f64 - (1.0 - fillfactormult) * s.rightfree as f64)
                as i16
        } else {
            (s.leftfree as i32 - s.rightfree as i32) as i16
        };
        s.curdelta = delta.wrapping_abs();
    }
    crate::sort::pg_qsort(splits, &mut |a: &SplitPoint, b: &SplitPoint| {
        a.curdelta.cmp(&b.curdelta)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(rightmost: bool, leaf: bool, fillfactor: u8) -> SplitInput {
        SplitInput {
            usable: 8152,
            old_high: if rightmost { 0 } else { 28 },
            leaf,
            rightmost,
            fillfactor,
            new_item: 0,
            key_atts: 1,
        }
    }

    /// Distinct single-attribute keys of the given sizes.
    struct Sized<F>(F);

    impl<F: Fn(usize) -> u32> SplitItems for Sized<F> {
        fn bytes(&self, i: usize) -> u32 {
            (self.0)(i)
        }
        fn keep_natts(&self, a: usize, b: usize) -> usize {
            if a == b {
                2
            } else {
                1
            }
        }
        fn heap_tid(&self, i: usize) -> u64 {
            (1 << 16) | i as u64
        }
        fn high_keep_natts(&self) -> usize {
            1
        }
    }

    fn choose(input: &SplitInput, n: usize, f: impl Fn(usize) -> u32) -> Option<usize> {
        choose_split(input, n, &Sized(f))
    }

    #[test]
    fn rightmost_leaf_keeps_fillfactor_on_the_left() {
        // 408 items of 20 bytes (bigserial tuples) overflow a rightmost 8 KiB leaf.
        let k = choose(&input(true, true, 90), 408, |_| 20).unwrap();
        let left_fill = (k as f64 * 20.0 + 20.0) / 8152.0;
        assert!((0.89..=0.91).contains(&left_fill), "k={k} fill={left_fill}");
    }

    #[test]
    fn other_leaves_split_in_the_middle() {
        let k = choose(&input(false, true, 90), 291, |_| 28).unwrap();
        assert!(k == 145 || k == 146, "k={k}");
    }

    #[test]
    fn middle_split_balances_bytes_not_counts() {
        // Ten big items then many small ones: the byte midpoint is not the count midpoint.
        let size = |i: usize| if i < 10 { 404 } else { 20 };
        let k = choose(&input(false, true, 90), 220, size).unwrap();
        let left: u32 = (0..k).map(size).sum::<u32>() + size(k);
        let right: u32 = (k..220).map(size).sum::<u32>() + 28;
        assert!(
            left.abs_diff(right) <= 404,
            "k={k} left={left} right={right}"
        );
        assert!(k < 110, "k={k}");
    }

    #[test]
    fn rightmost_internal_keeps_seventy_percent() {
        let k = choose(
            &input(true, false, 70),
            408,
            |i| if i == 0 { 12 } else { 20 },
        )
        .unwrap();
        let left_fill = (12.0 + (k - 1) as f64 * 20.0 + 20.0) / 8152.0;
        assert!((0.69..=0.71).contains(&left_fill), "k={k} fill={left_fill}");
    }

    #[test]
    fn fillfactor_100_packs_the_left_page() {
        let k = choose(&input(true, true, 100), 408, |_| 20).unwrap();
        assert_eq!(
            k, 406,
            "left holds 406 items + high key = 8140 of 8152 bytes"
        );
    }

    #[test]
    fn refuses_when_nothing_fits() {
        let tiny = SplitInput {
            usable: 100,
            ..input(true, true, 90)
        };
        assert_eq!(choose(&tiny, 3, |_| 90), None);
    }
}
