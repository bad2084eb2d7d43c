//! EXPLAIN's plan tree, and PostgreSQL's text layout of it (YugabyteDB prints the
//! same layout, with its storage lines under each scan).

use crate::buffer_pool::BufferStats;
use crate::sql::ast::{ColumnDef, ExplainOptions, Expr};
use crate::sql::deparse::deparse_over;
use crate::value::SqlType;

/// One node of an executed (or only planned) plan.
#[derive(Debug, Clone, Default)]
pub struct PlanNode {
    pub title: String,
    pub details: Vec<String>,
    pub rows: u64,
    pub loops: u64,
    /// Virtual time of the first and last row, in µs since the statement started.
    pub first_us: f64,
    pub last_us: f64,
    pub buffers: BufferStats,
    /// The planner's estimates: PostgreSQL's numbers when `costed`, else
    /// IndexLab's rough figures shaped like them.
    pub est_cost: (f64, f64),
    /// Whether `est_cost` and `est_rows` are PostgreSQL's cost model's.
    pub costed: bool,
    /// Totals over all loops that EXPLAIN's DIST option shows, per loop
    /// (YugabyteDB's `Storage Table Read Requests` and the like).
    pub dist: Vec<(String, f64)>,
    /// Totals EXPLAIN's DEBUG option shows, per loop (`Metric rocksdb_…`).
    pub debug: Vec<(String, f64)>,
    pub est_rows: f64,
    pub width: u32,
    pub children: Vec<PlanNode>,
    /// VERBOSE's `Output:` columns, as PostgreSQL deparses the node's target
    /// list (set by `explain_verbose`, which refuses plans it cannot derive).
    pub output: Vec<String>,
    /// The node's `details` with every column qualified by its relation, as
    /// VERBOSE prints them (`Index Cond: (t.id = 5)`); empty when the same.
    pub verbose_details: Vec<String>,
    /// The schema of the relation it scans or writes, when not `public`
    /// (the title names the relation without it; VERBOSE adds it).
    pub schema: Option<String>,
    /// Why the planner chose this node, when it chose by cost.
    pub why: Option<String>,
    /// Its parent never ran it (a BitmapAnd stopped at an empty bitmap):
    /// EXPLAIN ANALYZE prints `(never executed)`.
    pub never_executed: bool,
}

/// Gives `node` a cost the model computed.
pub fn set_cost(node: &mut PlanNode, c: &crate::sql::plan::cost::Cost) {
    node.est_cost = (c.startup, c.total);
    node.est_rows = c.rows;
    node.costed = true;
}

impl PlanNode {
    /// The detail lines the options print (VERBOSE qualifies columns).
    pub fn shown_details(&self, o: &ExplainOptions) -> &[String] {
        if o.verbose && !self.verbose_details.is_empty() {
            &self.verbose_details
        } else {
            &self.details
        }
    }

    /// Whether `detail` is an actual figure, printed only with ANALYZE.
    pub fn is_actual(detail: &str) -> bool {
        [
            "Heap Fetches",
            "Heap Blocks",
            "Rows Removed",
            "Sort Method",
            "Hits:",
            "Workers Launched",
            "Worker ",
        ]
        .iter()
        .any(|p| detail.starts_with(p))
    }
}

/// The "why" sentences of `node`'s tree, top node first.
pub fn reasons(node: &PlanNode, out: &mut Vec<String>) {
    out.extend(node.why.iter().cloned());
    for c in &node.children {
        reasons(c, out);
    }
}

/// The kinds of node in `node`'s tree whose estimates are not PostgreSQL's
/// (`Aggregate`, `Nested Loop`…), each once, in the order met.
pub fn uncosted_kinds(node: &PlanNode, out: &mut Vec<String>) {
    if !node.costed {
        let t = &node.title;
        let end = [" on ", " using "]
            .iter()
            .filter_map(|w| t.find(w))
            .min()
            .unwrap_or(t.len());
        let kind = t[..end].trim_end_matches(" Backward").to_string();
        if !out.contains(&kind) {
            out.push(kind);
        }
    }
    for c in &node.children {
        uncosted_kinds(c, out);
    }
}

