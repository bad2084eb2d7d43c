//! A Merge Join, as PostgreSQL's executor runs it (nodeMergejoin.c): both
//! sides come in join-key order, from an index read in order or through a
//! Sort, and one pass walks them together. Equal keys make a pair; else the
//! side with the smaller key moves on. When the outer side repeats a key,
//! the inner side goes back to the first row with that key (its mark) and
//! hands those rows again. The pass ends as soon as either side runs out or
//! reaches a NULL key (NULLs sort last and match nothing): the rest of the
//! other side is never read, which is where a Merge Join saves its work.
//!
//! PostgreSQL pulls each row when the pass needs it. IndexLab's scans run
//! whole, so the pass is first worked out on the rows each side would
//! give ([`QueryEngine::peek_rows`], read without a trace), then each scan
//! runs for real and stops where the pass stopped it.
//!
//! [`QueryEngine::peek_rows`]: super::engine::QueryEngine::peek_rows

use super::engine::ScanOutput;
use super::join::JoinExec;
use super::join_choice::{column_pair, join_node, SideQuery};
use super::plan_node::set_cost;
use super::plan_node::PlanNode;
use super::plan_phase::{self, Phase};
use super::row::Row;
use crate::sql::ast::{BinOp, Expr, Order, OrderItem};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::eval::compare;
use crate::sql::plan::join::{JoinChoice, MergePlan};
use crate::sql::plan::ScanPlan;
use crate::value::Value;
use std::cmp::Ordering;

/// What one pass did: the pairs it made (positions in each side's rows,
/// in the order made) and how it read each side.
#[derive(Debug, Default, PartialEq)]
pub struct Merged {
    pub pairs: Vec<(usize, usize)>,
    pub outer: Reads,
    pub inner: Reads,
}

/// How the pass read one side.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Reads {
    /// Rows handed to the join, a row handed again after going back to
    /// the mark counted each time (EXPLAIN's `rows=`).
    pub handed: u64,
    /// Distinct rows read: how far the side's scan got.
    pub read: usize,
    /// The pass asked for a row past the last one: the scan ran to its end.
    pub to_end: bool,
}

/// One side's keys and how far the pass has read them.
struct Cursor<'a> {
    keys: &'a [Value],
    next: usize,
    reads: Reads,
}

impl Cursor<'_> {
    /// The next row's position, or None at the end or at a NULL key (the
    /// pass ends there: NULLs sort last and join nothing).
    fn fetch(&mut self) -> Option<usize> {
        if self.next >= self.keys.len() {
            self.reads.to_end = true;
            return None;
        }
        let at = self.next;
        self.next += 1;
        self.reads.handed += 1;
        self.reads.read = self.reads.read.max(self.next);
        (!self.keys[at].is_null()).then_some(at)
    }
}

#[derive(Clone, Copy)]
enum Step {
    /// Compare the current rows (`EXEC_MJ_SKIP_TEST`).
    Compare,
    SkipOuter,
    SkipInner,
    /// Join the current pair (`EXEC_MJ_JOINTUPLES`).
    Join,
    NextInner,
    NextOuter,
    /// A new outer row against the marked inner one (`EXEC_MJ_TESTOUTER`).
    TestOuter,
}

