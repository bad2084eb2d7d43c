//! Runs a parsed DO block on a profile, statement by statement, as
//! PostgreSQL 15's `pl_exec.c` does: variables hold values of their declared
//! types, SQL statements get the variables they read as parameters, loops
//! leave through EXIT, CONTINUE and labels by `pl_exec.c`'s rules, and FOUND
//! says whether the last SQL statement (or FOR loop) found anything.
//!
//! The whole block is one transaction (one `now()`), and everything it does
//! stays within the run's limits: its statements' rows count against
//! `max_rows`, and a block runs at most [`MAX_STEPS`] statements and loop
//! iterations, so that a LOOP without EXIT ends with a message.

use super::cast;
use super::tree::*;
use crate::profile::{Outcome, ScenarioEngine};
use crate::rng::Rng;
use crate::scenario::row_budget::RowBudget;
use crate::sql::ast::{Expr, FromItem, Select, Statement, TxnCommand};
use crate::sql::error::{find_token, ErrorKind, Position, SqlError};
use crate::sql::eval::{eval, Bound, EvalEnv};
use crate::value::{SqlType, Value};

/// The most statements and loop iterations one DO block may run: ten times
/// the published loops' 50 000 lookups, and a runaway `LOOP` of assignments
/// stops within a fraction of a second.
pub(super) const MAX_STEPS: u64 = 1_000_000;

/// Notices one block keeps (a RAISE in a long loop would fill the report).
const MAX_NOTICES: usize = 1000;

/// Runs `block` (parsed from the DO statement `sql`) on `engine`; an error is
/// placed relative to `sql`.
pub(super) fn run<E: ScenarioEngine>(
    block: &DoBlock,
    sql: &str,
    engine: &mut E,
    rows: &mut RowBudget,
) -> Result<Outcome, SqlError> {
    let own_transaction = begin(engine)?;
    let mut run = Run {
        engine: &mut *engine,
        rows,
        block,
        sql,
        values: vec![Value::Null; block.vars.len()],
        steps: 0,
        notices: Vec::new(),
        notices_dropped: 0,
        checked: vec![false; block.queries],
        rng: Rng::new(0),
    };
    run.set_found(false);
    let result = run.block(&block.body).map(|_| run.outcome());
    if !own_transaction {
        return result;
    }
    match result {
        Ok(out) => {
            engine.execute(&Statement::Transaction(TxnCommand::Commit))?;
            Ok(out)
        }
        // A failed block is a failed transaction: what it did is undone, as
        // PostgreSQL undoes it.
        Err(e) if engine.rollback_undoes_all() => {
            engine.execute(&Statement::Transaction(TxnCommand::Rollback))?;
            Err(e)
        }
        // IndexLab undoes only row changes: after a schema change the
        // block's work stays, and the error says so.
        Err(e) => {
            engine.execute(&Statement::Transaction(TxnCommand::Commit))?;
            Err(e.with_hint(
                "PostgreSQL would undo everything the block did; IndexLab undoes only \
                     row changes, and this block also changed the schema, the statistics or \
                     a setting, so its changes before the error stay",
            ))
        }
    }
}

/// Starts the block's transaction, as PostgreSQL runs a DO block in one; not
/// when a transaction block (BEGIN) is already open, whose statement the DO
/// block then is. BEGIN answers with a notice exactly then.
fn begin<E: ScenarioEngine>(engine: &mut E) -> Result<bool, SqlError> {
    let out = engine.execute(&Statement::Transaction(TxnCommand::Begin))?;
    Ok(out.notices.is_empty())
}

/// How a statement ends: normally, or leaving loops and blocks.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Flow<'a> {
    Next,
    Exit(Option<&'a str>),
    Continue(Option<&'a str>),
    Return,
}

struct Run<'a, E> {
    engine: &'a mut E,
    rows: &'a mut RowBudget,
    block: &'a DoBlock,
    sql: &'a str,
    /// Each variable's value, by slot.
    values: Vec<Value>,
    steps: u64,
    notices: Vec<String>,
    notices_dropped: u64,
    /// Per query: whether its variables were checked against its tables' columns.
    checked: Vec<bool>,
    /// For evaluation; simple expressions never draw from it.
    rng: Rng,
}

