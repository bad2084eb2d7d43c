//! psql-like text output.

use indexlab_engine::scenario::{Outcome, Report};
use std::fmt::Write;

/// `text` right-aligned in `width` characters. Not `format!("{v:>w$}")`: a
/// width over 65 535 (a long text value sets its column's) makes `format!`
/// panic. (Result tables are printed by the engine's `profile::aligned`.)
fn pad(text: &str, width: usize) -> String {
    let fill = " ".repeat(width.saturating_sub(text.chars().count()));
    format!("{fill}{text}")
}

/// A result table as psql aligns it: its title, header, dashes, rows, then
/// its footers (`\d`'s `Indexes:`) or `(N rows)`.
fn table(o: &Outcome, out: &mut String) {
    out.push_str(&indexlab_engine::profile::aligned(o));
}

pub fn report(r: &Report) -> String {
    let mut out = String::new();
    for s in &r.statements {
        let _ = writeln!(out, "{}", s.sql);
        for n in &s.outcome.notices {
            let _ = writeln!(out, "NOTICE:  {n}");
        }
        if s.outcome.columns.is_empty() {
            if !s.outcome.tag.is_empty() {
                let _ = writeln!(out, "{}", s.outcome.tag);
            }
        } else {
            table(&s.outcome, &mut out);
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "-- {} profile: {} statement run(s), {:.3} ms of virtual time",
        r.profile,
        r.statements.len(),
        r.total_virtual_ms
    );
    out
}

/// A sweep as an aligned table: one line per value.
pub fn sweep_table(setting: &str, points: &[indexlab_engine::sweep::SweepPoint]) -> String {
    let head = [setting, "loops", "read requests", "rpcs", "virtual ms"];
    let rows: Vec<[String; 5]> = points
        .iter()
        .map(|p| match &p.error {
            Some(e) => [
                p.value.clone(),
                "error".into(),
                format!("line {}: {}", e.line, e.message),
                String::new(),
                String::new(),
            ],
            None => [
                p.value.clone(),
                p.loops.map_or("-".into(), |l| l.to_string()),
                format!("{}", p.read_requests),
                format!("{}", p.rpc_count),
                format!("{:.3}", p.virtual_ms),
            ],
        })
        .collect();
    let mut widths: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let cells: Vec<String> = cells.iter().zip(&widths).map(|(c, w)| pad(c, *w)).collect();
        let _ = writeln!(out, " {}", cells.join(" | "));
    };
    line(head.to_vec(), &mut out);
    let dashes: Vec<String> = widths.iter().map(|w| "-".repeat(w + 2)).collect();
    let _ = writeln!(out, "{}", dashes.join("+"));
    for r in &rows {
        line(r.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_counts_characters_and_takes_any_width() {
        assert_eq!(pad("é", 3), "  é");
        assert_eq!(pad("abcd", 2), "abcd");
        assert_eq!(pad("", 70_000).len(), 70_000);
    }

    #[test]
    fn a_text_value_over_65535_characters_prints() {
        let long = "x".repeat(70_000);
        let outcome = Outcome {
            tag: "SELECT 2".into(),
            columns: vec!["a".into()],
            rows: vec![vec![Some(long.clone())], vec![Some("y".into())]],
            row_count: 2,
            ..Outcome::default()
        };
        let mut out = String::new();
        table(&outcome, &mut out);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[2], format!(" {long}"));
        assert_eq!(lines[3], " y");
        assert_eq!(lines[4], "(2 rows)");
    }
}
