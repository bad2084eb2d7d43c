//! `--compare-pg URL`: the script on the user's own PostgreSQL and on the pg
//! profile, statement by statement: whether the results agree, and for each
//! `EXPLAIN (ANALYZE, BUFFERS)` the top node's `Buffers: shared hit/read`
//! side by side with their ratio. Calibration as a feature: a database
//! engineer checks IndexLab's numbers against a server they trust.
//!
//! The script runs in a schema of its own (`indexlab_compare`), created first
//! and dropped at the end, so the server's other tables are never touched.
//! Backslash commands are IndexLab's alone and are skipped on PostgreSQL.

use indexlab_difftest::compare::agree;
use indexlab_difftest::outcome::{from_indexlab, Outcome};
use indexlab_difftest::postgres::Session;
use indexlab_difftest::script::{Check, Script};
use indexlab_engine::scenario::{run_pg, ReportError, StatementReport};
use std::fmt::Write;

const SCHEMA: &str = "indexlab_compare";

/// Shared buffers of one plan's top node.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Buffers {
    pub hit: u64,
    pub read: u64,
}

impl Buffers {
    /// The first `Buffers:` line of an EXPLAIN's text (the top node's).
    pub fn of_plan<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<Buffers> {
        let line = lines
            .into_iter()
            .find(|l| l.trim_start().starts_with("Buffers:"))?;
        let number = |name: &str| -> u64 {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(name))
                .and_then(|n| n.trim_end_matches(',').parse().ok())
                .unwrap_or(0)
        };
        Some(Buffers {
            hit: number("hit="),
            read: number("read="),
        })
    }

    fn total(self) -> u64 {
        self.hit + self.read
    }
}

/// One statement's line of the comparison.
struct Row {
    line: u32,
    sql: String,
    agreement: String,
    buffers: Option<(Option<Buffers>, Option<Buffers>)>,
    agrees: bool,
}

/// Runs the comparison and returns its text and whether everything agreed.
pub fn compare(
    script: &str,
    url: &str,
    settings: &[(String, String)],
) -> Result<(String, bool), String> {
    let items = Script::from_text(script)?;
    let (report, engine) = run_pg(script, settings);
    std::mem::forget(engine);
    let mut pg = Session::connect(url)?;
    let version = pg.show("server_version")?;
    let shared_buffers = pg.show("shared_buffers")?;
    pg.enter_fresh_schema(SCHEMA)?;
    let mut rows = Vec::new();
    for (i, item) in items.items.iter().enumerate() {
        let Some(sql) = &item.postgres else { continue };
        let theirs = pg.statement(sql);
        match report.statements.get(i) {
            Some(ours) => rows.push(row(item.check, sql, &theirs, ours)),
            // Where IndexLab stopped with an error: PostgreSQL must fail too.
            None => {
                if let Some(e) = &report.error {
                    rows.push(stopped(sql, e, &theirs));
                }
                break;
            }
        }
        if theirs.is_error() {
            break;
        }
    }
    pg.drop_schema(SCHEMA)?;
    let mut out = String::new();
    let ours_sb = report
        .settings
        .iter()
        .find(|(k, _)| k == "shared_buffers")
        .map_or("its default".to_string(), |(_, v)| v.clone());
    let _ = writeln!(
        out,
        "PostgreSQL {version} (shared_buffers = {shared_buffers}) against IndexLab's pg profile \
         (shared_buffers = {ours_sb}; set it with --set shared_buffers=…)\n"
    );
    let all = rows.iter().all(|r| r.agrees);
    out.push_str(&table(&rows));
    let same = rows.iter().filter(|r| r.agrees).count();
    let _ = writeln!(out, "\n{same} of {} statements agree", rows.len());
    Ok((out, all))
}

/// The statement at which IndexLab stopped with an error.
fn stopped(sql: &str, e: &ReportError, theirs: &Outcome) -> Row {
    let agrees = theirs.is_error();
    Row {
        line: e.line,
        sql: shorten(sql),
        agreement: if agrees {
            "both fail".into()
        } else {
            format!(
                "DIFFERENT: PostgreSQL {} / IndexLab ERROR: {}",
                theirs.describe(),
                e.message
            )
        },
        buffers: None,
        agrees,
    }
}

/// A statement on one line, cut to 60 characters.
fn shorten(sql: &str) -> String {
    let short: String = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    if short.chars().count() > 60 {
        format!("{}…", short.chars().take(59).collect::<String>())
    } else {
        short
    }
}