impl<'a, E: ScenarioEngine> Run<'a, E> {
    fn outcome(&mut self) -> Outcome {
        let mut out = Outcome::tag("DO");
        out.notices = std::mem::take(&mut self.notices);
        if self.notices_dropped > 0 {
            out.notices.push(format!(
                "… and {} more notices (IndexLab keeps a block's first {MAX_NOTICES})",
                self.notices_dropped
            ));
        }
        out
    }

    // --- Statements.

    fn block(&mut self, b: &'a Block) -> Result<Flow<'a>, SqlError> {
        for d in &b.decls {
            self.declare(d).map_err(|e| self.placed(e, d.at))?;
        }
        Ok(match self.statements(&b.body)? {
            Flow::Exit(Some(l)) if b.label.as_deref() == Some(l) => Flow::Next,
            other => other,
        })
    }

    /// A declaration, each time its block is entered: its default, or NULL.
    fn declare(&mut self, d: &'a Decl) -> Result<(), SqlError> {
        let value = match &d.default {
            Some(e) => self.value(e, self.block.vars[d.slot].ty)?,
            None => Value::Null,
        };
        self.set(d.slot, value)
    }

    fn statements(&mut self, list: &'a [Stmt]) -> Result<Flow<'a>, SqlError> {
        for s in list {
            let flow = self.statement(s)?;
            if flow != Flow::Next {
                return Ok(flow);
            }
        }
        Ok(Flow::Next)
    }

    fn statement(&mut self, s: &'a Stmt) -> Result<Flow<'a>, SqlError> {
        let result = self.step().and_then(|()| match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::Assign { slot, value } => {
                let v = self.value(value, self.block.vars[*slot].ty)?;
                self.set(*slot, v).map(|()| Flow::Next)
            }
            StmtKind::If {
                branches,
                otherwise,
            } => self.if_statement(branches, otherwise),
            StmtKind::Loop(l) => self.looping(l),
            StmtKind::Exit { next, label, when } => {
                self.exit(*next, label.as_deref(), when.as_ref())
            }
            StmtKind::Return => Ok(Flow::Return),
            StmtKind::Null => Ok(Flow::Next),
            StmtKind::Raise {
                level,
                format,
                args,
            } => self.raise(*level, format, args).map(|()| Flow::Next),
            StmtKind::Assert { condition, message } => self
                .assert(condition, message.as_ref())
                .map(|()| Flow::Next),
            StmtKind::Sql(q) => self.sql(q).map(|()| Flow::Next),
        });
        result.map_err(|e| self.placed(e, s.at))
    }

    fn if_statement(
        &mut self,
        branches: &'a [(PlExpr, Vec<Stmt>)],
        otherwise: &'a [Stmt],
    ) -> Result<Flow<'a>, SqlError> {
        for (condition, body) in branches {
            if self.condition(condition)? {
                return self.statements(body);
            }
        }
        self.statements(otherwise)
    }

    fn looping(&mut self, l: &'a Loop) -> Result<Flow<'a>, SqlError> {
        match &l.kind {
            LoopKind::Forever => loop {
                self.step()?;
                if let Some(flow) = self.iteration(l)? {
                    return Ok(flow);
                }
            },
            LoopKind::While(condition) => loop {
                self.step()?;
                if !self.condition(condition)? {
                    return Ok(Flow::Next);
                }
                if let Some(flow) = self.iteration(l)? {
                    return Ok(flow);
                }
            },
            LoopKind::Integer {
                var,
                reverse,
                lower,
                upper,
                step,
            } => {
                let lower = self.bound(lower, "lower bound of FOR loop cannot be null")?;
                let upper = self.bound(upper, "upper bound of FOR loop cannot be null")?;
                let step = match step {
                    None => 1,
                    Some(e) => self.bound(e, "BY value of FOR loop cannot be null")?,
                };
                if step <= 0 {
                    return Err(SqlError::new(
                        ErrorKind::Execution,
                        "BY value of FOR loop must be greater than zero",
                    ));
                }
                self.for_integer(l, *var, *reverse, (lower, upper, step))
            }
        }
    }

    /// `exec_stmt_fori`: the loop variable from `lower` to `upper` by
    /// `step` (down with REVERSE), stopping rather than overflowing an
    /// integer; FOUND is whether the body ran at all.
    fn for_integer(
        &mut self,
        l: &'a Loop,
        var: usize,
        reverse: bool,
        (lower, upper, step): (i64, i64, i64),
    ) -> Result<Flow<'a>, SqlError> {
        let mut i = lower;
        let mut found = false;
        let flow = loop {
            if (reverse && i < upper) || (!reverse && i > upper) {
                break Flow::Next;
            }
            found = true;
            self.values[var] = Value::Int(i);
            self.step()?;
            if let Some(flow) = self.iteration(l)? {
                break flow;
            }
            if reverse {
                if i < i64::from(i32::MIN) + step {
                    break Flow::Next;
                }
                i -= step;
            } else {
                if i > i64::from(i32::MAX) - step {
                    break Flow::Next;
                }
                i += step;
            }
        };
        self.set_found(found);
        Ok(flow)
    }

    /// Runs a loop's body once: `Some(flow)` when the loop ends with `flow`.
    fn iteration(&mut self, l: &'a Loop) -> Result<Option<Flow<'a>>, SqlError> {
        let label = l.label.as_deref();
        Ok(match self.statements(&l.body)? {
            Flow::Next | Flow::Continue(None) => None,
            Flow::Continue(Some(x)) if Some(x) == label => None,
            Flow::Exit(None) => Some(Flow::Next),
            Flow::Exit(Some(x)) if Some(x) == label => Some(Flow::Next),
            other => Some(other),
        })
    }

    fn exit(
        &mut self,
        next: bool,
        label: Option<&'a str>,
        when: Option<&'a PlExpr>,
    ) -> Result<Flow<'a>, SqlError> {
        if let Some(condition) = when {
            if !self.condition(condition)? {
                return Ok(Flow::Next);
            }
        }
        Ok(if next {
            Flow::Continue(label)
        } else {
            Flow::Exit(label)
        })
    }

    fn raise(
        &mut self,
        level: RaiseLevel,
        format: &str,
        args: &'a [PlExpr],
    ) -> Result<(), SqlError> {
        let mut texts = Vec::with_capacity(args.len());
        for a in args {
            texts.push(self.text(a)?);
        }
        let message = cast::format_message(format, &texts);
        match level {
            RaiseLevel::Hidden => Ok(()),
            RaiseLevel::Notice => {
                self.notice(message);
                Ok(())
            }
            RaiseLevel::Exception => Err(SqlError::new(ErrorKind::Execution, message)),
        }
    }

    fn assert(
        &mut self,
        condition: &'a PlExpr,
        message: Option<&'a PlExpr>,
    ) -> Result<(), SqlError> {
        if self.condition(condition)? {
            return Ok(());
        }
        let text = match message {
            Some(m) => self.text(m)?,
            None => None,
        };
        Err(SqlError::new(
            ErrorKind::Execution,
            text.unwrap_or_else(|| "assertion failed".to_string()),
        ))
    }

    fn sql(&mut self, s: &'a SqlStmt) -> Result<(), SqlError> {
        match s {
            SqlStmt::Perform(q) => {
                let out = self.execute(q)?;
                self.set_found(out.row_count > 0);
            }
            SqlStmt::Into {
                query,
                targets,
                strict,
            } => {
                let out = self.execute(query)?;
                self.assign_row(&out, targets, *strict)?;
                self.set_found(out.row_count > 0);
            }
            // PostgreSQL's EXECUTE leaves FOUND as it was.
            SqlStmt::Execute {
                command,
                targets,
                strict,
                at,
            } => {
                let out = self.dynamic(command, *at)?;
                if !targets.is_empty() {
                    self.assign_row(&out, targets, *strict)
                        .map_err(|e| self.placed(e, *at))?;
                }
            }
            SqlStmt::Run(q) => {
                let out = self.execute(q)?;
                if matches!(
                    q.statement,
                    Statement::Insert { .. } | Statement::Update { .. } | Statement::Delete { .. }
                ) {
                    self.set_found(out.row_count > 0);
                }
            }
        }
        Ok(())
    }

    /// The first row of `out` into the INTO variables (all NULL without a
    /// row); STRICT wants exactly one row.
    fn assign_row(
        &mut self,
        out: &Outcome,
        targets: &[usize],
        strict: bool,
    ) -> Result<(), SqlError> {
        let rows = result_rows(out);
        if strict && rows.len() != 1 {
            let message = if rows.is_empty() {
                "query returned no rows"
            } else {
                "query returned more than one row"
            };
            return Err(SqlError::new(ErrorKind::Execution, message));
        }
        let row = rows.first();
        for (i, &slot) in targets.iter().enumerate() {
            let value = match row.and_then(|r| r.get(i)).and_then(Option::as_deref) {
                Some(text) => cast::from_text(text, self.block.vars[slot].ty)?,
                None => Value::Null,
            };
            self.set(slot, value)?;
        }
        Ok(())
    }

    /// EXECUTE's command: its text parsed and run now, counted against the
    /// run's `max_rows` like any statement of the block.
    fn dynamic(&mut self, command: &'a PlExpr, at: usize) -> Result<Outcome, SqlError> {
        let Some(text) = self.text(command)? else {
            return Err(self.placed(
                SqlError::new(
                    ErrorKind::Execution,
                    "query string argument of EXECUTE is null",
                ),
                at,
            ));
        };
        let statement =
            crate::sql::parse::parse_statement(&text).map_err(|e| self.at_execute(e, at))?;
        if matches!(statement, Statement::Transaction(_)) {
            return Err(self.placed(
                crate::sql::error::unsupported(
                    "a DO block or transaction control run by EXECUTE inside a DO block",
                ),
                at,
            ));
        }
        let mut out = self
            .engine
            .execute(&statement)
            .map_err(|e| self.at_execute(e, at))?;
        self.rows.add(self.engine.settings(), out.row_count)?;
        for n in std::mem::take(&mut out.notices) {
            if !self.notices.contains(&n) {
                self.notice(n);
            }
        }
        Ok(out)
    }

    // --- Values.

    /// One more statement or loop iteration, within [`MAX_STEPS`].
    fn step(&mut self) -> Result<(), SqlError> {
        self.steps += 1;
        if self.steps <= MAX_STEPS {
            return Ok(());
        }
        Err(SqlError::new(
            ErrorKind::Limit,
            format!(
                "the DO block has run {MAX_STEPS} statements and loop iterations, IndexLab's \
                 limit for one block"
            ),
        )
        .with_hint(
            "a LOOP needs an EXIT (or a WHILE a condition that turns false); a longer \
             experiment can run as several blocks",
        ))
    }

    fn set(&mut self, slot: usize, value: Value) -> Result<(), SqlError> {
        let var = &self.block.vars[slot];
        if value.is_null() && var.not_null {
            return Err(SqlError::new(
                ErrorKind::Execution,
                format!(
                    "null value cannot be assigned to variable \"{}\" declared NOT NULL",
                    var.name
                ),
            ));
        }
        self.values[slot] = value;
        Ok(())
    }

    fn set_found(&mut self, found: bool) {
        self.values[0] = Value::Bool(found);
    }

    /// An expression's value as a `ty`.
    fn value(&mut self, e: &'a PlExpr, ty: SqlType) -> Result<Value, SqlError> {
        match e {
            PlExpr::Simple(b) => cast::assign(self.simple(b)?, ty),
            PlExpr::Query(q) => match self.single(q)? {
                Some(text) => cast::from_text(&text, ty),
                None => Ok(Value::Null),
            },
        }
    }

    /// An expression's text form (`None` for NULL), as RAISE prints it.
    fn text(&mut self, e: &'a PlExpr) -> Result<Option<String>, SqlError> {
        match e {
            PlExpr::Simple(b) => Ok(self.simple(b)?.cell()),
            PlExpr::Query(q) => self.single(q),
        }
    }

    fn condition(&mut self, e: &'a PlExpr) -> Result<bool, SqlError> {
        let v = self.value(e, SqlType::Bool)?;
        cast::truth(v)
    }

    /// A FOR loop's bound or step: an integer, never NULL.
    fn bound(&mut self, e: &'a PlExpr, if_null: &str) -> Result<i64, SqlError> {
        match self.value(e, SqlType::Int4)? {
            Value::Int(i) => Ok(i),
            _ => Err(SqlError::new(ErrorKind::Execution, if_null)),
        }
    }

    fn simple(&mut self, b: &Bound) -> Result<Value, SqlError> {
        let mut env = EvalEnv {
            statement_start_us: 0,
            clock_us: 0,
            rng: &mut self.rng,
            sequences: None,
        };
        eval(b, &self.values, &mut env)
    }

    /// The one value of an expression the engine runs as `SELECT expr`:
    /// NULL without a row, an error with several.
    fn single(&mut self, q: &'a Query) -> Result<Option<String>, SqlError> {
        let out = self.execute(q)?;
        if out.columns.len() != 1 {
            return Err(SqlError::new(
                ErrorKind::Execution,
                format!("query returned {} columns", out.columns.len()),
            ));
        }
        match out.row_count {
            0 => Ok(None),
            1 => Ok(out.rows.first().and_then(|r| r[0].clone())),
            _ => Err(SqlError::new(
                ErrorKind::Execution,
                "query returned more than one row",
            )),
        }
    }

    // --- SQL.

    /// Runs a query with its variables' values, counting its rows against
    /// the run's `max_rows`.
    fn execute(&mut self, q: &'a Query) -> Result<Outcome, SqlError> {
        self.check_names(q)
            .map_err(|e| self.in_piece(e, &q.piece))?;
        let bound;
        let statement = if q.vars.is_empty() {
            &q.statement
        } else {
            bound = self.bind(q);
            &bound
        };
        let mut out = self
            .engine
            .execute(statement)
            .map_err(|e| self.in_piece(e, &q.piece))?;
        self.rows.add(self.engine.settings(), out.row_count)?;
        for n in std::mem::take(&mut out.notices) {
            // The engine's notes on a statement in a loop: shown once.
            if !self.notices.contains(&n) {
                self.notice(n);
            }
        }
        Ok(out)
    }

    /// The query with each variable it reads replaced by its value.
    fn bind(&self, q: &Query) -> Statement {
        q.statement.map_exprs(&mut |e| {
            let Expr::Column { table: None, name } = e else {
                return None;
            };
            let (_, slot) = q.vars.iter().find(|(n, _)| n == name)?;
            Some(cast::parameter(
                &self.values[*slot],
                self.block.vars[*slot].ty,
            ))
        })
    }

    /// PostgreSQL's `plpgsql.variable_conflict = error`: a name that is both
    /// a variable and a column of a table the query reads is ambiguous.
    /// Checked the first time the query runs (its tables exist by then).
    fn check_names(&mut self, q: &Query) -> Result<(), SqlError> {
        if q.vars.is_empty() || self.checked[q.id] {
            return Ok(());
        }
        self.checked[q.id] = true;
        let (tables, mut columns) = sources(&q.statement);
        for t in tables {
            columns.extend(self.engine.table_columns(&t).unwrap_or_default());
        }
        match q.vars.iter().find(|(n, _)| columns.contains(n)) {
            None => Ok(()),
            Some((name, _)) => Err(SqlError::new(
                ErrorKind::Semantic,
                format!("column reference \"{name}\" is ambiguous"),
            )
            .near(name.clone())
            .with_hint("It could refer to either a PL/pgSQL variable or a table column.")),
        }
    }

    // --- Messages and places.

    fn notice(&mut self, n: String) {
        if self.notices.len() < MAX_NOTICES {
            self.notices.push(n);
        } else {
            self.notices_dropped += 1;
        }
    }

    /// The position in the DO statement of byte `offset` of the code.
    fn position(&self, offset: usize) -> Position {
        Position::START.advance(self.sql, self.block.text.statement_offset(offset))
    }

    /// An error without a place, placed at code offset `at`.
    /// An error of dynamic SQL, placed at its EXECUTE (its own position is
    /// in a text the script does not show).
    fn at_execute(&self, mut e: SqlError, at: usize) -> SqlError {
        e.at = Some(self.position(at));
        e
    }

    fn placed(&self, mut e: SqlError, at: usize) -> SqlError {
        if e.at.is_none() {
            e.at = Some(self.position(at));
        }
        e
    }

    /// An error about a word of a query, placed at that word.
    fn in_piece(&self, mut e: SqlError, piece: &Piece) -> SqlError {
        if e.at.is_none() {
            let offset = e.near.as_deref().and_then(|w| find_token(&piece.text, w));
            if let Some(offset) = offset {
                e.at = Some(self.position(piece.code_offset(offset)));
            }
        }
        e
    }
}

/// The tables a statement reads (by name) and the columns its
/// `generate_series` sources add: what its names may be columns of.
/// A statement's result rows as EXECUTE … INTO reads them: an EXPLAIN's
/// plan is rows too, one per line, or the whole document in one row for
/// FORMAT JSON, XML or YAML.
fn result_rows(out: &Outcome) -> Vec<Vec<Option<String>>> {
    match &out.explain {
        Some(lines) if out.rows.is_empty() => {
            let document = lines
                .first()
                .is_some_and(|l| l.starts_with('[') || l.starts_with('<') || l.starts_with("- "));
            if document {
                vec![vec![Some(lines.join("\n"))]]
            } else {
                lines.iter().map(|l| vec![Some(l.clone())]).collect()
            }
        }
        _ => out.rows.clone(),
    }
}

fn sources(statement: &Statement) -> (Vec<String>, Vec<String>) {
    let mut tables = Vec::new();
    let mut columns = Vec::new();
    match statement {
        Statement::Select(q) | Statement::Insert { source: q, .. } => {
            from_clause(q, &mut tables, &mut columns)
        }
        Statement::Update { table, .. } | Statement::Delete { table, .. } => {
            tables.push(table.clone())
        }
        _ => {}
    }
    // The subqueries' own FROM clauses, at any depth.
    statement.map_exprs(&mut |e| {
        if let Expr::ScalarSubquery(q)
        | Expr::Exists { query: q, .. }
        | Expr::InSubquery { query: q, .. } = e
        {
            from_clause(q, &mut tables, &mut columns);
        }
        None
    });
    (tables, columns)
}

fn from_clause(q: &Select, tables: &mut Vec<String>, columns: &mut Vec<String>) {
    if q.set_operation.is_some() {
        for b in crate::exec::set_operation::branches(q) {
            from_clause(b, tables, columns);
        }
    }
    for (_, cte) in &q.with {
        from_clause(cte, tables, columns);
    }
    for item in q.from.iter().chain(q.joins.iter().map(|j| &j.item)) {
        match item {
            FromItem::Table { name, .. } => tables.push(name.clone()),
            FromItem::Subquery {
                query,
                columns: named,
                ..
            } => {
                from_clause(query, tables, columns);
                columns.extend(named.iter().cloned());
            }
            FromItem::Inspect { func, .. } => {
                columns.extend(func.columns().iter().map(|(c, _)| c.to_string()))
            }
            FromItem::Series { alias, column, .. } => columns.push(
                column
                    .clone()
                    .or_else(|| alias.clone())
                    .unwrap_or_else(|| "generate_series".to_string()),
            ),
        }
    }
}
