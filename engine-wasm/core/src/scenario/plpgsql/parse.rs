//! PL/pgSQL's grammar (PostgreSQL 15's `pl_gram.y`) for the subset IndexLab
//! runs, read by recursive descent over the block's tokens.
//!
//! As in PostgreSQL, an expression or SQL statement is the text up to the
//! word that ends it (`THEN`, `LOOP`, `..`, `;`) outside parentheses; IndexLab's
//! SQL parser reads it (an expression as `SELECT expr`). Unlike PostgreSQL,
//! which parses those texts when they first run, everything is read before
//! the block starts: a block IndexLab cannot run is refused before it has
//! changed anything. Variables are resolved to slots here, by PL/pgSQL's
//! scoping (inner declarations hide outer ones, a FOR loop declares its own).

mod control;
mod sql;

#[cfg(test)]
pub(super) use control::placeholders;

use super::head::head;
use super::tokens::{tokenize, Kind, Tok};
use super::tree::*;
use crate::sql::ast::Statement;
use crate::sql::error::{find_token, unsupported, ErrorKind, Position, SqlError};
use crate::sql::eval::Scope;
use crate::sql::parse::parse_statement;
use crate::value::SqlType;
use sqlparser::tokenizer::Token;

/// How deep blocks, loops and IFs may nest: the parser and the interpreter
/// recurse once a level, on the page's small wasm stack.
pub(super) const MAX_NESTING: usize = 100;

/// Parses `sql`, a whole `DO …` statement, for profile `profile`. Errors are
/// placed relative to `sql` (line 1, column 1 = its first character).
pub(super) fn parse_do(sql: &str, profile: &str) -> Result<DoBlock, SqlError> {
    let (code, text) = head(sql)?;
    let toks = tokenize(&code).map_err(|e| {
        let offset = e.at.and_then(|p| p.offset_in(&code)).unwrap_or(0);
        let at = Position::START.advance(sql, text.statement_offset(offset));
        SqlError::new(e.kind, e.message.clone()).at(at)
    })?;
    let mut p = Parser {
        sql,
        code,
        text,
        toks,
        at: 0,
        vars: Vec::new(),
        visible: Vec::new(),
        labels: Vec::new(),
        depth: 0,
        queries: 0,
        one_transaction_writes: profile != "pg",
    };
    p.declare("found", SqlType::Bool, false, false);
    let label = p.opt_label()?;
    let body = p.block(label)?;
    p.eat(&Token::SemiColon);
    if p.at < p.toks.len() {
        return Err(p.unexpected());
    }
    Ok(DoBlock {
        vars: p.vars,
        body,
        queries: p.queries,
        text: p.text,
    })
}

/// What ends an expression (outside parentheses).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stop {
    Word(&'static str),
    DotDot,
    Comma,
    Semi,
}

impl Stop {
    fn matches(self, t: &Tok) -> bool {
        match self {
            Stop::Word(w) => t.is_word(w),
            Stop::DotDot => t.kind == Kind::DotDot,
            Stop::Comma => t.is(&Token::Comma),
            Stop::Semi => t.is(&Token::SemiColon),
        }
    }
}

/// An enclosing block or loop, for EXIT and CONTINUE.
struct Label {
    name: Option<String>,
    is_loop: bool,
}

/// Words that start a SQL statement the block hands to the SQL parser; any
/// other word is a syntax error there, as in PostgreSQL.
const SQL_WORDS: &[&str] = &[
    "select",
    "with",
    "insert",
    "update",
    "delete",
    "merge",
    "create",
    "drop",
    "alter",
    "truncate",
    "analyze",
    "analyse",
    "vacuum",
    "set",
    "reset",
    "show",
    "explain",
    "values",
    "table",
    "lock",
    "grant",
    "revoke",
    "comment",
    "refresh",
    "reindex",
    "cluster",
    "copy",
    "notify",
    "listen",
    "unlisten",
    "prepare",
    "deallocate",
    "discard",
    "savepoint",
    "release",
    "start",
    "abort",
    "checkpoint",
    "import",
    "security",
    "reassign",
    "load",
];

