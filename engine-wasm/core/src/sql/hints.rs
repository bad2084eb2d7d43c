//! pg_hint_plan-style hints: `/*+ NestLoop(a b) Leading((a b)) Set(name 'v') */`.
//!
//! Like pg_hint_plan, the hint comment is the first `/*+` of the statement, and only
//! letters, digits, `_`, `,`, parentheses and whitespace may come before it, which
//! allows `explain (analyze, costs off) /*+ … */ select …` as in the articles but
//! not a `/*+` inside a string or after other comments. Hint names are
//! case-insensitive. Relation and index names are folded to lower case unless
//! double-quoted, as SQL folds the aliases they must match.
//!
//! Hints IndexLab does not act on are kept as [`HintKind::Unknown`] so the caller
//! can print a notice; malformed hints are errors with the byte offset in the
//! statement (map it with `Statement::position_at`).

#[cfg(test)]
mod tests;
mod tokens;

use std::fmt;
use std::ops::Range;

use super::error::{ErrorKind, SqlError};
use tokens::{group, Arg};

/// The hints of one statement, in the order written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintSet {
    pub hints: Vec<Hint>,
    /// Byte range of the whole `/*+ … */` comment in the statement.
    pub span: Range<usize>,
}

impl HintSet {
    /// The `Set(name value)` pairs, in order (a later one wins when applied).
    pub fn settings(&self) -> impl Iterator<Item = (&str, &str)> {
        self.hints.iter().filter_map(|h| match &h.kind {
            HintKind::Set { name, value } => Some((name.as_str(), value.as_str())),
            _ => None,
        })
    }
}

/// One hint and where its name starts (byte offset in the statement).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub kind: HintKind,
    pub offset: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HintKind {
    /// `Set(name value)`: a setting for this statement only.
    Set { name: String, value: String },
    /// `NestLoop(a b …)`, `HashJoin`, `MergeJoin`, `YbBatchedNL`, or their `No…`
    /// forms (`negated`): the join method for the join of these relations.
    Join {
        method: JoinMethod,
        negated: bool,
        relations: Vec<String>,
    },
    /// `Leading(…)`: the join order.
    Leading(Leading),
    /// `SeqScan(t)`, `IndexScan(t [idx …])`, `IndexOnlyScan(t [idx …])`, or their
    /// `No…` forms (table only).
    Scan {
        method: ScanMethod,
        negated: bool,
        table: String,
        indexes: Vec<String>,
    },
    /// A hint IndexLab does not act on, with its arguments as written.
    Unknown { name: String, args: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JoinMethod {
    NestLoop,
    HashJoin,
    MergeJoin,
    /// YugabyteDB's batched nested loop.
    YbBatchedNL,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScanMethod {
    SeqScan,
    IndexScan,
    IndexOnlyScan,
}

/// pg_hint_plan's two forms of `Leading`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Leading {
    /// `Leading(a b c)`: join in this order, each join's direction left free.
    Order(Vec<String>),
    /// `Leading(((a b) c))`: the whole join tree, each pair (outer inner).
    Tree(JoinTree),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinTree {
    Relation(String),
    Join(Box<JoinTree>, Box<JoinTree>),
}

impl HintKind {
    /// The hint's name as pg_hint_plan spells it, for notices.
    pub fn name(&self) -> &str {
        match self {
            HintKind::Set { .. } => "Set",
            HintKind::Leading(_) => "Leading",
            HintKind::Join {
                method, negated, ..
            } => join_name(*method, *negated),
            HintKind::Scan {
                method, negated, ..
            } => scan_name(*method, *negated),
            HintKind::Unknown { name, .. } => name,
        }
    }
}

const JOINS: [(JoinMethod, &str, &str); 4] = [
    (JoinMethod::NestLoop, "NestLoop", "NoNestLoop"),
    (JoinMethod::HashJoin, "HashJoin", "NoHashJoin"),
    (JoinMethod::MergeJoin, "MergeJoin", "NoMergeJoin"),
    (JoinMethod::YbBatchedNL, "YbBatchedNL", "NoYbBatchedNL"),
];

const SCANS: [(ScanMethod, &str, &str); 3] = [
    (ScanMethod::SeqScan, "SeqScan", "NoSeqScan"),
    (ScanMethod::IndexScan, "IndexScan", "NoIndexScan"),
    (
        ScanMethod::IndexOnlyScan,
        "IndexOnlyScan",
        "NoIndexOnlyScan",
    ),
];

fn join_name(method: JoinMethod, negated: bool) -> &'static str {
    let (_, yes, no) = JOINS
        .iter()
        .find(|j| j.0 == method)
        .copied()
        .unwrap_or(JOINS[0]);
    if negated {
        no
    } else {
        yes
    }
}

fn scan_name(method: ScanMethod, negated: bool) -> &'static str {
    let (_, yes, no) = SCANS
        .iter()
        .find(|s| s.0 == method)
        .copied()
        .unwrap_or(SCANS[0]);
    if negated {
        no
    } else {
        yes
    }
}

/// A malformed hint comment, and the byte offset in the statement where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintError {
    pub message: String,
    pub offset: usize,
}

impl fmt::Display for HintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for HintError {}

