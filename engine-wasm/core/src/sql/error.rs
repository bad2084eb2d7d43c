//! Errors and source positions shared by every part of the SQL layer.
//!
//! Each stage has its own typed error ([`ScriptError`](super::script::ScriptError),
//! [`HintError`](super::hints::HintError),
//! [`SettingError`](crate::settings::SettingError), and the parser's, planner's and
//! executor's; the profiles add the storage structures' refusals and
//! [`StatementError`](crate::profile::StatementError)). They all convert into
//! [`SqlError`], the one type a scenario reports, so the CLI and the web page print
//! every failure the same way: `line 3, column 5: unterminated quoted string`.

use std::fmt;

/// A place in a script: 1-based line and 1-based column.
///
/// Columns count characters (Unicode scalar values), not bytes, like sqlparser's
/// locations and most editors; a tab counts as one column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl Position {
    /// The first character of a text.
    pub const START: Position = Position { line: 1, column: 1 };

    pub fn new(line: u32, column: u32) -> Position {
        Position { line, column }
    }

    /// The position of byte `offset` of `text`, when `text` itself starts at `self`.
    ///
    /// An offset past the end or inside a multi-byte character is clamped down to
    /// the previous character boundary, so this never panics.
    pub fn advance(self, text: &str, offset: usize) -> Position {
        let mut end = offset.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut pos = self;
        for c in text[..end].chars() {
            if c == '\n' {
                pos.line = pos.line.saturating_add(1);
                pos.column = 1;
            } else {
                pos.column = pos.column.saturating_add(1);
            }
        }
        pos
    }

    /// The byte offset in `text` of a position *relative to* `text` (line 1,
    /// column 1 = its first character); `None` if it is not inside `text`.
    ///
    /// This turns a parser's location within one statement back into an offset.
    pub fn offset_in(self, text: &str) -> Option<usize> {
        let mut pos = Position::START;
        for (i, c) in text.char_indices() {
            if pos == self {
                return Some(i);
            }
            pos = pos.advance(&text[i..], c.len_utf8());
        }
        (pos == self).then_some(text.len())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Finds line and column of byte offsets in one text without rescanning it from
/// the start each time: a script can hold thousands of statements, possibly all on
/// one generated line, so it keeps a checkpoint every few kilobytes and counts
/// from the nearest one.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// (byte offset, its position), every [`LineIndex::STRIDE`] bytes or so.
    checkpoints: Vec<(usize, Position)>,
}

impl LineIndex {
    const STRIDE: usize = 4096;

    pub fn new(text: &str) -> LineIndex {
        let mut checkpoints = vec![(0, Position::START)];
        let (mut last, mut pos) = (0, Position::START);
        for (i, _) in text.char_indices() {
            if i - last >= Self::STRIDE {
                pos = pos.advance(&text[last..], i - last);
                checkpoints.push((i, pos));
                last = i;
            }
        }
        LineIndex { checkpoints }
    }

    /// The position of byte `offset` of `text` (the text this index was built on).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let k = self.checkpoints.partition_point(|c| c.0 <= offset).max(1) - 1;
        let (start, pos) = self.checkpoints[k];
        match text.get(start..) {
            Some(rest) => pos.advance(rest, offset - start),
            None => Position::START.advance(text, offset),
        }
    }
}

/// Which stage rejected the input; lets the UI group and style messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The script could not be split (quotes, comments, meta-commands).
    Script,
    /// A `/*+ … */` hint comment is malformed.
    Hint,
    /// A setting name or value was rejected.
    Setting,
    /// The SQL text does not parse.
    Syntax,
    /// Valid SQL that IndexLab does not simulate.
    Unsupported,
    /// Parses, but refers to something wrong (unknown table, column, type).
    Semantic,
    /// Failed while running (unique violation, division by zero …).
    Execution,
    /// A simulation limit was hit (`max_rows` …).
    Limit,
}

/// The error a scenario reports: what went wrong, where, and how to fix it.
///
/// The details sit behind one box: every statement, row and page access returns a
/// `Result<_, SqlError>`, and a pointer-sized error keeps those results in
/// registers instead of copying a 64-byte struct through the stack on each call.
/// Fields read and write through `Deref` (`e.kind`, `e.at = …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlError(Box<SqlErrorDetail>);

/// What a [`SqlError`] carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlErrorDetail {
    pub kind: ErrorKind,
    pub message: String,
    /// Where in the script, when known.
    pub at: Option<Position>,
    /// A suggestion, printed on its own line like PostgreSQL's `HINT:`.
    pub hint: Option<String>,
    /// More about the error, printed on its own line like PostgreSQL's
    /// `DETAIL:` (before the hint).
    pub detail: Option<String>,
    /// The word of the statement the error is about (a column, a table, a
    /// function): the scenario places the error there, as PostgreSQL's
    /// position does, when the error has no position of its own.
    pub near: Option<String>,
}

impl std::ops::Deref for SqlError {
    type Target = SqlErrorDetail;
    fn deref(&self) -> &SqlErrorDetail {
        &self.0
    }
}

