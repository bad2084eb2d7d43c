//! Finding a key prefix in a sorted run of them, touching few cache lines.
//!
//! A memtable block holds a few hundred 12-byte key prefixes in order. A binary
//! search over them reads ~6 cache lines far apart, and in a memtable of a
//! million entries those are misses. Keys of a hash-sharded table start with
//! their hash, so within a block the prefixes are spread about evenly between
//! the block's first prefix and the next block's: a straight-line guess lands a
//! few entries from the answer, and a gallop outward from the guess reads only
//! the lines next to it. Skewed runs still end in at most about twice the steps
//! of a binary search.

/// A sorted run of prefixes, wherever they are stored (a slice of them, or
/// entries that pair each with a node id).
pub(crate) trait Prefixes {
    fn count(&self) -> usize;
    fn prefix(&self, i: usize) -> u128;
}

impl Prefixes for [u128] {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn prefix(&self, i: usize) -> u128 {
        self[i]
    }
}

/// The first index whose prefix is not below `x` (`run.count()` if none), for
/// `run` ascending, every element ≥ `low` and every element ≤ `high`.
pub(crate) fn lower_bound<P: Prefixes + ?Sized>(run: &P, x: u128, low: u128, high: u128) -> usize {
    let n = run.count();
    if n == 0 {
        return 0;
    }
    let below = |i: usize| run.prefix(i) < x;
    let guess = interpolate(x, low, high, n);
    let (mut lo, mut hi) = if below(guess) {
        gallop_up(n, guess + 1, below)
    } else {
        gallop_down(guess, below)
    };
    while lo < hi {
        let mid = (lo + hi) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Where `x` would sit among `n` values spread evenly over `low..=high`.
fn interpolate(x: u128, low: u128, high: u128, n: usize) -> usize {
    if x <= low || low >= high {
        return 0;
    }
    if x >= high {
        return n - 1;
    }
    // The 64 bits after the bits `low` and `high` share: enough resolution, and
    // the product below fits in a u128.
    let shift = (low ^ high).leading_zeros();
    let top = |v: u128| ((v << shift) >> 64) as u64;
    let (a, b, c) = (top(low), top(x), top(high));
    // In 64-bit arithmetic (a u128 division is a slow library call, on wasm
    // too): drop low bits until the span fits in 32, so `offset * n` fits.
    let drop = (64 - (c - a).leading_zeros()).saturating_sub(32);
    let (offset, span) = ((b - a) >> drop, ((c - a) >> drop) + 1);
    ((offset * n as u64 / span) as usize).min(n - 1)
}

/// From `from` on (of `n` indexes), steps 1, 2, 4… while `before` holds: the
/// answer (first index where it fails) lies in the returned `lo..hi`.
fn gallop_up(n: usize, from: usize, before: impl Fn(usize) -> bool) -> (usize, usize) {
    let (mut lo, mut step) = (from, 1);
    loop {
        let probe = lo + step - 1;
        if probe >= n {
            return (lo, n);
        }
        if !before(probe) {
            return (lo, probe);
        }
        lo = probe + 1;
        step *= 2;
    }
}

/// Down from `to` (where `before` fails), steps 1, 2, 4… until it holds: the
/// answer lies in the returned `lo..hi`.
fn gallop_down(to: usize, before: impl Fn(usize) -> bool) -> (usize, usize) {
    let (mut hi, mut step) = (to, 1);
    loop {
        if hi < step {
            return (0, hi);
        }
        let probe = hi - step;
        if before(probe) {
            return (probe + 1, hi);
        }
        hi = probe;
        step *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_in_even_and_skewed_runs() {
        let even: Vec<u128> = (0..256u128).map(|i| i << 100).collect();
        for x in [0, 1, 5 << 100, (5 << 100) + 1, 255 << 100, u128::MAX] {
            let want = even.partition_point(|&v| v < x);
            assert_eq!(lower_bound(&even[..], x, 0, 256 << 100), want, "{x}");
        }
        // Everything bunched at the low end: the guess is far off.
        let skewed: Vec<u128> = (0..256u128).chain([u128::MAX]).collect();
        for x in [0, 3, 200, 256, 1 << 90, u128::MAX] {
            let want = skewed.partition_point(|&v| v < x);
            assert_eq!(lower_bound(&skewed[..], x, 0, u128::MAX), want, "{x}");
        }
        assert_eq!(lower_bound::<[u128]>(&[], 7, 0, 9), 0);
        assert_eq!(lower_bound(&[4, 4, 4][..], 4, 4, 4), 0);
    }

    proptest! {
        /// Whatever the run and the bounds (as long as they bound it), the answer
        /// is `partition_point`'s.
        #[test]
        fn agrees_with_partition_point(
            mut run in proptest::collection::vec(any::<u128>(), 0..300),
            x in any::<u128>(),
            pick in any::<u8>(),
        ) {
            run.sort_unstable();
            // Probe for a present value half of the time.
            let x = if pick % 2 == 0 && !run.is_empty() { run[pick as usize % run.len()] } else { x };
            let low = run.first().copied().unwrap_or(0);
            let high = run.last().copied().unwrap_or(u128::MAX);
            prop_assert_eq!(lower_bound(&run[..], x, low, high), run.partition_point(|&v| v < x));
            prop_assert_eq!(lower_bound(&run[..], x, 0, u128::MAX), run.partition_point(|&v| v < x));
        }
    }
}
