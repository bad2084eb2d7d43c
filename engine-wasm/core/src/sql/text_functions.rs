//! PostgreSQL's string functions that test data and reports use beyond
//! `sql/functions.rs`'s: left, right, split_part, btrim/ltrim/rtrim (and
//! TRIM), position (and strpos), initcap, chr, ascii, octet_length, with
//! varlena.c's and oracle_compat.c's rules under the C collation (characters
//! are Unicode scalar values, as in a UTF8 database).

use super::error::{ErrorKind, SqlError};
use crate::value::Value;

/// `left(s, n)`: the first n characters; a negative n drops the last |n|.
pub fn left(s: &str, n: i64) -> Value {
    let count = s.chars().count() as i64;
    let keep = if n >= 0 {
        n.min(count)
    } else {
        (count + n).max(0)
    };
    Value::text(s.chars().take(keep as usize).collect::<String>())
}

/// `right(s, n)`: the last n characters; a negative n drops the first |n|.
pub fn right(s: &str, n: i64) -> Value {
    let count = s.chars().count() as i64;
    let skip = if n >= 0 {
        (count - n).max(0)
    } else {
        (-n).min(count)
    };
    Value::text(s.chars().skip(skip as usize).collect::<String>())
}

/// `split_part(s, delimiter, n)`: field n (from the end when negative).
pub fn split_part(s: &str, delimiter: &str, n: i64) -> Result<Value, SqlError> {
    if n == 0 {
        return Err(SqlError::new(
            ErrorKind::Execution,
            "field position must not be zero",
        ));
    }
    let fields: Vec<&str> = if delimiter.is_empty() {
        vec![s]
    } else {
        s.split(delimiter).collect()
    };
    let at = if n > 0 {
        usize::try_from(n - 1).ok()
    } else {
        fields.len().checked_sub(n.unsigned_abs() as usize)
    };
    Ok(Value::text(
        at.and_then(|i| fields.get(i)).copied().unwrap_or(""),
    ))
}

/// Which ends `btrim`, `ltrim` and `rtrim` trim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ends {
    Both,
    Leading,
    Trailing,
}

/// Removes the characters of `set` (a space by default) from `s`'s ends.
pub fn trim(s: &str, set: &str, ends: Ends) -> Value {
    let is_set = |c: char| set.contains(c);
    let out = match ends {
        Ends::Both => s.trim_matches(is_set),
        Ends::Leading => s.trim_start_matches(is_set),
        Ends::Trailing => s.trim_end_matches(is_set),
    };
    Value::text(out)
}

/// `position(sub in s)`, `strpos(s, sub)`: the 1-based character position
/// of sub's first occurrence, 0 if none (an empty sub is at 1).
pub fn position(s: &str, sub: &str) -> Value {
    Value::Int(match s.find(sub) {
        Some(byte) => s[..byte].chars().count() as i64 + 1,
        None => 0,
    })
}

/// `initcap(s)`: each word's first letter upper case, the rest lower case;
/// a word is a run of letters and digits.
pub fn initcap(s: &str) -> Value {
    let mut out = String::with_capacity(s.len());
    let mut in_word = false;
    for c in s.chars() {
        if in_word {
            out.extend(c.to_lowercase());
        } else {
            out.extend(c.to_uppercase());
        }
        in_word = c.is_alphanumeric();
    }
    Value::text(out)
}

/// `chr(n)`: the character with code point n.
pub fn chr(n: i64) -> Result<Value, SqlError> {
    if n == 0 {
        return Err(SqlError::new(
            ErrorKind::Execution,
            "null character not permitted",
        ));
    }
    let c = u32::try_from(n)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| {
            SqlError::new(
                ErrorKind::Execution,
                format!("requested character not valid for encoding: {n}"),
            )
        })?;
    Ok(Value::text(c.to_string()))
}

/// `ascii(s)`: the code point of s's first character (0 for '').
pub fn ascii(s: &str) -> Value {
    Value::Int(s.chars().next().map_or(0, |c| i64::from(u32::from(c))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(v: Value) -> String {
        v.pg_text()
    }

    #[test]
    fn as_postgresql_answers() {
        assert_eq!(t(left("abcde", 2)), "ab");
        assert_eq!(t(left("abcde", -2)), "abc");
        assert_eq!(t(right("abcde", 2)), "de");
        assert_eq!(t(right("abcde", -2)), "cde");
        assert_eq!(t(split_part("a,b,c", ",", 2).unwrap()), "b");
        assert_eq!(t(split_part("a,b,c", ",", -1).unwrap()), "c");
        assert_eq!(t(split_part("a,b,c", ",", 5).unwrap()), "");
        assert_eq!(t(trim("xxaxx", "x", Ends::Leading)), "axx");
        assert_eq!(t(position("abc", "c")), "3");
        assert_eq!(t(initcap("hELLO wORLD-x1y")), "Hello World-X1y");
        assert_eq!(t(ascii("A")), "65");
        assert!(chr(0).is_err());
    }
}
