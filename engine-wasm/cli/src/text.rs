//! psql-like text output.

use indexlab_engine::scenario::{Outcome, Report};
use std::fmt::Write;

enum Align {
    Left,
    Right,
}

/// `text` padded with spaces to `width` characters. Not `format!("{v:<w$}")`:
/// a width over 65 535 (a long text value sets its column's) makes `format!`
/// panic.
fn pad(text: &str, width: usize, align: Align) -> String {
    let fill = " ".repeat(width.saturating_sub(text.chars().count()));
    match align {
        Align::Left => format!("{text}{fill}"),
        Align::Right => format!("{fill}{text}"),
    }
}

/// A result table as psql aligns it: header, dashes, rows, `(N rows)`.
fn table(o: &Outcome, out: &mut String) {
    let lines: Vec<Vec<String>> = match &o.explain {
        Some(plan) => plan.iter().map(|l| vec![l.clone()]).collect(),
        // psql prints NULL as nothing (its default `\pset null ''`).
        None => o
            .rows
            .iter()
            .map(|r| r.iter().map(|c| c.clone().unwrap_or_default()).collect())
            .collect(),
    };
    let ncol = o.columns.len();
    let mut widths: Vec<usize> = o.columns.iter().map(|c| c.chars().count()).collect();
    for r in &lines {
        for (i, v) in r.iter().enumerate().take(ncol) {
            widths[i] = widths[i].max(v.chars().count());
        }
    }
    let header: Vec<String> = o
        .columns
        .iter()
        .zip(&widths)
        .map(|(c, w)| {
            let pad = w - c.chars().count();
            format!("{}{c}{}", " ".repeat(pad / 2), " ".repeat(pad - pad / 2))
        })
        .collect();
    let _ = writeln!(out, " {} ", header.join(" | ").trim_end());
    let dashes: Vec<String> = widths.iter().map(|w| "-".repeat(w + 2)).collect();
    let _ = writeln!(out, "{}", dashes.join("+"));
    for r in &lines {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(v, w)| pad(v, *w, Align::Left))
            .collect();
        let _ = writeln!(out, " {}", cells.join(" | ").trim_end());
    }
    let n = o.row_count;
    let _ = writeln!(out, "({n} row{})", if n == 1 { "" } else { "s" });
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
        let cells: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| pad(c, *w, Align::Right))
            .collect();
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
        assert_eq!(pad("é", 3, Align::Left), "é  ");
        assert_eq!(pad("é", 3, Align::Right), "  é");
        assert_eq!(pad("abcd", 2, Align::Left), "abcd");
        assert_eq!(pad("", 70_000, Align::Left).len(), 70_000);
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
