//! EXPLAIN (FORMAT JSON) as PostgreSQL 15 prints it (explain.c's
//! ExplainOpenGroup, ExplainProperty* and ExplainJSONLineEnding): the same
//! plan tree the text format prints, with PostgreSQL's field names, order and
//! value types, two spaces per level, so the result pastes into PEV2. Lines
//! IndexLab does not know the JSON shape of are refused by name.

use super::plan_node::{verbose_title, PlanNode};
use crate::buffer_pool::BufferStats;
use crate::sql::ast::ExplainOptions;
use crate::sql::error::{unsupported, SqlError};

/// What follows the plan in the result: each part only when its option asks.
pub struct Summary<'a> {
    pub settings: Option<&'a [(&'static str, String)]>,
    pub planning_ms: Option<f64>,
    pub execution_ms: Option<f64>,
}

/// The whole result: one text value, as PostgreSQL returns it.
pub fn render(node: &PlanNode, o: &ExplainOptions, s: &Summary) -> Result<String, SqlError> {
    let mut w = Writer {
        out: "[".into(),
        indent: 1,
        stack: vec![false],
    };
    w.open(None, '{');
    w.open(Some("Plan"), '{');
    plan(&mut w, node, o, None)?;
    w.close('}');
    if let Some(settings) = s.settings {
        w.open(Some("Settings"), '{');
        for (name, value) in settings {
            w.prop(name, &text(value));
        }
        w.close('}');
    }
    if o.buffers {
        // IndexLab's planner reads no pages: PostgreSQL prints the group anyway.
        w.open(Some("Planning"), '{');
        buffers(&mut w, &BufferStats::default());
        w.close('}');
    }
    if let Some(ms) = s.planning_ms {
        w.prop("Planning Time", &format!("{ms:.3}"));
    }
    if o.analyze {
        w.open(Some("Triggers"), '[');
        w.close(']');
    }
    if let Some(ms) = s.execution_ms {
        w.prop("Execution Time", &format!("{ms:.3}"));
    }
    w.close('}');
    w.out.push_str("\n]");
    Ok(w.out)
}

/// PostgreSQL's JSON writer state: each property starts on a new line, after
/// a comma unless it is the first of its group.
struct Writer {
    out: String,
    indent: usize,
    stack: Vec<bool>,
}

impl Writer {
    fn line(&mut self) {
        if let Some(seen) = self.stack.last_mut() {
            if *seen {
                self.out.push(',');
            }
            *seen = true;
        }
        self.out.push('\n');
        self.out.push_str(&"  ".repeat(self.indent));
    }

    fn open(&mut self, label: Option<&str>, bracket: char) {
        self.line();
        if let Some(l) = label {
            self.out.push_str(&text(l));
            self.out.push_str(": ");
        }
        self.out.push(bracket);
        self.stack.push(false);
        self.indent += 1;
    }

    fn close(&mut self, bracket: char) {
        self.indent -= 1;
        self.out.push('\n');
        self.out.push_str(&"  ".repeat(self.indent));
        self.out.push(bracket);
        self.stack.pop();
    }

    /// A property whose value is already JSON (a number, `true`, a string).
    fn prop(&mut self, key: &str, json: &str) {
        self.line();
        self.out.push_str(&text(key));
        self.out.push_str(": ");
        self.out.push_str(json);
    }

    /// ExplainPropertyList: the items on one line.
    fn list(&mut self, key: &str, items: &[String]) {
        let items: Vec<String> = items.iter().map(|i| text(i)).collect();
        self.prop(key, &format!("[{}]", items.join(", ")));
    }
}

/// escape_json: a JSON string literal.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What ExplainNode prints before the costs, read from the node's title
/// (the one IndexLab's text format prints).
#[derive(Default)]
struct Head {
    node_type: &'static str,
    /// A Parallel Seq Scan: each process reads a share of it.
    parallel_aware: bool,
    /// An aggregate computed in parts: "Partial" or "Finalize".
    partial_mode: Option<&'static str>,
    strategy: Option<&'static str>,
    operation: Option<&'static str>,
    direction: Option<&'static str>,
    index: Option<String>,
    relation: Option<String>,
    function: Option<String>,
    alias: Option<String>,
}

