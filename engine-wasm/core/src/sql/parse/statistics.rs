//! CREATE STATISTICS and DROP STATISTICS (`gram.y`'s CreateStatsStmt and
//! DropStmt), which `sqlparser` does not know:
//!
//! ```text
//! CREATE STATISTICS [ IF NOT EXISTS ] name [ ( kind [, …] ) ]
//!     ON column, column [, …] FROM table
//! DROP STATISTICS [ IF EXISTS ] name [, …] [ CASCADE | RESTRICT ]
//! ```

use super::words::{dropped_names, end, expect, keywords, punct, qualified, Words};
use crate::sql::ast::{CreateStatistics, Statement};
use crate::sql::error::{unsupported, SqlError};
use sqlparser::tokenizer::Token;

/// The statement, when `sql` is CREATE or DROP STATISTICS; `None` otherwise.
pub(super) fn parse(sql: &str) -> Result<Option<Statement>, SqlError> {
    let mut first = sql.split_whitespace().map(|w| w.to_ascii_lowercase());
    let (verb, object) = (first.next(), first.next());
    let creates = match (verb.as_deref(), object.as_deref()) {
        (Some("create"), Some("statistics")) => true,
        (Some("drop"), Some("statistics")) => false,
        _ => return Ok(None),
    };
    let mut w = Words::new(sql)?;
    w.at = 2;
    Ok(Some(match creates {
        true => Statement::CreateStatistics(create(&mut w)?),
        false => drop(&mut w)?,
    }))
}

fn create(w: &mut Words) -> Result<CreateStatistics, SqlError> {
    let if_not_exists = keywords(w, &["if", "not", "exists"]);
    // PostgreSQL 15 requires the name (16 made it optional).
    if w.peek_word().as_deref() == Some("on") {
        return Err(w.unexpected());
    }
    let name = qualified(w)?;
    let mut kinds = Vec::new();
    if w.peek() == Some(&Token::LParen) {
        w.at += 1;
        loop {
            kinds.push(qualified(w)?);
            if !punct(w, Token::Comma) {
                break;
            }
        }
        expect(w, Token::RParen)?;
    }
    if w.next_word().as_deref() != Some("on") {
        w.at -= 1;
        return Err(w.unexpected());
    }
    let mut columns = Vec::new();
    loop {
        if w.peek() == Some(&Token::LParen) {
            return Err(unsupported("CREATE STATISTICS on expressions"));
        }
        columns.push(qualified(w)?);
        if !punct(w, Token::Comma) {
            break;
        }
    }
    if w.next_word().as_deref() != Some("from") {
        w.at -= 1;
        return Err(w.unexpected());
    }
    let table = qualified(w)?;
    end(w)?;
    Ok(CreateStatistics {
        name,
        if_not_exists,
        kinds,
        columns,
        table,
    })
}

fn drop(w: &mut Words) -> Result<Statement, SqlError> {
    let if_exists = keywords(w, &["if", "exists"]);
    let names = dropped_names(w)?;
    Ok(Statement::DropStatistics { names, if_exists })
}
