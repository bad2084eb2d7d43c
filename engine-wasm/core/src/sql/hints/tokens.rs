//! The syntax of a hint comment's body, before any meaning is given to it:
//! a list of `Name(args)`, where args are words, quoted words and nested
//! parenthesized groups (`Leading((a b))`).

use std::ops::Range;

use super::HintError;

/// A word or a parenthesized group, with where it is in the statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// The word with its quotes removed (empty for a group).
    pub text: String,
    /// Byte offset of its first character in the statement.
    pub offset: usize,
    /// Byte range in the statement, parentheses or quotes included.
    pub span: Range<usize>,
    /// `"` or `'` when the word was quoted.
    pub quote: Option<char>,
    /// The contents when this is a group.
    pub items: Option<Vec<Arg>>,
}

impl Arg {
    pub fn is_word(&self) -> bool {
        self.items.is_none()
    }

    /// The word as a SQL name: folded to lower case unless double-quoted.
    pub fn identifier(&self) -> String {
        if self.quote == Some('"') {
            self.text.clone()
        } else {
            self.text.to_ascii_lowercase()
        }
    }
}

/// The contents of a group (nothing for a word).
pub fn group(arg: &Arg) -> &[Arg] {
    arg.items.as_deref().unwrap_or(&[])
}

/// Parses a hint body that starts at byte `base` of the statement into
/// `(name, group)` pairs.
pub fn parse(body: &str, base: usize) -> Result<Vec<(Arg, Arg)>, HintError> {
    let mut cursor = Cursor { body, base, pos: 0 };
    let mut hints = Vec::new();
    while cursor.skip_whitespace() {
        let name = cursor.word()?;
        if !name.is_word() || name.quote.is_some() {
            return Err(cursor.syntax_error(name.span.start - base));
        }
        cursor.skip_whitespace();
        if cursor.peek() != Some('(') {
            return Err(HintError {
                message: format!("hint \"{}\" needs its arguments in parentheses", name.text),
                offset: name.offset,
            });
        }
        let args = cursor.group()?;
        hints.push((name, args));
    }
    Ok(hints)
}

struct Cursor<'a> {
    body: &'a str,
    base: usize,
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.body[self.pos..].chars().next()
    }

    /// Skips whitespace; false at the end of the body.
    fn skip_whitespace(&mut self) -> bool {
        let rest = &self.body[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
        self.pos < self.body.len()
    }

    /// A word, a quoted word, or a group, whichever starts here.
    fn word(&mut self) -> Result<Arg, HintError> {
        match self.peek() {
            Some('(') => self.group(),
            Some(')') => Err(self.syntax_error(self.pos)),
            Some(q @ ('"' | '\'')) => self.quoted(q),
            _ => Ok(self.bare()),
        }
    }

    fn bare(&mut self) -> Arg {
        let start = self.pos;
        let rest = &self.body[start..];
        let len = rest
            .find(|c: char| c.is_whitespace() || "()\"'".contains(c))
            .unwrap_or(rest.len());
        self.pos += len;
        self.arg(rest[..len].to_string(), start, None, None)
    }

    /// A quoted word; a doubled quote stands for one quote.
    fn quoted(&mut self, quote: char) -> Result<Arg, HintError> {
        let start = self.pos;
        let mut text = String::new();
        let mut chars = self.body[start + 1..].char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c != quote {
                text.push(c);
            } else if chars.peek().map(|&(_, n)| n) == Some(quote) {
                text.push(quote);
                chars.next();
            } else {
                self.pos = start + 1 + i + 1;
                return Ok(self.arg(text, start, Some(quote), None));
            }
        }
        Err(HintError {
            message: "unterminated quoted string in hint".into(),
            offset: self.base + start,
        })
    }

    /// A parenthesized group; the cursor is on its `(`.
    fn group(&mut self) -> Result<Arg, HintError> {
        let start = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            if !self.skip_whitespace() {
                return Err(HintError {
                    message: "unterminated hint: missing \")\"".into(),
                    offset: self.base + start,
                });
            }
            if self.peek() == Some(')') {
                self.pos += 1;
                return Ok(self.arg(String::new(), start, None, Some(items)));
            }
            items.push(self.word()?);
        }
    }

    fn arg(&self, text: String, start: usize, quote: Option<char>, items: Option<Vec<Arg>>) -> Arg {
        Arg {
            text,
            offset: self.base + start,
            span: self.base + start..self.base + self.pos,
            quote,
            items,
        }
    }

    fn syntax_error(&self, at: usize) -> HintError {
        let near: String = self.body[at..].chars().take(20).collect();
        HintError {
            message: format!("hint syntax error at or near \"{}\"", near.trim_end()),
            offset: self.base + at,
        }
    }
}