/// The pass over `outer` and `inner` keys, both ascending with NULLs
/// last. `single_match`: each outer row has at most one partner (the inner
/// key is unique), so after a pair the pass moves to the next outer row.
pub fn merge(outer: &[Value], inner: &[Value], single_match: bool) -> Merged {
    let cmp = |a: &Value, b: &Value| compare(a, b).unwrap_or(Ordering::Equal);
    let mut o = Cursor {
        keys: outer,
        next: 0,
        reads: Reads::default(),
    };
    let mut i = Cursor {
        keys: inner,
        next: 0,
        reads: Reads::default(),
    };
    let mut pairs = Vec::new();
    let (mut cur_o, mut cur_i) = (o.fetch(), None);
    if cur_o.is_some() {
        cur_i = i.fetch();
    }
    let mut mark = 0;
    let mut step = Step::Compare;
    while let Some(at_o) = cur_o {
        let ko = &outer[at_o];
        step = match step {
            Step::Compare => {
                let Some(at_i) = cur_i else { break };
                match cmp(ko, &inner[at_i]) {
                    Ordering::Equal => {
                        mark = at_i;
                        Step::Join
                    }
                    Ordering::Less => Step::SkipOuter,
                    Ordering::Greater => Step::SkipInner,
                }
            }
            Step::SkipOuter => {
                cur_o = o.fetch();
                Step::Compare
            }
            Step::SkipInner => {
                cur_i = i.fetch();
                if cur_i.is_none() {
                    break;
                }
                Step::Compare
            }
            Step::Join => {
                pairs.push((at_o, cur_i.expect("a pair has an inner row")));
                if single_match {
                    Step::NextOuter
                } else {
                    Step::NextInner
                }
            }
            Step::NextInner => {
                cur_i = i.fetch();
                match cur_i {
                    Some(at_i) if cmp(ko, &inner[at_i]) == Ordering::Equal => Step::Join,
                    _ => Step::NextOuter,
                }
            }
            Step::NextOuter => {
                cur_o = o.fetch();
                Step::TestOuter
            }
            Step::TestOuter => {
                if cmp(ko, &inner[mark]) == Ordering::Equal {
                    // Back to the first inner row of this key.
                    if !single_match {
                        cur_i = Some(mark);
                        i.next = mark + 1;
                    }
                    Step::Join
                } else if cur_i.is_none() {
                    break;
                } else {
                    Step::Compare
                }
            }
        };
    }
    Merged {
        pairs,
        outer: o.reads,
        inner: i.reads,
    }
}

/// The order the pass needs: ascending, NULLs last.
fn key_order(a: &Value, b: &Value) -> Ordering {
    match (a.is_null(), b.is_null()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => compare(a, b).unwrap_or(Ordering::Equal),
    }
}

/// One side of the join as the executor holds it.
struct Side<'a> {
    query: &'a SideQuery<'a>,
    read: &'a ScanPlan,
    /// The key column's position in the table's rows.
    key: usize,
}

impl Side<'_> {
    fn sorted(&self) -> bool {
        self.read.cost.is_some_and(|c| c.sort.is_some())
    }

    /// The keys the side will hand up, in order.
    fn peeked_keys<E: JoinExec>(&self, engine: &mut E) -> Result<Vec<Value>, SqlError> {
        let rows = engine
            .peek_rows(self.query.side.table, self.query.filter)?
            .ok_or_else(|| unsupported("a Merge Join on this profile"))?;
        let mut keys: Vec<Value> = rows.into_iter().map(|r| r[self.key].clone()).collect();
        keys.sort_by(key_order);
        Ok(keys)
    }

    /// Runs the side's scan as far as the pass reads it (a Sort reads all
    /// of it), and puts its rows in key order.
    fn run<E: JoinExec>(
        &self,
        engine: &mut E,
        reads: Option<Reads>,
        role: &'static str,
    ) -> Result<(PlanNode, Vec<Row>), SqlError> {
        let limit = match reads {
            None => Some(0),
            Some(r) if !self.sorted() && !r.to_end => Some(r.read as u64),
            Some(_) => None,
        };
        let table = self.query.side.table;
        let ScanOutput { rows, mut node } = engine.run_scan(table, self.read, limit)?;
        let info = engine.planner_info(table);
        super::join::alias_title(&mut node, &info.name, &self.query.side.name);
        let mut rows: Vec<Row> = rows.into_iter().map(|(_, r)| r).collect();
        // A presorted side's index gave them in key order already (the
        // stable sort then changes nothing, and costs one pass).
        rows.sort_by(|a, b| key_order(&a[self.key], &b[self.key]));
        if reads.is_some() {
            let how = if self.sorted() {
                "sorted on the join key"
            } else {
                "in the index's key order"
            };
            let n = rows.len() as u64;
            let phase = Phase::of("Merge Join", role, &self.query.side.name);
            plan_phase::record(engine, phase, (n, n), how.into());
        }
        Ok((node, rows))
    }

    fn key_expr<E: JoinExec>(&self, engine: &E) -> Expr {
        Expr::Column {
            table: Some(self.query.side.name.clone()),
            name: engine.planner_info(self.query.side.table).columns[self.key]
                .0
                .clone(),
        }
    }
}

