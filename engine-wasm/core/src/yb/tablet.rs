//! A tablet: one LSM tree holding a slice of a relation, led by one tablet server.

use crate::lsm::{Lsm, LsmStats};

pub struct Tablet {
    pub lsm: Lsm,
    /// The tablet server leading it (whose block cache its reads go through).
    pub tserver: usize,
    /// Metrics id of the relation it belongs to.
    pub rel: usize,
    /// Write counters already reported (statements report the difference).
    pub reported: LsmStats,
}