fn head(title: &str) -> Result<Head, SqlError> {
    let simple = |node_type| Head {
        node_type,
        ..Head::default()
    };
    Ok(match title {
        "Sort" => simple("Sort"),
        "Limit" => simple("Limit"),
        "Result" => simple("Result"),
        "Aggregate" => Head {
            strategy: Some("Plain"),
            ..simple("Aggregate")
        },
        "Partial Aggregate" | "Finalize Aggregate" => Head {
            strategy: Some("Plain"),
            partial_mode: Some(if title.starts_with("Partial") {
                "Partial"
            } else {
                "Finalize"
            }),
            ..simple("Aggregate")
        },
        "HashAggregate" | "GroupAggregate" => Head {
            strategy: Some(if title == "HashAggregate" {
                "Hashed"
            } else {
                "Sorted"
            }),
            ..simple("Aggregate")
        },
        t if t.starts_with("Partial ") || t.starts_with("Finalize ") => {
            let (mode, node) = t.split_once(' ').expect("a prefixed title");
            Head {
                partial_mode: Some(if mode == "Partial" {
                    "Partial"
                } else {
                    "Finalize"
                }),
                ..head(node)?
            }
        }
        "Gather Merge" => simple("Gather Merge"),
        "Group" => simple("Group"),
        "Gather" => simple("Gather"),
        "BitmapAnd" => simple("BitmapAnd"),
        "BitmapOr" => simple("BitmapOr"),
        t if t.starts_with("Bitmap Index Scan on ") => Head {
            index: Some(t["Bitmap Index Scan on ".len()..].to_string()),
            ..simple("Bitmap Index Scan")
        },
        "Unique" => simple("Unique"),
        "Values Scan on \"*VALUES*\"" => Head {
            alias: Some("*VALUES*".into()),
            ..simple("Values Scan")
        },
        t if t.starts_with("Function Scan on generate_series") => Head {
            function: Some("generate_series".into()),
            alias: Some(t.split(' ').nth(4).unwrap_or("generate_series").into()),
            ..simple("Function Scan")
        },
        t => scan_head(t).ok_or_else(|| {
            unsupported(format!("EXPLAIN (FORMAT JSON) of a plan with a {t} node"))
        })?,
    })
}

/// Scans of a relation and ModifyTable: `Index Scan Backward using ix on t a`.
fn scan_head(title: &str) -> Option<Head> {
    let (kind, target) = title.split_once(" on ")?;
    let mut words = target.split(' ');
    let relation = words.next()?.to_string();
    let alias = words.next().unwrap_or(&relation).to_string();
    let mut h = Head {
        relation: Some(relation),
        alias: Some(alias),
        ..Head::default()
    };
    for (verb, op) in [
        ("Insert", "Insert"),
        ("Update", "Update"),
        ("Delete", "Delete"),
    ] {
        if kind == verb {
            h.node_type = "ModifyTable";
            h.operation = Some(op);
            return Some(h);
        }
    }
    if kind == "Parallel Seq Scan" {
        h.node_type = "Seq Scan";
        h.parallel_aware = true;
        return Some(h);
    }
    if kind == "Seq Scan" || kind == "Bitmap Heap Scan" {
        h.node_type = if kind == "Seq Scan" {
            "Seq Scan"
        } else {
            "Bitmap Heap Scan"
        };
        return Some(h);
    }
    let (scan, index) = kind.split_once(" using ")?;
    let scan = match scan.strip_prefix("Parallel ") {
        Some(rest) => {
            h.parallel_aware = true;
            rest
        }
        None => scan,
    };
    let (scan, direction) = match scan.strip_suffix(" Backward") {
        Some(s) => (s, "Backward"),
        None => (scan, "Forward"),
    };
    h.node_type = match scan {
        "Index Scan" => "Index Scan",
        "Index Only Scan" => "Index Only Scan",
        _ => return None,
    };
    h.direction = Some(direction);
    h.index = Some(index.to_string());
    Some(h)
}

fn plan(
    w: &mut Writer,
    node: &PlanNode,
    o: &ExplainOptions,
    relationship: Option<&str>,
) -> Result<(), SqlError> {
    let h = head(&node.title)?;
    if h.strategy == Some("Hashed") && o.analyze {
        return Err(unsupported(
            "EXPLAIN (FORMAT JSON, ANALYZE) of a HashAggregate (its batches and memory)",
        ));
    }
    header(w, &h, o, relationship, node.schema.as_deref());
    figures(w, node, o);
    if o.verbose && !node.output.is_empty() {
        w.list("Output", &node.output);
    }
    details(w, node, &h, o)?;
    if o.analyze && o.buffers {
        buffers(w, &node.buffers);
    }
    if o.analyze && o.wal {
        wal(w, node);
    }
    storage(w, node, o);
    if h.parallel_aware && o.analyze {
        // Each worker's own figures, which PostgreSQL lists only with
        // VERBOSE (and IndexLab, running one scan, does not split).
        w.open(Some("Workers"), '[');
        w.close(']');
    }
    if !node.children.is_empty() {
        w.open(Some("Plans"), '[');
        for (i, child) in node.children.iter().enumerate() {
            // A BitmapAnd's inputs are its members, not an outer and inner.
            let relationship = match (h.node_type, i) {
                ("BitmapAnd" | "BitmapOr", _) => "Member",
                (_, 0) => "Outer",
                _ => "Inner",
            };
            w.open(None, '{');
            plan(w, child, o, Some(relationship))?;
            w.close('}');
        }
        w.close(']');
    }
    Ok(())
}

