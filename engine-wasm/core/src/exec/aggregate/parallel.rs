//! An aggregate without GROUP BY computed in parts (pg): each process of a
//! Parallel Seq Scan folds its share of the rows into a Partial Aggregate,
//! the Gather collects one partial state per process, and a Finalize
//! Aggregate combines them (`create_partial_grouping_paths`,
//! `add_paths_to_grouping_rel`). Only a handful of rows cross from the
//! workers to the leader, so it wins on a big table where a Gather of every
//! row would not.

use crate::exec::plan_node::PlanNode;
use crate::sql::ast::Select;
use crate::sql::error::SqlError;
use crate::sql::plan::cost::aggregate::{cost as agg_cost, Agg, Strategy};
use crate::sql::plan::cost::{Cost, CostParams};
use crate::sql::plan::grouping::AggregateCosts;
use crate::sql::plan::why::{self, Considered};
use crate::sql::plan::{parallel, plan_partial_scan, ScanPlan, TableInfo};

/// The parallel plan of a plain aggregate and its estimates.
#[derive(Debug, Clone)]
pub struct ParallelAgg {
    /// The Parallel Seq Scan, with its Gather's estimate.
    pub read: ScanPlan,
    pub partial: Cost,
    pub gather: Cost,
    pub finalize: Cost,
    /// `width=` of the partial and gathered rows (the aggregate's).
    pub width: u32,
}

/// The parallel plan for aggregates over `input`'s rows, if the table is
/// big enough for a worker. `a` are the aggregates' costs as one process
/// would run them.
pub fn plan(
    info: &TableInfo,
    input: &Select,
    a: &AggregateCosts,
    (having, width): (f64, f64),
    p: &CostParams,
) -> Result<Option<ParallelAgg>, SqlError> {
    let Some(read) = plan_partial_scan(info, input)? else {
        return Ok(None);
    };
    let c = read.cost.expect("a partial scan is costed");
    let workers = c.gather.expect("a partial scan has its Gather").workers;
    // Each process: the transition functions over its rows, no final one,
    // but an `internal` state is serialized to cross to the leader.
    let serialize = p.cpu_operator_cost * a.serialized;
    let partial = agg_cost(&plain(c.scan, a.trans_per_row, serialize, 0.0), p);
    // One partial state from each worker (the leader's is its own).
    let gather = parallel::gather(&partial, partial.rows * f64::from(workers), p);
    // The leader: a combine function per state (and a deserialize per
    // `internal` one), then the final functions.
    let combine = p.cpu_operator_cost * (a.states + a.serialized);
    let finalize = agg_cost(&plain(gather, combine, a.final_per_group, having), p);
    Ok(Some(ParallelAgg {
        read,
        partial,
        gather,
        finalize,
        width: width.round() as u32,
    }))
}

fn plain(input: Cost, trans_per_row: f64, final_per_group: f64, having: f64) -> Agg {
    Agg {
        strategy: Strategy::Plain,
        input,
        input_width: 0.0,
        trans_per_row,
        final_per_group,
        states: 0.0,
        state_bytes: 0.0,
        group_columns: 0.0,
        groups: 1.0,
        having_per_group: having,
    }
}

impl ParallelAgg {
    pub fn workers(&self) -> u32 {
        self.read
            .cost
            .and_then(|c| c.gather)
            .map_or(0, |g| g.workers)
    }

    /// Why computing in parts won, against the plain Aggregate's `serial`.
    pub fn why(&self, table: &str, serial: f64) -> String {
        let w = self.workers();
        let rows = self
            .read
            .cost
            .map_or(0.0, |c| c.gather.map_or(0.0, |g| g.cost.rows));
        let cost = why::costs(
            self.finalize.total,
            &[Considered {
                name: "an Aggregate over a Seq Scan".into(),
                cost: serial,
            }],
        );
        format!(
            "Finalize Aggregate over a Gather: the leader and {w} worker{} each read a share of \
             {table}'s pages and fold the about {} rows that pass into a partial result; only \
             those {} partial results cross to the leader, which combines them, cheaper than \
             one process folding every row {cost}.",
            if w == 1 { "" } else { "s" },
            why::whole(rows),
            w + 1
        )
    }

    /// Puts a Partial Aggregate between the Gather the scan ran under and
    /// the Parallel Seq Scan: one row from each process.
    pub fn restack(&self, mut gather: PlanNode) -> PlanNode {
        let width = self.width;
        let scan = gather.children.remove(0);
        let partial = PlanNode {
            title: "Partial Aggregate".into(),
            rows: 1,
            loops: scan.loops,
            first_us: scan.last_us,
            last_us: scan.last_us,
            buffers: scan.buffers,
            est_cost: (self.partial.startup, self.partial.total),
            est_rows: self.partial.rows,
            width,
            costed: true,
            ..PlanNode::default()
        };
        gather.rows = scan.loops;
        gather.est_cost = (self.gather.startup, self.gather.total);
        gather.est_rows = self.gather.rows;
        gather.width = width;
        gather.children = vec![PlanNode {
            children: vec![scan],
            ..partial
        }];
        gather
    }
}