/// The node's title as VERBOSE prints it: relations with their schema
/// (`Seq Scan on public.t`), functions with theirs.
pub fn verbose_title(title: &str, schema: Option<&str>) -> String {
    if title.starts_with("Function Scan on generate_series") {
        return title.replacen(" on ", " on pg_catalog.", 1);
    }
    let relation = [
        "Seq Scan on ",
        "Index Scan",
        "Index Only Scan",
        "Insert on ",
        "Update on ",
        "Delete on ",
    ];
    match title.rfind(" on ") {
        Some(at) if relation.iter().any(|p| title.starts_with(p)) => {
            let schema = schema.unwrap_or(crate::exec::schemas::PUBLIC);
            format!("{} on {schema}.{}", &title[..at], &title[at + 4..])
        }
        _ => title.to_string(),
    }
}

/// PostgreSQL's typical width in bytes of a column type.
pub fn type_width(ty: SqlType) -> u32 {
    match ty {
        SqlType::Int2 => 2,
        SqlType::Int4 | SqlType::Date => 4,
        SqlType::Interval => 16,
        SqlType::Bool => 1,
        SqlType::Text => 32,
        // get_typavgwidth: a bpchar's maximum size, 4 bytes a character in
        // UTF-8 and its length word.
        SqlType::Bpchar(n) => n.saturating_mul(4).saturating_add(4),
        SqlType::Uuid => 16,
        // get_typavgwidth: numeric_maximum_size of the typmod (a header of
        // 8, 2 bytes per base-10000 digit the precision needs), else 32.
        SqlType::Numeric(Some((precision, _))) => {
            let max = 8 + 2 * ((u32::from(precision) + 6) / 4);
            match max {
                0..=32 => max,
                33..=999 => 32 + (max - 32) / 2,
                _ => 32 + (1000 - 32) / 2,
            }
        }
        SqlType::Numeric(None) => 32,
        _ => 8,
    }
}

/// A scan's `Index Cond` and `Filter` lines, with `Rows Removed by Filter`
/// (`removed`) after the filter; columns qualified by `rel` under VERBOSE.
pub fn scan_conditions(
    index: &[Expr],
    filter: &[Expr],
    columns: &[ColumnDef],
    rel: Option<&str>,
    removed: u64,
) -> Vec<String> {
    let show = |e: &Expr| match rel {
        Some(r) => deparse_over(&qualified(e, r), columns),
        None => deparse_over(e, columns),
    };
    let split = crate::sql::plan::selectivity::split_between;
    let (index, filter) = (split(index), split(filter));
    let mut lines = Vec::new();
    if !index.is_empty() {
        let conds: Vec<String> = index.iter().map(show).collect();
        lines.push(format!("Index Cond: {}", wrap_and(&conds)));
    }
    if !filter.is_empty() {
        let f: Vec<String> = filter.iter().map(show).collect();
        lines.push(format!("Filter: {}", wrap_and(&f)));
        lines.push(format!("Rows Removed by Filter: {removed}"));
    }
    lines
}

/// A `label: (a AND b)` line of conditions (`Storage Filter`), or None.
pub fn qual_line(
    label: &str,
    parts: &[Expr],
    columns: &[ColumnDef],
    rel: Option<&str>,
) -> Option<String> {
    let parts = crate::sql::plan::selectivity::split_between(parts);
    if parts.is_empty() {
        return None;
    }
    let shown: Vec<String> = parts
        .iter()
        .map(|e| match rel {
            Some(r) => deparse_over(&qualified(e, r), columns),
            None => deparse_over(e, columns),
        })
        .collect();
    Some(format!("{label}: {}", wrap_and(&shown)))
}

/// `e` with its unqualified columns qualified by `rel` (`id` → `t.id`).
fn qualified(e: &Expr, rel: &str) -> Expr {
    e.map(&mut |x| match x {
        Expr::Column { table: None, name } => Some(Expr::Column {
            table: Some(rel.to_string()),
            name: name.clone(),
        }),
        _ => None,
    })
}

pub fn wrap_and(parts: &[String]) -> String {
    if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("({})", parts.join(" AND "))
    }
}

fn buffers_line(b: &BufferStats) -> Option<String> {
    let parts: Vec<String> = [
        ("hit", b.shared_hit),
        ("read", b.shared_read),
        ("dirtied", b.shared_dirtied),
        ("written", b.shared_written),
    ]
    .iter()
    .filter(|(_, v)| *v > 0)
    .map(|(k, v)| format!("{k}={v}"))
    .collect();
    (!parts.is_empty()).then(|| format!("Buffers: shared {}", parts.join(" ")))
}

