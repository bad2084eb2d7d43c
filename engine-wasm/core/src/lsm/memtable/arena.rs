//! The memtable's arena: nodes appended in write order into chunks, as
//! RocksDB's `Arena` hands out memory from blocks it allocates one at a time.
//!
//! A chunk is allocated once at its full size and never grows, so appending
//! never copies what is already there. One growing `Vec` would be reallocated
//! each time it doubled, and in wasm, which cannot remap pages, each of those
//! copies the whole arena. Chunks start small (a
//! memtable of a few rows takes a few KiB, whatever the number of tablets) and
//! double up to [`CHUNK`].
//!
//! A node's id is its chunk's number and its offset there, packed in 32 bits.

/// Bits of an id that give the offset in a chunk.
const OFFSET_BITS: u32 = 20;
/// Largest chunk (1 MiB); a larger node gets a chunk of its own size.
const CHUNK: usize = 1 << OFFSET_BITS;
/// The first chunk's size.
const FIRST_CHUNK: usize = 4 << 10;
/// Chunks an arena can number in a 32-bit id, keeping `u32::MAX` free (the
/// memtable's "no node").
const MAX_CHUNKS: usize = (1 << (32 - OFFSET_BITS)) - 1;

#[derive(Debug, Clone, Default)]
pub(crate) struct Arena {
    chunks: Vec<Vec<u8>>,
}

impl Arena {
    /// Whether `len` more bytes fit in one run.
    pub(crate) fn has_room(&self, len: usize) -> bool {
        self.fits_in_last(len) || self.chunks.len() < MAX_CHUNKS
    }

    /// Whether the last chunk has room for `len` bytes at an offset an id can hold.
    fn fits_in_last(&self, len: usize) -> bool {
        self.chunks
            .last()
            .is_some_and(|c| c.len() + len <= c.capacity().min(CHUNK))
    }

    /// Appends `parts` as one run of bytes and returns its id. The caller
    /// checks [`has_room`](Self::has_room) first.
    pub(crate) fn append(&mut self, parts: &[&[u8]]) -> u32 {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        if !self.fits_in_last(len) {
            let next = self.chunks.last().map_or(FIRST_CHUNK, |c| 2 * c.capacity());
            self.chunks
                .push(Vec::with_capacity(next.clamp(FIRST_CHUNK, CHUNK).max(len)));
        }
        let number = self.chunks.len() - 1;
        let chunk = &mut self.chunks[number];
        let id = (number << OFFSET_BITS | chunk.len()) as u32;
        for p in parts {
            chunk.extend_from_slice(p);
        }
        id
    }

    /// The bytes from run `id` to the end of its chunk.
    #[inline]
    pub(crate) fn from(&self, id: u32) -> &[u8] {
        let offset = (id & ((1 << OFFSET_BITS) - 1)) as usize;
        &self.chunks[(id >> OFFSET_BITS) as usize][offset..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_read_back_across_chunks_and_chunks_never_move() {
        let mut a = Arena::default();
        let mut ids = Vec::new();
        for i in 0..20_000u32 {
            let body = vec![(i % 251) as u8; (i % 97) as usize];
            ids.push((a.append(&[&i.to_le_bytes(), &body]), body));
        }
        assert!(a.chunks.len() > 1, "filled more than one chunk");
        for c in &a.chunks {
            assert!(c.len() <= c.capacity(), "a chunk grew past its allocation");
        }
        for (i, (id, body)) in ids.iter().enumerate() {
            let run = a.from(*id);
            assert_eq!(&run[..4], &(i as u32).to_le_bytes());
            assert_eq!(&run[4..4 + body.len()], &body[..]);
        }
    }

    #[test]
    fn a_run_larger_than_a_chunk_gets_its_own() {
        let mut a = Arena::default();
        let small = a.append(&[b"before"]);
        let big = vec![7u8; CHUNK + 10];
        let id = a.append(&[&big]);
        let after = a.append(&[b"after"]);
        assert_eq!(&a.from(small)[..6], b"before");
        assert_eq!(a.from(id).len(), CHUNK + 10);
        assert_eq!(&a.from(after)[..5], b"after");
        assert!(a.has_room(CHUNK * 2));
    }
}
