//! Internal keys, sequence numbers and the small byte helpers every part shares.
//!
//! RocksDB orders entries by *internal key*: the user key ascending, then an 8-byte
//! trailer `(sequence << 8) | kind` descending, so the newest version of a key comes
//! first. We keep the user key and the trailer apart (no concatenation, no
//! allocation) and compare them with [`cmp_internal`].

use std::cmp::Ordering;

/// A write's sequence number (RocksDB's `SequenceNumber`, 56 bits).
pub type SeqNo = u64;
/// An SST file's number, unique within one [`Lsm`](super::Lsm).
pub type SstId = u64;

/// The largest sequence number that fits the 56 bits of a trailer.
pub const MAX_SEQ: SeqNo = (1 << 56) - 1;

/// What an entry says about its key (RocksDB's `ValueType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// A tombstone (`kTypeDeletion` = 0).
    Delete,
    /// A value (`kTypeValue` = 1).
    Put,
}

impl ValueKind {
    #[inline]
    pub(crate) fn code(self) -> u64 {
        match self {
            ValueKind::Delete => 0,
            ValueKind::Put => 1,
        }
    }
}

/// The trailer RocksDB appends to a user key: `(seq << 8) | kind`.
#[inline]
pub(crate) fn pack(seq: SeqNo, kind: ValueKind) -> u64 {
    (seq << 8) | kind.code()
}

#[inline]
pub(crate) fn trailer_seq(trailer: u64) -> SeqNo {
    trailer >> 8
}

#[inline]
pub(crate) fn trailer_kind(trailer: u64) -> ValueKind {
    if trailer & 0xff == 0 {
        ValueKind::Delete
    } else {
        ValueKind::Put
    }
}

/// The kind of a version with this trailer, if a read at `seq` sees it.
#[inline]
pub(crate) fn visible_kind(trailer: u64, seq: SeqNo) -> Option<ValueKind> {
    (trailer_seq(trailer) <= seq).then(|| trailer_kind(trailer))
}

/// The trailer of a seek target: RocksDB's `kValueTypeForSeek` is the largest kind,
/// so `(key, seek_trailer(s))` sorts before every version of `key` with a sequence
/// number at or below `s`, and after the newer ones.
#[inline]
pub(crate) fn seek_trailer(seq: SeqNo) -> u64 {
    (seq << 8) | 0xff
}

/// The trailer of a `SeekForPrev` target: the smallest trailer sorts after every
/// version of the key (RocksDB uses sequence 0 with `kValueTypeForSeekForPrev`).
pub(crate) const LAST_TRAILER: u64 = 0;

/// Internal key order: user key ascending, then trailer descending.
#[inline]
pub(crate) fn cmp_internal(a: &[u8], a_trailer: u64, b: &[u8], b_trailer: u64) -> Ordering {
    match a.cmp(b) {
        Ordering::Equal => b_trailer.cmp(&a_trailer),
        other => other,
    }
}

/// Bytes of a varint (LEB128) encoding of `v`, as RocksDB's `VarintLength`.
#[inline]
pub(crate) fn varint_len(v: u64) -> u32 {
    (64 - (v | 1).leading_zeros()).div_ceil(7)
}

