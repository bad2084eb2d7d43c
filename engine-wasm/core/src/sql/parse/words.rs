//! A statement's tokens read word by word, for the statements `sqlparser`
//! does not know (VACUUM's PostgreSQL forms, CREATE STATISTICS…).

use crate::sql::error::{ErrorKind, Position, SqlError};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

pub(super) struct Words {
    pub(super) tokens: Vec<TokenWithSpan>,
    pub(super) at: usize,
}

impl Words {
    pub(super) fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|t| &t.token)
    }

    /// The next token as a lower-case word (an unquoted identifier or keyword).
    pub(super) fn peek_word(&self) -> Option<String> {
        match self.peek() {
            Some(Token::Word(w)) if w.quote_style.is_none() => Some(w.value.to_ascii_lowercase()),
            _ => None,
        }
    }

    pub(super) fn next_word(&mut self) -> Option<String> {
        let w = self.peek_word();
        self.at += 1;
        w
    }

    pub(super) fn error(&self, message: String) -> SqlError {
        let err = SqlError::new(ErrorKind::Syntax, message);
        match self.tokens.get(self.at) {
            Some(t) => err.at(Position::new(
                t.span.start.line as u32,
                t.span.start.column as u32,
            )),
            None => err,
        }
    }

    pub(super) fn unexpected(&self) -> SqlError {
        match self.peek() {
            Some(t) => self.error(format!("syntax error at or near \"{t}\"")),
            None => self.error("syntax error at end of input".into()),
        }
    }

    /// The tokens of `sql`, whitespace left out.
    pub(super) fn new(sql: &str) -> Result<Words, SqlError> {
        let tokens = Tokenizer::new(&PostgreSqlDialect {}, sql)
            .tokenize_with_location()
            .map_err(|e| SqlError::new(ErrorKind::Syntax, e.to_string()))?;
        Ok(Words {
            tokens: tokens
                .into_iter()
                .filter(|t| !matches!(t.token, Token::Whitespace(_)))
                .collect(),
            at: 0,
        })
    }
}

/// Consumes `words` if they come next, all of them.
pub(super) fn keywords(w: &mut Words, words: &[&str]) -> bool {
    let at = w.at;
    if words.iter().all(|k| w.next_word().as_deref() == Some(*k)) {
        return true;
    }
    w.at = at;
    false
}

pub(super) fn punct(w: &mut Words, t: Token) -> bool {
    let found = w.peek() == Some(&t);
    if found {
        w.at += 1;
    }
    found
}

pub(super) fn expect(w: &mut Words, t: Token) -> Result<(), SqlError> {
    match punct(w, t) {
        true => Ok(()),
        false => Err(w.unexpected()),
    }
}

pub(super) fn end(w: &mut Words) -> Result<(), SqlError> {
    punct(w, Token::SemiColon);
    match w.peek() {
        None => Ok(()),
        Some(_) => Err(w.unexpected()),
    }
}

/// A possibly schema-qualified name, as the catalogs key it
/// ([`crate::sql::convert`]'s `relation_name`).
pub(super) fn qualified(w: &mut Words) -> Result<String, SqlError> {
    let mut parts = vec![ident(w)?];
    while punct(w, Token::Period) {
        parts.push(ident(w)?);
    }
    Ok(match parts.as_slice() {
        [.., schema, name] if schema != "pg_catalog" => crate::exec::schemas::qualify(schema, name),
        [.., name] => name.clone(),
        [] => unreachable!("one identifier at least"),
    })
}

pub(super) fn ident(w: &mut Words) -> Result<String, SqlError> {
    match w.peek() {
        Some(Token::Word(word)) => {
            let name = match word.quote_style {
                Some(_) => word.value.clone(),
                None => word.value.to_ascii_lowercase(),
            };
            w.at += 1;
            Ok(name)
        }
        _ => Err(w.unexpected()),
    }
}

/// A DROP statement's names, `name [, …] [ CASCADE | RESTRICT ]`, to the end.
pub(super) fn dropped_names(w: &mut Words) -> Result<Vec<String>, SqlError> {
    let mut names = Vec::new();
    loop {
        names.push(qualified(w)?);
        if !punct(w, Token::Comma) {
            break;
        }
    }
    if matches!(w.peek_word().as_deref(), Some("cascade" | "restrict")) {
        w.at += 1;
    }
    end(w)?;
    Ok(names)
}
