//! A deterministic 64-bit byte-string hash for bloom filters (the block cache's
//! table uses `rustc_hash`'s Fx hasher).
//!
//! It must give the same answer natively and in wasm, run after run, so it uses no
//! random seed (std's `RandomState` does).

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

#[inline]
fn round(acc: u64, word: u64) -> u64 {
    acc.wrapping_add(word.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

/// A 64-bit hash of a byte string, in the style of xxHash64's short-input path
/// (one lane, then the xxHash avalanche): cheap for the 10–100-byte keys an LSM
/// holds, and well mixed in every bit, which the bloom filter needs because it
/// takes the cache line from the high half and the probes from the low half.
#[inline]
pub(crate) fn hash64(bytes: &[u8]) -> u64 {
    let mut h = P5.wrapping_add(bytes.len() as u64);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        h = (h ^ round(0, w))
            .rotate_left(27)
            .wrapping_mul(P1)
            .wrapping_add(P3);
    }
    for &b in chunks.remainder() {
        h = (h ^ (b as u64).wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_stable_and_spreads() {
        assert_eq!(hash64(b"key"), hash64(b"key"));
        assert_ne!(hash64(b"key1"), hash64(b"key2"));
        assert_ne!(hash64(b""), hash64(b"\0"));
        // Flipping one input bit flips about half the output bits.
        let a = hash64(b"0123456789abcdef");
        let b = hash64(b"0123456789abcdeg");
        let flipped = (a ^ b).count_ones();
        assert!((16..=48).contains(&flipped), "{flipped} bits flipped");
    }
}