/// Runs the Merge Join `choice` of `outer` and `inner` on the equalities
/// `both`. Returns its node and its rows (outer's columns, then inner's).
pub fn run<E: JoinExec>(
    engine: &mut E,
    (outer, inner): (&SideQuery, &SideQuery),
    both: &[Expr],
    choice: &JoinChoice,
    execute: bool,
) -> Result<(PlanNode, Vec<Row>), SqlError> {
    let plan: &MergePlan = choice
        .merge
        .as_deref()
        .expect("a Merge Join choice carries its inputs");
    let start = engine.now_us();
    // The merge key is the planner's (the first equality of a column of
    // each side); the other conditions are checked on each pair.
    let (mut merged_on, mut rest) = (false, Vec::new());
    for c in both {
        match column_pair(engine, c, outer.side, inner.side)? {
            Some(_) if !merged_on => merged_on = true,
            _ => rest.push(c.clone()),
        }
    }
    let (ko, ki) = plan.keys;
    let o = Side {
        query: outer,
        read: &plan.outer,
        key: ko,
    };
    let i = Side {
        query: inner,
        read: &plan.inner,
        key: ki,
    };
    let planned = if execute {
        let (okeys, ikeys) = (o.peeked_keys(engine)?, i.peeked_keys(engine)?);
        Some(merge(&okeys, &ikeys, plan.unique_inner))
    } else {
        None
    };
    // PostgreSQL starts with the outer side, then the inner.
    let (onode, orows) = o.run(engine, planned.as_ref().map(|m| m.outer), "outer")?;
    let (inode, irows) = i.run(engine, planned.as_ref().map(|m| m.inner), "inner")?;
    let keys =
        |rows: &[Row], col: usize| -> Vec<Value> { rows.iter().map(|r| r[col].clone()).collect() };
    let merged = if execute {
        merge(&keys(&orows, ko), &keys(&irows, ki), plan.unique_inner)
    } else {
        Merged::default()
    };
    let scope = engine.join_scope(outer.side, inner.side);
    let filter = rest
        .iter()
        .map(|e| crate::sql::eval::bind(e, &scope))
        .collect::<Result<Vec<_>, _>>()?;
    let max_rows = engine.settings().max_rows() as u64;
    let (mut joined, mut removed) = (Vec::new(), 0u64);
    for &(a, b) in &merged.pairs {
        let row: Row = orows[a].iter().chain(irows[b].iter()).cloned().collect();
        if !engine.passes(&filter, &row)? {
            removed += 1;
            continue;
        }
        joined.push(row);
        if joined.len() as u64 > max_rows {
            return Err(SqlError::new(
                ErrorKind::Limit,
                format!("the join returns more than max_rows={max_rows} rows"),
            ));
        }
    }
    if execute {
        let took = (orows.len() + irows.len()) as u64;
        let phase = Phase::of("Merge Join", "merge", "");
        plan_phase::record(engine, phase, (took, joined.len() as u64), String::new());
    }
    let onode = input_node(&o, engine, onode, plan.cost.outer_sort, merged.outer);
    let mut inode = input_node(&i, engine, inode, plan.cost.inner_sort, merged.inner);
    if let Some(m) = plan.cost.materialize {
        inode = materialize_node(inode, m, merged.inner);
    }
    let cond = Expr::Binary {
        op: BinOp::Eq,
        left: Box::new(o.key_expr(engine)),
        right: Box::new(i.key_expr(engine)),
    };
    let mut details = vec![format!(
        "Merge Cond: {}",
        crate::sql::deparse::deparse(&cond)
    )];
    details.extend(
        rest.iter()
            .map(|e| format!("Join Filter: {}", crate::sql::deparse::deparse(e))),
    );
    if !rest.is_empty() {
        details.push(format!("Rows Removed by Join Filter: {removed}"));
    }
    let times = (onode.first_us.max(inode.first_us), engine.now_us() - start);
    let names = (outer.side.name.as_str(), inner.side.name.as_str());
    let node = join_node(
        "Merge Join",
        details,
        joined.len(),
        [onode, inode],
        times,
        choice,
        names,
    );
    Ok((node, joined))
}

