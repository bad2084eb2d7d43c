//! The SQL inside a block: expressions (read as `SELECT expr`) and SQL
//! statements (PERFORM, `SELECT … INTO`, the rest), each cut out of the code
//! up to the word that ends it, as `pl_gram.y`'s `read_sql_construct` does,
//! and handed to IndexLab's SQL parser.

use super::{Parser, Stop};
use crate::scenario::plpgsql::tokens::Kind;
use crate::scenario::plpgsql::tree::*;
use crate::sql::ast::{Expr, Select, SelectItem, Statement};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::bind;
use crate::sql::functions::ScalarFunc;
use crate::sql::parse::parse_statement;
use sqlparser::tokenizer::Token;

impl Parser<'_> {
    /// The code up to the first of `stops` outside parentheses, which is
    /// eaten: its byte range and which stop it was. A `;` that is not a stop
    /// is PostgreSQL's "missing … at end of SQL expression".
    pub(super) fn until(
        &mut self,
        stops: &[Stop],
        expected: &str,
    ) -> Result<(usize, usize, Stop), SqlError> {
        let first = self.at;
        let mut depth = 0i32;
        loop {
            let Some(t) = self.peek() else {
                return Err(self.missing(expected));
            };
            if depth == 0 {
                if let Some(stop) = stops.iter().copied().find(|s| s.matches(t)) {
                    let range = if self.at == first {
                        (t.start, t.start)
                    } else {
                        (self.toks[first].start, self.toks[self.at - 1].end)
                    };
                    self.at += 1;
                    return Ok((range.0, range.1, stop));
                }
            }
            match &t.kind {
                Kind::Sql(Token::LParen | Token::LBracket) => depth += 1,
                Kind::Sql(Token::RParen | Token::RBracket) => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(self.error_at(
                            self.at,
                            ErrorKind::Syntax,
                            "mismatched parentheses",
                        ));
                    }
                }
                Kind::Sql(Token::SemiColon) => return Err(self.missing(expected)),
                _ => {}
            }
            self.at += 1;
        }
    }

    fn missing(&self, expected: &str) -> SqlError {
        if expected == ";" {
            return self.unexpected();
        }
        self.error_at(
            self.at,
            ErrorKind::Syntax,
            format!("missing \"{expected}\" at end of SQL expression"),
        )
    }

    /// The expression in code `start..end`.
    pub(super) fn expression(&mut self, start: usize, end: usize) -> Result<PlExpr, SqlError> {
        let (q, piece) = self.parse_expression(start, end)?;
        self.compile(q, piece)
    }

    /// The expression in code `start..end` read as `SELECT expr`.
    pub(super) fn parse_expression(
        &self,
        start: usize,
        end: usize,
    ) -> Result<(Select, Piece), SqlError> {
        if start == end {
            let index = self.toks.partition_point(|t| t.start < start);
            return Err(self.error_at(
                index,
                ErrorKind::Syntax,
                format!(
                    "syntax error at or near \"{}\"",
                    self.toks
                        .get(index)
                        .map_or("", |t| &self.code[t.start..t.end])
                ),
            ));
        }
        let piece = Piece {
            start,
            prefix: "select ".len(),
            text: format!("select {}", &self.code[start..end]),
        };
        let parsed = parse_statement(&piece.text).map_err(|e| self.piece_error(e, &piece))?;
        let Statement::Select(q) = parsed else {
            return Err(self.piece_error(
                SqlError::new(ErrorKind::Syntax, "syntax error in an expression"),
                &piece,
            ));
        };
        Ok((q, piece))
    }

    /// An expression the interpreter evaluates, or a query the engine runs.
    pub(super) fn compile(&mut self, q: Select, piece: Piece) -> Result<PlExpr, SqlError> {
        if let Some(e) = simple_expression(&q) {
            let bound = bind(e, &self.scope()).map_err(|e| self.piece_error(e, &piece))?;
            return Ok(PlExpr::Simple(bound));
        }
        Ok(PlExpr::Query(self.query(Statement::Select(q), piece)))
    }

    /// A SQL statement through its `;`: PERFORM, SELECT … INTO, or a
    /// statement run for its effect.
    pub(super) fn sql_statement(&mut self) -> Result<StmtKind, SqlError> {
        let first = self.at;
        let word = self.peek_word().unwrap_or_default();
        let (_, end, _) = self.until(&[Stop::Semi], ";")?;
        let start = self.toks[first].start;
        let last = self.at - 1; // the `;`
        if word == "perform" {
            let after = self.toks[first].end;
            let piece = Piece {
                start,
                prefix: 0,
                text: format!("select {}", &self.code[after.min(end)..end]),
            };
            let q = self.parse_piece(&piece)?;
            if !matches!(q, Statement::Select(_)) {
                return Err(self.error_at(first + 1, ErrorKind::Syntax, "syntax error in PERFORM"));
            }
            return Ok(StmtKind::Sql(SqlStmt::Perform(self.query(q, piece))));
        }
        let into = if matches!(word.as_str(), "select" | "with") {
            self.select_into(first, last)?
        } else {
            None
        };
        let mut text = self.code[start..end].to_string();
        if let Some((from, to, _, _)) = &into {
            blank(&mut text, from - start, to - start);
        }
        let piece = Piece {
            start,
            prefix: 0,
            text,
        };
        let statement = self.parse_piece(&piece)?;
        if let Some((_, _, targets, strict)) = into {
            if !matches!(statement, Statement::Select(_)) {
                return Err(self.refuse(first, "SELECT INTO in this form"));
            }
            let query = self.query(statement, piece);
            return Ok(StmtKind::Sql(SqlStmt::Into {
                query,
                targets,
                strict,
            }));
        }
        self.check_runnable(&statement, first)?;
        Ok(StmtKind::Sql(SqlStmt::Run(self.query(statement, piece))))
    }

    /// `EXECUTE command [INTO [STRICT] var, …];` (`pl_gram.y`'s
    /// `stmt_dynexecute`). `USING` parameters are refused by name.
    pub(super) fn execute_statement(&mut self) -> Result<StmtKind, SqlError> {
        let first = self.at;
        let at = self.toks[first].start;
        self.at += 1;
        let stops = [Stop::Word("into"), Stop::Word("using"), Stop::Semi];
        let (start, end, mut stop) = self.until(&stops, ";")?;
        let command = self.expression(start, end)?;
        let (mut targets, mut strict) = (Vec::new(), false);
        if stop == Stop::Word("into") {
            strict = self.eat_word("strict");
            loop {
                targets.push(self.target()?);
                if !self.eat(&Token::Comma) {
                    break;
                }
            }
            stop = if self.eat_word("using") {
                Stop::Word("using")
            } else {
                self.expect(&Token::SemiColon)?;
                Stop::Semi
            };
        }
        if stop == Stop::Word("using") {
            return Err(self.refuse(first, "EXECUTE … USING (parameters of dynamic SQL)"));
        }
        Ok(StmtKind::Sql(SqlStmt::Execute {
            command,
            targets,
            strict,
            at,
        }))
    }

    /// A variable an INTO assigns to, at the next token.
    fn target(&mut self) -> Result<usize, SqlError> {
        if self.at >= self.toks.len() {
            return Err(self.unexpected());
        }
        let slot = self.assignable(self.at)?;
        self.at += 1;
        Ok(slot)
    }

    /// The slot of the variable token `i` names, which an INTO may assign.
    fn assignable(&self, i: usize) -> Result<usize, SqlError> {
        let t = &self.toks[i];
        let Some(name) = t.identifier() else {
            let near = &self.code[t.start..t.end];
            return Err(self.error_at(
                i,
                ErrorKind::Syntax,
                format!("syntax error at or near \"{near}\""),
            ));
        };
        let Some(slot) = self.lookup(&name) else {
            return Err(self.error_at(
                i,
                ErrorKind::Semantic,
                format!("\"{name}\" is not a known variable"),
            ));
        };
        if self.vars[slot].constant {
            return Err(self.error_at(
                i,
                ErrorKind::Semantic,
                format!("variable \"{name}\" is declared CONSTANT"),
            ));
        }
        Ok(slot)
    }

    fn parse_piece(&self, piece: &Piece) -> Result<Statement, SqlError> {
        parse_statement(&piece.text).map_err(|e| self.piece_error(e, piece))
    }

    /// `INTO [STRICT] var [, var …]` of a SELECT between tokens `first` and
    /// `last` (outside parentheses): its code range, the slots, STRICT.
    #[allow(clippy::type_complexity)]
    fn select_into(
        &self,
        first: usize,
        last: usize,
    ) -> Result<Option<(usize, usize, Vec<usize>, bool)>, SqlError> {
        let mut depth = 0i32;
        let mut i = first;
        while i < last {
            let t = &self.toks[i];
            match &t.kind {
                Kind::Sql(Token::LParen) => depth += 1,
                Kind::Sql(Token::RParen) => depth -= 1,
                _ if depth == 0 && t.is_word("into") => break,
                _ => {}
            }
            i += 1;
        }
        if i >= last {
            return Ok(None);
        }
        let from = self.toks[i].start;
        i += 1;
        let strict = self.toks[i].is_word("strict");
        i += usize::from(strict);
        let mut targets = Vec::new();
        loop {
            targets.push(self.assignable(i)?);
            i += 1;
            if i < last && self.toks[i].is(&Token::Comma) {
                i += 1;
                continue;
            }
            return Ok(Some((from, self.toks[i - 1].end, targets, strict)));
        }
    }

    /// Refuses what a DO block cannot run: a query whose rows go nowhere, and
    /// what IndexLab's model of one long transaction lacks.
    fn check_runnable(&self, statement: &Statement, first: usize) -> Result<(), SqlError> {
        match statement {
            Statement::Select(_) | Statement::Explain { .. } | Statement::Show { .. } => Err(self
                .error_at(
                    first,
                    ErrorKind::Semantic,
                    "query has no destination for result data",
                )
                .with_hint("If you want to discard the results of a SELECT, use PERFORM instead.")),
            // RETURNING's rows, like a SELECT's, need INTO (plpgsql's
            // exec_stmt_execsql; no PERFORM hint for DML).
            Statement::Insert { returning, .. }
            | Statement::Update { returning, .. }
            | Statement::Delete { returning, .. }
                if !returning.is_empty() =>
            {
                Err(self.error_at(
                    first,
                    ErrorKind::Semantic,
                    "query has no destination for result data",
                ))
            }
            Statement::Update { .. } | Statement::Delete { .. } if !self.one_transaction_writes => {
                Err(one_transaction(statement.tag()).at(self.position(self.toks[first].start)))
            }
            // DO UPDATE replaces row versions as UPDATE does.
            Statement::Insert {
                on_conflict: Some(oc),
                ..
            } if !self.one_transaction_writes
                && matches!(oc.action, crate::sql::ast::ConflictAction::Update { .. }) =>
            {
                Err(one_transaction("INSERT … ON CONFLICT DO UPDATE")
                    .at(self.position(self.toks[first].start)))
            }
            Statement::Vacuum(_) => Err(self.error_at(
                first,
                ErrorKind::Semantic,
                "VACUUM cannot be executed from a function",
            )),
            Statement::Transaction(_)
            | Statement::Prepare { .. }
            | Statement::Execute { .. }
            | Statement::Deallocate { .. } => {
                Err(self.refuse(first, &format!("{} inside a DO block", statement.tag())))
            }
            _ => Ok(()),
        }
    }

    /// A statement with the variables it reads.
    fn query(&mut self, statement: Statement, piece: Piece) -> Box<Query> {
        let mut names: Vec<String> = Vec::new();
        if matches!(
            statement,
            Statement::Select(_)
                | Statement::Insert { .. }
                | Statement::Update { .. }
                | Statement::Delete { .. }
        ) {
            statement.map_exprs(&mut |e| {
                if let Expr::Column { table: None, name } = e {
                    if !names.contains(name) {
                        names.push(name.clone());
                    }
                }
                None
            });
        }
        let vars = names
            .into_iter()
            .filter_map(|n| self.lookup(&n).map(|slot| (n, slot)))
            .collect();
        self.queries += 1;
        Box::new(Query {
            id: self.queries - 1,
            statement,
            vars,
            piece,
        })
    }
}

