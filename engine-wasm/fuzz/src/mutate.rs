//! The mutations: each takes a script's bytes and breaks it one way, aiming at
//! what has broken parsers and engines before — cuts in the middle of a
//! character, huge numbers and identifiers, deep nesting, endless `AND`
//! chains, non-ASCII text beside a syntax error, quotes left open, absurd sizes
//! and control bytes.
//!
//! A mutated script is bytes, not a `String`: a cut or an inserted byte may
//! leave invalid UTF-8, which the runner must report with a position too.

use crate::tokens::{tokenize, Kind, Token};
use indexlab_engine::rng::Rng;

/// One way of breaking a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// Cut the script at any byte, inside a character or not.
    Truncate,
    DeleteTokens,
    DuplicateTokens,
    SwapTokens,
    /// Replace a number (or any token) with one no integer type holds.
    HugeNumber,
    /// Replace a word with a name over PostgreSQL's 63 bytes, up to 10 000 chars.
    LongIdentifier,
    /// Wrap a token in up to 100 000 parentheses (or only open them).
    DeepNesting,
    /// Grow a token into a chain of up to 100 000 `AND`, `OR`, `+` or `||` terms.
    LongChain,
    /// Put an accented letter, an emoji, a combining mark or an RTL mark next
    /// to a token (often making it a syntax error right there).
    NonAscii,
    /// Open a quote, comment or dollar quote and never close it.
    Unterminated,
    /// A text literal of up to 100 000 characters.
    HugeText,
    /// A statement or meta-command asking for far too much.
    AbsurdSize,
    /// NUL, escape, stray UTF-8 continuation and other control bytes.
    ControlBytes,
    /// Lines from another seed, so statements meet tables they were not written for.
    Splice,
}

impl Mutation {
    pub const ALL: [Mutation; 14] = [
        Mutation::Truncate,
        Mutation::DeleteTokens,
        Mutation::DuplicateTokens,
        Mutation::SwapTokens,
        Mutation::HugeNumber,
        Mutation::LongIdentifier,
        Mutation::DeepNesting,
        Mutation::LongChain,
        Mutation::NonAscii,
        Mutation::Unterminated,
        Mutation::HugeText,
        Mutation::AbsurdSize,
        Mutation::ControlBytes,
        Mutation::Splice,
    ];
}

const HUGE_NUMBERS: &[&str] = &[
    "1e400",
    "-1e400",
    "1e-400",
    "99999999999999999999999",
    "-9223372036854775809",
    "9223372036854775808",
    "-9223372036854775808",
    "2147483648",
    "4294967296",
    "1.7976931348623157e308",
    "0.0000000000000000000000000000001",
    "'NaN'",
    "'-infinity'",
    "0x7fffffffffffffff",
    "1_000_000",
];

const NON_ASCII: &[&str] = &[
    "é",
    "ß",
    "日本",
    "😀",
    "👩\u{200d}💻",
    "e\u{301}",
    "\u{301}",
    "\u{202e}",
    "\u{200f}",
    "שלום",
    "\u{feff}",
    "\u{2028}",
    "\u{fffd}",
];

const OPENERS: &[&str] = &[
    "'",
    "\"",
    "/*",
    "/* /* nested */",
    "$$",
    "$tag$",
    "E'\\",
    "--",
    "/*+ Set(",
    "(",
    "[",
];

const CHAIN_OPERATORS: &[&str] = &[" AND ", " OR ", " + ", " || ", " * ", " = "];

/// Depths and lengths of nesting, chains and long names: around the limits an
/// engine might have, and far past them.
const SIZES: &[usize] = &[10, 63, 64, 100, 1000, 10_000, 100_000];

const ABSURD: &[&str] = &[
    "select generate_series(1, 1000000000000);\n",
    "insert into t select generate_series(1, 9223372036854775807);\n",
    "\\watch c=100000\n",
    "\\watch c=1000000 i=0\n",
    "\\watch c=2147483648\n",
    "SET max_rows = 10000000;\n",
    "SET max_rows = 0;\n",
    "SET shared_buffers = '8GB';\n",
    "SET shared_buffers = 1099511627776;\n",
    "SET block_cache_size = '64GB';\n",
    "SET write_buffer_size = '1GB';\n",
    "SET page_size = 32768;\n",
    "SET yb_fetch_row_limit = 0;\n",
    "SET yb_bnl_batch_size = 100000000;\n",
    "SET seed = 99999999999999999999;\n",
    "select * from t limit 9223372036854775807;\n",
    "select 1 limit -1;\n",
    "create table t (a int) split into 4294967295 tablets;\n",
    "/*+ Set(max_rows 99999999999) */ select 1;\n",
    // Not absurd, but paths the seeds never take: the player's snapshots, and
    // a trace with no per-key events.
    "SET trace_snapshots = on;\n",
    "SET trace_statement_events = 0;\n",
];

const CONTROL_BYTES: &[u8] = &[
    0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, b'\r', 0x1b, 0x7f, 0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff,
];

