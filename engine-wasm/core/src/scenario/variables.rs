//! psql's variables: `\set name value`, `\unset name`, `\gset [prefix]` (a
//! query's one row into variables named after its columns), and their
//! interpolation into what follows: `:name` as its value, `:'name'` as a
//! quoted literal, `:"name"` as a quoted identifier. psql substitutes them as
//! it reads each statement, so a value `\gset` stored is seen by the
//! statements after it. A `:name` that names no variable stays as written
//! (the parser then refuses it by name), and nothing inside quotes, comments
//! or a `::` cast is touched.

use crate::profile::Outcome;
use std::collections::BTreeMap;

/// The script's variables, by name.
#[derive(Debug, Default)]
pub struct Variables(BTreeMap<String, String>);

impl Variables {
    pub fn set(&mut self, name: &str, value: &str) {
        self.0.insert(name.to_string(), value.to_string());
    }

    pub fn unset(&mut self, name: &str) {
        self.0.remove(name);
    }

    /// `\gset [prefix]`: the query must return exactly one row; each column
    /// sets `prefix` + its name (a NULL unsets it), as psql's StoreQueryTuple.
    pub fn gset(&mut self, prefix: &str, outcome: &Outcome) -> Result<(), String> {
        match outcome.rows.as_slice() {
            [] => Err("no rows returned for \\gset".into()),
            [row] => {
                for (column, cell) in outcome.columns.iter().zip(row) {
                    let name = format!("{prefix}{column}");
                    match cell {
                        Some(v) => self.set(&name, v),
                        None => self.unset(&name),
                    }
                }
                Ok(())
            }
            _ => Err("more than one row returned for \\gset".into()),
        }
    }

    /// `text` with each variable reference outside quotes and comments
    /// replaced by its value.
    pub fn interpolate(&self, text: &str) -> String {
        if self.0.is_empty() || !text.contains(':') {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            let skip = match c {
                '\'' => quoted(rest, '\''),
                '"' => quoted(rest, '"'),
                '-' if rest.starts_with("--") => rest.find('\n').unwrap_or(rest.len()),
                '/' if rest.starts_with("/*") => rest.find("*/").map_or(rest.len(), |e| e + 2),
                '$' => dollar_quoted(rest).unwrap_or(1),
                ':' if rest.starts_with("::") => 2,
                ':' => match self.reference(rest) {
                    Some((len, value)) => {
                        out.push_str(&value);
                        rest = &rest[len..];
                        continue;
                    }
                    None => 1,
                },
                other => other.len_utf8(),
            };
            out.push_str(&rest[..skip]);
            rest = &rest[skip..];
        }
        out
    }

    /// The reference at the start of `s` (which starts with `:`), if it names
    /// a variable: its length and what replaces it.
    fn reference(&self, s: &str) -> Option<(usize, String)> {
        let after = &s[1..];
        let (quote, body) = match after.chars().next()? {
            q @ ('\'' | '"') => (Some(q), &after[1..]),
            _ => (None, after),
        };
        let len = body
            .char_indices()
            .find(|&(i, ch)| !(ch == '_' || ch.is_alphabetic() || (i > 0 && ch.is_ascii_digit())))
            .map_or(body.len(), |(i, _)| i);
        let name = &body[..len];
        let value = self.0.get(name)?;
        match quote {
            None if len > 0 => Some((1 + len, value.clone())),
            Some(q) if body[len..].starts_with(q) => {
                let shown = if q == '\'' {
                    literal(value)
                } else {
                    format!("\"{}\"", value.replace('"', "\"\""))
                };
                Some((3 + len, shown))
            }
            _ => None,
        }
    }
}

/// A value as a string literal, as libpq's PQescapeLiteral writes it.
fn literal(v: &str) -> String {
    let doubled = v.replace('\'', "''");
    if v.contains('\\') {
        format!(" E'{}'", doubled.replace('\\', "\\\\"))
    } else {
        format!("'{doubled}'")
    }
}

/// The length of the quoted text at the start of `s` (a doubled quote
/// inside it is part of it).
fn quoted(s: &str, q: char) -> usize {
    let mut chars = s.char_indices().skip(1).peekable();
    while let Some((i, c)) = chars.next() {
        if c == q {
            if chars.peek().is_some_and(|&(_, n)| n == q) {
                chars.next();
                continue;
            }
            return i + 1;
        }
    }
    s.len()
}

/// The length of the dollar-quoted string at the start of `s`, if one.
fn dollar_quoted(s: &str) -> Option<usize> {
    let tag_len = s[1..].find('$')? + 2;
    let tag = &s[..tag_len];
    if !tag[1..tag_len - 1]
        .chars()
        .all(|c| c == '_' || c.is_alphanumeric())
    {
        return None;
    }
    let end = s[tag_len..].find(tag)?;
    Some(tag_len + end + tag_len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Variables {
        let mut v = Variables::default();
        v.set("n", "10");
        v.set("t", "it's");
        v
    }

    #[test]
    fn interpolates_outside_quotes_comments_and_casts() {
        let v = vars();
        assert_eq!(
            v.interpolate("select :n, :'t', :\"n\""),
            "select 10, 'it''s', \"10\""
        );
        assert_eq!(v.interpolate("select ':n' -- :n"), "select ':n' -- :n");
        assert_eq!(
            v.interpolate("select 1::int, $$:n$$, :m"),
            "select 1::int, $$:n$$, :m"
        );
        assert_eq!(v.interpolate("select :n+1"), "select 10+1");
    }

    #[test]
    fn gset_needs_one_row() {
        let mut v = Variables::default();
        let mut o = Outcome::tag("SELECT 1");
        o.columns = vec!["a".into(), "b".into()];
        o.rows = vec![vec![Some("1".into()), None]];
        v.gset("p_", &o).unwrap();
        assert_eq!(v.interpolate(":p_a :p_b"), "1 :p_b");
        o.rows.clear();
        assert_eq!(v.gset("", &o).unwrap_err(), "no rows returned for \\gset");
    }
}
