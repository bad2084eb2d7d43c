//! IndexLab's own small SQL syntax tree: the subset the seed articles use.
//!
//! `sqlparser` parses; [`super::parse`] converts its large, general tree into this
//! one, rejecting what we do not model with a message that names the construct. The
//! planner and executors only ever see these types.

use crate::value::{SqlType, Value};

/// Sort direction of an index column or ORDER BY item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    Asc,
    Desc,
}

/// A column of an index or primary key, with its order (HASH for YugabyteDB's
/// hash-sharded first column).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyColumn {
    pub name: String,
    pub order: Order,
    /// `HASH` in YugabyteDB's `PRIMARY KEY (id HASH)`.
    pub hash: bool,
    /// An index on an expression (`lower(v)`, `(a + b)`); `name` is then
    /// the column name PostgreSQL gives it (`lower`, `expr`).
    pub expr: Option<Expr>,
    /// Written in a group hashed together, YugabyteDB's `(a, b) HASH`
    /// (PostgreSQL has no such syntax).
    pub hash_group: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ColumnDef {
    pub name: String,
    pub ty: SqlType,
    /// `serial` / `bigserial`, or an identity column: filled from a
    /// sequence when not given.
    pub serial: bool,
    /// `GENERATED ALWAYS AS IDENTITY`: only the sequence may fill it.
    pub generated_always: bool,
    /// `NOT NULL`, a primary key column, or a serial one.
    pub not_null: bool,
    /// `DEFAULT`: a constant (or `now()`), filled when an INSERT names no value.
    pub default: Option<Expr>,
    /// `varchar(n)`: at most n characters.
    pub max_chars: Option<u32>,
    /// `GENERATED ALWAYS AS (expr) STORED`: computed from the row's other
    /// columns each time the row is written.
    pub generated: Option<Expr>,
}

impl ColumnDef {
    /// A nullable column without a default.
    pub fn plain(name: impl Into<String>, ty: SqlType) -> ColumnDef {
        ColumnDef {
            name: name.into(),
            ty,
            serial: false,
            generated_always: false,
            not_null: false,
            default: None,
            max_chars: None,
            generated: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateTable {
    pub name: String,
    pub columns: Vec<ColumnDef>,
    pub primary_key: Option<Vec<KeyColumn>>,
    /// `CONSTRAINT name PRIMARY KEY`: its index's name (else `<table>_pkey`).
    pub primary_key_name: Option<String>,
    /// The primary key is DEFERRABLE.
    pub primary_key_deferrable: Option<Deferrable>,
    /// `UNIQUE` constraints (of a column or of the table), each with the name
    /// written (`CONSTRAINT name UNIQUE`), else PostgreSQL's
    /// `<table>_<columns>_key`: each becomes a unique index of that name.
    pub unique: Vec<AddKey>,
    /// YugabyteDB's `SPLIT INTO n TABLETS`.
    pub split_into: Option<u32>,
    /// YugabyteDB's `SPLIT AT VALUES ((…), …)`: range tablets cut at these
    /// key values (each a prefix of the primary key).
    pub split_at: Option<Vec<Vec<Expr>>>,
    /// A PRIMARY KEY or UNIQUE constraint names ASC or DESC for a column:
    /// YugabyteDB's range keys, which PostgreSQL's grammar does not have.
    pub key_order_written: bool,
    pub if_not_exists: bool,
    /// `WITH (name = value, …)`: storage parameters, as ALTER TABLE … SET has them.
    pub options: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateIndex {
    pub name: Option<String>,
    pub table: String,
    pub columns: Vec<KeyColumn>,
    pub include: Vec<String>,
    pub unique: bool,
    pub if_not_exists: bool,
    /// `WHERE …`: a partial index holds only the rows it is true for.
    pub predicate: Option<Expr>,
    /// YugabyteDB's `SPLIT AT VALUES ((…), …)` for a range-sharded index.
    pub split_at: Option<Vec<Vec<Expr>>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    /// `||`: text concatenation.
    Concat,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    And,
    Or,
    /// `a IS DISTINCT FROM b`: `<>` where NULL equals NULL, never NULL.
    IsDistinctFrom,
    /// `a IS NOT DISTINCT FROM b`: `=` where NULL equals NULL, never NULL.
    IsNotDistinctFrom,
    /// `->`: a JSON object's field or array's element (`sql/json/operators.rs`).
    JsonGet,
    /// `->>`: the same as text.
    JsonGetText,
    /// `#>`: the JSON value at a path (a text array).
    JsonPath,
    /// `#>>`: the same as text.
    JsonPathText,
    /// `@>`: contains.
    JsonContains,
    /// `<@`: is contained in.
    JsonContainedBy,
    /// `?`: has the key (or the string element).
    JsonHasKey,
    /// `#-`: without the value at a path.
    JsonDeletePath,
}

impl BinOp {
    /// The operator as EXPLAIN prints it.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Concat => "||",
            BinOp::Eq => "=",
            BinOp::NotEq => "<>",
            BinOp::Lt => "<",
            BinOp::LtEq => "<=",
            BinOp::Gt => ">",
            BinOp::GtEq => ">=",
            BinOp::And => "AND",
            BinOp::Or => "OR",
            BinOp::IsDistinctFrom => "IS DISTINCT FROM",
            BinOp::IsNotDistinctFrom => "IS NOT DISTINCT FROM",
            BinOp::JsonGet => "->",
            BinOp::JsonGetText => "->>",
            BinOp::JsonPath => "#>",
            BinOp::JsonPathText => "#>>",
            BinOp::JsonContains => "@>",
            BinOp::JsonContainedBy => "<@",
            BinOp::JsonHasKey => "?",
            BinOp::JsonDeletePath => "#-",
        }
    }

    /// A comparison or IS [NOT] DISTINCT FROM: two operands of one type,
    /// a boolean result (the planner's index conditions are only the former).
    pub fn compares(self) -> bool {
        self.is_comparison() || matches!(self, BinOp::IsDistinctFrom | BinOp::IsNotDistinctFrom)
    }

    /// One of the JSON operators (`->`, `->>`, `#>`, `#>>`, `@>`, `<@`, `?`, `#-`).
    pub fn is_json(self) -> bool {
        matches!(
            self,
            BinOp::JsonGet
                | BinOp::JsonGetText
                | BinOp::JsonPath
                | BinOp::JsonPathText
                | BinOp::JsonContains
                | BinOp::JsonContainedBy
                | BinOp::JsonHasKey
                | BinOp::JsonDeletePath
        )
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::NotEq | BinOp::Lt | BinOp::LtEq | BinOp::Gt | BinOp::GtEq
        )
    }
}

/// Functions the engine evaluates. Time comes from the virtual clock, randomness
/// from the seeded generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    /// Transaction start time.
    Now,
    /// The virtual clock at the moment of the call.
    ClockTimestamp,
    Random,
    /// A version 4 uuid from the seeded generator.
    GenRandomUuid,
    /// `current_date`: the transaction's start date (the virtual clock's).
    CurrentDate,
    /// `localtimestamp`: the transaction's start as a timestamp without zone.
    LocalTimestamp,
}

