//! Tuple identifiers: where a heap tuple lives (PostgreSQL's `ItemPointerData`,
//! shown as `ctid`). Index entries carry a TID to point at their heap row.

use crate::storage::PageNo;
use std::fmt;

/// A line pointer number on a page, 1-based as in PostgreSQL (0 is invalid).
pub type OffsetNumber = u16;

/// A heap tuple's address: page (block) number and line pointer number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tid {
    pub page: PageNo,
    pub offset: OffsetNumber,
}

impl Tid {
    pub fn new(page: PageNo, offset: OffsetNumber) -> Self {
        Tid { page, offset }
    }

    /// Packs the TID into a u64 (page in the high bits), so index payloads can be a
    /// plain integer and compare in (page, offset) order like PostgreSQL's TIDs.
    pub fn to_u64(self) -> u64 {
        ((self.page as u64) << 16) | self.offset as u64
    }

    /// The inverse of [`to_u64`](Self::to_u64). Bits above 48 are ignored.
    pub fn from_u64(packed: u64) -> Self {
        Tid {
            page: (packed >> 16) as PageNo,
            offset: (packed & 0xFFFF) as OffsetNumber,
        }
    }

    /// Offset 0 never names a tuple.
    pub fn is_valid(self) -> bool {
        self.offset != 0
    }
}

/// `(page,offset)`, as PostgreSQL prints a `ctid`.
impl fmt::Display for Tid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.page, self.offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_round_trip_and_keep_order() {
        let tids = [
            Tid::new(0, 1),
            Tid::new(0, 291),
            Tid::new(1, 1),
            Tid::new(u32::MAX, 7),
        ];
        for w in tids.windows(2) {
            assert!(w[0] < w[1]);
            assert!(w[0].to_u64() < w[1].to_u64());
        }
        for t in tids {
            assert_eq!(Tid::from_u64(t.to_u64()), t);
        }
        assert_eq!(Tid::new(3, 14).to_string(), "(3,14)");
        assert!(!Tid::new(3, 0).is_valid());
    }
}
