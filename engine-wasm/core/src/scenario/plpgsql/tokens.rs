//! The tokens of a DO block: `sqlparser`'s tokenizer (PostgreSQL dialect),
//! with each token's byte range in the text so that a piece of the block (an
//! expression, a SQL statement) can be cut out and handed to IndexLab's SQL
//! parser as written.
//!
//! One difference from SQL is PL/pgSQL's own: `1..10` is an integer, `..` and
//! an integer (PostgreSQL's scanner gives back the dots of `1.` when two
//! follow), where a SQL tokenizer reads the numbers `1.` and `.10`.

use crate::sql::error::{ErrorKind, Position, SqlError};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::tokenizer::{Location, Token, Tokenizer};

/// A token and where it is in the text it was read from (bytes, end excluded).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Kind {
    Sql(Token),
    /// `..` of an integer FOR loop.
    DotDot,
}

impl Tok {
    /// The token as an unquoted word, lower-cased (keywords and identifiers
    /// fold to lower case in PostgreSQL); `None` for anything else.
    pub fn word(&self) -> Option<String> {
        match &self.kind {
            Kind::Sql(Token::Word(w)) if w.quote_style.is_none() => {
                Some(w.value.to_ascii_lowercase())
            }
            _ => None,
        }
    }

    /// Whether this is the unquoted word `w` (given in lower case).
    pub fn is_word(&self, w: &str) -> bool {
        matches!(&self.kind, Kind::Sql(Token::Word(x))
            if x.quote_style.is_none() && x.value.eq_ignore_ascii_case(w))
    }

    pub fn is(&self, t: &Token) -> bool {
        matches!(&self.kind, Kind::Sql(x) if x == t)
    }

    /// An identifier as PostgreSQL names it: unquoted folds to lower case.
    pub fn identifier(&self) -> Option<String> {
        match &self.kind {
            Kind::Sql(Token::Word(w)) => Some(match w.quote_style {
                Some(_) => w.value.clone(),
                None => w.value.to_ascii_lowercase(),
            }),
            _ => None,
        }
    }
}

/// The tokens of `text`, without whitespace and comments.
pub(super) fn tokenize(text: &str) -> Result<Vec<Tok>, SqlError> {
    let raw = Tokenizer::new(&PostgreSqlDialect {}, text)
        .tokenize_with_location()
        .map_err(|e| {
            let at = e.location;
            SqlError::new(ErrorKind::Syntax, e.message)
                .at(Position::new(at.line as u32, at.column as u32))
        })?;
    let mut offsets = Offsets::new(text);
    let mut out = Vec::with_capacity(raw.len());
    for t in raw {
        let start = offsets.of(t.span.start);
        let end = offsets.of(t.span.end);
        if !matches!(t.token, Token::Whitespace(_) | Token::EOF) {
            out.push(Tok {
                kind: Kind::Sql(t.token),
                start,
                end,
            });
        }
    }
    Ok(split_dot_dots(out))
}

/// Byte offsets of the tokenizer's locations (1-based lines, columns in
/// characters), found walking the text once: locations only move forward.
struct Offsets<'a> {
    text: &'a str,
    byte: usize,
    line: u64,
    column: u64,
}

impl<'a> Offsets<'a> {
    fn new(text: &'a str) -> Self {
        Offsets {
            text,
            byte: 0,
            line: 1,
            column: 1,
        }
    }

    fn of(&mut self, at: Location) -> usize {
        if (at.line, at.column) < (self.line, self.column) {
            // Never expected: start again rather than give a wrong place.
            *self = Offsets::new(self.text);
        }
        for c in self.text[self.byte..].chars() {
            if (self.line, self.column) >= (at.line, at.column) {
                break;
            }
            self.byte += c.len_utf8();
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.byte
    }
}

/// `1..10`, `1 .. n`, `i..5`: the tokenizer's `1.` / `.` / `.10` pieces
/// around two adjacent dots become an integer, [`Kind::DotDot`] and an integer.
fn split_dot_dots(tokens: Vec<Tok>) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    for t in tokens {
        // The dot this token starts with, when it continues a dot just before.
        let leading_dot = match &t.kind {
            Kind::Sql(Token::Period) => true,
            Kind::Sql(Token::Number(n, _)) => n.starts_with('.'),
            _ => false,
        };
        let touches = out.last().is_some_and(|p| p.end == t.start);
        if leading_dot && touches && ends_with_dot(out.last()) {
            let prev = out.pop().expect("checked");
            if let Kind::Sql(Token::Number(n, long)) = &prev.kind {
                out.push(Tok {
                    kind: Kind::Sql(Token::Number(n[..n.len() - 1].to_string(), *long)),
                    start: prev.start,
                    end: prev.end - 1,
                });
            }
            out.push(Tok {
                kind: Kind::DotDot,
                start: t.start - 1,
                end: t.start + 1,
            });
            if let Kind::Sql(Token::Number(n, long)) = &t.kind {
                out.push(Tok {
                    kind: Kind::Sql(Token::Number(n[1..].to_string(), *long)),
                    start: t.start + 1,
                    end: t.end,
                });
            }
            continue;
        }
        out.push(t);
    }
    out
}

/// Whether a token ends with a dot that may be the first of `..`: a lone
/// `.` or a number such as `1.` (not `1.5`, whose dot is its own).
fn ends_with_dot(t: Option<&Tok>) -> bool {
    match t.map(|t| &t.kind) {
        Some(Kind::Sql(Token::Period)) => true,
        Some(Kind::Sql(Token::Number(n, _))) => {
            n.ends_with('.') && n[..n.len() - 1].bytes().all(|b| b.is_ascii_digit())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<String> {
        tokenize(text)
            .unwrap()
            .iter()
            .map(|t| match &t.kind {
                Kind::DotDot => "..".to_string(),
                Kind::Sql(tok) => tok.to_string(),
            })
            .collect()
    }

    #[test]
    fn dot_dots_split_their_numbers() {
        assert_eq!(kinds("1..50000 loop"), ["1", "..", "50000", "loop"]);
        assert_eq!(kinds("1 .. n"), ["1", "..", "n"]);
        assert_eq!(kinds("i..5"), ["i", "..", "5"]);
        assert_eq!(kinds("a..b"), ["a", "..", "b"]);
        // A number with its own decimals keeps them.
        assert_eq!(kinds("x := 1.5"), ["x", ":=", "1.5"]);
    }

    #[test]
    fn offsets_are_bytes_of_the_text() {
        let text = "é := 'x''y';\n  -- c\n 10..2";
        let toks = tokenize(text).unwrap();
        let pieces: Vec<&str> = toks.iter().map(|t| &text[t.start..t.end]).collect();
        assert_eq!(pieces, ["é", ":=", "'x''y'", ";", "10", "..", "2"]);
    }
}
