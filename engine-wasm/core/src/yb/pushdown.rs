//! YugabyteDB's expression pushdown (`yb_enable_expression_pushdown`, on by
//! default): the WHERE conditions DocDB can evaluate itself travel with the
//! read request, and a row that fails one never leaves the tablet server.
//! EXPLAIN prints them as `Storage Filter` (on the rows of the relation the
//! request reads) or `Storage Index Filter` (on a secondary index's entries
//! before the table is read), with no `Rows Removed` count: PostgreSQL's
//! side never sees those rows. A request pages after `yb_fetch_row_limit`
//! rows *returned* (`fetched_rows` in DocDB's `pgsql_operation.cc`), so a
//! selective storage filter also means fewer read requests.
//!
//! What DocDB can evaluate is decided as `yb_pushdown_walker` (`ybcExpr.c`)
//! does: the relation's own columns, constants and parameters, operators and
//! immutable built-in functions, AND / OR / NOT, IS NULL, IN lists and
//! `CASE WHEN`. Not a stable or volatile function (`now()`, `random()`), a
//! subquery, a system column, `IS DISTINCT FROM`, or a node kind DocDB does
//! not know (COALESCE, NULLIF, GREATEST, a cast through text).

use super::catalog::YbCatalog;
use super::engine::YbEngine;
use super::request::DocRow;
use super::row::{decode_table_row, index_row};
use crate::rng::Rng;
use crate::sql::ast::{BinOp, ColumnDef, Expr};
use crate::sql::error::SqlError;
use crate::sql::eval::{accepts, Bound as BoundExpr, EvalEnv};
use crate::sql::functions::ScalarFunc;
use crate::sql::plan::{AccessPath, ScanPlan};
use crate::value::SqlType;

/// Whether DocDB can evaluate `e` over a row of `columns`.
pub fn pushable(e: &Expr, columns: &[ColumnDef]) -> bool {
    let own = |name: &str| columns.iter().any(|c| c.name == name);
    let mut ok = true;
    e.visit(&mut |x| {
        ok &= match x {
            Expr::Column { name, .. } => own(name),
            Expr::Literal(_)
            | Expr::Param(_)
            | Expr::Unary { .. }
            | Expr::InList { .. }
            | Expr::Between { .. }
            | Expr::IsNull { .. }
            | Expr::Like { .. } => true,
            Expr::Binary { op, .. } => {
                !matches!(op, BinOp::IsDistinctFrom | BinOp::IsNotDistinctFrom)
            }
            Expr::Function { func, .. } => immutable(*func),
            Expr::Case { operand, .. } => operand.is_none(),
            Expr::Cast { expr, ty } => matches!(**expr, Expr::Literal(_)) || numeric(*ty),
            Expr::Call(_)
            | Expr::ScalarSubquery(_)
            | Expr::Exists { .. }
            | Expr::InSubquery { .. }
            | Expr::Aggregate { .. } => false,
        };
    });
    ok
}

/// A cast DocDB runs as a function (between numbers): one through text is
/// PostgreSQL's I/O conversion, which it cannot run.
fn numeric(ty: SqlType) -> bool {
    matches!(
        ty,
        SqlType::Int2
            | SqlType::Int4
            | SqlType::Int8
            | SqlType::Float4
            | SqlType::Float8
            | SqlType::Numeric(_)
    )
}

/// The built-in functions PostgreSQL marks immutable, of fixed argument
/// types (no variadic or polymorphic one), as a plain function call.
fn immutable(f: ScalarFunc) -> bool {
    use ScalarFunc::*;
    matches!(
        f,
        Lower
            | Upper
            | Length
            | Substr
            | Md5
            | ToHex
            | Lpad
            | Rpad
            | Repeat
            | Replace
            | Abs
            | Floor
            | Ceil
            | Round
            | Trunc
            | Sign
            | Mod
            | Left
            | Right
            | SplitPart
            | Position
            | CharLength
            | Btrim
            | Ltrim
            | Rtrim
            | Strpos
            | Initcap
            | Chr
            | Ascii
            | OctetLength
            | MakeDate
            | Encode
            | Decode
    )
}

/// A scan's WHERE conditions (those not in its Index Cond) by where they run.
#[derive(Default)]
pub(super) struct StorageSplit {
    /// PostgreSQL's side: `Filter`.
    pub local: Vec<Expr>,
    /// DocDB, on a secondary index's entries.
    pub index: Vec<Expr>,
    /// DocDB, on the table's rows.
    pub table: Vec<Expr>,
}

