//! A rough SQL tokenizer over raw bytes, for mutating and shrinking scripts.
//!
//! It only has to find pieces worth swapping, deleting or duplicating, so it
//! never fails: it works on bytes (a mutated script need not be UTF-8), treats
//! every byte ≥ 0x80 as part of a word, and ends an unterminated quote or
//! comment at the end of the text.

/// What a token is, as far as mutations care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Space,
    /// A keyword or identifier (including non-ASCII letters).
    Word,
    Number,
    /// A `'…'`, `"…"` or `$$…$$` literal.
    Quoted,
    Comment,
    /// A backslash and the meta-command's name after it (`\watch`).
    Meta,
    /// One byte of punctuation or an operator character.
    Symbol,
}

/// A token: its kind and its byte range in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub fn bytes<'a>(&self, text: &'a [u8]) -> &'a [u8] {
        &text[self.start..self.end]
    }
}

/// Splits `text` into tokens that cover it exactly, in order.
pub fn tokenize(text: &[u8]) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let (kind, end) = next_token(text, i);
        tokens.push(Token {
            kind,
            start: i,
            end,
        });
        i = end;
    }
    tokens
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The token starting at `i` (never empty).
fn next_token(s: &[u8], i: usize) -> (Kind, usize) {
    let run = |from: usize, f: &dyn Fn(u8) -> bool| {
        (from..s.len()).find(|&j| !f(s[j])).unwrap_or(s.len())
    };
    let find = |from: usize, pat: &[u8]| {
        s[from.min(s.len())..]
            .windows(pat.len())
            .position(|w| w == pat)
            .map_or(s.len(), |p| from + p + pat.len())
    };
    let b = s[i];
    match b {
        _ if b.is_ascii_whitespace() => (Kind::Space, run(i, &|c| c.is_ascii_whitespace())),
        b'0'..=b'9' => (
            Kind::Number,
            run(i, &|c| c.is_ascii_digit() || c == b'.' || c == b'e'),
        ),
        _ if is_word_byte(b) => (Kind::Word, run(i, &is_word_byte)),
        b'\'' | b'"' => (Kind::Quoted, find(i + 1, &[b])),
        b'-' if s.get(i + 1) == Some(&b'-') => (Kind::Comment, run(i, &|c| c != b'\n')),
        b'/' if s.get(i + 1) == Some(&b'*') => (Kind::Comment, find(i + 2, b"*/")),
        b'$' if s.get(i + 1) == Some(&b'$') => (Kind::Quoted, find(i + 2, b"$$")),
        b'\\' => (Kind::Meta, run(i + 1, &is_word_byte)),
        _ => (Kind::Symbol, i + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, &str)> {
        tokenize(text.as_bytes())
            .iter()
            .map(|t| (t.kind, &text[t.start..t.end]))
            .collect()
    }

    #[test]
    fn tokens_cover_the_text_in_order() {
        let text = "select 'a''b', \"X\" from t -- c\n/* d */ where x>=1.5e3;\\watch c=2 é";
        let tokens = tokenize(text.as_bytes());
        let mut at = 0;
        for t in &tokens {
            assert_eq!(t.start, at);
            assert!(t.end > t.start);
            at = t.end;
        }
        assert_eq!(at, text.len());
    }

    #[test]
    fn kinds_of_the_usual_pieces() {
        assert_eq!(
            kinds("select 'x' $$y$$ 12 é\\flush"),
            [
                (Kind::Word, "select"),
                (Kind::Space, " "),
                (Kind::Quoted, "'x'"),
                (Kind::Space, " "),
                (Kind::Quoted, "$$y$$"),
                (Kind::Space, " "),
                (Kind::Number, "12"),
                (Kind::Space, " "),
                (Kind::Word, "é"),
                (Kind::Meta, "\\flush"),
            ]
        );
    }

    #[test]
    fn unterminated_pieces_end_at_the_end_of_the_text() {
        assert_eq!(kinds("'abc"), [(Kind::Quoted, "'abc")]);
        assert_eq!(kinds("/* abc"), [(Kind::Comment, "/* abc")]);
        assert_eq!(kinds("$$ab"), [(Kind::Quoted, "$$ab")]);
    }

    #[test]
    fn bytes_that_are_not_utf8_still_tokenize() {
        let text = b"select \xff\xfe;";
        let tokens = tokenize(text);
        assert_eq!(tokens.last().unwrap().end, text.len());
        assert_eq!(tokens[2].kind, Kind::Word);
    }
}