/// The expression of `SELECT expr` when it only computes on values (no
/// table, subquery, aggregate, clock, random number or catalog): the
/// interpreter evaluates it, as PostgreSQL's "simple expressions" skip the
/// executor.
fn simple_expression(q: &Select) -> Option<&Expr> {
    let bare = q.with.is_empty()
        && q.from.is_empty()
        && q.joins.is_empty()
        && q.filter.is_none()
        && q.group_by.is_empty()
        && q.having.is_none()
        && !q.distinct
        && q.order_by.is_empty()
        && q.limit.is_none()
        && q.offset.is_none()
        && q.values.is_none()
        && q.items.len() == 1;
    let Some(SelectItem::Expr { expr, .. }) = q.items.first().filter(|_| bare) else {
        return None;
    };
    let mut simple = true;
    expr.visit(&mut |e| {
        simple &= match e {
            Expr::Call(_)
            | Expr::Param(_)
            | Expr::ScalarSubquery(_)
            | Expr::Exists { .. }
            | Expr::InSubquery { .. }
            | Expr::Aggregate { .. }
            | Expr::Column { table: Some(_), .. } => false,
            Expr::Function { func, .. } => !matches!(
                func,
                ScalarFunc::Regclass
                    | ScalarFunc::PgRelationSize
                    | ScalarFunc::PgTableSize
                    | ScalarFunc::PgIndexesSize
                    | ScalarFunc::PgTotalRelationSize
                    // The sequences are the engine's.
                    | ScalarFunc::NextVal
                    | ScalarFunc::CurrVal
                    | ScalarFunc::SetVal
                    | ScalarFunc::LastVal
            ),
            _ => true,
        }
    });
    simple.then_some(expr)
}

/// Spaces in place of `text[from..to]` (newlines kept, so that positions
/// after it stay where they were).
fn blank(text: &mut String, from: usize, to: usize) {
    let blanked: String = text[from..to]
        .bytes()
        .map(|b| if b == b'\n' { '\n' } else { ' ' })
        .collect();
    text.replace_range(from..to, &blanked);
}

/// UPDATE or DELETE inside a DO block on the pg profile.
fn one_transaction(kind: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Unsupported,
        format!(
            "{kind} inside a DO block is not supported by IndexLab on the pg profile: PostgreSQL \
             runs the whole block as one transaction, so the row versions it replaces cannot be \
             pruned or vacuumed until the block ends, and IndexLab's heap, which commits each \
             statement, does not model that storage effect"
        ),
    )
    .with_hint(format!(
        "run the {kind} as a statement of its own, or the block on the yb profile"
    ))
}
