//! A Hash Join, as PostgreSQL's executor runs it (nodeHashjoin.c): the
//! inner side is read once and each row goes into a hash table on its join
//! key (the `Hash` node); then the outer side is read, and each row looks its
//! key up and is checked against the rows in that bucket. A NULL key matches
//! nothing, so it is never stored or looked up. PostgreSQL puts each new
//! entry at the head of its bucket's chain, so an outer row meets its
//! partners newest first.

use super::aggregate::accumulate::GroupKey;
use super::plan_node::PlanNode;
use super::row::Row;
use super::select::SelectExec;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::Bound as BoundExpr;
use crate::value::Value;
use std::collections::HashMap;

/// A row's join key, or None when part of it is NULL.
pub fn join_key<E: SelectExec>(
    engine: &mut E,
    keys: &[BoundExpr],
    row: &[Value],
) -> Result<Option<GroupKey>, SqlError> {
    let mut values = Vec::with_capacity(keys.len());
    for k in keys {
        match engine.eval_bound(k, row)? {
            Value::Null => return Ok(None),
            // 2.0 = 2: an integral float hashes as the integer.
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9e15 => {
                values.push(Value::Int(f as i64))
            }
            v => values.push(v),
        }
    }
    Ok(Some(GroupKey::of(&values)))
}

/// The keys of each side, and the join's other conditions (bound to the
/// joined row: outer columns, then inner).
pub struct HashKeys {
    pub outer: Vec<BoundExpr>,
    pub inner: Vec<BoundExpr>,
    pub filter: Vec<BoundExpr>,
}

/// The joined rows (outer's columns, then inner's) of an inner join, and
/// how many outer rows were probed: all of them, or under a `limit` only
/// until that many rows were joined (PostgreSQL's Limit stops pulling).
pub fn inner_join<E: SelectExec>(
    engine: &mut E,
    (outer, inner): (&[Row], &[Row]),
    keys: &HashKeys,
    (max_rows, limit): (u64, Option<u64>),
) -> Result<(Vec<Row>, u64), SqlError> {
    let mut table: HashMap<GroupKey, Vec<usize>> = HashMap::new();
    for (n, row) in inner.iter().enumerate() {
        if let Some(key) = join_key(engine, &keys.inner, row)? {
            table.entry(key).or_default().push(n);
        }
    }
    let mut out = Vec::new();
    let mut taken = 0;
    for o in outer {
        if limit.is_some_and(|l| out.len() as u64 >= l) {
            break;
        }
        taken += 1;
        let Some(key) = join_key(engine, &keys.outer, o)? else {
            continue;
        };
        for &n in table.get(&key).into_iter().flatten().rev() {
            let row: Row = o.iter().chain(inner[n].iter()).cloned().collect();
            if engine.passes(&keys.filter, &row)? {
                out.push(row);
                if out.len() as u64 > max_rows {
                    return Err(SqlError::new(
                        ErrorKind::Limit,
                        format!("the join returns more than max_rows={max_rows} rows"),
                    ));
                }
            }
        }
    }
    if let Some(l) = limit {
        // The Limit above stops pulling once it has its rows.
        out.truncate(l as usize);
    }
    Ok((out, taken))
}

/// What EXPLAIN ANALYZE says of the hash table: the buckets it started with
/// (`ExecChooseHashTableSize` on the planner's estimate) and doubled while
/// more rows than buckets came, the batches, and the memory at its peak:
/// each row as a 16-byte entry header plus the row as a minimal tuple of the
/// columns the join needs, and the bucket arrays.
pub struct HashTableFigures {
    pub planned_buckets: f64,
    pub batches: f64,
    /// Rows stored (a NULL key is not) and the bytes of their minimal tuples.
    pub rows: u64,
    pub tuple_bytes: u64,
}

impl HashTableFigures {
    pub fn detail(&self) -> String {
        let original = self.planned_buckets as u64;
        let mut buckets = original;
        if self.batches <= 1.0 {
            while self.rows > buckets {
                buckets *= 2;
            }
        }
        let mut bytes = 16 * self.rows + self.tuple_bytes + 8 * buckets;
        let batches = self.batches as u64;
        if buckets != original {
            // The first bucket array is counted as well once it was replaced.
            bytes += 8 * original;
            format!(
                "Buckets: {buckets} (originally {original})  Batches: {batches} (originally {batches})  Memory Usage: {}kB",
                bytes.div_ceil(1024)
            )
        } else {
            format!(
                "Buckets: {buckets}  Batches: {batches}  Memory Usage: {}kB",
                bytes.div_ceil(1024)
            )
        }
    }
}

/// The `Hash` node above the inner side's scan: it holds every row the scan
/// gave, and is complete when the scan ends.
pub fn hash_node(scan: PlanNode, table: Option<&HashTableFigures>) -> PlanNode {
    PlanNode {
        title: "Hash".into(),
        details: table.map(HashTableFigures::detail).into_iter().collect(),
        rows: scan.rows,
        loops: scan.loops,
        first_us: scan.last_us,
        last_us: scan.last_us,
        buffers: scan.buffers,
        est_cost: (scan.est_cost.1, scan.est_cost.1),
        est_rows: scan.est_rows,
        width: scan.width,
        costed: scan.costed,
        children: vec![scan],
        ..PlanNode::default()
    }
}