/// Words that end a list of statements (or are never a label).
const RESERVED: &[&str] = &[
    "begin",
    "declare",
    "end",
    "if",
    "elsif",
    "elseif",
    "else",
    "loop",
    "while",
    "for",
    "foreach",
    "exception",
    "when",
    "then",
    "by",
    "in",
];

struct Parser<'a> {
    /// The DO statement, for error positions.
    sql: &'a str,
    /// The block's code.
    code: String,
    text: BodyText,
    toks: Vec<Tok>,
    /// The next token.
    at: usize,
    vars: Vec<Var>,
    /// Slots visible here, outermost first (a name means its last one).
    visible: Vec<usize>,
    labels: Vec<Label>,
    depth: usize,
    queries: usize,
    /// Whether UPDATE and DELETE may run inside the block (see `one_transaction`).
    one_transaction_writes: bool,
}

impl Parser<'_> {
    // --- Tokens and errors.

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn peek_word(&self) -> Option<String> {
        self.peek().and_then(Tok::word)
    }

    fn peek_is_word(&self, w: &str) -> bool {
        self.peek().is_some_and(|t| t.is_word(w))
    }

    fn eat_word(&mut self, w: &str) -> bool {
        let yes = self.peek_is_word(w);
        self.at += usize::from(yes);
        yes
    }

    fn eat(&mut self, t: &Token) -> bool {
        let yes = self.peek().is_some_and(|x| x.is(t));
        self.at += usize::from(yes);
        yes
    }

    fn expect_word(&mut self, w: &str) -> Result<(), SqlError> {
        if self.eat_word(w) {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    fn expect(&mut self, t: &Token) -> Result<(), SqlError> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    /// The position in the DO statement of byte `offset` of the code.
    fn position(&self, offset: usize) -> Position {
        Position::START.advance(self.sql, self.text.statement_offset(offset))
    }

    /// An error at the token `index`.
    fn error_at(&self, index: usize, kind: ErrorKind, message: impl Into<String>) -> SqlError {
        let offset = self.toks.get(index).map_or(self.code.len(), |t| t.start);
        SqlError::new(kind, message).at(self.position(offset))
    }

    /// PostgreSQL's syntax error at the next token.
    fn unexpected(&self) -> SqlError {
        match self.peek() {
            Some(t) => self.error_at(
                self.at,
                ErrorKind::Syntax,
                format!("syntax error at or near \"{}\"", &self.code[t.start..t.end]),
            ),
            None => self.error_at(self.at, ErrorKind::Syntax, "syntax error at end of input"),
        }
    }

    /// A construct IndexLab does not run, named, at token `index`.
    fn refuse(&self, index: usize, what: &str) -> SqlError {
        let e = unsupported(what);
        let offset = self.toks.get(index).map_or(self.code.len(), |t| t.start);
        e.at(self.position(offset))
    }

    /// An error of IndexLab's SQL parser (or binder) on `piece`, placed in
    /// the DO statement.
    fn piece_error(&self, mut e: SqlError, piece: &Piece) -> SqlError {
        let offset = match e.at {
            Some(p) => p.offset_in(&piece.text),
            None => e.near.as_deref().and_then(|w| find_token(&piece.text, w)),
        };
        let offset = piece.code_offset(offset.unwrap_or(piece.prefix));
        e.at = Some(self.position(offset));
        e
    }

    /// One more level of nesting, within [`MAX_NESTING`].
    fn nest(&mut self) -> Result<(), SqlError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error_at(
                self.at,
                ErrorKind::Limit,
                format!(
                    "the DO block nests blocks, loops and IFs more than {MAX_NESTING} deep, \
                     IndexLab's limit"
                ),
            ));
        }
        Ok(())
    }

    // --- Variables.

    fn declare(&mut self, name: &str, ty: SqlType, constant: bool, not_null: bool) -> usize {
        self.vars.push(Var {
            name: name.to_string(),
            ty,
            constant,
            not_null,
        });
        let slot = self.vars.len() - 1;
        self.visible.push(slot);
        slot
    }

    /// The slot `name` means here.
    fn lookup(&self, name: &str) -> Option<usize> {
        self.visible
            .iter()
            .rev()
            .copied()
            .find(|&s| self.vars[s].name == name)
    }

    /// The columns an expression is bound over: every slot, named where its
    /// name means it here (others get a name no identifier can have).
    fn scope(&self) -> Scope {
        let mut columns: Vec<(String, String, SqlType)> = self
            .vars
            .iter()
            .map(|v| (String::new(), "\0".to_string(), v.ty))
            .collect();
        for (i, v) in self.vars.iter().enumerate() {
            if self.lookup(&v.name) == Some(i) {
                columns[i].1 = v.name.clone();
            }
        }
        Scope { columns }
    }

    // --- Blocks and statements.

    /// `<<label>>`, if next.
    fn opt_label(&mut self) -> Result<Option<String>, SqlError> {
        if !self.eat(&Token::ShiftLeft) {
            return Ok(None);
        }
        let name = self.peek().and_then(Tok::identifier);
        let Some(name) = name else {
            return Err(self.unexpected());
        };
        self.at += 1;
        self.expect(&Token::ShiftRight)?;
        Ok(Some(name))
    }

    /// `[DECLARE …] BEGIN … END [label]` (the label before it is read).
    fn block(&mut self, label: Option<String>) -> Result<Block, SqlError> {
        self.nest()?;
        let scope = self.visible.len();
        let mut decls = Vec::new();
        while self.eat_word("declare") {
            while !self.peek_is_word("begin") && !self.peek_is_word("declare") {
                if self.peek().is_some_and(|t| t.is(&Token::ShiftLeft)) {
                    return Err(self.error_at(
                        self.at,
                        ErrorKind::Syntax,
                        "block label must be placed before DECLARE, not after",
                    ));
                }
                let decl = self.declaration(scope)?;
                decls.push(decl);
            }
        }
        self.expect_word("begin")?;
        self.labels.push(Label {
            name: label.clone(),
            is_loop: false,
        });
        let body = self.statements()?;
        if self.peek_is_word("exception") {
            return Err(self.refuse(
                self.at,
                "an EXCEPTION section (trapping errors in PL/pgSQL)",
            ));
        }
        self.expect_word("end")?;
        self.end_label(label.as_deref())?;
        self.labels.pop();
        self.visible.truncate(scope);
        self.depth -= 1;
        Ok(Block { label, decls, body })
    }

    /// The optional label after END or END LOOP, which must be the one the
    /// block or loop started with.
    fn end_label(&mut self, start: Option<&str>) -> Result<(), SqlError> {
        let Some(end) = self.peek().and_then(Tok::identifier) else {
            return Ok(());
        };
        if self
            .peek_word()
            .is_some_and(|w| RESERVED.contains(&w.as_str()))
        {
            return Ok(());
        }
        let message = match start {
            None => format!("end label \"{end}\" specified for unlabeled block"),
            Some(s) if s != end => {
                format!("end label \"{end}\" differs from block's label \"{s}\"")
            }
            Some(_) => {
                self.at += 1;
                return Ok(());
            }
        };
        Err(self.error_at(self.at, ErrorKind::Syntax, message))
    }

    /// `name [CONSTANT] type [NOT NULL] [{:= | = | DEFAULT} expr];`
    fn declaration(&mut self, block_scope: usize) -> Result<Decl, SqlError> {
        let name_at = self.at;
        let Some(name) = self.peek().and_then(Tok::identifier) else {
            return Err(self.unexpected());
        };
        if self.visible[block_scope..]
            .iter()
            .any(|&s| self.vars[s].name == name)
        {
            return Err(self.error_at(
                name_at,
                ErrorKind::Syntax,
                format!("duplicate declaration at or near \"{name}\""),
            ));
        }
        self.at += 1;
        match self.peek_word().as_deref() {
            Some("alias") => return Err(self.refuse(self.at, "an ALIAS declaration")),
            Some("cursor" | "scroll" | "no") => {
                return Err(self.refuse(self.at, "a cursor (DECLARE … CURSOR)"))
            }
            _ => {}
        }
        let constant = self.eat_word("constant");
        let ty = self.declared_type()?;
        if self.eat_word("collate") {
            self.at += 1;
        }
        let not_null = if self.eat_word("not") {
            self.expect_word("null")?;
            true
        } else {
            false
        };
        let has_default =
            self.eat(&Token::Assignment) || self.eat(&Token::Eq) || self.eat_word("default");
        let default = if has_default {
            let (start, end, _) = self.until(&[Stop::Semi], ";")?;
            Some(self.expression(start, end)?)
        } else {
            self.expect(&Token::SemiColon)?;
            None
        };
        if not_null && default.is_none() {
            return Err(self.error_at(
                name_at,
                ErrorKind::Syntax,
                format!(
                    "variable \"{name}\" must have a default value, since it's declared NOT NULL"
                ),
            ));
        }
        let slot = self.declare(&name, ty, constant, not_null);
        Ok(Decl {
            slot,
            default,
            at: self.toks[name_at].start,
        })
    }

    /// A declaration's type: the words up to `:=`, `=`, DEFAULT, NOT, COLLATE
    /// or `;`, read by the SQL parser as a column's type (IndexLab's types,
    /// and its refusals, are CREATE TABLE's).
    fn declared_type(&mut self) -> Result<SqlType, SqlError> {
        let first = self.at;
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            let ends = t.is(&Token::SemiColon)
                || t.is(&Token::Assignment)
                || t.is(&Token::Eq)
                || ["default", "not", "collate"].iter().any(|w| t.is_word(w));
            if depth == 0 && ends {
                break;
            }
            match &t.kind {
                Kind::Sql(Token::LParen) => depth += 1,
                Kind::Sql(Token::RParen) => depth -= 1,
                Kind::Sql(Token::Mod) => {
                    return Err(self.refuse(self.at, "a %TYPE or %ROWTYPE declaration"))
                }
                _ => {}
            }
            self.at += 1;
        }
        if self.at == first {
            return Err(self.unexpected());
        }
        let (start, end) = (self.toks[first].start, self.toks[self.at - 1].end);
        let written = self.code[start..end].to_ascii_lowercase();
        match written.as_str() {
            "record" => return Err(self.refuse(first, "a record variable")),
            "refcursor" => return Err(self.refuse(first, "a cursor (refcursor)")),
            _ => {}
        }
        const PREFIX: &str = "create table declared (v ";
        let piece = Piece {
            start,
            prefix: PREFIX.len(),
            text: format!("{PREFIX}{})", &self.code[start..end]),
        };
        match parse_statement(&piece.text) {
            Ok(Statement::CreateTable(t)) if t.columns.len() == 1 && !t.columns[0].serial => {
                Ok(t.columns[0].ty)
            }
            Ok(_) => Err(self.error_at(
                first,
                ErrorKind::Semantic,
                format!("type \"{written}\" does not exist"),
            )),
            Err(e) => Err(self.piece_error(e, &piece)),
        }
    }

    /// Statements up to END, ELSIF, ELSE, EXCEPTION (or the end of the code).
    fn statements(&mut self) -> Result<Vec<Stmt>, SqlError> {
        let mut out = Vec::new();
        loop {
            let ends = self.peek().is_none()
                || ["end", "elsif", "elseif", "else", "exception"]
                    .iter()
                    .any(|w| self.peek_is_word(w));
            if ends {
                return Ok(out);
            }
            out.push(self.statement()?);
        }
    }

    fn statement(&mut self) -> Result<Stmt, SqlError> {
        let first = self.at;
        let at = self.peek().map_or(self.code.len(), |t| t.start);
        let kind = if self.peek().is_some_and(|t| t.is(&Token::ShiftLeft)) {
            let label = self.opt_label()?;
            self.labelled(label)?
        } else {
            let Some(word) = self.peek_word() else {
                return Err(self.assignment_or_error());
            };
            match word.as_str() {
                "declare" | "begin" | "loop" | "while" | "for" | "foreach" => {
                    self.labelled(None)?
                }
                "if" => self.if_statement()?,
                "exit" | "continue" => self.exit(word == "continue")?,
                "return" => self.return_statement()?,
                "raise" => self.raise()?,
                "assert" => self.assert()?,
                "null" => {
                    self.at += 1;
                    self.expect(&Token::SemiColon)?;
                    StmtKind::Null
                }
                "perform" => self.sql_statement()?,
                "execute" => self.execute_statement()?,
                "get" => return Err(self.refuse(first, "GET DIAGNOSTICS")),
                "open" | "fetch" | "move" | "close" => {
                    return Err(self.refuse(first, "a cursor (OPEN, FETCH, MOVE, CLOSE)"))
                }
                "case" => return Err(self.refuse(first, "the CASE statement of PL/pgSQL")),
                "commit" | "rollback" => {
                    return Err(self.refuse(
                        first,
                        &format!("{} inside a DO block", word.to_ascii_uppercase()),
                    ))
                }
                "call" => return Err(self.refuse(first, "CALL of a procedure")),
                "do" => return Err(self.refuse(first, "a DO block inside a DO block")),
                _ if self.is_assignment() => self.assignment()?,
                w if SQL_WORDS.contains(&w) => self.sql_statement()?,
                _ => return Err(self.assignment_or_error()),
            }
        };
        Ok(Stmt { at, kind })
    }

    /// A block or loop, after its label (if any).
    fn labelled(&mut self, label: Option<String>) -> Result<StmtKind, SqlError> {
        match self.peek_word().as_deref() {
            Some("declare" | "begin") => {
                let block = self.block(label)?;
                self.expect(&Token::SemiColon)?;
                Ok(StmtKind::Block(block))
            }
            Some("loop" | "while" | "for") => {
                Ok(StmtKind::Loop(Box::new(self.loop_statement(label)?)))
            }
            Some("foreach") => Err(self.refuse(self.at, "FOREACH (looping over an array)")),
            _ => Err(self.unexpected()),
        }
    }

    /// `name := …` or `name = …` of a variable.
    fn is_assignment(&self) -> bool {
        let next = self.toks.get(self.at + 1);
        let assigns = next.is_some_and(|t| t.is(&Token::Assignment));
        let known = self
            .peek()
            .and_then(Tok::identifier)
            .is_some_and(|n| self.lookup(&n).is_some());
        assigns || (known && next.is_some_and(|t| t.is(&Token::Eq)))
    }

    /// What a statement that is no statement is: an assignment to something
    /// that is not a variable, or a syntax error at its first word.
    fn assignment_or_error(&self) -> SqlError {
        let target = self.peek().and_then(Tok::identifier);
        let next = self.toks.get(self.at + 1);
        match target {
            Some(name) if self.lookup(&name).is_some() => {
                let element = next.is_some_and(|t| t.is(&Token::LBracket) || t.is(&Token::Period));
                if element {
                    return self.refuse(self.at, "assigning to an array element or a record field");
                }
                self.unexpected()
            }
            Some(name) if next.is_some_and(|t| t.is(&Token::Assignment)) => self.error_at(
                self.at,
                ErrorKind::Semantic,
                format!("\"{name}\" is not a known variable"),
            ),
            _ => self.unexpected(),
        }
    }

    fn assignment(&mut self) -> Result<StmtKind, SqlError> {
        let target_at = self.at;
        let name = self.peek().and_then(Tok::identifier).unwrap_or_default();
        let Some(slot) = self.lookup(&name) else {
            return Err(self.assignment_or_error());
        };
        if self.vars[slot].constant {
            return Err(self.error_at(
                target_at,
                ErrorKind::Semantic,
                format!("variable \"{name}\" is declared CONSTANT"),
            ));
        }
        self.at += 2;
        let (start, end, _) = self.until(&[Stop::Semi], ";")?;
        let value = self.expression(start, end)?;
        Ok(StmtKind::Assign { slot, value })
    }
}
