//! PL/pgSQL's control statements: IF, LOOP, WHILE, integer FOR, EXIT and
//! CONTINUE (checked against the blocks and loops around them), RETURN,
//! RAISE and ASSERT.

use super::{Label, Parser, Stop};
use crate::scenario::plpgsql::tokens::{Kind, Tok};
use crate::scenario::plpgsql::tree::*;
use crate::sql::error::{ErrorKind, SqlError};
use crate::value::SqlType;
use sqlparser::tokenizer::Token;

impl Parser<'_> {
    pub(super) fn if_statement(&mut self) -> Result<StmtKind, SqlError> {
        self.nest()?;
        self.at += 1;
        let mut branches = Vec::new();
        loop {
            let (start, end, _) = self.until(&[Stop::Word("then")], "THEN")?;
            let condition = self.expression(start, end)?;
            branches.push((condition, self.statements()?));
            if !(self.eat_word("elsif") || self.eat_word("elseif")) {
                break;
            }
        }
        let otherwise = if self.eat_word("else") {
            self.statements()?
        } else {
            Vec::new()
        };
        self.expect_word("end")?;
        self.expect_word("if")?;
        self.expect(&Token::SemiColon)?;
        self.depth -= 1;
        Ok(StmtKind::If {
            branches,
            otherwise,
        })
    }

    /// LOOP, WHILE or an integer FOR, through END LOOP [label];
    pub(super) fn loop_statement(&mut self, label: Option<String>) -> Result<Loop, SqlError> {
        self.nest()?;
        let scope = self.visible.len();
        let kind = match self.peek_word().as_deref() {
            Some("loop") => LoopKind::Forever,
            Some("while") => {
                self.at += 1;
                let (start, end, _) = self.until(&[Stop::Word("loop")], "LOOP")?;
                self.at -= 1;
                LoopKind::While(self.expression(start, end)?)
            }
            _ => self.for_integer()?,
        };
        self.expect_word("loop")?;
        self.labels.push(Label {
            name: label.clone(),
            is_loop: true,
        });
        let body = self.statements()?;
        self.labels.pop();
        self.visible.truncate(scope);
        self.expect_word("end")?;
        self.expect_word("loop")?;
        self.end_label(label.as_deref())?;
        self.expect(&Token::SemiColon)?;
        self.depth -= 1;
        Ok(Loop { label, kind, body })
    }

    /// `FOR name IN [REVERSE] lower .. upper [BY step]`, up to its LOOP (left
    /// for the caller). The bounds are read where the loop is, then the loop
    /// variable is declared: an integer of its own, hiding any other `name`.
    fn for_integer(&mut self) -> Result<LoopKind, SqlError> {
        let for_at = self.at;
        self.at += 1;
        let Some(name) = self.peek().and_then(Tok::identifier) else {
            return Err(self.unexpected());
        };
        self.at += 1;
        if self.peek().is_some_and(|t| t.is(&Token::Comma)) {
            return Err(self.refuse(for_at, "FOR over a query's rows"));
        }
        self.expect_word("in")?;
        if self.peek_is_word("execute") {
            return Err(self.refuse(self.at, "FOR over the rows of EXECUTE (dynamic SQL)"));
        }
        let reverse = self.eat_word("reverse");
        let (start, end, stop) = self.until(&[Stop::DotDot, Stop::Word("loop")], "LOOP")?;
        if stop == Stop::Word("loop") {
            return Err(self.refuse(for_at, "FOR over a query's rows (a record variable)"));
        }
        let lower = self.expression(start, end)?;
        let (start, end, stop) = self.until(&[Stop::Word("loop"), Stop::Word("by")], "LOOP")?;
        let upper = self.expression(start, end)?;
        let step = if stop == Stop::Word("by") {
            let (start, end, _) = self.until(&[Stop::Word("loop")], "LOOP")?;
            Some(self.expression(start, end)?)
        } else {
            None
        };
        // `until` ate the LOOP: the caller expects it.
        self.at -= 1;
        let var = self.declare(&name, SqlType::Int4, false, false);
        Ok(LoopKind::Integer {
            var,
            reverse,
            lower,
            upper,
            step,
        })
    }

    /// `EXIT [label] [WHEN cond];` or CONTINUE, checked against the blocks
    /// and loops around it as PostgreSQL checks them.
    pub(super) fn exit(&mut self, next: bool) -> Result<StmtKind, SqlError> {
        let word_at = self.at;
        let what = if next { "CONTINUE" } else { "EXIT" };
        self.at += 1;
        let label = match self.peek() {
            Some(t) if !t.is_word("when") => t.identifier(),
            _ => None,
        };
        if let Some(name) = &label {
            let found = self
                .labels
                .iter()
                .rev()
                .find(|l| l.name.as_deref() == Some(name.as_str()));
            match found {
                None => {
                    return Err(self.error_at(
                        self.at,
                        ErrorKind::Syntax,
                        format!(
                            "there is no label \"{name}\" attached to any block or loop \
                             enclosing this statement"
                        ),
                    ))
                }
                Some(l) if next && !l.is_loop => {
                    return Err(self.error_at(
                        self.at,
                        ErrorKind::Syntax,
                        format!("block label \"{name}\" cannot be used in CONTINUE"),
                    ))
                }
                Some(_) => self.at += 1,
            }
        } else if !self.labels.iter().any(|l| l.is_loop) {
            let message = if next {
                "CONTINUE cannot be used outside a loop".to_string()
            } else {
                format!("{what} cannot be used outside a loop, unless it has a label")
            };
            return Err(self.error_at(word_at, ErrorKind::Syntax, message));
        }
        let when = if self.eat_word("when") {
            let (start, end, _) = self.until(&[Stop::Semi], ";")?;
            Some(self.expression(start, end)?)
        } else {
            self.expect(&Token::SemiColon)?;
            None
        };
        Ok(StmtKind::Exit { next, label, when })
    }

    /// `RETURN;`: the block has no value to return.
    pub(super) fn return_statement(&mut self) -> Result<StmtKind, SqlError> {
        self.at += 1;
        match self.peek_word().as_deref() {
            Some("next") => return Err(self.refuse(self.at - 1, "RETURN NEXT")),
            Some("query") => return Err(self.refuse(self.at - 1, "RETURN QUERY")),
            _ => {}
        }
        if self.eat(&Token::SemiColon) {
            return Ok(StmtKind::Return);
        }
        Err(self.error_at(
            self.at,
            ErrorKind::Semantic,
            "RETURN cannot have a parameter in function returning void",
        ))
    }

    /// `RAISE [level] 'format' [, expr …];`
    pub(super) fn raise(&mut self) -> Result<StmtKind, SqlError> {
        let raise_at = self.at;
        self.at += 1;
        let level = match self.peek_word().as_deref() {
            Some("debug" | "log") => Some(RaiseLevel::Hidden),
            Some("info" | "notice" | "warning") => Some(RaiseLevel::Notice),
            Some("exception") => Some(RaiseLevel::Exception),
            _ => None,
        };
        self.at += usize::from(level.is_some());
        let format = match self.peek().map(|t| &t.kind) {
            Some(Kind::Sql(Token::SingleQuotedString(s) | Token::EscapedStringLiteral(s))) => {
                s.clone()
            }
            Some(Kind::Sql(Token::SemiColon)) if level.is_none() => {
                return Err(self.error_at(
                    raise_at,
                    ErrorKind::Syntax,
                    "RAISE without parameters cannot be used outside an exception handler",
                ))
            }
            Some(Kind::Sql(Token::Word(w))) if w.value.eq_ignore_ascii_case("using") => {
                return Err(self.refuse(self.at, "RAISE … USING"))
            }
            Some(Kind::Sql(Token::Word(_))) => {
                return Err(self.refuse(raise_at, "RAISE of a condition name or SQLSTATE"))
            }
            _ => return Err(self.unexpected()),
        };
        self.at += 1;
        let mut args = Vec::new();
        loop {
            if self.eat(&Token::SemiColon) {
                break;
            }
            if self.peek_is_word("using") {
                return Err(self.refuse(self.at, "RAISE … USING"));
            }
            self.expect(&Token::Comma)?;
            let (start, end, _) =
                self.until(&[Stop::Comma, Stop::Semi, Stop::Word("using")], ";")?;
            // The stop is the loop's to read.
            self.at -= 1;
            let (q, piece) = self.parse_expression(start, end)?;
            args.push(self.compile(q, piece)?);
        }
        let wanted = placeholders(&format);
        if wanted != args.len() {
            let few = if wanted > args.len() { "few" } else { "many" };
            return Err(self.error_at(
                raise_at,
                ErrorKind::Syntax,
                format!("too {few} parameters specified for RAISE"),
            ));
        }
        Ok(StmtKind::Raise {
            level: level.unwrap_or(RaiseLevel::Exception),
            format,
            args,
        })
    }

    /// `ASSERT condition [, message];`
    pub(super) fn assert(&mut self) -> Result<StmtKind, SqlError> {
        self.at += 1;
        let (start, end, stop) = self.until(&[Stop::Comma, Stop::Semi], ";")?;
        let condition = self.expression(start, end)?;
        let message = if stop == Stop::Comma {
            let (start, end, _) = self.until(&[Stop::Semi], ";")?;
            Some(self.expression(start, end)?)
        } else {
            None
        };
        Ok(StmtKind::Assert { condition, message })
    }
}

/// The `%` placeholders of a RAISE format (`%%` is a literal `%`).
pub(in crate::scenario::plpgsql) fn placeholders(format: &str) -> usize {
    let mut n = 0;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            if chars.peek() == Some(&'%') {
                chars.next();
            } else {
                n += 1;
            }
        }
    }
    n
}