fn header(
    w: &mut Writer,
    h: &Head,
    o: &ExplainOptions,
    relationship: Option<&str>,
    schema: Option<&str>,
) {
    w.prop("Node Type", &text(h.node_type));
    if let Some(s) = h.strategy {
        w.prop("Strategy", &text(s));
        w.prop("Partial Mode", &text(h.partial_mode.unwrap_or("Simple")));
    }
    if let Some(op) = h.operation {
        w.prop("Operation", &text(op));
    }
    if let Some(r) = relationship {
        w.prop("Parent Relationship", &text(r));
    }
    w.prop(
        "Parallel Aware",
        if h.parallel_aware { "true" } else { "false" },
    );
    w.prop("Async Capable", "false");
    if let Some(d) = h.direction {
        w.prop("Scan Direction", &text(d));
    }
    if let Some(i) = &h.index {
        w.prop("Index Name", &text(i));
    }
    if let Some(r) = &h.relation {
        w.prop("Relation Name", &text(r));
        if o.verbose {
            w.prop("Schema", &text(schema.unwrap_or(super::schemas::PUBLIC)));
        }
    }
    if let Some(f) = &h.function {
        w.prop("Function Name", &text(f));
        if o.verbose {
            w.prop("Schema", &text("pg_catalog"));
        }
    }
    if let Some(a) = &h.alias {
        w.prop("Alias", &text(a));
    }
}

/// The estimates and actuals the text format prints on the title line.
fn figures(w: &mut Writer, node: &PlanNode, o: &ExplainOptions) {
    if o.costs {
        w.prop("Startup Cost", &format!("{:.2}", node.est_cost.0));
        w.prop("Total Cost", &format!("{:.2}", node.est_cost.1));
        w.prop(
            "Plan Rows",
            &format!("{}", node.est_rows.round().max(1.0) as u64),
        );
        w.prop("Plan Width", &node.width.to_string());
    }
    if o.analyze {
        if o.timing {
            w.prop(
                "Actual Startup Time",
                &format!("{:.3}", node.first_us / 1000.0),
            );
            w.prop(
                "Actual Total Time",
                &format!("{:.3}", node.last_us / 1000.0),
            );
        }
        w.prop("Actual Rows", &node.rows.to_string());
        w.prop("Actual Loops", &node.loops.to_string());
    }
}

/// The node's detail lines, each as the property PostgreSQL prints for it.
fn details(w: &mut Writer, node: &PlanNode, h: &Head, o: &ExplainOptions) -> Result<(), SqlError> {
    let bitmap_heap = h.node_type == "Bitmap Heap Scan";
    let mut heap_blocks = false;
    for d in node.shown_details(o) {
        if d.starts_with("WAL:") || (PlanNode::is_actual(d) && !o.analyze) {
            continue;
        }
        let (key, value) = d.split_once(": ").unwrap_or((d, ""));
        match key {
            "Index Cond"
            | "Recheck Cond"
            | "Filter"
            | "Storage Filter"
            | "Storage Index Filter"
            | "Join Filter"
            | "Hash Cond"
            | "Merge Cond"
            | "Conflict Resolution" => {
                w.prop(key, &text(value));
                // Non-text formats print the recheck count even when zero
                // (an index scan's, and a bitmap heap scan's after its
                // Recheck Cond; a Bitmap Index Scan has none).
                let index_scan =
                    key == "Index Cond" && h.index.is_some() && h.node_type != "Bitmap Index Scan";
                if o.analyze && (index_scan || key == "Recheck Cond") {
                    w.prop("Rows Removed by Index Recheck", "0");
                }
            }
            // `exact=N`: IndexLab's bitmaps are never lossy.
            "Heap Blocks" => {
                let exact = value.strip_prefix("exact=").unwrap_or("0");
                w.prop("Exact Heap Blocks", exact);
                w.prop("Lossy Heap Blocks", "0");
                heap_blocks = true;
            }
            "Rows Removed by Filter"
            | "Partial Aggregate"
            | "Workers Planned"
            | "Workers Launched"
            | "Heap Fetches"
            | "Tuples Inserted"
            | "Conflicting Tuples" => w.prop(key, value),
            "Sort Key" | "Group Key" | "Conflict Arbiter Indexes" => {
                w.list(key, &split_top_level(value))
            }
            "Sort Method" => sort_method(w, value)?,
            _ => {
                return Err(unsupported(format!(
                    "EXPLAIN (FORMAT JSON) of the line \"{key}\" under {}",
                    verbose_title(&node.title, node.schema.as_deref())
                )))
            }
        }
    }
    // Non-text formats say whether a Gather runs its plan in one worker only.
    if h.node_type == "Gather" {
        w.prop("Single Copy", "false");
    }
    // The text format leaves out a scan that read no page; JSON prints 0.
    if bitmap_heap && o.analyze && !heap_blocks {
        w.prop("Exact Heap Blocks", "0");
        w.prop("Lossy Heap Blocks", "0");
    }
    Ok(())
}

