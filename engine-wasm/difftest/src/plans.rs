//! `difftest --plans`: seeded planner scripts ([`generate`]) run on
//! PostgreSQL and on the pg profile, each EXPLAIN's plan shape compared
//! ([`crate::plan_shape`]), and where the shapes agree, the top node's rows
//! and Buffers (hit + read). Prints the share of same plans per query kind,
//! the commonest differences, and the share within 10 % on Buffers.

pub mod generate;

use crate::corpus::{is_explain, run_profile};
use crate::outcome::Outcome;
use crate::plan_shape::shape;
use crate::postgres::Session;
use generate::{script, Kind};
use indexlab_engine::sql::{split_script, ScriptItem};
use std::collections::BTreeMap;

/// The figures of a run.
#[derive(Default)]
pub struct Tally {
    /// Per kind: EXPLAINs compared, and those with PostgreSQL's shape.
    pub by_kind: BTreeMap<Kind, (u32, u32)>,
    /// Differences by node kinds ("PostgreSQL's → ours"), with a seed that
    /// shows it, in scripts whose indexes are PostgreSQL's size.
    pub misses: BTreeMap<String, (u32, u64)>,
    /// Differences in scripts where an index's size is not PostgreSQL's:
    /// PostgreSQL merged its equal keys into posting lists (B-tree
    /// deduplication, which IndexLab does not model), so every cost that
    /// reads the index differs.
    pub deduplicated: u32,
    /// Same-shape EXPLAIN ANALYZEs: compared, rows equal, Buffers within 10 %.
    pub analyzed: u32,
    pub rows_equal: u32,
    pub buffers_close: u32,
    /// Statements PostgreSQL ran that the pg profile refused.
    pub refused: BTreeMap<String, u32>,
}

impl Tally {
    pub fn same(&self) -> (u32, u32) {
        self.by_kind
            .values()
            .fold((0, 0), |(n, s), (a, b)| (n + a, s + b))
    }
}

/// Runs seeds `from..from + n` and adds up what they show.
pub fn run(pg: &mut Session, from: u64, n: u64) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for seed in from..from + n {
        run_seed(pg, seed, &mut tally)?;
    }
    Ok(tally)
}

fn run_seed(pg: &mut Session, seed: u64, tally: &mut Tally) -> Result<(), String> {
    let s = script(seed);
    let items = split_script(&s.text).map_err(|e| format!("seed {seed}: {}", e.message))?;
    pg.enter_fresh_schema("difftest_plans")?;
    let mut theirs: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for item in &items {
        let ScriptItem::Statement(st) = item else {
            continue;
        };
        let outcome = pg.statement(&st.sql);
        if let (true, Outcome::Rows { rows, .. }) = (is_explain(&st.sql), &outcome) {
            let lines = rows
                .iter()
                .map(|r| r.first().cloned().flatten().unwrap_or_default());
            theirs.insert(st.at.line, lines.collect());
        }
    }
    let sizes = index_pages(pg);
    pg.drop_schema("difftest_plans")?;
    let mut failures = Vec::new();
    // The same sizes asked of the pg profile, after the script.
    let mut text = s.text.clone();
    for (name, _) in &sizes {
        text.push_str(&format!("\nselect pg_relation_size('{name}') / 8192;"));
    }
    let (errors, report) = run_profile(&text, "pg", &mut failures);
    for e in &errors {
        *tally.refused.entry(e.message.clone()).or_default() += 1;
    }
    let Some(report) = report else {
        return Err(format!("seed {seed}: the pg profile panicked"));
    };
    let ours_sizes: Vec<Option<String>> = report
        .statements
        .iter()
        .rev()
        .take(sizes.len())
        .map(|st| {
            st.outcome
                .rows
                .first()
                .and_then(|r| r.first().cloned().flatten())
        })
        .collect();
    let same_sizes = sizes
        .iter()
        .rev()
        .zip(&ours_sizes)
        .all(|((_, theirs), ours)| ours.as_deref() == Some(theirs.as_str()));
    for st in &report.statements {
        let (Some(ours), Some(theirs)) = (&st.outcome.explain, theirs.get(&st.line)) else {
            continue;
        };
        let Some(kind) = s.kinds.iter().find(|(l, _)| *l == st.line).map(|(_, k)| *k) else {
            continue;
        };
        compare(seed, kind, (theirs, ours), same_sizes, tally);
    }
    Ok(())
}

