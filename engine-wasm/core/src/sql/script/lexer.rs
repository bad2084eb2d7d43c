//! The few lexical rules a script splitter needs: where quoted text and comments
//! end, so that a `;` or `\` inside them is not taken for a statement boundary.
//!
//! These follow PostgreSQL's scanner (`scan.l`), which psql's own splitter
//! (`psqlscan.l`) mirrors. Every syntax character is ASCII, so the functions work
//! on bytes: a UTF-8 continuation byte is never mistaken for a quote. All of them
//! take the offset of the opening delimiter and return the offset just past the
//! closing one.

/// A construct that was opened and never closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    pub message: String,
    /// Byte offset of the opening delimiter, which is where a reader should look.
    pub offset: usize,
}

impl LexError {
    fn new(message: &str, offset: usize) -> LexError {
        LexError {
            message: message.to_string(),
            offset,
        }
    }
}

/// Bytes that can continue an identifier. PostgreSQL allows `$` inside one
/// (`a$1`), and any non-ASCII byte, so those rule out a dollar quote or an `E`
/// string prefix right after them.
pub fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The end of a `--` comment: the offset of its newline (left for the caller, as
/// it ends a line), or the end of the text.
pub fn line_comment_end(s: &[u8], start: usize) -> usize {
    s[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(s.len(), |n| start + n)
}

/// The end of a `/* … */` comment. They nest in PostgreSQL (unlike the SQL
/// standard), so `/* a /* b */ c */` is one comment.
pub fn block_comment_end(s: &[u8], start: usize) -> Result<usize, LexError> {
    let mut depth = 0usize;
    let mut i = start;
    while i + 1 < s.len() {
        match (s[i], s[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => i += 1,
        }
    }
    Err(LexError::new("unterminated /* comment", start))
}

/// Whether the `'` at `quote` opens an escape string (`E'…'`): the quote follows
/// a lone `E` or `e` that is not the end of a longer identifier.
pub fn is_escape_string(s: &[u8], quote: usize) -> bool {
    quote >= 1 && matches!(s[quote - 1], b'e' | b'E') && (quote < 2 || !is_ident_byte(s[quote - 2]))
}

/// The end of a single-quoted string. `''` is a quote inside it; in an escape
/// string (`E'…'`) a backslash also escapes the next byte, so `E'it\'s'` is one
/// string. With `standard_conforming_strings` on (the default since PostgreSQL
/// 9.1) a backslash is an ordinary character in a plain string.
pub fn single_quoted_end(s: &[u8], start: usize, escapes: bool) -> Result<usize, LexError> {
    let mut i = start + 1;
    while i < s.len() {
        match s[i] {
            b'\\' if escapes => i += 2,
            b'\'' if s.get(i + 1) == Some(&b'\'') => i += 2,
            b'\'' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(LexError::new("unterminated quoted string", start))
}

/// The end of a double-quoted identifier; `""` is a quote inside it.
pub fn double_quoted_end(s: &[u8], start: usize) -> Result<usize, LexError> {
    let mut i = start + 1;
    while i < s.len() {
        match s[i] {
            b'"' if s.get(i + 1) == Some(&b'"') => i += 2,
            b'"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(LexError::new("unterminated quoted identifier", start))
}

/// The length of the dollar-quote opener (`$$` or `$tag$`) at `start`, if there is
/// one. A tag starts with a letter or `_` (so `$1` is a parameter), and a `$` that
/// continues an identifier (`a$b$`) opens nothing.
pub fn dollar_tag_len(s: &[u8], start: usize) -> Option<usize> {
    if start >= 1 && is_ident_byte(s[start - 1]) {
        return None;
    }
    let tag_start = |b: u8| b.is_ascii_alphabetic() || b == b'_' || b >= 0x80;
    let mut i = start + 1;
    if i < s.len() && tag_start(s[i]) {
        i += 1;
        while i < s.len() && (tag_start(s[i]) || s[i].is_ascii_digit()) {
            i += 1;
        }
    }
    (s.get(i) == Some(&b'$')).then_some(i + 1 - start)
}

/// The end of a dollar-quoted string whose opener (`tag_len` bytes) is at `start`:
/// everything up to the same tag again is literal text, quotes and `;` included.
pub fn dollar_quoted_end(s: &[u8], start: usize, tag_len: usize) -> Result<usize, LexError> {
    let tag = &s[start..start + tag_len];
    let body = start + tag_len;
    s[body..]
        .windows(tag_len)
        .position(|w| w == tag)
        .map(|n| body + n + tag_len)
        .ok_or_else(|| LexError::new("unterminated dollar-quoted string", start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_comments_nest() {
        let s = b"/* a /* b */ c */ d";
        assert_eq!(block_comment_end(s, 0), Ok(17));
        let err = block_comment_end(b"x /* a /* b */", 2).unwrap_err();
        assert_eq!(err.offset, 2);
        assert_eq!(err.message, "unterminated /* comment");
    }

    #[test]
    fn the_opening_star_cannot_close_a_comment() {
        assert!(block_comment_end(b"/*/", 0).is_err());
        assert_eq!(block_comment_end(b"/**/", 0), Ok(4));
    }

    #[test]
    fn single_quotes_double_up_and_escape_strings_take_backslashes() {
        assert_eq!(single_quoted_end(b"'it''s';", 0, false), Ok(7));
        assert_eq!(single_quoted_end(b"'a\\';", 0, false), Ok(4));
        assert_eq!(single_quoted_end(b"E'a\\'b';", 1, true), Ok(7));
        assert!(single_quoted_end(b"'abc", 0, false).is_err());
        // A trailing backslash in an escape string must not run past the end.
        assert!(single_quoted_end(b"'\\", 0, true).is_err());
    }

    #[test]
    fn e_prefix_only_counts_as_a_whole_word() {
        assert!(is_escape_string(b"E'x'", 1));
        assert!(is_escape_string(b" e'x'", 2));
        assert!(!is_escape_string(b"the'x'", 3));
        assert!(!is_escape_string(b"'x'", 0));
    }

    #[test]
    fn double_quoted_identifiers() {
        assert_eq!(double_quoted_end(b"\"a\"\"b\" x", 0), Ok(6));
        assert!(double_quoted_end(b"\"ab", 0).is_err());
    }

    #[test]
    fn dollar_tags() {
        assert_eq!(dollar_tag_len(b"$$x$$", 0), Some(2));
        assert_eq!(dollar_tag_len(b"$fn$x$fn$", 0), Some(4));
        assert_eq!(dollar_tag_len(b"$1", 0), None);
        assert_eq!(dollar_tag_len(b"a$b$", 1), None);
        assert_eq!(dollar_tag_len(b"$a b$", 0), None);
        assert_eq!(dollar_quoted_end(b"$fn$ ; $$ $fn$;", 0, 4), Ok(14));
        assert!(dollar_quoted_end(b"$$ abc", 0, 2).is_err());
    }

    #[test]
    fn line_comments_stop_at_the_newline() {
        assert_eq!(line_comment_end(b"-- x\ny", 0), 4);
        assert_eq!(line_comment_end(b"-- x", 0), 4);
    }
}