impl Func {
    pub fn name(self) -> &'static str {
        match self {
            Func::Now => "now",
            Func::ClockTimestamp => "clock_timestamp",
            Func::Random => "random",
            Func::GenRandomUuid => "gen_random_uuid",
            Func::CurrentDate => "current_date",
            Func::LocalTimestamp => "localtimestamp",
        }
    }
}

/// Aggregate functions (`count(*)`, `sum(x)`, …): computed over a group of rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggFunc {
    /// `count(*)` when the aggregate has no argument.
    Count,
    Sum,
    Avg,
    Min,
    Max,
    /// `string_agg(text, delimiter)`: the values joined, in input order.
    StringAgg,
}

impl AggFunc {
    pub fn name(self) -> &'static str {
        match self {
            AggFunc::Count => "count",
            AggFunc::Sum => "sum",
            AggFunc::Avg => "avg",
            AggFunc::Min => "min",
            AggFunc::Max => "max",
            AggFunc::StringAgg => "string_agg",
        }
    }

    pub fn from_name(name: &str) -> Option<AggFunc> {
        Some(match name {
            "count" => AggFunc::Count,
            "sum" => AggFunc::Sum,
            "avg" => AggFunc::Avg,
            "min" => AggFunc::Min,
            "max" => AggFunc::Max,
            "string_agg" => AggFunc::StringAgg,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A column, optionally qualified by a table name or alias.
    Column {
        table: Option<String>,
        name: String,
    },
    Literal(Value),
    Unary {
        not: bool,
        expr: Box<Expr>,
    },
    Binary {
        op: BinOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Call(Func),
    InList {
        expr: Box<Expr>,
        list: Vec<Expr>,
        negated: bool,
    },
    Between {
        expr: Box<Expr>,
        low: Box<Expr>,
        high: Box<Expr>,
        negated: bool,
    },
    IsNull {
        expr: Box<Expr>,
        negated: bool,
    },
    Cast {
        expr: Box<Expr>,
        ty: SqlType,
    },
    /// A scalar function (`lower(v)`, `substr(v, 1, 3)`, `coalesce(a, b)`).
    Function {
        func: crate::sql::functions::ScalarFunc,
        args: Vec<Expr>,
    },
    /// `CASE [operand] WHEN … THEN … [ELSE …] END`.
    Case {
        operand: Option<Box<Expr>>,
        branches: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    /// `x [NOT] LIKE pattern`, or ILIKE (`case_insensitive`).
    Like {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        negated: bool,
        case_insensitive: bool,
    },
    /// `$n` in a prepared statement (1-based).
    Param(u32),
    /// `(SELECT …)` used as a value.
    ScalarSubquery(Box<Select>),
    /// `[NOT] EXISTS (SELECT …)`.
    Exists {
        query: Box<Select>,
        negated: bool,
    },
    /// `x [NOT] IN (SELECT …)`.
    InSubquery {
        expr: Box<Expr>,
        query: Box<Select>,
        negated: bool,
    },
    /// An aggregate call; `arg` is `None` for `count(*)`.
    Aggregate {
        func: AggFunc,
        arg: Option<Box<Expr>>,
        distinct: bool,
        /// string_agg's delimiter: a constant (NULL joins with nothing).
        separator: Option<Value>,
        /// `agg(x ORDER BY k)`: the order the values are fed in (only
        /// string_agg's result depends on it).
        order_by: Vec<OrderItem>,
        /// `agg(x) FILTER (WHERE cond)`: only the rows it holds for count.
        filter: Option<Box<Expr>>,
    },
}

impl Expr {
    /// Whether an aggregate call occurs anywhere in the expression.
    pub fn has_aggregate(&self) -> bool {
        let mut found = false;
        self.visit(&mut |e| found |= matches!(e, Expr::Aggregate { .. }));
        found
    }

    /// A copy in which each subexpression `f` replaces (it returns `Some`) is
    /// replaced, top down; the others are copied with their children mapped.
    pub fn map(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Expr {
        if let Some(e) = f(self) {
            return e;
        }
        let mut b = |e: &Expr| Box::new(e.map(f));
        match self {
            Expr::Column { .. } | Expr::Literal(_) | Expr::Call(_) | Expr::Param(_) => self.clone(),
            Expr::ScalarSubquery(q) => Expr::ScalarSubquery(Box::new(q.map_exprs(f))),
            Expr::Exists { query, negated } => Expr::Exists {
                query: Box::new(query.map_exprs(f)),
                negated: *negated,
            },
            Expr::InSubquery {
                expr,
                query,
                negated,
            } => Expr::InSubquery {
                expr: b(expr),
                query: Box::new(query.map_exprs(f)),
                negated: *negated,
            },
            Expr::Unary { not, expr } => Expr::Unary {
                not: *not,
                expr: b(expr),
            },
            Expr::Binary { op, left, right } => Expr::Binary {
                op: *op,
                left: b(left),
                right: b(right),
            },
            Expr::InList {
                expr,
                list,
                negated,
            } => Expr::InList {
                expr: b(expr),
                list: list.iter().map(|e| *b(e)).collect(),
                negated: *negated,
            },
            Expr::Between {
                expr,
                low,
                high,
                negated,
            } => Expr::Between {
                expr: b(expr),
                low: b(low),
                high: b(high),
                negated: *negated,
            },
            Expr::IsNull { expr, negated } => Expr::IsNull {
                expr: b(expr),
                negated: *negated,
            },
            Expr::Cast { expr, ty } => Expr::Cast {
                expr: b(expr),
                ty: *ty,
            },
            Expr::Aggregate {
                func,
                arg,
                distinct,
                separator,
                order_by,
                filter,
            } => Expr::Aggregate {
                func: *func,
                arg: arg.as_ref().map(|a| b(a)),
                filter: filter.as_ref().map(|f| b(f)),
                distinct: *distinct,
                separator: separator.clone(),
                order_by: order_by
                    .iter()
                    .map(|o| OrderItem {
                        expr: *b(&o.expr),
                        ..o.clone()
                    })
                    .collect(),
            },
            Expr::Function { func, args } => Expr::Function {
                func: *func,
                args: args.iter().map(|a| *b(a)).collect(),
            },
            Expr::Case {
                operand,
                branches,
                otherwise,
            } => Expr::Case {
                operand: operand.as_ref().map(|o| b(o)),
                branches: branches.iter().map(|(w, t)| (*b(w), *b(t))).collect(),
                otherwise: otherwise.as_ref().map(|o| b(o)),
            },
            Expr::Like {
                expr,
                pattern,
                negated,
                case_insensitive,
            } => Expr::Like {
                expr: b(expr),
                pattern: b(pattern),
                negated: *negated,
                case_insensitive: *case_insensitive,
            },
        }
    }

    /// Calls `f` on this expression and every expression inside it. Iterative
    /// (an explicit stack): a 1 000-deep chain of operators, which the parser
    /// lets through, must not use the call stack the page's wasm has little of.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        let mut stack: Vec<&Expr> = vec![self];
        while let Some(e) = stack.pop() {
            f(e);
            match e {
                // A subquery's own expressions are its own query's.
                Expr::Column { .. }
                | Expr::Literal(_)
                | Expr::Call(_)
                | Expr::Param(_)
                | Expr::ScalarSubquery(_)
                | Expr::Exists { .. } => {}
                Expr::InSubquery { expr, .. }
                | Expr::Unary { expr, .. }
                | Expr::IsNull { expr, .. }
                | Expr::Cast { expr, .. } => stack.push(expr),
                Expr::Binary { left, right, .. } => {
                    stack.push(right);
                    stack.push(left);
                }
                Expr::InList { expr, list, .. } => {
                    stack.extend(list.iter().rev());
                    stack.push(expr);
                }
                Expr::Between {
                    expr, low, high, ..
                } => {
                    stack.push(high);
                    stack.push(low);
                    stack.push(expr);
                }
                Expr::Aggregate { arg, filter, .. } => {
                    stack.extend(filter.as_deref());
                    stack.extend(arg.as_deref());
                }
                Expr::Function { args, .. } => stack.extend(args.iter().rev()),
                Expr::Case {
                    operand,
                    branches,
                    otherwise,
                } => {
                    stack.extend(otherwise.as_deref());
                    for (w, t) in branches.iter().rev() {
                        stack.push(t);
                        stack.push(w);
                    }
                    stack.extend(operand.as_deref());
                }
                Expr::Like { expr, pattern, .. } => {
                    stack.push(pattern);
                    stack.push(expr);
                }
            }
        }
    }
}

/// One output column of a SELECT.
#[derive(Debug, Clone, PartialEq)]
pub enum SelectItem {
    Wildcard,
    Expr { expr: Expr, alias: Option<String> },
}

/// A row source in FROM.
#[derive(Debug, Clone, PartialEq)]
pub enum FromItem {
    Table {
        name: String,
        alias: Option<String>,
    },
    /// `generate_series(start, stop [, step])`
    Series {
        start: Expr,
        stop: Expr,
        step: Option<Expr>,
        alias: Option<String>,
        /// The column's name from `AS s(i)`; else the alias, else `generate_series`.
        column: Option<String>,
    },
    /// A storage-inspection function of a contrib extension
    /// (`heap_page_items(get_raw_page('t', 0))`, `bt_metap('t_pkey')`).
    Inspect {
        func: super::inspect::InspectFunc,
        args: super::inspect::InspectArgs,
        alias: Option<String>,
    },
    /// `(SELECT …) AS alias [(columns)]`: a query's rows as a FROM item.
    Subquery {
        query: Box<Select>,
        alias: String,
        /// Names for its output columns, first ones first (`AS s(a, b)`).
        columns: Vec<String>,
        /// `LATERAL (SELECT …)`: it may read the columns of the FROM items
        /// before it, so it runs once for each of their rows.
        lateral: bool,
    },
}

impl FromItem {
    /// The name the rest of the query uses for this source.
    pub fn visible_name(&self) -> &str {
        match self {
            // `FROM s.t` is `t` to the rest of the query.
            FromItem::Table { name, alias } => {
                alias.as_deref().unwrap_or(crate::exec::schemas::bare(name))
            }
            FromItem::Series { alias, .. } => alias.as_deref().unwrap_or("generate_series"),
            FromItem::Inspect { func, alias, .. } => alias.as_deref().unwrap_or(func.name()),
            FromItem::Subquery { alias, .. } => alias,
        }
    }

    /// A copy with `f` applied to `generate_series`'s arguments (see
    /// [`Expr::map`]): a prepared statement's `$1` or a DO block's variable
    /// may be one.
    pub fn map_exprs(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> FromItem {
        match self {
            FromItem::Table { .. } => self.clone(),
            FromItem::Subquery {
                query,
                alias,
                columns,
                lateral,
            } => FromItem::Subquery {
                query: Box::new(query.map_exprs(&mut *f)),
                alias: alias.clone(),
                columns: columns.clone(),
                lateral: *lateral,
            },
            FromItem::Inspect { func, args, alias } => FromItem::Inspect {
                func: *func,
                args: args.map(&mut *f),
                alias: alias.clone(),
            },
            FromItem::Series {
                start,
                stop,
                step,
                alias,
                column,
            } => FromItem::Series {
                start: start.map(&mut *f),
                stop: stop.map(&mut *f),
                step: step.as_ref().map(|e| e.map(&mut *f)),
                alias: alias.clone(),
                column: column.clone(),
            },
        }
    }
}

/// An explicit join: `JOIN b USING (id)`, `LEFT JOIN b ON a.id = b.id`,
/// `CROSS JOIN b`.
#[derive(Debug, Clone, PartialEq)]
pub struct Join {
    pub item: FromItem,
    pub kind: JoinKind,
    pub using: Vec<String>,
    pub on: Option<Expr>,
    /// The FROM list entry whose joins this one belongs to: in
    /// `FROM a JOIN b ON …, c`, b's join follows `from[0]`.
    pub after: usize,
    /// `NATURAL JOIN`: USING every column name both sides have.
    pub natural: bool,
}

impl Join {
    /// The USING columns: as written, or for a NATURAL JOIN each name of
    /// `left` (the columns so far, in order) that `right` has too.
    pub fn using_with(&self, left: &[String], right: &[String]) -> Vec<String> {
        if !self.natural {
            return self.using.clone();
        }
        let mut out: Vec<String> = Vec::new();
        for c in left {
            if right.contains(c) && !out.contains(c) {
                out.push(c.clone());
            }
        }
        out
    }
}

/// Which rows a join keeps besides the matching pairs: an outer join also
/// keeps its preserved side's unmatched rows, the other side's columns NULL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinKind {
    /// `[INNER] JOIN` and `CROSS JOIN`: matching pairs only.
    Inner,
    /// `LEFT [OUTER] JOIN`: and every row of the left side.
    Left,
    /// `RIGHT [OUTER] JOIN`: and every row of the right side.
    Right,
    /// `FULL [OUTER] JOIN`: and every row of both.
    Full,
}

impl JoinKind {
    /// The words of PostgreSQL's plan nodes: `Hash Left Join`.
    pub fn plan_word(self) -> &'static str {
        match self {
            JoinKind::Inner => "",
            JoinKind::Left => " Left",
            JoinKind::Right => " Right",
            JoinKind::Full => " Full",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct OrderItem {
    pub expr: Expr,
    pub order: Order,
    /// `NULLS FIRST` (true) or `NULLS LAST` (false); `None` is PostgreSQL's
    /// default: NULLs sort as if larger than every value.
    pub nulls_first: Option<bool>,
}

impl OrderItem {
    /// Whether NULLs come first: as written, else last for ASC, first for DESC.
    pub fn nulls_come_first(&self) -> bool {
        self.nulls_first.unwrap_or(self.order == Order::Desc)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Select {
    /// `WITH name AS (query)`: common table expressions, in order.
    pub with: Vec<(String, Select)>,
    pub items: Vec<SelectItem>,
    pub from: Vec<FromItem>,
    pub joins: Vec<Join>,
    pub filter: Option<Expr>,
    /// `GROUP BY` expressions (positions and output names already resolved).
    pub group_by: Vec<Expr>,
    pub having: Option<Expr>,
    /// `SELECT DISTINCT`.
    pub distinct: bool,
    pub order_by: Vec<OrderItem>,
    pub limit: Option<Expr>,
    pub offset: Option<Expr>,
    /// `VALUES (…), (…)` instead of a SELECT.
    pub values: Option<Vec<Vec<Expr>>>,
    /// `left UNION|INTERSECT|EXCEPT [ALL] right` instead of a SELECT: the
    /// query's own select list, FROM… are then empty, and its WITH, ORDER BY,
    /// LIMIT and OFFSET apply to the whole result (`exec::set_operation`).
    pub set_operation: Option<Box<SetOperation>>,
}

/// Which set operation, as PostgreSQL names it in its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetOp {
    Union,
    Intersect,
    Except,
}

impl SetOp {
    pub fn name(self) -> &'static str {
        match self {
            SetOp::Union => "UNION",
            SetOp::Intersect => "INTERSECT",
            SetOp::Except => "EXCEPT",
        }
    }
}

/// `left op [ALL] right`: each side a query of its own (a SELECT, VALUES, a
/// parenthesized query with its own ORDER BY/LIMIT, or another set operation).
#[derive(Debug, Clone, PartialEq)]
pub struct SetOperation {
    pub op: SetOp,
    /// `ALL`: duplicates kept (by counts, for INTERSECT and EXCEPT).
    pub all: bool,
    pub left: Select,
    pub right: Select,
    /// The WITH RECURSIVE query this UNION defines reads itself: it runs to
    /// a fixpoint before the query that reads it ([`crate::exec::recursive`]).
    /// (Here rather than in [`Select`], which is on the stack once per
    /// level of a deep set operation.)
    pub recursive: bool,
}

impl Select {
    /// A query with nothing in it: the base for row sources built in code.
    pub fn empty() -> Select {
        Select {
            with: Vec::new(),
            items: Vec::new(),
            from: Vec::new(),
            joins: Vec::new(),
            filter: None,
            group_by: Vec::new(),
            having: None,
            distinct: false,
            order_by: Vec::new(),
            limit: None,
            offset: None,
            values: None,
            set_operation: None,
        }
    }

    /// A copy with `f` applied to every expression of the query and of the
    /// queries inside it (see [`Expr::map`]): how a prepared statement's
    /// parameters get their values.
    /// The query with `f` applied to each of its own expressions: the select
    /// list (names kept), join conditions, WHERE, GROUP BY, HAVING and ORDER
    /// BY; not its WITH queries or FROM subqueries, whose names are their own.
    pub fn map_own(&self, f: &mut dyn FnMut(&Expr) -> Expr) -> Select {
        Select {
            items: self
                .items
                .iter()
                .map(|i| match i {
                    SelectItem::Expr { expr, alias } => SelectItem::Expr {
                        expr: f(expr),
                        alias: alias.clone(),
                    },
                    SelectItem::Wildcard => SelectItem::Wildcard,
                })
                .collect(),
            joins: self
                .joins
                .iter()
                .map(|j| Join {
                    on: j.on.as_ref().map(&mut *f),
                    ..j.clone()
                })
                .collect(),
            filter: self.filter.as_ref().map(&mut *f),
            group_by: self.group_by.iter().map(&mut *f).collect(),
            having: self.having.as_ref().map(&mut *f),
            order_by: self
                .order_by
                .iter()
                .map(|o| OrderItem {
                    expr: f(&o.expr),
                    ..o.clone()
                })
                .collect(),
            ..self.clone()
        }
    }

    pub fn map_exprs(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Select {
        Select {
            with: self
                .with
                .iter()
                .map(|(n, q)| (n.clone(), q.map_exprs(&mut *f)))
                .collect(),
            items: self
                .items
                .iter()
                .map(|i| match i {
                    SelectItem::Expr { expr, alias } => SelectItem::Expr {
                        expr: expr.map(&mut *f),
                        alias: alias.clone(),
                    },
                    SelectItem::Wildcard => SelectItem::Wildcard,
                })
                .collect(),
            from: self.from.iter().map(|i| i.map_exprs(&mut *f)).collect(),
            joins: self
                .joins
                .iter()
                .map(|j| Join {
                    item: j.item.map_exprs(&mut *f),
                    on: j.on.as_ref().map(|e| e.map(&mut *f)),
                    ..j.clone()
                })
                .collect(),
            filter: self.filter.as_ref().map(|e| e.map(&mut *f)),
            group_by: self.group_by.iter().map(|e| e.map(&mut *f)).collect(),
            having: self.having.as_ref().map(|e| e.map(&mut *f)),
            distinct: self.distinct,
            order_by: self
                .order_by
                .iter()
                .map(|o| OrderItem {
                    expr: o.expr.map(&mut *f),
                    ..o.clone()
                })
                .collect(),
            limit: self.limit.as_ref().map(|e| e.map(&mut *f)),
            offset: self.offset.as_ref().map(|e| e.map(&mut *f)),
            values: self.values.as_ref().map(|rows| {
                rows.iter()
                    .map(|r| r.iter().map(|e| e.map(&mut *f)).collect())
                    .collect()
            }),
            set_operation: self.set_operation.as_ref().map(|s| {
                Box::new(SetOperation {
                    op: s.op,
                    all: s.all,
                    left: s.left.map_exprs(&mut *f),
                    right: s.right.map_exprs(&mut *f),
                    recursive: s.recursive,
                })
            }),
        }
    }

    /// Whether the query groups rows (GROUP BY, HAVING, DISTINCT, or an
    /// aggregate in its select list): it then runs through `exec::aggregate`.
    pub fn groups(&self) -> bool {
        !self.group_by.is_empty()
            || self.having.is_some()
            || self.distinct
            || self.items.iter().any(|i| match i {
                SelectItem::Expr { expr, .. } => expr.has_aggregate(),
                SelectItem::Wildcard => false,
            })
    }
}

/// EXPLAIN options, as PostgreSQL and YugabyteDB accept them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplainOptions {
    pub analyze: bool,
    pub buffers: bool,
    pub costs: bool,
    pub summary: Option<bool>,
    pub timing: bool,
    pub verbose: bool,
    /// YugabyteDB: distributed-storage counters.
    pub dist: bool,
    /// YugabyteDB: RocksDB metrics.
    pub debug: bool,
    /// PostgreSQL 13+: the WAL a node generated (with ANALYZE).
    pub wal: bool,
    /// PostgreSQL 12+: the planner settings changed from their defaults.
    pub settings: bool,
    pub format: ExplainFormat,
}

/// EXPLAIN's FORMAT: IndexLab prints PostgreSQL's text and JSON layouts
/// (YAML and XML are refused when parsed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExplainFormat {
    #[default]
    Text,
    Json,
}

impl Default for ExplainOptions {
    fn default() -> Self {
        ExplainOptions {
            analyze: false,
            buffers: false,
            costs: true,
            summary: None,
            timing: true,
            verbose: false,
            dist: false,
            debug: false,
            wal: false,
            settings: false,
            format: ExplainFormat::Text,
        }
    }
}

/// `INSERT … ON CONFLICT [target] DO NOTHING | DO UPDATE SET … [WHERE …]`.
#[derive(Debug, Clone, PartialEq)]
pub struct OnConflict {
    pub target: ConflictTarget,
    pub action: ConflictAction,
}

/// Which unique indexes are the arbiters (PostgreSQL's inference).
#[derive(Debug, Clone, PartialEq)]
pub enum ConflictTarget {
    /// No target: every unique index (DO NOTHING only).
    Any,
    /// `(a, b)`: the unique indexes on exactly these columns.
    Columns(Vec<String>),
    /// `ON CONSTRAINT name`: a PRIMARY KEY or UNIQUE constraint.
    Constraint(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum ConflictAction {
    Nothing,
    /// `DO UPDATE SET … [WHERE …]`, over the existing row and `excluded`.
    Update {
        assignments: Vec<(String, Expr)>,
        filter: Option<Expr>,
    },
}

impl ConflictAction {
    fn map_exprs(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> ConflictAction {
        match self {
            ConflictAction::Nothing => ConflictAction::Nothing,
            ConflictAction::Update {
                assignments,
                filter,
            } => ConflictAction::Update {
                assignments: assignments
                    .iter()
                    .map(|(c, e)| (c.clone(), e.map(&mut *f)))
                    .collect(),
                filter: filter.as_ref().map(|e| e.map(&mut *f)),
            },
        }
    }
}

/// A RETURNING list with `f` applied to its expressions.
fn map_items(items: &[SelectItem], f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Vec<SelectItem> {
    items
        .iter()
        .map(|i| match i {
            SelectItem::Expr { expr, alias } => SelectItem::Expr {
                expr: expr.map(&mut *f),
                alias: alias.clone(),
            },
            SelectItem::Wildcard => SelectItem::Wildcard,
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    CreateTable(CreateTable),
    CreateIndex(CreateIndex),
    Insert {
        table: String,
        columns: Option<Vec<String>>,
        source: Select,
        /// `ON CONFLICT …` (boxed: most INSERTs have none).
        on_conflict: Option<Box<OnConflict>>,
        /// `RETURNING …`; empty when the statement has none.
        returning: Vec<SelectItem>,
    },
    Update {
        table: String,
        /// The target's other name (`UPDATE t AS x`).
        alias: Option<String>,
        assignments: Vec<(String, Expr)>,
        /// `FROM …`: tables the target's rows are joined with.
        from: Vec<FromItem>,
        filter: Option<Expr>,
        returning: Vec<SelectItem>,
    },
    Delete {
        table: String,
        alias: Option<String>,
        /// `USING …`: tables the target's rows are joined with.
        using: Vec<FromItem>,
        filter: Option<Expr>,
        returning: Vec<SelectItem>,
    },
    Select(Select),
    Explain {
        options: ExplainOptions,
        statement: Box<Statement>,
    },
    Set {
        name: String,
        value: String,
    },
    /// `RESET name`, or `RESET ALL` (no name).
    Reset {
        name: Option<String>,
    },
    Show {
        name: String,
    },
    /// `VACUUM [(options)] [table, …]`; no table is every table.
    Vacuum(Vacuum),
    /// `ANALYZE [VERBOSE] [table, …]`: no table is every table.
    Analyze {
        tables: Vec<String>,
        verbose: bool,
    },
    /// `DROP TABLE a, b [CASCADE]`.
    DropTable {
        names: Vec<String>,
        if_exists: bool,
    },
    /// `TRUNCATE [TABLE] a, b [RESTART IDENTITY]`.
    Truncate {
        tables: Vec<String>,
        restart_identity: bool,
    },
    /// `CLUSTER [table [USING index]]`: the table rewritten in the index's
    /// order (the index last clustered on when none is named).
    Cluster {
        table: Option<String>,
        index: Option<String>,
    },
    /// `REINDEX {INDEX | TABLE} name`: indexes rebuilt into new files.
    Reindex {
        target: ReindexTarget,
        name: String,
        concurrently: bool,
    },
    /// `DROP INDEX a, b`.
    DropIndex {
        names: Vec<String>,
        if_exists: bool,
    },
    /// `CREATE TABLE name [(columns)] AS query`, and `SELECT … INTO name`.
    CreateTableAs {
        name: String,
        /// Names for the query's columns, in order (the rest keep theirs).
        columns: Vec<String>,
        query: Box<Select>,
        if_not_exists: bool,
    },
    /// `PREPARE name [(types)] AS statement`.
    Prepare {
        name: String,
        types: Vec<SqlType>,
        statement: Box<Statement>,
    },
    /// `EXECUTE name [(arguments)]`.
    Execute {
        name: String,
        args: Vec<Expr>,
    },
    /// `DEALLOCATE [PREPARE] name | ALL` (`None`).
    Deallocate {
        name: Option<String>,
    },
    /// BEGIN / START TRANSACTION, COMMIT / END, ROLLBACK.
    Transaction(TxnCommand),
    /// `CREATE STATISTICS [IF NOT EXISTS] name [(kind, …)] ON a, b FROM t`.
    CreateStatistics(CreateStatistics),
    /// `DROP STATISTICS [IF EXISTS] name, …`.
    DropStatistics {
        names: Vec<String>,
        if_exists: bool,
    },
    /// `CREATE SEQUENCE [IF NOT EXISTS] name [AS type] [INCREMENT …] …`.
    CreateSequence(CreateSequence),
    /// `DROP SEQUENCE [IF EXISTS] name, …`.
    DropSequence {
        names: Vec<String>,
        if_exists: bool,
    },
    /// `SET CONSTRAINTS { ALL | name, … } { DEFERRED | IMMEDIATE }`; `names`
    /// is None for ALL.
    SetConstraints {
        names: Option<Vec<String>>,
        deferred: bool,
    },
    /// `CREATE SCHEMA [IF NOT EXISTS] name`.
    CreateSchema {
        name: String,
        if_not_exists: bool,
    },
    /// `DROP SCHEMA [IF EXISTS] name, … [CASCADE]`.
    DropSchema {
        names: Vec<String>,
        if_exists: bool,
        cascade: bool,
    },
    /// `CREATE EXTENSION name`: the extensions IndexLab knows of.
    CreateExtension {
        name: String,
        if_not_exists: bool,
    },
    /// `ALTER TABLE [IF EXISTS] name action, …`.
    AlterTable {
        table: String,
        if_exists: bool,
        actions: Vec<AlterAction>,
    },
}

/// One action of ALTER TABLE, in the order written.
#[derive(Debug, Clone, PartialEq)]
pub enum AlterAction {
    /// `SET (name = value, …)`: storage parameters.
    SetOptions(Vec<(String, String)>),
    /// `ADD [COLUMN] [IF NOT EXISTS] column`, with its inline key if any.
    AddColumn {
        column: ColumnDef,
        if_not_exists: bool,
        key: Option<AddKey>,
    },
    /// `ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE (columns)`.
    AddKey(AddKey),
    /// `DROP CONSTRAINT [IF EXISTS] name`.
    DropConstraint { name: String, if_exists: bool },
    /// `DROP [COLUMN] [IF EXISTS] name [CASCADE]`.
    DropColumn {
        name: String,
        if_exists: bool,
        cascade: bool,
    },
    /// `RENAME [COLUMN] a TO b`.
    RenameColumn { from: String, to: String },
    /// `RENAME TO name`.
    RenameTable { to: String },
}

/// A PRIMARY KEY or UNIQUE constraint ALTER TABLE adds.
#[derive(Debug, Clone, PartialEq)]
pub struct AddKey {
    pub name: Option<String>,
    pub columns: Vec<KeyColumn>,
    pub primary: bool,
    pub deferrable: Option<Deferrable>,
}

/// A sequence's definition, as written (bounds not given are `None`).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateSequence {
    pub name: String,
    pub if_not_exists: bool,
    /// `smallint`, `integer` or `bigint` (the default), and its range.
    pub type_name: &'static str,
    pub type_range: (i64, i64),
    pub increment: Option<i64>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub start: Option<i64>,
    pub cycle: bool,
}

/// An extended statistics object's definition.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateStatistics {
    pub name: String,
    pub if_not_exists: bool,
    /// The kinds written (`ndistinct`, `dependencies`, `mcv`), lower-case;
    /// empty for all of them.
    pub kinds: Vec<String>,
    pub columns: Vec<String>,
    pub table: String,
}

/// A DEFERRABLE key: its uniqueness is checked when the statement ends, or
/// when the transaction commits once deferred (`INITIALLY DEFERRED`, or
/// `SET CONSTRAINTS … DEFERRED`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deferrable {
    pub initially_deferred: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxnCommand {
    Begin,
    Commit,
    Rollback,
}

/// What REINDEX rebuilds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReindexTarget {
    Index,
    Table,
}

/// VACUUM's options, as PostgreSQL 15's grammar has them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vacuum {
    pub tables: Vec<String>,
    pub analyze: bool,
    pub full: bool,
    pub freeze: bool,
    pub verbose: bool,
}

impl Statement {
    /// The command tag psql prints after the statement (`INSERT 0 10`, `CREATE TABLE`).
    pub fn tag(&self) -> &'static str {
        match self {
            Statement::CreateTable(_) => "CREATE TABLE",
            Statement::CreateIndex(_) => "CREATE INDEX",
            Statement::Insert { .. } => "INSERT",
            Statement::Update { .. } => "UPDATE",
            Statement::Delete { .. } => "DELETE",
            Statement::Select(_) => "SELECT",
            Statement::Explain { .. } => "EXPLAIN",
            Statement::Set { .. } => "SET",
            Statement::Reset { .. } => "RESET",
            Statement::Show { .. } => "SHOW",
            Statement::Vacuum(_) => "VACUUM",
            Statement::Cluster { .. } => "CLUSTER",
            Statement::Reindex { .. } => "REINDEX",
            Statement::Analyze { .. } => "ANALYZE",
            Statement::DropTable { .. } => "DROP TABLE",
            Statement::DropIndex { .. } => "DROP INDEX",
            Statement::Truncate { .. } => "TRUNCATE TABLE",
            Statement::CreateExtension { .. } => "CREATE EXTENSION",
            Statement::CreateSchema { .. } => "CREATE SCHEMA",
            Statement::DropSchema { .. } => "DROP SCHEMA",
            Statement::AlterTable { .. } => "ALTER TABLE",
            Statement::CreateTableAs { .. } => "SELECT",
            Statement::Prepare { .. } => "PREPARE",
            Statement::Execute { .. } => "EXECUTE",
            Statement::Deallocate { .. } => "DEALLOCATE",
            Statement::Transaction(TxnCommand::Begin) => "BEGIN",
            Statement::Transaction(TxnCommand::Commit) => "COMMIT",
            Statement::Transaction(TxnCommand::Rollback) => "ROLLBACK",
            Statement::SetConstraints { .. } => "SET CONSTRAINTS",
            Statement::CreateStatistics(_) => "CREATE STATISTICS",
            Statement::DropStatistics { .. } => "DROP STATISTICS",
            Statement::CreateSequence(_) => "CREATE SEQUENCE",
            Statement::DropSequence { .. } => "DROP SEQUENCE",
        }
    }
}

impl Statement {
    /// A copy with `f` applied to every expression (DML and queries; other
    /// statements have none to map).
    pub fn map_exprs(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Statement {
        match self {
            Statement::Select(q) => Statement::Select(q.map_exprs(f)),
            Statement::Insert {
                table,
                columns,
                source,
                on_conflict,
                returning,
            } => Statement::Insert {
                table: table.clone(),
                columns: columns.clone(),
                source: source.map_exprs(f),
                on_conflict: on_conflict.as_ref().map(|c| {
                    Box::new(OnConflict {
                        target: c.target.clone(),
                        action: c.action.map_exprs(&mut *f),
                    })
                }),
                returning: map_items(returning, f),
            },
            Statement::Update {
                table,
                alias,
                assignments,
                from,
                filter,
                returning,
            } => Statement::Update {
                table: table.clone(),
                alias: alias.clone(),
                assignments: assignments
                    .iter()
                    .map(|(c, e)| (c.clone(), e.map(&mut *f)))
                    .collect(),
                from: from.iter().map(|i| i.map_exprs(&mut *f)).collect(),
                filter: filter.as_ref().map(|e| e.map(&mut *f)),
                returning: map_items(returning, f),
            },
            Statement::Delete {
                table,
                alias,
                using,
                filter,
                returning,
            } => Statement::Delete {
                table: table.clone(),
                alias: alias.clone(),
                using: using.iter().map(|i| i.map_exprs(&mut *f)).collect(),
                filter: filter.as_ref().map(|e| e.map(&mut *f)),
                returning: map_items(returning, f),
            },
            Statement::Explain { options, statement } => Statement::Explain {
                options: *options,
                statement: Box::new(statement.map_exprs(f)),
            },
            other => other.clone(),
        }
    }
}
