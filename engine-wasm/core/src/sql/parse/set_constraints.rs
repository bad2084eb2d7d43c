//! `SET CONSTRAINTS { ALL | name [, …] } { DEFERRED | IMMEDIATE }`
//! (`gram.y`'s ConstraintsSetStmt), which `sqlparser` does not know.

use crate::sql::ast::Statement;
use crate::sql::error::{ErrorKind, SqlError};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::tokenizer::{Token, Tokenizer};

/// The statement, when `sql` starts with SET CONSTRAINTS; `None` otherwise.
pub(super) fn parse(sql: &str) -> Result<Option<Statement>, SqlError> {
    // Most statements are told apart by their first letters, untokenized.
    let starts_with_set = sql
        .trim_start()
        .get(..3)
        .is_some_and(|w| w.eq_ignore_ascii_case("set"));
    if !starts_with_set {
        return Ok(None);
    }
    let tokens: Vec<Token> = Tokenizer::new(&PostgreSqlDialect {}, sql)
        .tokenize()
        .map_err(|e| SqlError::new(ErrorKind::Syntax, e.to_string()))?
        .into_iter()
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .collect();
    let word = |i: usize| match tokens.get(i) {
        Some(Token::Word(w)) if w.quote_style.is_none() => Some(w.value.to_ascii_lowercase()),
        _ => None,
    };
    if word(0).as_deref() != Some("set") || word(1).as_deref() != Some("constraints") {
        return Ok(None);
    }
    let mut names = Vec::new();
    let mut i = 2;
    let all = word(i).as_deref() == Some("all");
    if all {
        i += 1;
    } else {
        loop {
            match tokens.get(i) {
                // A name (schema-qualified names keep their last part).
                Some(Token::Word(w)) => {
                    let mut name = w.value.clone();
                    if w.quote_style.is_none() {
                        name = name.to_ascii_lowercase();
                    }
                    i += 1;
                    while tokens.get(i) == Some(&Token::Period) {
                        if let Some(Token::Word(w)) = tokens.get(i + 1) {
                            name = w.value.clone();
                        }
                        i += 2;
                    }
                    names.push(name);
                }
                _ => return Err(syntax_error(tokens.get(i))),
            }
            if tokens.get(i) != Some(&Token::Comma) {
                break;
            }
            i += 1;
        }
    }
    let deferred = match word(i).as_deref() {
        Some("deferred") => true,
        Some("immediate") => false,
        _ => return Err(syntax_error(tokens.get(i))),
    };
    if let Some(t) = tokens.get(i + 1).filter(|t| **t != Token::SemiColon) {
        return Err(syntax_error(Some(t)));
    }
    Ok(Some(Statement::SetConstraints {
        names: (!all).then_some(names),
        deferred,
    }))
}

fn syntax_error(at: Option<&Token>) -> SqlError {
    let message = match at {
        Some(t) => format!("syntax error at or near \"{t}\""),
        None => "syntax error at end of input".to_string(),
    };
    SqlError::new(ErrorKind::Syntax, message)
}
