//! YugabyteDB syntax that `sqlparser` does not know (`NONCONCURRENTLY`,
//! `SPLIT INTO n TABLETS`), recognised first and blanked out with spaces, so
//! every position sqlparser reports still points at the right character.

/// YugabyteDB-only clauses found (and removed) before parsing.
#[derive(Debug, Default)]
pub(super) struct YbSyntax {
    pub split_into: Option<u32>,
    /// `SPLIT AT VALUES ((…), …)`: the text of the list of rows, from its
    /// opening parenthesis to its closing one.
    pub split_at: Option<String>,
}

/// Blanks `NONCONCURRENTLY` after `INDEX` and a trailing `SPLIT INTO n TABLETS`.
pub(super) fn strip_yb_syntax(sql: &str) -> (String, YbSyntax) {
    let mut text = sql.to_string();
    let mut yb = YbSyntax::default();
    let lower = sql.to_ascii_lowercase();
    if let Some(i) = find_word(&lower, "nonconcurrently") {
        blank(&mut text, i, "nonconcurrently".len());
    }
    if let Some(i) = find_word(&lower, "split") {
        if let Some((list, end)) = split_at_values(&lower, i) {
            yb.split_at = Some(sql[list..end].to_string());
            blank(&mut text, i, end - i);
            return (text, yb);
        }
        let rest: Vec<&str> = lower[i..].split_whitespace().collect();
        if rest.len() >= 4 && rest[1] == "into" && rest[3].trim_end_matches(';') == "tablets" {
            let digits = rest[2];
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                // Too large for u32 saturates, so the engine refuses it by its range.
                yb.split_into = Some(digits.parse::<u32>().unwrap_or(u32::MAX));
                let end = lower[i..]
                    .find("tablets")
                    .map_or(lower.len(), |j| i + j + 7);
                blank(&mut text, i, end - i);
            }
        }
    }
    (text, yb)
}

/// `SPLIT AT VALUES (…)` starting at byte `i`: the byte range of its
/// parenthesised list (outer parentheses included), found by counting
/// parentheses outside quotes.
fn split_at_values(lower: &str, i: usize) -> Option<(usize, usize)> {
    let mut at = i + "split".len();
    for word in ["at", "values"] {
        let rest = &lower[at..];
        let skipped = rest.len() - rest.trim_start().len();
        if !rest[skipped..].starts_with(word) {
            return None;
        }
        at += skipped + word.len();
    }
    let rest = &lower[at..];
    let start = at + (rest.len() - rest.trim_start().len());
    if !lower[start..].starts_with('(') {
        return None;
    }
    let (mut depth, mut quoted) = (0usize, false);
    for (k, b) in lower.bytes().enumerate().skip(start) {
        match b {
            b'\'' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    return Some((start, k + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// Finds `word` (ASCII) as a whole word outside quotes (good enough for
/// keywords we strip). It compares bytes: an ASCII byte never occurs inside a
/// multi-byte character, so a match always starts on a character boundary.
fn find_word(lower: &str, word: &str) -> Option<usize> {
    let bytes = lower.as_bytes();
    let mut in_quote = false;
    for i in 0..bytes.len() {
        if bytes[i] == b'\'' {
            in_quote = !in_quote;
        } else if !in_quote && bytes[i..].starts_with(word.as_bytes()) {
            let before = i == 0 || !is_word_byte(bytes[i - 1]);
            let after = bytes.get(i + word.len()).is_none_or(|b| !is_word_byte(*b));
            if before && after {
                return Some(i);
            }
        }
    }
    None
}

/// Bytes of an identifier: PostgreSQL counts any non-ASCII character as a
/// letter, so `ésplit` is one name, not `é` then `split`.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

fn blank(text: &mut String, start: usize, len: usize) {
    text.replace_range(start..start + len, &" ".repeat(len));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_at_values_is_read_and_blanked() {
        let sql = "create table t (a int, primary key (a asc)) split at values ((10), (20))";
        let (text, yb) = strip_yb_syntax(sql);
        assert_eq!(yb.split_at.as_deref(), Some("((10), (20))"));
        assert_eq!(
            text.trim_end(),
            "create table t (a int, primary key (a asc))"
        );
        let (_, yb) = strip_yb_syntax("create index i on t (v asc) split at values (('a)'))");
        assert_eq!(yb.split_at.as_deref(), Some("(('a)'))"));
    }

    #[test]
    fn split_into_is_read_and_blanked() {
        let (text, yb) = strip_yb_syntax("create table t (a int) split into 3 tablets");
        assert_eq!(yb.split_into, Some(3));
        assert_eq!(text.trim_end(), "create table t (a int)");
        assert_eq!(text.len(), 43);
    }

    #[test]
    fn non_ascii_text_around_the_words_does_not_panic() {
        // Each puts a multi-byte character right by a word the stripper looks
        // for, where a byte offset can fall inside the character.
        for sql in [
            "create index i on\u{200f} t (a)",
            "👩\u{200d}💻explain select 1",
            "showשלום x",
            "select 'é' nonconcurrently",
        ] {
            strip_yb_syntax(sql);
        }
        let (text, _) = strip_yb_syntax("create index é nonconcurrently on t (a)");
        assert_eq!(text, "create index é                 on t (a)");
    }

    #[test]
    fn a_non_ascii_letter_is_part_of_the_word() {
        let (text, yb) = strip_yb_syntax("select ésplit into 3 tablets");
        assert_eq!(yb.split_into, None);
        assert_eq!(text, "select ésplit into 3 tablets");
    }
}
