//! How keys compare: memcmp order, eight bytes at a time, with abbreviated keys.
//!
//! Keys are short (tens of bytes), so an inline comparison of 8-byte words beats a
//! call to libc's memcmp, which dominated the insert profile; and each slot keeps
//! its key's first 8 bytes as a u64 so most comparisons of a binary search never
//! leave the slot array (the idea of PostgreSQL's abbreviated sort keys).

use std::cmp::Ordering;

/// The abbreviated key of `key`: equal prefixes compare equal, so ties fall back
/// to the full key.
#[inline]
pub(crate) fn abbrev(key: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    let n = key.len().min(8);
    buf[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(buf)
}

/// A search target: the key with its abbreviation computed once.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) abbrev: u64,
    pub(crate) key: &'a [u8],
    pub(crate) payload: u64,
}

impl<'a> Target<'a> {
    pub(crate) fn new(key: &'a [u8], payload: u64) -> Self {
        Target {
            abbrev: abbrev(key),
            key,
            payload,
        }
    }
}

/// memcmp order of two byte strings, a shorter prefix first.
#[inline]
pub(crate) fn cmp_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    let (mut a8, mut b8) = (a[..n].chunks_exact(8), b[..n].chunks_exact(8));
    for (x, y) in (&mut a8).zip(&mut b8) {
        let x = u64::from_be_bytes(x.try_into().unwrap_or_default());
        let y = u64::from_be_bytes(y.try_into().unwrap_or_default());
        if x != y {
            return x.cmp(&y);
        }
    }
    for (x, y) in a8.remainder().iter().zip(b8.remainder()) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmp_bytes_is_memcmp_order() {
        let samples: [&[u8]; 9] = [
            b"",
            b"\x00",
            b"a",
            b"ab",
            b"abcdefgh",
            b"abcdefgh\x00",
            b"abcdefgi",
            b"abcdefghijklmnopq",
            b"\xff\xff\xff\xff\xff\xff\xff\xff\xff",
        ];
        for a in samples {
            for b in samples {
                assert_eq!(cmp_bytes(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn abbreviations_never_contradict_the_full_order() {
        let keys: [&[u8]; 5] = [b"", b"a", b"a\x00", b"abcdefgh", b"abcdefgh\x01"];
        for a in keys {
            for b in keys {
                if abbrev(a) != abbrev(b) {
                    assert_eq!(abbrev(a).cmp(&abbrev(b)), a.cmp(b));
                }
            }
        }
    }
}
