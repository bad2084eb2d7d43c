//! Minimizing an input while its finding persists: delete chunks of lines, then
//! chunks of tokens, halving the chunk size each round (delta debugging, the
//! deletion half of it), within a budget of attempts.
//!
//! A mutated input can be a megabyte of `AND` chain; halving gets through it in
//! a few dozen attempts, where token-by-token deletion would take hours.

use crate::tokens::tokenize;

/// What shrinking gives up after: attempts run, and hanging attempts (each
/// leaves a worker thread running, see [`crate::runner`]).
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub attempts: usize,
    pub hangs: usize,
}

/// The smallest input found for which `still_fails` holds, starting from
/// `input` (for which it must hold). `still_fails` returns `None` when the
/// attempt was not the same finding, and `Some(hung)` when it was.
pub fn shrink(
    input: &[u8],
    budget: Budget,
    still_fails: &mut dyn FnMut(&[u8]) -> Option<bool>,
) -> Vec<u8> {
    let mut attempts = Attempts {
        left: budget,
        still_fails,
    };
    let lines = |s: &[u8]| -> Vec<Vec<u8>> {
        s.split_inclusive(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect()
    };
    let tokens =
        |s: &[u8]| -> Vec<Vec<u8>> { tokenize(s).iter().map(|t| t.bytes(s).to_vec()).collect() };
    let best = delete_chunks(lines(input), &mut attempts);
    let best = delete_chunks(tokens(&best), &mut attempts);
    // Token deletions can make whole lines removable (a statement became a
    // comment, a quote closed): one more pass over lines is cheap.
    delete_chunks(lines(&best), &mut attempts)
}

/// The attempts left, and the test they run.
struct Attempts<'a> {
    left: Budget,
    still_fails: &'a mut dyn FnMut(&[u8]) -> Option<bool>,
}

impl Attempts<'_> {
    fn exhausted(&self) -> bool {
        self.left.attempts == 0 || self.left.hangs == 0
    }

    /// Whether `candidate` still fails (false once the budget is spent).
    fn still_fails(&mut self, candidate: &[u8]) -> bool {
        if self.exhausted() {
            return false;
        }
        self.left.attempts -= 1;
        match (self.still_fails)(candidate) {
            Some(hung) => {
                if hung {
                    self.left.hangs -= 1;
                }
                true
            }
            None => false,
        }
    }
}

/// Deletes chunks of `units` of halving sizes, keeping each deletion after
/// which the input still fails; stops as soon as the budget is spent (building
/// a candidate costs as much as the input's size).
fn delete_chunks(mut units: Vec<Vec<u8>>, attempts: &mut Attempts) -> Vec<u8> {
    let mut chunk = units.len().div_ceil(2).max(1);
    while !attempts.exhausted() {
        let mut i = 0;
        while i < units.len() && !attempts.exhausted() {
            let end = (i + chunk).min(units.len());
            let candidate: Vec<u8> = units[..i]
                .iter()
                .chain(&units[end..])
                .flatten()
                .copied()
                .collect();
            if attempts.still_fails(&candidate) {
                units.drain(i..end);
            } else {
                i = end;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    units.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOTS: Budget = Budget {
        attempts: 10_000,
        hangs: 10,
    };

    #[test]
    fn keeps_only_what_the_failure_needs() {
        let input = b"create table t (a int);\nselect 1;\nselect frm\xc3\xa9;\nselect 2;\n";
        let small = shrink(input, LOTS, &mut |s| {
            let text = String::from_utf8_lossy(s);
            (text.contains("frm") && text.contains('\u{e9}')).then_some(false)
        });
        assert_eq!(String::from_utf8_lossy(&small), "frm\u{e9}");
    }

    #[test]
    fn a_long_chain_shrinks_in_few_attempts() {
        let input = format!("select 1 {};", "AND x ".repeat(100_000));
        let mut attempts = 0;
        let small = shrink(input.as_bytes(), LOTS, &mut |s| {
            attempts += 1;
            (s.windows(3).filter(|w| w == b"AND").count() >= 10).then_some(false)
        });
        assert!(small.len() <= 30, "{} bytes left", small.len());
        assert!(attempts < 500, "{attempts} attempts");
    }

    #[test]
    fn a_spent_budget_stops_at_once() {
        // 100 000 tokens: building every candidate after the budget is spent
        // (as this once did) takes minutes at chunk size 1.
        let input = "x ".repeat(50_000);
        let mut attempts = 0;
        let budget = Budget {
            attempts: 3,
            hangs: 3,
        };
        let small = shrink(input.as_bytes(), budget, &mut |_| {
            attempts += 1;
            None
        });
        assert_eq!(small, input.as_bytes());
        assert_eq!(attempts, 3);
    }

    #[test]
    fn the_budget_bounds_attempts_and_hangs() {
        let input = b"a b c d e f g h\n".repeat(50);
        let mut attempts = 0;
        shrink(
            &input,
            Budget {
                attempts: 7,
                hangs: 10,
            },
            &mut |_| {
                attempts += 1;
                None
            },
        );
        assert_eq!(attempts, 7);
        let mut attempts = 0;
        shrink(
            &input,
            Budget {
                attempts: 100,
                hangs: 2,
            },
            &mut |_| {
                attempts += 1;
                Some(true)
            },
        );
        assert_eq!(attempts, 2);
    }
}
