//! A memtable node as the arena holds it: a header (trailer, key length, value
//! length, little endian), then the key, then the value — one place, so reading
//! a node found by a search is one cache miss, not one for the node and one for
//! its bytes. A node's id is where the arena put it.
//!
//! The layout is shared by the memtable that writes nodes and by the SST a
//! flush makes of them: the SST takes the memtable's arena over and reads its
//! entries where they were written (see `SstEntries` in `sst::entries`).

use super::arena::Arena;

/// Bytes of a node's header.
pub(crate) const HEADER: usize = 16;

/// Appends a node; returns its id. The caller checks [`Arena::has_room`] first.
#[inline]
pub(crate) fn append(arena: &mut Arena, key: &[u8], trailer: u64, value: &[u8]) -> u32 {
    arena.append(&[
        &trailer.to_le_bytes(),
        &(key.len() as u32).to_le_bytes(),
        &(value.len() as u32).to_le_bytes(),
        key,
        value,
    ])
}

/// Node `n`: its bytes from the header on, its key's length and its value's.
#[inline]
pub(crate) fn parts(arena: &Arena, n: u32) -> (&[u8], usize, usize) {
    let bytes = arena.from(n);
    let u32_at =
        |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
    (bytes, u32_at(8), u32_at(12))
}

#[inline]
pub(crate) fn key(arena: &Arena, n: u32) -> &[u8] {
    let (bytes, key_len, _) = parts(arena, n);
    &bytes[HEADER..HEADER + key_len]
}

#[inline]
pub(crate) fn trailer(arena: &Arena, n: u32) -> u64 {
    u64::from_le_bytes(arena.from(n)[..8].try_into().expect("8 bytes"))
}

#[inline]
pub(crate) fn value(arena: &Arena, n: u32) -> &[u8] {
    let (bytes, key_len, value_len) = parts(arena, n);
    &bytes[HEADER + key_len..HEADER + key_len + value_len]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_reads_back_as_written() {
        let mut arena = Arena::default();
        let a = append(&mut arena, b"key", 0x1234_5601, b"value");
        let b = append(&mut arena, b"", 7, &[9u8; 300]);
        assert_eq!(
            (key(&arena, a), trailer(&arena, a)),
            (&b"key"[..], 0x1234_5601)
        );
        assert_eq!(value(&arena, a), b"value");
        assert_eq!((key(&arena, b), value(&arena, b).len()), (&b""[..], 300));
        assert_eq!(
            parts(&arena, a).0.len() - HEADER - 3 - 5,
            parts(&arena, b).0.len()
        );
    }
}
