//! A small deterministic computation that proves the engine runs where it is called.
//!
//! The CLI prints it and the web page shows it (computed by the wasm build inside a
//! Web Worker); an end-to-end test checks that both agree, which catches a stale wasm
//! build, a broken worker bridge, or a platform difference in the engine.

use crate::rng::Rng;

/// The result of [`fingerprint`]: how many keys were generated and a hash of them in
/// sorted order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    pub keys: usize,
    pub distinct: usize,
    pub hash: u64,
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "keys={} distinct={} fnv1a={:016x}",
            self.keys, self.distinct, self.hash
        )
    }
}

/// Generates `count` keys from `seed`, sorts and deduplicates them, and hashes the
/// sorted sequence with FNV-1a.
pub fn fingerprint(seed: u64, count: usize) -> Fingerprint {
    let mut rng = Rng::new(seed);
    let mut keys: Vec<u64> = (0..count).map(|_| rng.below(1_000_000)).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for k in &keys {
        for b in k.to_be_bytes() {
            hash ^= b as u64;
            hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    Fingerprint {
        keys: count,
        distinct: keys.len(),
        hash,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_for_a_seed() {
        assert_eq!(fingerprint(42, 1000), fingerprint(42, 1000));
        assert_ne!(fingerprint(42, 1000).hash, fingerprint(43, 1000).hash);
    }

    #[test]
    fn counts_keys_and_distinct_values() {
        let f = fingerprint(42, 1000);
        assert_eq!(f.keys, 1000);
        // 1000 draws from a million values: collisions are possible but rare.
        assert!(f.distinct > 990 && f.distinct <= 1000, "{f}");
    }

    #[test]
    fn display_is_stable() {
        let s = fingerprint(1, 10).to_string();
        assert!(s.starts_with("keys=10 distinct="), "{s}");
        assert!(s.contains("fnv1a="));
    }
}
