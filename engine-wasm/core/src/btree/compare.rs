//! How the B+tree compares keys: memcmp order and abbreviated keys (see
//! [`crate::key_order`]); each slot keeps its key's abbreviation so most
//! comparisons of a binary search never leave the slot array.

pub(crate) use crate::key_order::{abbrev, cmp_bytes};

/// A search target: the key with its abbreviation computed once.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) abbrev: u64,
    pub(crate) key: &'a [u8],
    pub(crate) payload: u64,
}

impl<'a> Target<'a> {
    pub(crate) fn new(key: &'a [u8], payload: u64) -> Self {
        Target {
            abbrev: abbrev(key),
            key,
            payload,
        }
    }
}
