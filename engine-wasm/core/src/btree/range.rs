//! Key ranges with prefix bounds.
//!
//! Callers encode multi-column keys (see [`super::key`]) and bound a scan on the
//! first columns only, so a bound is compared with the first `bound.len()` bytes of
//! each key, never the whole key:
//! - lower `Included(b)`: keys whose prefix ≥ b (every key starting with b qualifies);
//! - lower `Excluded(b)`: keys whose prefix > b (keys starting with b do not);
//! - upper `Included(b)`: keys whose prefix ≤ b (keys starting with b qualify);
//! - upper `Excluded(b)`: keys whose prefix < b.
//!
//! Both tests are monotone over the tree's order, which is what lets a descent
//! binary-search pivots with them and a scan stop at the first failure.

use std::cmp::Ordering;
use std::ops::Bound;

/// An owned pair of prefix bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRange {
    lower: Bound<Vec<u8>>,
    upper: Bound<Vec<u8>>,
}

impl KeyRange {
    pub fn new(lower: Bound<&[u8]>, upper: Bound<&[u8]>) -> Self {
        KeyRange {
            lower: lower.map(<[u8]>::to_vec),
            upper: upper.map(<[u8]>::to_vec),
        }
    }

    /// Every key.
    pub fn all() -> Self {
        KeyRange::new(Bound::Unbounded, Bound::Unbounded)
    }

    pub fn lower(&self) -> Bound<&[u8]> {
        self.lower.as_ref().map(Vec::as_slice)
    }

    pub fn upper(&self) -> Bound<&[u8]> {
        self.upper.as_ref().map(Vec::as_slice)
    }

    /// The key sorts before the range (fails the lower bound).
    pub fn before(&self, key: &[u8]) -> bool {
        match &self.lower {
            Bound::Unbounded => false,
            Bound::Included(b) => cmp_prefix(key, b) == Ordering::Less,
            Bound::Excluded(b) => cmp_prefix(key, b) != Ordering::Greater,
        }
    }

    /// The key sorts after the range (fails the upper bound).
    pub fn after(&self, key: &[u8]) -> bool {
        match &self.upper {
            Bound::Unbounded => false,
            Bound::Included(b) => cmp_prefix(key, b) == Ordering::Greater,
            Bound::Excluded(b) => cmp_prefix(key, b) != Ordering::Less,
        }
    }

    pub fn contains(&self, key: &[u8]) -> bool {
        !self.before(key) && !self.after(key)
    }
}

/// Compares the first `bound.len()` bytes of `key` with `bound` (a shorter key
/// compares as its own bytes, so a proper prefix of the bound sorts before it).
fn cmp_prefix(key: &[u8], bound: &[u8]) -> Ordering {
    key[..key.len().min(bound.len())].cmp(bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(lower: Bound<&[u8]>, upper: Bound<&[u8]>) -> KeyRange {
        KeyRange::new(lower, upper)
    }

    #[test]
    fn included_bounds_admit_keys_starting_with_the_bound() {
        let r = range(Bound::Included(b"ab"), Bound::Included(b"ab"));
        assert!(r.contains(b"ab"));
        assert!(r.contains(b"ab\x00"));
        assert!(r.contains(b"abzzz"));
        assert!(!r.contains(b"a"));
        assert!(!r.contains(b"ac"));
    }

    #[test]
    fn excluded_bounds_reject_keys_starting_with_the_bound() {
        let r = range(Bound::Excluded(b"ab"), Bound::Excluded(b"b"));
        assert!(!r.contains(b"ab"));
        assert!(!r.contains(b"abz"));
        assert!(r.contains(b"ac"));
        assert!(!r.contains(b"b"));
        assert!(!r.contains(b"ba"));
        assert!(r.contains(b"azz"));
        assert!(!r.contains(b"aa"));
    }

    #[test]
    fn a_short_key_sorts_before_a_longer_bound() {
        let r = range(Bound::Included(b"abc"), Bound::Unbounded);
        assert!(r.before(b"ab"));
        assert!(!r.before(b"abc"));
        assert!(!r.before(b"abd"));
    }
}
