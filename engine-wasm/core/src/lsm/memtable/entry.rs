//! An entry of the memtable's index: what a search and a seek need to know of a
//! node without reading the node.
//!
//! The node (header, key, value) lies in the arena in write order, so in key
//! order the nodes are scattered and reading one is a cache miss. A search
//! needs only the key's first 12 bytes, which the entry holds. A seek needs a
//! little more of the node it lands on: its kind (a tombstone is skipped) and
//! its lengths (`iter_bytes_read` adds them; the key and value are slices of
//! the node). DocDB's write path seeks every key it writes, and that seek lands
//! on the key after it — a node nothing else touches. Reading that node for its
//! kind and lengths would be a cache miss for every key written, a large share
//! of a hash-sharded load; the entry carries them instead, in a [`Shape`] of 32
//! bits, and the node is read only when its bytes are (the key is compared past
//! its prefix, the value is decoded).
//!
//! 20 bytes an entry: four more than the prefix and id alone, so a block
//! shifts and holds a quarter more, which costs less than the miss it saves.

use crate::lsm::types::ValueKind;

/// A node's 12-byte key prefix, its id, and its [`Shape`] when it fits.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Entry {
    /// The prefix, most significant word first (32-bit words: 20 bytes an
    /// entry, where a `u128` field would align the entry to 32).
    prefix: [u32; 3],
    id: u32,
    /// [`Shape::pack`]ed, 0 when the node's lengths do not fit.
    shape: u32,
}

impl Entry {
    #[inline]
    pub(crate) fn new(prefix: u128, id: u32, shape: Shape) -> Entry {
        debug_assert!(prefix >> 96 == 0, "a 12-byte prefix");
        Entry {
            prefix: [(prefix >> 64) as u32, (prefix >> 32) as u32, prefix as u32],
            id,
            shape: shape.pack(),
        }
    }

    #[inline]
    pub(crate) fn prefix(&self) -> u128 {
        let [a, b, c] = self.prefix;
        u128::from(a) << 64 | u128::from(b) << 32 | u128::from(c)
    }

    #[inline]
    pub(crate) fn id(&self) -> u32 {
        self.id
    }

    /// The node's kind and lengths, unless they did not fit (read the node).
    #[inline]
    pub(crate) fn shape(&self) -> Option<Shape> {
        Shape::unpack(self.shape)
    }
}

/// A node's kind and the lengths of its key and value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Shape {
    pub(crate) kind: ValueKind,
    pub(crate) key_len: usize,
    pub(crate) value_len: usize,
}

/// Bits for the key length (DocDB keys are tens of bytes) and for the value
/// length (a packed row, an index entry's few bytes, a large text value).
const KEY_BITS: u32 = 12;
const VALUE_BITS: u32 = 18;
/// Bit 0 marks a packed shape (so 0 is "not packed"), bit 1 the kind.
const LEN_SHIFT: u32 = 2;

impl Shape {
    /// 32 bits: a mark, the kind, the key length, the value length; 0 when a
    /// length is too long for its bits.
    fn pack(self) -> u32 {
        if self.key_len >> KEY_BITS != 0 || self.value_len >> VALUE_BITS != 0 {
            return 0;
        }
        let put = u32::from(self.kind == ValueKind::Put);
        1 | put << 1
            | (self.key_len as u32) << LEN_SHIFT
            | (self.value_len as u32) << (LEN_SHIFT + KEY_BITS)
    }

    #[inline]
    fn unpack(bits: u32) -> Option<Shape> {
        if bits & 1 == 0 {
            return None;
        }
        Some(Shape {
            kind: if bits & 2 != 0 {
                ValueKind::Put
            } else {
                ValueKind::Delete
            },
            key_len: (bits >> LEN_SHIFT) as usize & ((1 << KEY_BITS) - 1),
            value_len: (bits >> (LEN_SHIFT + KEY_BITS)) as usize,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn shape(kind: ValueKind, key_len: usize, value_len: usize) -> Shape {
        Shape {
            kind,
            key_len,
            value_len,
        }
    }

    #[test]
    fn an_entry_is_twenty_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 20);
    }

    #[test]
    fn lengths_too_long_for_their_bits_are_left_to_the_node() {
        let fits = shape(ValueKind::Put, (1 << KEY_BITS) - 1, (1 << VALUE_BITS) - 1);
        assert_eq!(Entry::new(7, 1, fits).shape(), Some(fits));
        let long_key = shape(ValueKind::Put, 1 << KEY_BITS, 0);
        assert_eq!(Entry::new(7, 1, long_key).shape(), None);
        let long_value = shape(ValueKind::Delete, 0, 1 << VALUE_BITS);
        assert_eq!(Entry::new(7, 1, long_value).shape(), None);
    }

    proptest! {
        #[test]
        fn prefix_id_and_shape_read_back(
            prefix in any::<u128>().prop_map(|p| p >> 32),
            id in any::<u32>(),
            put in any::<bool>(),
            key_len in 0usize..5000,
            value_len in 0usize..300_000,
        ) {
            let kind = if put { ValueKind::Put } else { ValueKind::Delete };
            let s = shape(kind, key_len, value_len);
            let e = Entry::new(prefix, id, s);
            prop_assert_eq!(e.prefix(), prefix);
            prop_assert_eq!(e.id(), id);
            let fits = key_len < 1 << KEY_BITS && value_len < 1 << VALUE_BITS;
            prop_assert_eq!(e.shape(), fits.then_some(s));
        }
    }
}
