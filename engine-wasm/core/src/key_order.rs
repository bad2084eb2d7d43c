//! How encoded keys compare: memcmp order, eight bytes at a time, with a key's
//! first eight bytes as a number ("abbreviated key").
//!
//! Both engines encode keys so that byte order is the SQL order, and both compare
//! keys on their hottest paths (a B+tree page's binary search, the memtable's).
//! Keys are short (tens of bytes), so comparing 8-byte words inline beats a call
//! to memcmp — natively, and much more in wasm, where memcmp and memcpy of a few
//! bytes are loops or calls. An abbreviated key kept beside an entry settles most
//! comparisons without touching the key bytes (PostgreSQL's abbreviated sort keys).

use std::cmp::Ordering;

/// The key's first 8 bytes as a big-endian number, zero-padded: two keys whose
/// abbreviations differ are ordered as their abbreviations are.
#[inline]
pub(crate) fn abbrev(key: &[u8]) -> u64 {
    match key.first_chunk::<8>() {
        // One load: no copy of a variable length (which compiles to a memcpy call).
        Some(head) => u64::from_be_bytes(*head),
        // Shorter: shifted in byte by byte (a copy of up to 7 bytes is a memcpy call).
        None => key
            .iter()
            .enumerate()
            .fold(0, |v, (i, &b)| v | u64::from(b) << (56 - 8 * i)),
    }
}

/// The key's first 16 bytes as a big-endian number, zero-padded: like
/// [`abbrev`], for keys whose first 8 bytes are often shared (a hash-sharded
/// DocDB key is a marker, a 2-byte hash, a type byte and the high half of the
/// hashed integer before anything that tells rows apart).
#[inline]
pub(crate) fn abbrev16(key: &[u8]) -> u128 {
    let low = key.get(8..).map_or(0, abbrev);
    u128::from(abbrev(key)) << 64 | u128::from(low)
}

/// The key's first 12 bytes as a big-endian number, zero-padded (the low 96
/// bits): [`abbrev16`] with room left beside it for a 32-bit id in one `u128`.
#[inline]
pub(crate) fn abbrev12(key: &[u8]) -> u128 {
    abbrev16(key) >> 32
}

/// memcmp order of two byte strings, a shorter prefix first.
#[inline]
pub(crate) fn cmp_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    let (mut a8, mut b8) = (a[..n].chunks_exact(8), b[..n].chunks_exact(8));
    for (x, y) in (&mut a8).zip(&mut b8) {
        let (x, y) = (abbrev(x), abbrev(y));
        if x != y {
            return x.cmp(&y);
        }
    }
    // The remainders have the same length, so zero-padding cannot tie them
    // falsely; one comparison, not a branch per byte.
    abbrev(a8.remainder())
        .cmp(&abbrev(b8.remainder()))
        .then(a.len().cmp(&b.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: [&[u8]; 12] = [
        b"",
        b"\x00",
        b"a",
        b"ab",
        b"ab\x00",
        b"abcdefg",
        b"abcdefgh",
        b"abcdefgh\x00",
        b"abcdefgi",
        b"abcdefghijklmnopq",
        b"abcdefghijklmnopr\x00",
        b"\xff\xff\xff\xff\xff\xff\xff\xff\xff",
    ];

    #[test]
    fn cmp_bytes_is_memcmp_order() {
        for a in SAMPLES {
            for b in SAMPLES {
                assert_eq!(cmp_bytes(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn abbreviations_never_contradict_the_full_order() {
        for a in SAMPLES {
            for b in SAMPLES {
                if abbrev(a) != abbrev(b) {
                    assert_eq!(abbrev(a).cmp(&abbrev(b)), a.cmp(b), "{a:?} {b:?}");
                }
            }
        }
        assert_eq!(abbrev(b"abcdefgh\xff"), abbrev(b"abcdefgh"));
    }

    #[test]
    fn long_abbreviations_never_contradict_the_full_order() {
        let mut keys: Vec<Vec<u8>> = SAMPLES.iter().map(|k| k.to_vec()).collect();
        for k in SAMPLES {
            // Past the first word: shared 8- and 16-byte heads, then the samples.
            keys.push([b"sharedhd", k].concat());
            keys.push([b"sharedhdsecondwd", k].concat());
        }
        for a in &keys {
            for b in &keys {
                let (x, y) = (abbrev16(a), abbrev16(b));
                if x != y {
                    assert_eq!(x.cmp(&y), a.cmp(b), "{a:?} {b:?}");
                }
            }
        }
        assert_eq!(
            abbrev16(b"sharedhdsecondwdX"),
            abbrev16(b"sharedhdsecondwd")
        );
        assert!(abbrev16(b"sharedhdA") < abbrev16(b"sharedhdB"));
        for a in &keys {
            for b in &keys {
                let (x, y) = (abbrev12(a), abbrev12(b));
                if x != y {
                    assert_eq!(x.cmp(&y), a.cmp(b), "{a:?} {b:?}");
                }
            }
        }
        assert_eq!(abbrev12(b"sharedhdsecoX"), abbrev12(b"sharedhdseco"));
    }

    #[test]
    fn keys_sharing_a_prefix_compare_as_bytes_do() {
        let mut rng = crate::rng::Rng::new(3);
        for _ in 0..20_000 {
            let mut a = b"samepfx!".to_vec();
            let mut b = a.clone();
            for k in [&mut a, &mut b] {
                for _ in 0..rng.below(20) {
                    k.push(b"ab\x00\xff"[rng.below(4) as usize]);
                }
            }
            assert_eq!(cmp_bytes(&a, &b), a.cmp(&b), "{a:?} {b:?}");
        }
    }
}
