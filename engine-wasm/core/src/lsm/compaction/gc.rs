//! Which versions a flush or a compaction may drop (RocksDB's
//! `CompactionIterator`, without merge operands or compaction filters).
//!
//! Live snapshots cut the sequence numbers into *stripes*: two versions of a key
//! in the same stripe are seen by exactly the same snapshots, so the older one is
//! never read again and goes. A tombstone goes too when every snapshot sees it
//! (its sequence number is at or below the earliest snapshot) *and* no older data
//! for its key can exist below the output — otherwise dropping it would bring the
//! older value back. Versions it hid in the same stripe go with it.

use crate::lsm::types::{trailer_kind, trailer_seq, SeqNo, ValueKind, MAX_SEQ};

/// `'k` is the lifetime of the keys offered: they stay borrowed from their
/// memtable or SST, so the filter compares with the previous key without
/// copying it.
pub(crate) struct VersionFilter<'s, 'k> {
    /// Live snapshot sequence numbers, ascending.
    snapshots: &'s [SeqNo],
    earliest: SeqNo,
    key: Option<&'k [u8]>,
    stripe: usize,
    pub(crate) dropped_versions: u64,
    pub(crate) dropped_tombstones: u64,
}

impl<'s, 'k> VersionFilter<'s, 'k> {
    pub(crate) fn new(snapshots: &'s [SeqNo]) -> Self {
        VersionFilter {
            snapshots,
            earliest: snapshots.first().copied().unwrap_or(MAX_SEQ),
            key: None,
            stripe: 0,
            dropped_versions: 0,
            dropped_tombstones: 0,
        }
    }

    /// Whether `key` is the key of the previous entry offered.
    #[inline]
    pub(crate) fn same_key(&self, key: &[u8]) -> bool {
        self.key == Some(key)
    }

    /// Offers the next entry (internal-key order). `bottommost(key)` says that no
    /// data for the key exists below the output; it is only asked for tombstones
    /// that could go.
    #[inline]
    pub(crate) fn keep(
        &mut self,
        key: &'k [u8],
        trailer: u64,
        bottommost: impl FnOnce(&[u8]) -> bool,
    ) -> bool {
        let seq = trailer_seq(trailer);
        let stripe = if self.snapshots.is_empty() {
            0
        } else {
            self.snapshots.partition_point(|&s| s < seq)
        };
        if self.same_key(key) {
            if stripe == self.stripe {
                self.dropped_versions += 1;
                return false;
            }
        } else {
            self.key = Some(key);
        }
        self.stripe = stripe;
        if trailer_kind(trailer) == ValueKind::Delete && seq <= self.earliest && bottommost(key) {
            self.dropped_tombstones += 1;
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::types::pack;

    fn run(
        snapshots: &[SeqNo],
        entries: &[(&str, SeqNo, ValueKind)],
        bottom: bool,
    ) -> Vec<(String, SeqNo)> {
        let mut f = VersionFilter::new(snapshots);
        entries
            .iter()
            .filter(|(k, s, kind)| f.keep(k.as_bytes(), pack(*s, *kind), |_| bottom))
            .map(|(k, s, _)| (k.to_string(), *s))
            .collect()
    }

    use ValueKind::{Delete, Put};

    #[test]
    fn keeps_only_the_newest_without_snapshots() {
        let kept = run(
            &[],
            &[("a", 5, Put), ("a", 3, Put), ("a", 1, Put), ("b", 2, Put)],
            false,
        );
        assert_eq!(kept, vec![("a".into(), 5), ("b".into(), 2)]);
    }

    #[test]
    fn snapshots_keep_what_they_see() {
        // Snapshot 3 sees a@3; snapshot 4 sees the same; the latest sees a@5.
        let kept = run(
            &[3, 4],
            &[("a", 5, Put), ("a", 3, Put), ("a", 2, Put)],
            false,
        );
        assert_eq!(kept, vec![("a".into(), 5), ("a".into(), 3)]);
    }

    #[test]
    fn tombstones_go_only_when_safe() {
        let e = [("a", 4, Delete), ("a", 2, Put), ("b", 3, Put)];
        // Not bottommost: the tombstone stays (older data may lie below), a@2 goes.
        assert_eq!(run(&[], &e, false), vec![("a".into(), 4), ("b".into(), 3)]);
        // Bottommost: tombstone and the value it hid both go.
        assert_eq!(run(&[], &e, true), vec![("b".into(), 3)]);
        // A snapshot older than the tombstone still needs a@2, so the tombstone
        // stays to hide it from newer readers.
        assert_eq!(
            run(&[2], &e, true),
            vec![("a".into(), 4), ("a".into(), 2), ("b".into(), 3)]
        );
        // A snapshot at or after the tombstone: it is seen by all, it can go.
        assert_eq!(run(&[4], &e, true), vec![("b".into(), 3)]);
    }
}