impl std::ops::DerefMut for SqlError {
    fn deref_mut(&mut self) -> &mut SqlErrorDetail {
        &mut self.0
    }
}

impl SqlError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> SqlError {
        SqlError(Box::new(SqlErrorDetail {
            kind,
            message: message.into(),
            at: None,
            hint: None,
            detail: None,
            near: None,
        }))
    }

    /// The same error, located at `at`.
    pub fn at(mut self, at: Position) -> SqlError {
        self.0.at = Some(at);
        self
    }

    /// Its details, owned.
    pub fn into_detail(self) -> SqlErrorDetail {
        *self.0
    }

    /// The same error, about the word `token` of its statement.
    pub fn near(mut self, token: impl Into<String>) -> SqlError {
        self.0.near = Some(token.into());
        self
    }

    /// The same error, with PostgreSQL's DETAIL line.
    pub fn with_detail(mut self, detail: impl Into<String>) -> SqlError {
        self.0.detail = Some(detail.into());
        self
    }

    /// The same error, with a suggestion.
    pub fn with_hint(mut self, hint: impl Into<String>) -> SqlError {
        self.0.hint = Some(hint.into());
        self
    }
}

/// A system catalog or view (`pg_class`, `pg_stats`, `information_schema.…`)
/// that IndexLab does not provide yet, refused by name rather than reported
/// as a missing relation.
pub(crate) fn system_catalog(name: &str) -> Option<SqlError> {
    (name.starts_with("pg_")
        || name == "information_schema"
        || name.starts_with("information_schema."))
    .then(|| unsupported(format!("the system catalog {name}")).near(name))
}

/// A construct IndexLab does not model, named in its message.
pub(crate) fn unsupported(what: impl Into<String>) -> SqlError {
    SqlError::new(
        ErrorKind::Unsupported,
        format!("{} is not supported by IndexLab", what.into()),
    )
}

impl fmt::Display for SqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = self.at {
            write!(f, "{at}: ")?;
        }
        f.write_str(&self.message)?;
        if let Some(detail) = &self.detail {
            write!(f, "\nDETAIL:  {detail}")?;
        }
        if let Some(hint) = &self.hint {
            write!(f, "\nHINT: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SqlError {}

/// The byte offset of the first whole-word, case-insensitive occurrence of
/// `token` in `sql` outside quoted strings and comments.
pub fn find_token(sql: &str, token: &str) -> Option<usize> {
    let (bytes, want) = (sql.as_bytes(), token.as_bytes());
    if want.is_empty() {
        return None;
    }
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'\'' {
                    i += 1;
                }
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ if bytes.len() - i >= want.len()
                && bytes[i..i + want.len()].eq_ignore_ascii_case(want)
                && (i == 0 || !word(bytes[i - 1]) || !word(want[0]))
                && bytes
                    .get(i + want.len())
                    .is_none_or(|b| !word(*b) || !word(want[want.len() - 1])) =>
            {
                return Some(i);
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advance_counts_lines_and_characters() {
        let text = "ab\ncé\n\tx";
        assert_eq!(Position::START.advance(text, 0), Position::new(1, 1));
        assert_eq!(Position::START.advance(text, 2), Position::new(1, 3));
        assert_eq!(Position::START.advance(text, 3), Position::new(2, 1));
        // 'é' is two bytes but one column.
        assert_eq!(Position::START.advance(text, 6), Position::new(2, 3));
        assert_eq!(Position::START.advance(text, 8), Position::new(3, 2));
    }

    #[test]
    fn advance_never_panics_inside_a_character_or_past_the_end() {
        let text = "é";
        assert_eq!(Position::START.advance(text, 1), Position::START);
        assert_eq!(Position::START.advance(text, 99), Position::new(1, 2));
    }

    #[test]
    fn line_index_agrees_with_advance() {
        let text = "select 1;\n\n  select 'ü';\nx";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() {
            if text.is_char_boundary(offset) {
                let expected = Position::START.advance(text, offset);
                assert_eq!(index.position(text, offset), expected, "offset {offset}");
            }
        }
    }

    #[test]
    fn line_index_agrees_with_advance_across_checkpoints() {
        let text = "é;\n".repeat(3000) + "x";
        let index = LineIndex::new(&text);
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            let expected = Position::START.advance(&text, offset);
            assert_eq!(index.position(&text, offset), expected, "offset {offset}");
        }
    }

    #[test]
    fn offset_in_inverts_advance() {
        let text = "a\nbé\nc";
        for (i, _) in text.char_indices() {
            let pos = Position::START.advance(text, i);
            assert_eq!(pos.offset_in(text), Some(i));
        }
        assert_eq!(Position::new(9, 1).offset_in(text), None);
    }

    #[test]
    fn display_puts_the_position_first_and_the_hint_last() {
        let err = SqlError::new(ErrorKind::Script, "unterminated quoted string")
            .at(Position::new(3, 5))
            .with_hint("close it with '");
        assert_eq!(
            err.to_string(),
            "line 3, column 5: unterminated quoted string\nHINT: close it with '"
        );
    }
}