impl YbEngine {
    /// Where each of `plan`'s filter conditions runs: in DocDB when it can
    /// and pushdown is on; there on the index's entries when the scan reads a
    /// secondary index that holds every column it names (always, for an
    /// Index Only Scan), else on the table's rows.
    pub(super) fn storage_split(&self, table: usize, plan: &ScanPlan) -> StorageSplit {
        let mut split = StorageSplit::default();
        let t = self.catalog.table(table);
        let on = self.settings.yb_enable_expression_pushdown();
        let info = self.catalog.planner_info(table);
        // The secondary index read, and whether the table is read after it.
        let secondary = match &plan.access {
            AccessPath::Index { index, only, .. } if !(t.key.is_some() && *index == 0) => {
                Some((&info.indexes[*index], *only))
            }
            AccessPath::Bitmap { index, .. } if !(t.key.is_some() && *index == 0) => {
                Some((&info.indexes[*index], false))
            }
            _ => None,
        };
        for part in &plan.filter {
            if !on || !pushable(part, &t.columns) {
                split.local.push(part.clone());
                continue;
            }
            let covered = |ix: &crate::sql::plan::IndexInfo| {
                let mut all = true;
                part.visit(&mut |x| {
                    if let Expr::Column { name, .. } = x {
                        all &= t
                            .columns
                            .iter()
                            .position(|c| &c.name == name)
                            .is_some_and(|c| ix.covers(c));
                    }
                });
                all
            };
            match secondary {
                Some((_, true)) => split.index.push(part.clone()),
                Some((ix, false)) if covered(ix) => split.index.push(part.clone()),
                _ => split.table.push(part.clone()),
            }
        }
        split
    }
}

/// Which rows a storage filter reads.
#[derive(Clone, Copy)]
pub(super) enum FilterRows {
    /// The table's rows (by table id).
    Table(usize),
    /// A secondary index's entries (by index id), as rows of the table's width.
    Index(usize, usize),
}

/// Conditions DocDB evaluates on each row a request reads.
pub(super) struct StorageFilter {
    pub conds: Vec<BoundExpr>,
    pub rows: FilterRows,
    pub statement_start_us: i64,
    pub clock_us: i64,
}

impl StorageFilter {
    /// Whether document `d` passes every condition.
    pub fn keeps(&self, catalog: &YbCatalog, rng: &mut Rng, d: &DocRow) -> Result<bool, SqlError> {
        let row = match self.rows {
            FilterRows::Table(t) => decode_table_row(catalog.table(t), d)?,
            FilterRows::Index(i, width) => {
                index_row(catalog.index(i), width, &d.doc, &d.entries[0].1)?.0
            }
        };
        let mut env = EvalEnv {
            statement_start_us: self.statement_start_us,
            clock_us: self.clock_us,
            rng,
            sequences: None,
        };
        for c in &self.conds {
            if !accepts(c, &row, &mut env)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::parse::parse_statement;

    fn where_of(sql: &str) -> Expr {
        match parse_statement(sql).unwrap() {
            crate::sql::ast::Statement::Select(q) => q.filter.unwrap(),
            other => panic!("{other:?}"),
        }
    }

    fn columns() -> Vec<ColumnDef> {
        ["a", "b", "t"]
            .iter()
            .map(|n| ColumnDef::plain(*n, SqlType::Int4))
            .collect()
    }

    #[test]
    fn docdb_evaluates_operators_and_immutable_functions_only() {
        let yes = [
            "a = 4",
            "a % 2 = 0 and b < 10",
            "a in (1, 2) or b is null",
            "lower(t) like 'x%'",
            "a between 1 and 5",
            "case when a > 1 then true else false end",
            "a::numeric > 2.5",
        ];
        for w in yes {
            let e = where_of(&format!("select 1 from x where {w}"));
            assert!(pushable(&e, &columns()), "{w}");
        }
        let no = [
            "a > random()",
            "a in (select 1)",
            "coalesce(a, 0) = 1",
            "a is distinct from b",
            "ctid = '(0,1)'",
            "a::text = '1'",
            "case a when 1 then true end",
        ];
        for w in no {
            let e = where_of(&format!("select 1 from x where {w}"));
            assert!(!pushable(&e, &columns()), "{w}");
        }
    }
}