/// Each index of the script's schema on PostgreSQL, with its size in pages.
fn index_pages(pg: &mut Session) -> Vec<(String, String)> {
    let sql = "select c.relname, (pg_relation_size(c.oid) / 8192)::text \
               from pg_class c join pg_namespace n on n.oid = c.relnamespace \
               where n.nspname = 'difftest_plans' and c.relkind = 'i' order by 1";
    match pg.statement(sql) {
        Outcome::Rows { rows, .. } => rows
            .into_iter()
            .filter_map(|r| Some((r.first()?.clone()?, r.get(1)?.clone()?)))
            .collect(),
        _ => Vec::new(),
    }
}

fn compare(
    seed: u64,
    kind: Kind,
    (theirs, ours): (&[String], &[String]),
    same_sizes: bool,
    tally: &mut Tally,
) {
    let entry = tally.by_kind.entry(kind).or_default();
    entry.0 += 1;
    let (a, b) = (shape(theirs), shape(ours));
    if a != b && !same_sizes {
        tally.deduplicated += 1;
        return;
    }
    if a != b {
        let key = format!("{}: {} → {}", kind.name(), kinds_of(&a), kinds_of(&b));
        let miss = tally.misses.entry(key).or_insert((0, seed));
        miss.0 += 1;
        return;
    }
    entry.1 += 1;
    let (Some(x), Some(y)) = (top_figures(theirs), top_figures(ours)) else {
        return;
    };
    tally.analyzed += 1;
    tally.rows_equal += u32::from(x.0 == y.0);
    let close = (x.1 as f64 - y.1 as f64).abs() <= 0.1 * x.1.max(1) as f64;
    tally.buffers_close += u32::from(close);
}

/// A shape's node kinds without relations or indexes: `Bitmap Heap Scan /
/// Bitmap Index Scan`.
fn kinds_of(shape: &[String]) -> String {
    shape
        .iter()
        .map(|n| n.split(" on ").next().unwrap_or(n).trim().to_string())
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The top node's actual rows and its Buffers (shared hit + read), when the
/// EXPLAIN ran with ANALYZE.
fn top_figures(lines: &[String]) -> Option<(u64, u64)> {
    let first = lines.first()?;
    let rows = number_after(first, "actual rows=")?;
    let mut buffers = 0;
    for line in lines.iter().skip(1) {
        let t = line.trim();
        if t.starts_with("->") || t.starts_with("Planning") {
            break;
        }
        if let Some(b) = t.strip_prefix("Buffers:") {
            buffers = number_after(b, "hit=").unwrap_or(0) + number_after(b, "read=").unwrap_or(0);
        }
    }
    Some((rows, buffers))
}

fn number_after(text: &str, mark: &str) -> Option<u64> {
    let rest = &text[text.find(mark)? + mark.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Prints the figures (a measure, not a gate).
pub fn print(tally: &Tally, from: u64, n: u64) {
    println!(
        "plans: {n} planner scripts (seeds {from}..={})",
        from + n - 1
    );
    for kind in Kind::ALL {
        let (all, same) = tally.by_kind.get(&kind).copied().unwrap_or_default();
        println!(
            "  {:18} {same:4} of {all:4} as PostgreSQL 15's ({:.0} %)",
            kind.name(),
            percent(same, all)
        );
    }
    let (all, same) = tally.same();
    println!(
        "  all: {same} of {all} EXPLAINs have PostgreSQL 15's plan shape ({:.0} %)",
        percent(same, all)
    );
    println!(
        "  of {} same-shape EXPLAIN ANALYZEs: rows equal in {} ({:.0} %), Buffers within 10 % in {} ({:.0} %)",
        tally.analyzed,
        tally.rows_equal,
        percent(tally.rows_equal, tally.analyzed),
        tally.buffers_close,
        percent(tally.buffers_close, tally.analyzed)
    );
    let others: u32 = tally.misses.values().map(|(n, _)| n).sum();
    println!(
        "  of the {} differences, {} come where an index is not PostgreSQL's size \
         (PostgreSQL deduplicated its equal keys; IndexLab does not), {others} where every index is",
        tally.deduplicated + others,
        tally.deduplicated
    );
    let mut misses: Vec<_> = tally.misses.iter().collect();
    misses.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    println!(
        "  commonest differences where every index is PostgreSQL's size (PostgreSQL → IndexLab):"
    );
    for (what, (count, seed)) in misses.iter().take(25) {
        println!("    {count:4}  {what}  (e.g. seed {seed})");
    }
    let mut refused: Vec<_> = tally.refused.iter().collect();
    refused.sort_by(|a, b| b.1.cmp(a.1));
    for (message, count) in refused.iter().take(10) {
        println!("  refused {count} times: {message}");
    }
}

fn percent(part: u32, all: u32) -> f64 {
    100.0 * part as f64 / all.max(1) as f64
}
