//! CREATE SEQUENCE and DROP SEQUENCE in PostgreSQL's grammar (`gram.y`'s
//! CreateSeqStmt: options in any order, which sqlparser's fixed order
//! refuses):
//!
//! ```text
//! CREATE SEQUENCE [ IF NOT EXISTS ] name [ AS type ] [ INCREMENT [ BY ] n ]
//!     [ MINVALUE n | NO MINVALUE ] [ MAXVALUE n | NO MAXVALUE ]
//!     [ START [ WITH ] n ] [ CACHE n ] [ [ NO ] CYCLE ]
//! DROP SEQUENCE [ IF EXISTS ] name [, …] [ CASCADE | RESTRICT ]
//! ```

use super::words::{dropped_names, end, keywords, punct, qualified, Words};
use crate::sql::ast::{CreateSequence, Statement};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use sqlparser::tokenizer::Token;

/// The statement, when `sql` is CREATE or DROP SEQUENCE; `None` otherwise.
pub(super) fn parse(sql: &str) -> Result<Option<Statement>, SqlError> {
    let mut first = sql.split_whitespace().map(|w| w.to_ascii_lowercase());
    let (verb, object) = (first.next(), first.next());
    let creates = match (verb.as_deref(), object.as_deref()) {
        (Some("create"), Some("sequence")) => true,
        (Some("drop"), Some("sequence")) => false,
        (Some("create"), Some("temp" | "temporary" | "unlogged"))
            if first.next().as_deref() == Some("sequence") =>
        {
            return Err(unsupported("a TEMPORARY or UNLOGGED sequence"))
        }
        _ => return Ok(None),
    };
    let mut w = Words::new(sql)?;
    w.at = 2;
    Ok(Some(match creates {
        true => Statement::CreateSequence(create(&mut w)?),
        false => drop(&mut w)?,
    }))
}

fn create(w: &mut Words) -> Result<CreateSequence, SqlError> {
    let if_not_exists = keywords(w, &["if", "not", "exists"]);
    let mut s = CreateSequence {
        name: qualified(w)?,
        if_not_exists,
        type_name: "bigint",
        type_range: (i64::MIN, i64::MAX),
        increment: None,
        min: None,
        max: None,
        start: None,
        cycle: false,
    };
    while let Some(word) = w.peek_word() {
        w.at += 1;
        match word.as_str() {
            "as" => (s.type_name, s.type_range) = sequence_type(w)?,
            "increment" => {
                keywords(w, &["by"]);
                s.increment = Some(integer(w)?);
            }
            "minvalue" => s.min = Some(integer(w)?),
            "maxvalue" => s.max = Some(integer(w)?),
            "start" => {
                keywords(w, &["with"]);
                s.start = Some(integer(w)?);
            }
            // One session: a cache changes nothing it can see.
            "cache" => {
                integer(w)?;
            }
            "cycle" => s.cycle = true,
            "no" => match w.next_word().as_deref() {
                Some("minvalue") => s.min = None,
                Some("maxvalue") => s.max = None,
                Some("cycle") => s.cycle = false,
                _ => {
                    w.at -= 1;
                    return Err(w.unexpected());
                }
            },
            "owned" => return Err(unsupported("CREATE SEQUENCE … OWNED BY")),
            _ => {
                w.at -= 1;
                return Err(w.unexpected());
            }
        }
    }
    end(w)?;
    Ok(s)
}

fn sequence_type(w: &mut Words) -> Result<(&'static str, (i64, i64)), SqlError> {
    Ok(match w.next_word().as_deref() {
        Some("bigint" | "int8") => ("bigint", (i64::MIN, i64::MAX)),
        Some("integer" | "int" | "int4") => ("integer", (i64::from(i32::MIN), i64::from(i32::MAX))),
        Some("smallint" | "int2") => ("smallint", (i64::from(i16::MIN), i64::from(i16::MAX))),
        _ => {
            w.at -= 1;
            return Err(w.error("sequence type must be smallint, integer, or bigint".into()));
        }
    })
}

/// A signed integer constant.
fn integer(w: &mut Words) -> Result<i64, SqlError> {
    let negative = punct(w, Token::Minus);
    if !negative {
        punct(w, Token::Plus);
    }
    let Some(Token::Number(n, _)) = w.peek() else {
        return Err(w.unexpected());
    };
    let text = if negative { format!("-{n}") } else { n.clone() };
    let value = text.parse().map_err(|_| {
        SqlError::new(
            ErrorKind::Semantic,
            format!("value \"{text}\" is out of range for type bigint"),
        )
    })?;
    w.at += 1;
    Ok(value)
}

fn drop(w: &mut Words) -> Result<Statement, SqlError> {
    let if_exists = keywords(w, &["if", "exists"]);
    let names = dropped_names(w)?;
    Ok(Statement::DropSequence { names, if_exists })
}