fn row(check: Check, sql: &str, theirs: &Outcome, ours: &StatementReport) -> Row {
    let mine = from_indexlab(&ours.outcome);
    let short = shorten(sql);
    if let Some(plan) = &ours.outcome.explain {
        // Plans are worded differently; what is compared is the buffers.
        let their_plan: Vec<String> = match theirs {
            Outcome::Rows { rows, .. } => rows.iter().filter_map(|r| r[0].clone()).collect(),
            _ => Vec::new(),
        };
        let a = Buffers::of_plan(their_plan.iter().map(String::as_str));
        let b = Buffers::of_plan(plan.iter().map(String::as_str));
        let agrees = !theirs.is_error();
        // Buffers compare like with like only when both read the table the
        // same way: say so when PostgreSQL's planner chose another scan.
        let (x, y) = (scan_kind(&their_plan), scan_kind(plan));
        let agreement = match (agrees, x == y) {
            (false, _) => theirs.describe(),
            (true, true) => y.unwrap_or_else(|| "plan".into()),
            (true, false) => format!("other scan (PostgreSQL: {})", x.unwrap_or_default()),
        };
        return Row {
            line: ours.line,
            sql: short,
            agreement,
            buffers: Some((a, b)),
            agrees,
        };
    }
    let agrees = match (theirs.is_error(), &mine) {
        (true, _) => false,
        (false, m) => agree(check, theirs, m),
    };
    Row {
        line: ours.line,
        sql: short,
        agreement: if agrees {
            "same".into()
        } else {
            format!(
                "DIFFERENT: PostgreSQL {} / IndexLab {}",
                theirs.describe(),
                mine.describe()
            )
        },
        buffers: None,
        agrees,
    }
}

/// The first scan node of a plan (`Index Scan Backward`, `Seq Scan`, …).
fn scan_kind(plan: &[String]) -> Option<String> {
    let line = plan.iter().find(|l| l.contains(" Scan"))?;
    let node = line.trim_start().trim_start_matches("->").trim_start();
    let end = [" on ", " using ", " ("]
        .iter()
        .filter_map(|w| node.find(w))
        .min()
        .unwrap_or(node.len());
    Some(node[..end].to_string())
}

fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>5} | {:<60} | {:<24} | {:>22} | {:>22} | {:>6}",
        "line", "statement", "result", "PostgreSQL hit/read", "IndexLab hit/read", "ratio"
    );
    let _ = writeln!(out, "{}", "-".repeat(154));
    for r in rows {
        let (pg, il, ratio) = match r.buffers {
            Some((a, b)) => {
                let show =
                    |x: Option<Buffers>| x.map_or("-".into(), |x| format!("{}/{}", x.hit, x.read));
                let ratio = match (a, b) {
                    (Some(a), Some(b)) if a.total() > 0 => {
                        format!("{:.2}", b.total() as f64 / a.total() as f64)
                    }
                    _ => "-".into(),
                };
                (show(a), show(b), ratio)
            }
            None => (String::new(), String::new(), String::new()),
        };
        let _ = writeln!(
            out,
            "{:>5} | {:<60} | {:<24} | {:>22} | {:>22} | {:>6}",
            r.line, r.sql, r.agreement, pg, il, ratio
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Buffers;

    #[test]
    fn the_scan_node_is_named_without_its_details() {
        let plan = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let p = plan(&[
            "Limit (actual rows=1)",
            "  ->  Index Scan Backward using t_pkey on t (actual rows=1)",
        ]);
        assert_eq!(super::scan_kind(&p).as_deref(), Some("Index Scan Backward"));
        let p = plan(&["Sort", "  ->  Bitmap Heap Scan on t (actual rows=3)"]);
        assert_eq!(super::scan_kind(&p).as_deref(), Some("Bitmap Heap Scan"));
        assert_eq!(super::scan_kind(&plan(&["Result"])), None);
    }

    #[test]
    fn the_top_node_s_buffers_are_read_from_a_plan() {
        let plan = [
            "Limit (actual rows=1 loops=1)",
            "  Buffers: shared hit=616 read=3",
            "  ->  Index Only Scan using demo_value on demo",
            "        Buffers: shared hit=10",
        ];
        assert_eq!(Buffers::of_plan(plan), Some(Buffers { hit: 616, read: 3 }));
        assert_eq!(
            Buffers::of_plan(["Seq Scan on t", "  Buffers: shared read=7"]),
            Some(Buffers { hit: 0, read: 7 })
        );
        assert_eq!(Buffers::of_plan(["Result"]), None);
    }
}
