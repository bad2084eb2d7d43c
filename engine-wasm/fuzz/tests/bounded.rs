//! A short campaign inside `cargo test`: a fixed seed, a few thousand inputs,
//! no panic, no hang, no error without its position. `npm run fuzz` runs the
//! long one.
//!
//! Runs in-process: a stack overflow would abort this test without naming its
//! input. `npm run fuzz -- --seed 20240024 --n 3000` runs the same inputs under
//! the supervisor, which survives it and saves the input minimized.

use indexlab_fuzz::campaign::{self, Config, Quiet};
use std::fmt::Write;

const SEED: u64 = 20_240_024;
const INPUTS: u64 = 3000;

#[test]
fn a_bounded_campaign_finds_nothing() {
    let outcome = campaign::run(&Config::new(SEED, INPUTS), &mut Quiet);
    let stats = &outcome.stats;
    let mut found = String::new();
    for s in &outcome.saved {
        let shown: String = String::from_utf8_lossy(&s.minimized)
            .chars()
            .take(300)
            .collect();
        let _ = writeln!(
            found,
            "input {} ({:?}): {}\n  minimized: {shown:?}\n  saved as {:?}",
            s.index, s.mutations, s.finding, s.path
        );
    }
    assert_eq!(stats.findings(), 0, "{stats:?}\n{found}");
    assert_eq!(stats.inputs, INPUTS);
    // Most inputs are refused somewhere (a mutation usually breaks the
    // statement it lands in, after the ones before it ran), but some must run
    // whole, or a broken corpus would leave the engine's far end untested.
    assert!(stats.ran > INPUTS / 20, "{stats:?}");
    assert!(stats.refused > INPUTS / 2, "{stats:?}");
}