/// Without a position: the caller adds it with `Statement::position_at(offset)`.
impl From<HintError> for SqlError {
    fn from(e: HintError) -> SqlError {
        SqlError::new(ErrorKind::Hint, e.message)
    }
}

/// Reads the hint comment of a statement; `Ok(None)` if it has none.
pub fn parse_hints(sql: &str) -> Result<Option<HintSet>, HintError> {
    let Some(start) = sql.find("/*+") else {
        return Ok(None);
    };
    let allowed = |c: char| c.is_ascii_alphanumeric() || c.is_whitespace() || "_,()".contains(c);
    if !sql[..start].chars().all(allowed) {
        return Ok(None);
    }
    let body_start = start + 3;
    let body_len = sql[body_start..].find("*/").ok_or_else(|| HintError {
        message: "unterminated hint comment: missing \"*/\"".into(),
        offset: start,
    })?;
    let body = &sql[body_start..body_start + body_len];
    if let Some(nested) = body.find("/*") {
        return Err(HintError {
            message: "nested block comments are not supported in hints".into(),
            offset: body_start + nested,
        });
    }
    let hints = tokens::parse(body, body_start)?
        .into_iter()
        .map(|(name, args)| interpret(sql, name, args))
        .collect::<Result<_, _>>()?;
    Ok(Some(HintSet {
        hints,
        span: start..body_start + body_len + 2,
    }))
}

/// Turns a parsed `name(args)` into a [`Hint`], checking its arguments.
fn interpret(sql: &str, name: Arg, args: Arg) -> Result<Hint, HintError> {
    let offset = name.offset;
    let kind = match known_hint(&name.text, group(&args)) {
        Some(known) => known.map_err(|message| HintError { message, offset })?,
        None => {
            let inner = args.span.start + 1..args.span.end.saturating_sub(1);
            let text = sql.get(inner).unwrap_or("").trim().to_string();
            HintKind::Unknown {
                name: name.text,
                args: text,
            }
        }
    };
    Ok(Hint { kind, offset })
}

/// The hint, or why its arguments are wrong; `None` for a name IndexLab does not
/// act on.
fn known_hint(name: &str, items: &[Arg]) -> Option<Result<HintKind, String>> {
    let is = |spelling: &str| spelling.eq_ignore_ascii_case(name);
    if is("Set") {
        return Some(set_hint(items));
    }
    if is("Leading") {
        return Some(leading_hint(items).map(HintKind::Leading));
    }
    if let Some(&(method, _, no)) = JOINS.iter().find(|j| is(j.1) || is(j.2)) {
        let relations = names(items).filter(|r| r.len() >= 2);
        return Some(
            relations
                .map(|relations| HintKind::Join {
                    method,
                    negated: is(no),
                    relations,
                })
                .ok_or_else(|| format!("{name} hint needs at least two relation names")),
        );
    }
    let &(method, _, no) = SCANS.iter().find(|s| is(s.1) || is(s.2))?;
    Some(scan_hint(name, method, is(no), items))
}

fn set_hint(items: &[Arg]) -> Result<HintKind, String> {
    match items {
        [name, value] if name.is_word() && value.is_word() => Ok(HintKind::Set {
            name: name.identifier(),
            value: value.text.clone(),
        }),
        _ => Err("Set hint needs a setting name and a value: Set(name value)".into()),
    }
}

/// A scan hint: one table, then index names unless it is `SeqScan` or a `No…` form.
fn scan_hint(
    name: &str,
    method: ScanMethod,
    negated: bool,
    items: &[Arg],
) -> Result<HintKind, String> {
    let table_only = negated || method == ScanMethod::SeqScan;
    let max = if table_only { 1 } else { usize::MAX };
    let mut list = names(items)
        .filter(|l| !l.is_empty() && l.len() <= max)
        .ok_or_else(|| match table_only {
            true => format!("{name} hint needs one table name"),
            false => format!("{name} hint needs a table name and optional index names"),
        })?;
    let table = list.remove(0);
    Ok(HintKind::Scan {
        method,
        negated,
        table,
        indexes: list,
    })
}

/// `Leading(a b c)` or `Leading((a b))`, `Leading(((a b) c))`.
fn leading_hint(items: &[Arg]) -> Result<Leading, String> {
    match items {
        [tree] if !tree.is_word() => join_tree(tree).map(Leading::Tree),
        _ => names(items)
            .filter(|list| list.len() >= 2)
            .map(Leading::Order)
            .ok_or_else(|| {
                "Leading hint needs at least two relations: Leading(a b) or Leading((a b))".into()
            }),
    }
}

fn join_tree(arg: &Arg) -> Result<JoinTree, String> {
    if arg.is_word() {
        return Ok(JoinTree::Relation(arg.identifier()));
    }
    match group(arg) {
        [outer, inner] => Ok(JoinTree::Join(
            Box::new(join_tree(outer)?),
            Box::new(join_tree(inner)?),
        )),
        _ => Err(
            "Leading hint: each parenthesized pair must hold exactly two relations or pairs".into(),
        ),
    }
}

/// The arguments as names, if they are all plain words.
fn names(items: &[Arg]) -> Option<Vec<String>> {
    items
        .iter()
        .map(|a| a.is_word().then(|| a.identifier()))
        .collect()
}