/// Applies mutations with a seeded generator, so an input is reproducible from
/// its seed alone.
pub struct Mutator<'a> {
    rng: Rng,
    /// Other scripts, for [`Mutation::Splice`].
    corpus: &'a [Vec<u8>],
}

impl<'a> Mutator<'a> {
    pub fn new(seed: u64, corpus: &'a [Vec<u8>]) -> Self {
        Mutator {
            rng: Rng::new(seed),
            corpus,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n.max(1) as u64) as usize
    }

    fn choose<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A size from [`SIZES`], the larger ones rarer: each input should still run
    /// in milliseconds on average.
    fn size(&mut self) -> usize {
        let i = self.below(SIZES.len());
        if SIZES[i] >= 10_000 && self.below(4) != 0 {
            SIZES[self.below(4)]
        } else {
            SIZES[i]
        }
    }

    /// A token satisfying `want`, or any token when none does.
    fn pick(&mut self, tokens: &[Token], want: impl Fn(Kind) -> bool) -> Option<Token> {
        let fit: Vec<Token> = tokens.iter().copied().filter(|t| want(t.kind)).collect();
        let pool = if fit.is_empty() { tokens } else { &fit };
        (!pool.is_empty()).then(|| pool[self.below(pool.len())])
    }

    /// Applies one to three mutations to `script` (mostly one: each tends to
    /// stop the script where it lands, and what follows should run too);
    /// returns what was done.
    pub fn mutate(&mut self, script: &mut Vec<u8>) -> Vec<Mutation> {
        let n = match self.below(10) {
            0..=5 => 1,
            6..=8 => 2,
            _ => 3,
        };
        (0..n)
            .map(|_| {
                let m = self.choose(&Mutation::ALL);
                self.apply(m, script);
                m
            })
            .collect()
    }

    pub fn apply(&mut self, m: Mutation, s: &mut Vec<u8>) {
        let tokens = tokenize(s);
        let solid = |k: Kind| k != Kind::Space;
        match m {
            Mutation::Truncate => {
                let at = self.below(s.len() + 1);
                s.truncate(at);
            }
            Mutation::DeleteTokens => {
                if let Some(t) = self.pick(&tokens, solid) {
                    let end = self.token_run_end(&tokens, t);
                    s.drain(t.start..end);
                }
            }
            Mutation::DuplicateTokens => {
                if let Some(t) = self.pick(&tokens, solid) {
                    let end = self.token_run_end(&tokens, t);
                    let copy = s[t.start..end].to_vec();
                    let at = self.boundary(&tokens, s.len());
                    s.splice(at..at, copy);
                }
            }
            Mutation::SwapTokens => {
                if let (Some(a), Some(b)) = (self.pick(&tokens, solid), self.pick(&tokens, solid)) {
                    let (a, b) = if a.start <= b.start { (a, b) } else { (b, a) };
                    if a.end <= b.start {
                        let (ta, tb) = (a.bytes(s).to_vec(), b.bytes(s).to_vec());
                        s.splice(b.start..b.end, ta);
                        s.splice(a.start..a.end, tb);
                    }
                }
            }
            Mutation::HugeNumber => {
                let n = self.choose(HUGE_NUMBERS).as_bytes().to_vec();
                self.replace_token(s, &tokens, |k| k == Kind::Number, |_| n.clone());
            }
            Mutation::LongIdentifier => {
                let len = self.size();
                let name: String = match self.below(4) {
                    0 => "x".repeat(len),
                    1 => "é".repeat(len),
                    2 => format!("\"{}\"", "Q".repeat(len)),
                    _ => format!("t{}", "_".repeat(len)),
                };
                self.replace_token(s, &tokens, |k| k == Kind::Word, |_| name.clone().into());
            }
            Mutation::DeepNesting => {
                let depth = self.size();
                let close = self.below(3) != 0;
                let want = |k: Kind| k == Kind::Number || k == Kind::Word;
                self.replace_token(s, &tokens, want, |tok| {
                    let mut out = b"(".repeat(depth);
                    out.extend(tok);
                    if close {
                        out.extend(b")".repeat(depth));
                    }
                    out
                });
            }
            Mutation::LongChain => {
                let terms = self.size();
                let op = self.choose(CHAIN_OPERATORS).as_bytes();
                let want = |k: Kind| k == Kind::Number || k == Kind::Word;
                self.replace_token(s, &tokens, want, |tok| {
                    let mut out = b"(".to_vec();
                    out.extend(tok);
                    for _ in 1..terms {
                        out.extend(op);
                        out.extend(tok);
                    }
                    out.push(b')');
                    out
                });
            }
            Mutation::NonAscii => {
                let text = self.choose(NON_ASCII).as_bytes();
                let at = match (self.below(3), self.pick(&tokens, solid)) {
                    // Glued to the end or start of a token: `frmé`, `😀select`.
                    (0, Some(t)) => t.end,
                    (1, Some(t)) => t.start,
                    // Anywhere, even inside another character.
                    _ => self.below(s.len() + 1),
                };
                s.splice(at..at, text.iter().copied());
            }
            Mutation::Unterminated => {
                let opener = self.choose(OPENERS).as_bytes();
                let at = self.boundary(&tokens, s.len());
                s.splice(at..at, opener.iter().copied());
            }
            Mutation::HugeText => {
                let len = self.size();
                let text = match self.below(3) {
                    0 => format!("'{}'", "x".repeat(len)),
                    1 => format!("'{}'", "é".repeat(len.max(65_536))),
                    _ => format!("$${}$$", "ab\n".repeat(len / 3 + 1)),
                };
                let want = |k: Kind| k == Kind::Quoted || k == Kind::Number;
                self.replace_token(s, &tokens, want, |_| text.clone().into());
            }
            Mutation::AbsurdSize => {
                let text = self.choose(ABSURD).as_bytes();
                let at = self.line_start(s);
                s.splice(at..at, text.iter().copied());
            }
            Mutation::ControlBytes => {
                for _ in 0..1 + self.below(3) {
                    let b = self.choose(CONTROL_BYTES);
                    let at = self.below(s.len() + 1);
                    s.insert(at, b);
                }
            }
            Mutation::Splice => {
                if self.corpus.is_empty() {
                    return;
                }
                let other = &self.corpus[self.below(self.corpus.len())];
                let lines: Vec<&[u8]> = other.split_inclusive(|&b| b == b'\n').collect();
                let from = self.below(lines.len());
                let to = (from + 1 + self.below(4)).min(lines.len());
                let piece: Vec<u8> = lines[from..to].concat();
                let at = self.line_start(s);
                s.splice(at..at, piece);
            }
        }
    }

