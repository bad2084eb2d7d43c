//! The DO statement around the block: `DO [LANGUAGE plpgsql] code`, where
//! the code is a dollar-quoted or quoted string, and where that code sits
//! in the statement (errors inside the block are placed in the script).

use super::tokens::{tokenize, Kind, Tok};
use super::tree::BodyText;
use crate::sql::error::{unsupported, ErrorKind, Position, SqlError};
use sqlparser::tokenizer::Token;

/// Whether `sql` is a DO statement: its first word, after whitespace and
/// comments, is `do`.
pub(super) fn is_do(sql: &str) -> bool {
    let mut rest = sql;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("--") {
            rest = r.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, after)| after);
        } else {
            break;
        }
    }
    let word_end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    rest[..word_end].eq_ignore_ascii_case("do")
}

/// `DO [LANGUAGE name] code [LANGUAGE name]`: the code, and where it is.
pub(super) fn head(sql: &str) -> Result<(String, BodyText), SqlError> {
    let toks = tokenize(sql)?;
    let at = |t: &Tok| Position::START.advance(sql, t.start);
    let syntax = |t: &Tok| {
        SqlError::new(
            ErrorKind::Syntax,
            format!("syntax error at or near \"{}\"", &sql[t.start..t.end]),
        )
        .at(at(t))
    };
    let mut code = None;
    let mut i = 1;
    while let Some(t) = toks.get(i) {
        if t.is_word("language") {
            let lang = toks.get(i + 1).ok_or_else(|| end_of_input(sql))?;
            let name = match &lang.kind {
                Kind::Sql(Token::SingleQuotedString(s)) => s.to_ascii_lowercase(),
                _ => lang.identifier().ok_or_else(|| syntax(lang))?,
            };
            if name != "plpgsql" {
                return Err(unsupported(format!(
                    "a DO block in language {name} (IndexLab runs PL/pgSQL)"
                ))
                .at(at(lang)));
            }
            i += 2;
            continue;
        }
        let body = match &t.kind {
            Kind::Sql(Token::DollarQuotedString(d)) if code.is_none() => {
                let tag = d.tag.as_deref().map_or(0, str::len);
                let start = t.start + 2 + tag;
                (d.value.clone(), BodyText::at(start))
            }
            Kind::Sql(Token::SingleQuotedString(s)) if code.is_none() => {
                let raw = &sql[t.start + 1..t.end - 1];
                (s.clone(), BodyText::quoted(t.start + 1, raw))
            }
            Kind::Sql(Token::EscapedStringLiteral(s)) if code.is_none() => {
                (s.clone(), BodyText::at(t.start + 2))
            }
            Kind::Sql(Token::SemiColon) if i + 1 == toks.len() => break,
            _ => return Err(syntax(t)),
        };
        code = Some(body);
        i += 1;
    }
    code.ok_or_else(|| SqlError::new(ErrorKind::Syntax, "no inline code specified"))
}

fn end_of_input(sql: &str) -> SqlError {
    SqlError::new(ErrorKind::Syntax, "syntax error at end of input")
        .at(Position::START.advance(sql, sql.len()))
}

impl BodyText {
    fn at(start: usize) -> BodyText {
        BodyText {
            start,
            doubled_quotes: Vec::new(),
        }
    }

    /// A body written as `'…'` (`raw` between the quotes, as written).
    fn quoted(start: usize, raw: &str) -> BodyText {
        let bytes = raw.as_bytes();
        let (mut i, mut code_offset) = (0, 0);
        let mut doubled_quotes = Vec::new();
        while i < bytes.len() {
            if bytes[i] == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                doubled_quotes.push(code_offset);
                i += 1;
            }
            i += 1;
            code_offset += 1;
        }
        BodyText {
            start,
            doubled_quotes,
        }
    }
}