/// `quicksort  Memory: 25kB` → Sort Method, Sort Space Used, Sort Space Type.
fn sort_method(w: &mut Writer, value: &str) -> Result<(), SqlError> {
    let refuse = || unsupported(format!("EXPLAIN (FORMAT JSON) of \"Sort Method: {value}\""));
    let (method, space) = value.split_once("  ").ok_or_else(refuse)?;
    let (kind, used) = space.split_once(": ").ok_or_else(refuse)?;
    let used = used.strip_suffix("kB").ok_or_else(refuse)?;
    w.prop("Sort Method", &text(method));
    w.prop("Sort Space Used", used);
    w.prop("Sort Space Type", &text(kind));
    Ok(())
}

/// Items of a deparsed list, split at commas outside parentheses and quotes.
fn split_top_level(s: &str) -> Vec<String> {
    let (mut items, mut cur, mut depth, mut quoted) = (Vec::new(), String::new(), 0i32, false);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => quoted = !quoted,
            '(' | '[' if !quoted => depth += 1,
            ')' | ']' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 && chars.peek() == Some(&' ') => {
                chars.next();
                items.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    items.push(cur);
    items
}

/// show_buffer_usage in a non-text format: every counter, zeros included.
fn buffers(w: &mut Writer, b: &BufferStats) {
    let shared = [
        ("Shared Hit Blocks", b.shared_hit),
        ("Shared Read Blocks", b.shared_read),
        ("Shared Dirtied Blocks", b.shared_dirtied),
        ("Shared Written Blocks", b.shared_written),
    ];
    for (k, v) in shared {
        w.prop(k, &v.to_string());
    }
    // IndexLab has no temporary tables or sorts spilled to disk.
    for k in [
        "Local Hit Blocks",
        "Local Read Blocks",
        "Local Dirtied Blocks",
        "Local Written Blocks",
        "Temp Read Blocks",
        "Temp Written Blocks",
    ] {
        w.prop(k, "0");
    }
}

/// show_wal_usage in a non-text format: the three counters, zeros included,
/// from the `WAL:` line the text format prints (absent when all are zero).
fn wal(w: &mut Writer, node: &PlanNode) {
    let line = node.details.iter().find_map(|d| d.strip_prefix("WAL: "));
    let figure = |name: &str| {
        line.and_then(|l| {
            l.split(' ')
                .find_map(|part| part.strip_prefix(name)?.strip_prefix('='))
        })
        .unwrap_or("0")
        .to_string()
    };
    w.prop("WAL Records", &figure("records"));
    w.prop("WAL FPI", &figure("fpi"));
    w.prop("WAL Bytes", &figure("bytes"));
}

/// YugabyteDB's DIST and DEBUG figures, under the names its explain.c gives
/// them in every format (`ExplainPropertyFloat(label, NULL, count, 0, es)`).
fn storage(w: &mut Writer, node: &PlanNode, o: &ExplainOptions) {
    let loops = node.loops.max(1) as f64;
    if o.analyze && o.dist {
        for (name, v) in &node.dist {
            w.prop(name, &format!("{:.0}", v / loops));
        }
    }
    if o.analyze && o.debug {
        for (name, v) in &node.debug {
            w.prop(&format!("Metric {name}"), &format!("{:.3}", v / loops));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_only_at_top_level_commas() {
        assert_eq!(split_top_level("a, (b + c)"), vec!["a", "(b + c)"]);
        assert_eq!(
            split_top_level("f(a, b), 'x, y'"),
            vec!["f(a, b)", "'x, y'"]
        );
    }

    #[test]
    fn titles_give_postgresql_node_types() {
        let h = head("Index Scan Backward using t_pkey on t a").unwrap();
        assert_eq!(h.node_type, "Index Scan");
        assert_eq!(h.direction, Some("Backward"));
        assert_eq!(h.alias.as_deref(), Some("a"));
        assert_eq!(head("Insert on t").unwrap().operation, Some("Insert"));
        assert!(head("Nested Loop").is_err());
    }
}