/// Length of the common prefix of two byte strings, a word at a time (this runs for
/// every entry written to an SST, so a byte loop would show in flush time).
#[inline]
pub(crate) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_le_bytes(a[i..i + 8].try_into().unwrap_or([0; 8]));
        let y = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        if x != y {
            return i + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// Common prefix of two *internal* keys as RocksDB stores them: the user key
/// followed by the trailer in little-endian (what a data block's key-prefix
/// compression sees).
pub(crate) fn internal_common_prefix(a: &[u8], a_trailer: u64, b: &[u8], b_trailer: u64) -> usize {
    let shared = common_prefix(a, b);
    if shared < a.len().min(b.len()) {
        return shared;
    }
    // One user key is a prefix of the other (or they are equal): keep comparing
    // across the trailer bytes.
    let ta = a_trailer.to_le_bytes();
    let tb = b_trailer.to_le_bytes();
    let byte_a = |i: usize| if i < a.len() { a[i] } else { ta[i - a.len()] };
    let byte_b = |i: usize| if i < b.len() { b[i] } else { tb[i - b.len()] };
    let total = a.len().min(b.len()) + 8;
    let mut i = shared;
    while i < total && byte_a(i) == byte_b(i) {
        i += 1;
    }
    i
}

/// A list of byte strings stored end to end in one buffer: SSTs hold millions of
/// keys, and one allocation per key would dominate flush and compaction time.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyList {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl KeyList {
    pub(crate) fn with_capacity(entries: usize, bytes: usize) -> Self {
        KeyList {
            bytes: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(entries),
        }
    }

    /// Appends a string; `false` if the buffer would pass 4 GiB (offsets are u32).
    #[inline]
    pub(crate) fn push(&mut self, s: &[u8]) -> bool {
        let end = self.bytes.len() + s.len();
        if end > u32::MAX as usize {
            return false;
        }
        self.bytes.extend_from_slice(s);
        self.ends.push(end as u32);
        true
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }

    #[cfg(test)]
    pub(crate) fn total_bytes(&self) -> usize {
        self.bytes.len()
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_lengths_match_rocksdb() {
        assert_eq!(varint_len(0), 1);
        assert_eq!(varint_len(127), 1);
        assert_eq!(varint_len(128), 2);
        assert_eq!(varint_len(16_383), 2);
        assert_eq!(varint_len(16_384), 3);
        assert_eq!(varint_len(u32::MAX as u64), 5);
        assert_eq!(varint_len(u64::MAX), 10);
    }

    #[test]
    fn internal_order_puts_newest_first() {
        let newer = pack(9, ValueKind::Put);
        let older = pack(3, ValueKind::Put);
        assert_eq!(cmp_internal(b"a", newer, b"a", older), Ordering::Less);
        assert_eq!(cmp_internal(b"a", older, b"b", newer), Ordering::Less);
        // A seek target at snapshot 5 sorts between the two versions.
        assert_eq!(
            cmp_internal(b"a", seek_trailer(5), b"a", older),
            Ordering::Less
        );
        assert_eq!(
            cmp_internal(b"a", seek_trailer(5), b"a", newer),
            Ordering::Greater
        );
        assert_eq!(trailer_seq(newer), 9);
        assert_eq!(trailer_kind(pack(4, ValueKind::Delete)), ValueKind::Delete);
    }

    #[test]
    fn common_prefixes() {
        assert_eq!(common_prefix(b"abcdefghijk", b"abcdefghijz"), 10);
        assert_eq!(common_prefix(b"abc", b"abd"), 2);
        assert_eq!(common_prefix(b"", b"abd"), 0);
        assert_eq!(common_prefix(b"same-key", b"same-key"), 8);
        // Equal user keys share the key and the leading (little-endian) trailer
        // bytes that agree: the kind byte, here.
        let t1 = pack(1, ValueKind::Put);
        let t2 = pack(2, ValueKind::Put);
        assert_eq!(internal_common_prefix(b"k", t1, b"k", t2), 2);
        assert_eq!(internal_common_prefix(b"k", t1, b"k", t1), 9);
        // "k" 01 01 00… vs "k" 01 | 01 01 00…: three bytes agree.
        assert_eq!(internal_common_prefix(b"k", t1, b"k\x01", t1), 3);
    }

    #[test]
    fn key_list_round_trips() {
        let mut l = KeyList::default();
        assert!(l.push(b"one"));
        assert!(l.push(b""));
        assert!(l.push(b"three"));
        assert_eq!(l.len(), 3);
        assert_eq!(l.get(0), b"one");
        assert_eq!(l.get(1), b"");
        assert_eq!(l.get(2), b"three");
        assert_eq!(l.total_bytes(), 8);
    }
}
