//! A DO block as `parse` builds it and `run` walks it: PL/pgSQL's statements,
//! with every variable resolved to a slot and every SQL statement and
//! expression already parsed by IndexLab's SQL parser.

use crate::sql::ast::Statement;
use crate::sql::eval::Bound;
use crate::value::SqlType;

/// A parsed DO block.
#[derive(Debug)]
pub(super) struct DoBlock {
    /// Every variable of the block and its inner blocks and loops; a slot is
    /// an index here. Slot 0 is `found`, which PostgreSQL declares itself.
    pub vars: Vec<Var>,
    pub body: Block,
    /// How many [`Query`]s the block has (their `id`s are `0..queries`).
    pub queries: usize,
    /// Where the block's text is in its statement (for error positions).
    pub text: BodyText,
}

/// Where the code of `DO '…'` or `DO $$…$$` sits in the statement's text.
#[derive(Debug, Clone, Default)]
pub(super) struct BodyText {
    /// The byte offset of the code's first character in the statement.
    pub start: usize,
    /// Offsets in the code (as read, unescaped) after which the statement has
    /// one more byte: the doubled quotes of a body written as `'…'`.
    pub doubled_quotes: Vec<usize>,
}

impl BodyText {
    /// The statement offset of byte `offset` of the code.
    pub fn statement_offset(&self, offset: usize) -> usize {
        let extra = self.doubled_quotes.partition_point(|&q| q < offset);
        self.start + offset + extra
    }
}

#[derive(Debug, Clone)]
pub(super) struct Var {
    pub name: String,
    pub ty: SqlType,
    pub constant: bool,
    pub not_null: bool,
}

/// `[<<label>>] [DECLARE …] BEGIN … END [label]`.
#[derive(Debug)]
pub(super) struct Block {
    pub label: Option<String>,
    /// Initialized, in order, each time the block is entered.
    pub decls: Vec<Decl>,
    pub body: Vec<Stmt>,
}

#[derive(Debug)]
pub(super) struct Decl {
    pub slot: usize,
    pub default: Option<PlExpr>,
    /// The byte offset of the variable's name in the code.
    pub at: usize,
}

/// One statement; `at` is the byte offset of its first word in the code.
#[derive(Debug)]
pub(super) struct Stmt {
    pub at: usize,
    pub kind: StmtKind,
}

#[derive(Debug)]
pub(super) enum StmtKind {
    Block(Block),
    Assign {
        slot: usize,
        value: PlExpr,
    },
    If {
        branches: Vec<(PlExpr, Vec<Stmt>)>,
        otherwise: Vec<Stmt>,
    },
    Loop(Box<Loop>),
    /// EXIT (`next: false`) or CONTINUE, to the innermost loop or a label.
    Exit {
        next: bool,
        label: Option<String>,
        when: Option<PlExpr>,
    },
    Return,
    Null,
    Raise {
        level: RaiseLevel,
        format: String,
        args: Vec<PlExpr>,
    },
    Assert {
        condition: PlExpr,
        message: Option<PlExpr>,
    },
    Sql(SqlStmt),
}

#[derive(Debug)]
pub(super) struct Loop {
    pub label: Option<String>,
    pub kind: LoopKind,
    pub body: Vec<Stmt>,
}

#[derive(Debug)]
pub(super) enum LoopKind {
    /// `LOOP … END LOOP`: until an EXIT.
    Forever,
    While(PlExpr),
    /// `FOR var IN [REVERSE] lower .. upper [BY step]`.
    Integer {
        var: usize,
        reverse: bool,
        lower: PlExpr,
        upper: PlExpr,
        step: Option<PlExpr>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RaiseLevel {
    /// DEBUG and LOG: not sent to the client at psql's default
    /// `client_min_messages` (notice), so nothing is shown.
    Hidden,
    /// NOTICE, and INFO and WARNING (IndexLab has one kind of message).
    Notice,
    /// EXCEPTION: an error that ends the block.
    Exception,
}

/// A SQL statement of the block.
#[derive(Debug)]
pub(super) enum SqlStmt {
    /// `PERFORM …`: a SELECT whose rows are dropped.
    Perform(Box<Query>),
    /// `SELECT … INTO [STRICT] var, …`.
    Into {
        query: Box<Query>,
        targets: Vec<usize>,
        strict: bool,
    },
    /// INSERT, UPDATE, DELETE and the DDL: run for their effect.
    Run(Box<Query>),
    /// `EXECUTE command [INTO [STRICT] var, …]`: dynamic SQL, the text of
    /// `command` parsed and run when the statement is reached. `at` is the
    /// code offset of the EXECUTE, where its errors are placed.
    Execute {
        command: PlExpr,
        targets: Vec<usize>,
        strict: bool,
        at: usize,
    },
}

/// An expression: evaluated in the interpreter when it only computes on
/// values, else run as `SELECT expr` by the engine, as PostgreSQL runs it.
#[derive(Debug)]
pub(super) enum PlExpr {
    /// Bound over the block's slots: a `Bound::Col(i)` reads slot i.
    Simple(Bound),
    Query(Box<Query>),
}

/// A SQL statement, parsed, with the variables it reads.
#[derive(Debug)]
pub(super) struct Query {
    /// Its number in the block (the interpreter keeps per-query state).
    pub id: usize,
    pub statement: Statement,
    /// Names the statement uses as columns that are the block's variables
    /// there, with their slots: PostgreSQL passes their values as parameters.
    pub vars: Vec<(String, usize)>,
    pub piece: Piece,
}

/// The text IndexLab's SQL parser read for a statement or expression, and
/// where it comes from in the code: `text[prefix..]` is the code from `start`
/// (a PERFORM is read as `select ` in place of its `perform`, an expression
/// after a `select ` the code does not have, a `SELECT … INTO` with its INTO
/// clause blanked out).
#[derive(Debug)]
pub(super) struct Piece {
    pub start: usize,
    pub prefix: usize,
    pub text: String,
}

impl Piece {
    /// The code offset of byte `offset` of the text.
    pub fn code_offset(&self, offset: usize) -> usize {
        self.start + offset.saturating_sub(self.prefix)
    }
}
