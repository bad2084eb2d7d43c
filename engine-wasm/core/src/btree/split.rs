//! Where to split a full page: the default strategy of PostgreSQL's nbtsplitloc.c.
//!
//! Every split point between two items is a candidate (the new item is already in
//! the sequence). For each, the free space left on both halves is computed the way
//! `_bt_recsplitloc` does: the left page gains a high key that is a copy of the first
//! right item; the right page keeps the old high key, and on an internal page its
//! first item shrinks to a minus-infinity pivot. Then:
//! - the rightmost page of a level keeps `fillfactor`% on the left
//!   (`delta = ff·leftfree − (1−ff)·rightfree`), because keys inserted in ascending
//!   order will never land on the left again;
//! - any other page splits to balance free space (`delta = leftfree − rightfree`).
//!
//! The candidate with the smallest |delta| wins; ties go to the leftmost point.
//! PostgreSQL's other strategies (many duplicates, localized monotonic inserts) and
//! suffix truncation are not modelled.

use super::page::{LINE_POINTER_BYTES, MINUS_INFINITY_BYTES};

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
}

/// Picks k so that items `0..k` stay on the left page, given `n` items whose byte
/// sizes (tuple + line pointer) `item_bytes` returns. None if no point lets both
/// halves fit — impossible with tuples under the one-third limit.
pub(crate) fn choose_split(
    input: &SplitInput,
    n: usize,
    item_bytes: impl Fn(usize) -> u32,
) -> Option<usize> {
    let total: i64 = (0..n).map(|i| item_bytes(i) as i64).sum();
    let usable = input.usable as i64;
    let minus_infinity = (MINUS_INFINITY_BYTES as u32 + LINE_POINTER_BYTES) as i64;
    let mut left_items = 0i64;
    let mut best: Option<(i64, usize)> = None;
    for k in 1..n {
        left_items += item_bytes(k - 1) as i64;
        let first_right = item_bytes(k) as i64;
        let left_free = usable - left_items - first_right;
        let mut right_used = total - left_items + input.old_high as i64;
        if !input.leaf {
            right_used -= first_right - minus_infinity;
        }
        let right_free = usable - right_used;
        if left_free < 0 || right_free < 0 {
            continue;
        }
        let delta = delta(input, left_free, right_free).abs();
        let better = match best {
            None => true,
            Some((d, _)) => delta < d,
        };
        if better {
            best = Some((delta, k));
        }
    }
    best.map(|(_, k)| k)
}

/// `_bt_findsplitloc`'s delta, scaled by 100 to stay in integers.
fn delta(input: &SplitInput, left_free: i64, right_free: i64) -> i64 {
    if input.rightmost {
        let ff = input.fillfactor as i64;
        ff * left_free - (100 - ff) * right_free
    } else {
        50 * left_free - 50 * right_free
    }
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
        }
    }

    #[test]
    fn rightmost_leaf_keeps_fillfactor_on_the_left() {
        // 408 items of 20 bytes (bigserial tuples) overflow a rightmost 8 KiB leaf.
        let k = choose_split(&input(true, true, 90), 408, |_| 20).unwrap();
        let left_fill = (k as f64 * 20.0 + 20.0) / 8152.0;
        assert!((0.89..=0.91).contains(&left_fill), "k={k} fill={left_fill}");
    }

    #[test]
    fn other_leaves_split_in_the_middle() {
        let k = choose_split(&input(false, true, 90), 291, |_| 28).unwrap();
        assert!(k == 145 || k == 146, "k={k}");
    }

    #[test]
    fn middle_split_balances_bytes_not_counts() {
        // Ten big items then many small ones: the byte midpoint is not the count midpoint.
        let size = |i: usize| if i < 10 { 404 } else { 20 };
        let k = choose_split(&input(false, true, 90), 220, size).unwrap();
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
        let k = choose_split(
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
        let k = choose_split(&input(true, true, 100), 408, |_| 20).unwrap();
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
        assert_eq!(choose_split(&tiny, 3, |_| 90), None);
    }
}