/// A side's node as the join sees it: its scan, under a Sort when it was
/// sorted; the top node hands the rows the pass took.
fn input_node<E: JoinExec>(
    side: &Side,
    engine: &E,
    mut scan: PlanNode,
    sort: Option<crate::sql::plan::cost::Cost>,
    reads: Reads,
) -> PlanNode {
    let Some(sort) = sort else {
        scan.rows = reads.handed;
        return scan;
    };
    let order = [OrderItem {
        expr: side.key_expr(engine),
        order: Order::Asc,
        nulls_first: None,
    }];
    let mut node = super::aggregate::sort_node(scan, &order);
    node.rows = reads.handed;
    set_cost(&mut node, &sort);
    node
}

/// The Materialize over the inner side: it keeps the rows since the mark
/// and hands them again from memory, so the side below reads each once.
fn materialize_node(
    mut child: PlanNode,
    est: crate::sql::plan::cost::Cost,
    reads: Reads,
) -> PlanNode {
    let handed = reads.handed;
    child.rows = reads.read as u64;
    let mut node = PlanNode {
        title: "Materialize".into(),
        rows: handed,
        loops: 1,
        first_us: child.first_us,
        last_us: child.last_us,
        buffers: child.buffers,
        width: child.width,
        children: vec![child],
        ..PlanNode::default()
    };
    set_cost(&mut node, &est);
    node
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<Value> {
        v.iter().map(|&n| Value::Int(n)).collect()
    }

    #[test]
    fn the_pass_stops_when_the_inner_side_runs_out() {
        // Outer 1…10, inner 2, 3: the outer side is read up to 4, the first
        // key past the inner side's last, and no further.
        let outer = ints(&(1..=10).collect::<Vec<_>>());
        let m = merge(&outer, &ints(&[2, 3]), false);
        assert_eq!(m.pairs, vec![(1, 0), (2, 1)]);
        assert_eq!(m.outer.read, 4);
        assert!(!m.outer.to_end);
        assert!(m.inner.to_end);
    }

    #[test]
    fn a_repeated_outer_key_reads_the_inner_rows_again() {
        let m = merge(&ints(&[1, 1, 2]), &ints(&[1, 1, 3]), false);
        assert_eq!(m.pairs, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
        // Back at the mark the marked row is at hand; row 1 and row 2 (3,
        // which ends the run of 1s) are handed again.
        assert_eq!(m.inner.read, 3);
        assert_eq!(m.inner.handed, 5);
    }

    #[test]
    fn a_unique_inner_key_moves_on_after_one_match() {
        let m = merge(&ints(&[1, 1, 2, 5]), &ints(&[1, 2, 3]), true);
        assert_eq!(m.pairs, vec![(0, 0), (1, 0), (2, 1)]);
        // After the last pair the inner side is read on to its end.
        assert!(m.inner.to_end);
        assert_eq!(m.outer.read, 4);
    }

    #[test]
    fn a_null_key_ends_the_pass() {
        let outer = vec![Value::Int(1), Value::Null, Value::Null];
        let m = merge(&outer, &ints(&[1, 2]), false);
        assert_eq!(m.pairs, vec![(0, 0)]);
        assert_eq!(m.outer.read, 2);
    }
}