    /// The end of a run of one to three tokens starting at `first`.
    fn token_run_end(&mut self, tokens: &[Token], first: Token) -> usize {
        let i = tokens.iter().position(|t| *t == first).unwrap_or(0);
        let n = 1 + self.below(3);
        tokens[(i + n - 1).min(tokens.len() - 1)].end
    }

    /// A random place between two tokens (or the end).
    fn boundary(&mut self, tokens: &[Token], len: usize) -> usize {
        let i = self.below(tokens.len() + 1);
        tokens.get(i).map_or(len, |t| t.start)
    }

    /// A random line start (or the end), where a new statement can go.
    fn line_start(&mut self, s: &[u8]) -> usize {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(
                s.iter()
                    .enumerate()
                    .filter(|(_, &b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        starts[self.below(starts.len())]
    }

    /// Replaces a token `want` accepts (any token if none does; an empty script
    /// gets the replacement alone) with `make(its bytes)`.
    fn replace_token(
        &mut self,
        s: &mut Vec<u8>,
        tokens: &[Token],
        want: impl Fn(Kind) -> bool,
        make: impl Fn(&[u8]) -> Vec<u8>,
    ) {
        match self.pick(tokens, want) {
            Some(t) => {
                let new = make(t.bytes(s));
                s.splice(t.start..t.end, new);
            }
            None => *s = make(b"1"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &[u8] = b"create table t (id int);\ninsert into t values (1), (2);\nselect id from t where id = 1;\n";

    fn mutated(seed: u64) -> (Vec<u8>, Vec<Mutation>) {
        let corpus = vec![SCRIPT.to_vec()];
        let mut s = SCRIPT.to_vec();
        let done = Mutator::new(seed, &corpus).mutate(&mut s);
        (s, done)
    }

    #[test]
    fn the_same_seed_gives_the_same_input() {
        for seed in 0..50 {
            assert_eq!(mutated(seed), mutated(seed));
        }
    }

    #[test]
    fn every_mutation_changes_the_script_somewhere() {
        let corpus = vec![SCRIPT.to_vec()];
        for m in Mutation::ALL {
            let changed = (0..20).any(|seed| {
                let mut s = SCRIPT.to_vec();
                Mutator::new(seed, &corpus).apply(m, &mut s);
                s != SCRIPT
            });
            assert!(changed, "{m:?} never changed the script");
        }
    }

    #[test]
    fn mutations_can_leave_invalid_utf8() {
        let invalid = (0..500).any(|seed| std::str::from_utf8(&mutated(seed).0).is_err());
        assert!(invalid, "no mutation ever broke UTF-8");
    }

    #[test]
    fn long_chains_and_nesting_reach_their_sizes() {
        let corpus = vec![SCRIPT.to_vec()];
        let longest = |m: Mutation| {
            (0..200)
                .map(|seed| {
                    let mut s = SCRIPT.to_vec();
                    Mutator::new(seed, &corpus).apply(m, &mut s);
                    s.len()
                })
                .max()
                .unwrap()
        };
        assert!(longest(Mutation::LongChain) > 100_000 * 3);
        assert!(longest(Mutation::DeepNesting) > 100_000);
        assert!(longest(Mutation::HugeText) > 100_000);
    }

    #[test]
    fn an_empty_script_still_mutates() {
        let mut s = Vec::new();
        Mutator::new(1, &[]).apply(Mutation::LongChain, &mut s);
        assert!(!s.is_empty());
    }
}
