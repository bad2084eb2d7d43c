//! Tree parameters, and the byte limits PostgreSQL derives from the page size.

use super::error::BTreeError;
use super::page::{LINE_POINTER_BYTES, PAGE_HEADER_BYTES, SPECIAL_BYTES};

/// Smallest page accepted: it still leaves room for a 16-byte tuple under the
/// one-third rule (see [`BTreeConfig::max_tuple_size`]).
pub const MIN_PAGE_SIZE: u32 = 128;
/// PostgreSQL's largest BLCKSZ.
pub const MAX_PAGE_SIZE: u32 = 32768;

/// How a tree lays out its pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BTreeConfig {
    /// Bytes per page (PostgreSQL's BLCKSZ), a multiple of 8.
    pub page_size: u32,
    /// Percent of a leaf kept full when the rightmost leaf splits (the index's
    /// `fillfactor` storage parameter, BTREE_DEFAULT_FILLFACTOR = 90).
    pub leaf_fillfactor: u8,
    /// Percent of an internal page kept full when the rightmost internal page of a
    /// level splits (BTREE_NONLEAF_FILLFACTOR = 70; fixed in PostgreSQL, a knob here).
    pub internal_fillfactor: u8,
}

impl Default for BTreeConfig {
    fn default() -> Self {
        BTreeConfig {
            page_size: 8192,
            leaf_fillfactor: 90,
            internal_fillfactor: 70,
        }
    }
}

impl BTreeConfig {
    /// The defaults with another page size.
    pub fn with_page_size(page_size: u32) -> Self {
        BTreeConfig {
            page_size,
            ..BTreeConfig::default()
        }
    }

    /// Rejects sizes and fillfactors PostgreSQL would reject (fillfactor 10..=100).
    pub fn validate(&self) -> Result<(), BTreeError> {
        let size_ok =
            (MIN_PAGE_SIZE..=MAX_PAGE_SIZE).contains(&self.page_size) && self.page_size & 7 == 0;
        if !size_ok {
            return Err(BTreeError::PageSize {
                page_size: self.page_size,
            });
        }
        for (which, value) in [
            ("leaf_fillfactor", self.leaf_fillfactor),
            ("internal_fillfactor", self.internal_fillfactor),
        ] {
            if !(10..=100).contains(&value) {
                return Err(BTreeError::FillFactor { which, value });
            }
        }
        Ok(())
    }

    /// Bytes left for line pointers and items once the page header and the btree
    /// special space are taken.
    pub fn usable_bytes(&self) -> u32 {
        self.page_size - PAGE_HEADER_BYTES - SPECIAL_BYTES
    }

    /// PostgreSQL's BTMaxItemSize: a third of the page (so that two items and a high
    /// key always fit, which is what makes every split possible), less room for the
    /// heap TID a pivot may carry. 2704 bytes for 8 KiB pages.
    pub fn max_tuple_size(&self) -> u16 {
        let header = maxalign(PAGE_HEADER_BYTES + 3 * LINE_POINTER_BYTES);
        let third = (self.page_size - header - maxalign(SPECIAL_BYTES)) / 3;
        let tid = maxalign(6);
        (third / 8 * 8 - tid) as u16
    }
}

/// PostgreSQL's MAXALIGN on 64-bit platforms.
pub(crate) fn maxalign(n: u32) -> u32 {
    n.div_ceil(8) * 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_tuple_matches_postgres() {
        // "index row size ... exceeds btree version 4 maximum 2704" on 8 KiB pages.
        assert_eq!(BTreeConfig::default().max_tuple_size(), 2704);
        assert_eq!(BTreeConfig::with_page_size(128).max_tuple_size(), 16);
        assert_eq!(BTreeConfig::default().usable_bytes(), 8152);
    }

    #[test]
    fn rejects_bad_configs() {
        assert!(BTreeConfig::with_page_size(100).validate().is_err());
        assert!(BTreeConfig::with_page_size(8190).validate().is_err());
        assert!(BTreeConfig::with_page_size(65536).validate().is_err());
        let cfg = BTreeConfig {
            leaf_fillfactor: 5,
            ..BTreeConfig::default()
        };
        assert!(cfg.validate().is_err());
        assert!(BTreeConfig::default().validate().is_ok());
    }
}