/// Appends `node` and its children as PostgreSQL indents them.
pub fn format_node(node: &PlanNode, depth: usize, o: &ExplainOptions, out: &mut Vec<String>) {
    let (head, pad) = if depth == 0 {
        (String::new(), "  ".to_string())
    } else {
        let indent = " ".repeat(6 * (depth - 1) + 2);
        (format!("{indent}->  "), " ".repeat(6 * depth + 2))
    };
    let title = if o.verbose {
        verbose_title(&node.title, node.schema.as_deref())
    } else {
        node.title.clone()
    };
    let mut line = format!("{head}{title}");
    if o.costs {
        line.push_str(&format!(
            "  (cost={:.2}..{:.2} rows={} width={})",
            node.est_cost.0,
            node.est_cost.1,
            node.est_rows.round().max(1.0) as u64,
            node.width
        ));
    }
    if o.analyze && node.never_executed {
        // A node its parent never ran (a BitmapAnd stopped at an empty bitmap).
        line.push_str(" (never executed)");
    } else if o.analyze {
        if o.timing {
            line.push_str(&format!(
                " (actual time={:.3}..{:.3} rows={} loops={})",
                node.first_us / 1000.0,
                node.last_us / 1000.0,
                node.rows,
                node.loops
            ));
        } else {
            line.push_str(&format!(
                " (actual rows={} loops={})",
                node.rows, node.loops
            ));
        }
    }
    out.push(line);
    if o.verbose && !node.output.is_empty() {
        out.push(format!("{pad}Output: {}", node.output.join(", ")));
    }
    // PostgreSQL prints a node's WAL usage, and each parallel worker's
    // figures, after its Buffers.
    let (wal, details): (Vec<&String>, Vec<&String>) = node
        .shown_details(o)
        .iter()
        .partition(|d| d.starts_with("WAL:") || d.starts_with("Worker "));
    for d in details {
        // Heap Fetches, Rows Removed and Sort Method are actuals: only with
        // ANALYZE; show_instrumentation_count leaves a zero count out of text.
        let zero_count = d.starts_with("Rows Removed by") && d.ends_with(": 0");
        if (!PlanNode::is_actual(d) || o.analyze) && !zero_count {
            out.push(format!("{pad}{d}"));
        }
    }
    if o.analyze && o.buffers {
        if let Some(b) = buffers_line(&node.buffers) {
            out.push(format!("{pad}{b}"));
        }
    }
    let worker = |d: &&String| !d.starts_with("Worker ") || o.analyze;
    out.extend(wal.into_iter().filter(worker).map(|w| format!("{pad}{w}")));
    let loops = node.loops.max(1) as f64;
    if o.analyze && o.dist {
        for (name, v) in &node.dist {
            out.push(format!("{pad}{name}: {}", per_loop(*v, loops)));
        }
    }
    if o.analyze && o.debug {
        for (name, v) in &node.debug {
            out.push(format!("{pad}Metric {name}: {:.3}", v / loops));
        }
    }
    for c in &node.children {
        format_node(c, depth + 1, o, out);
    }
}

/// A DIST figure per loop, as YugabyteDB printed it when article 001 was
/// written: the total over loops divided by the loops, with no decimals (so
/// 21 requests over 2 loops print as 10, and loops × the figure gives the
/// article's 20).
fn per_loop(total: f64, loops: f64) -> String {
    format!("{:.0}", total / loops)
}

/// A node's actual rows per loop as EXPLAIN prints them: the total over
/// the loops divided by the loops, to the nearest whole row (`%.0f`).
pub fn rows_per_loop(total: u64, loops: u64) -> u64 {
    if loops == 0 {
        return 0;
    }
    (total as f64 / loops as f64).round_ties_even() as u64
}

/// Adds `more` into `into`, by name (a node's totals over its loops).
pub fn add_named(into: &mut Vec<(String, f64)>, more: &[(String, f64)]) {
    for (name, v) in more {
        match into.iter_mut().find(|(n, _)| n == name) {
            Some((_, t)) => *t += v,
            None => into.push((name.clone(), *v)),
        }
    }
}
