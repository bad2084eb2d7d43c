//! EXPLAIN's plan tree, and PostgreSQL's text layout of it (YugabyteDB prints the
//! same layout, with its storage lines under each scan).

use crate::buffer_pool::BufferStats;
use crate::sql::ast::ExplainOptions;
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
    /// IndexLab's estimates, shaped like the planner's (not PostgreSQL's numbers).
    pub est_cost: (f64, f64),
    /// Totals over all loops that EXPLAIN's DIST option shows, per loop
    /// (YugabyteDB's `Storage Table Read Requests` and the like).
    pub dist: Vec<(String, f64)>,
    /// Totals EXPLAIN's DEBUG option shows, per loop (`Metric rocksdb_…`).
    pub debug: Vec<(String, f64)>,
    pub est_rows: f64,
    pub width: u32,
    pub children: Vec<PlanNode>,
}

/// PostgreSQL's typical width in bytes of a column type.
pub fn type_width(ty: SqlType) -> u32 {
    match ty {
        SqlType::Int2 => 2,
        SqlType::Int4 | SqlType::Date => 4,
        SqlType::Interval => 16,
        SqlType::Bool => 1,
        SqlType::Text => 32,
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
    let mut line = format!("{head}{}", node.title);
    if o.costs {
        line.push_str(&format!(
            "  (cost={:.2}..{:.2} rows={} width={})",
            node.est_cost.0,
            node.est_cost.1,
            node.est_rows.round().max(1.0) as u64,
            node.width
        ));
    }
    if o.analyze {
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
    // PostgreSQL prints a node's WAL usage after its Buffers.
    let (wal, details): (Vec<&String>, Vec<&String>) =
        node.details.iter().partition(|d| d.starts_with("WAL:"));
    for d in details {
        // Heap Fetches, Rows Removed and Sort Method are actuals: only with ANALYZE.
        let actual = ["Heap Fetches", "Rows Removed", "Sort Method"]
            .iter()
            .any(|p| d.starts_with(p));
        if !actual || o.analyze {
            out.push(format!("{pad}{d}"));
        }
    }
    if o.analyze && o.buffers {
        if let Some(b) = buffers_line(&node.buffers) {
            out.push(format!("{pad}{b}"));
        }
    }
    out.extend(wal.into_iter().map(|w| format!("{pad}{w}")));
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

/// Adds `more` into `into`, by name (a node's totals over its loops).
pub fn add_named(into: &mut Vec<(String, f64)>, more: &[(String, f64)]) {
    for (name, v) in more {
        match into.iter_mut().find(|(n, _)| n == name) {
            Some((_, t)) => *t += v,
            None => into.push((name.clone(), *v)),
        }
    }
}
