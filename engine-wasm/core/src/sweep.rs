//! Sweeps: one script run once per value of a setting, each run summed up by
//! the figures article 001 tabulates (loops, read requests, RPCs, time). The
//! CLI prints them as a table (`--sweep yb_bnl_batch_size=1,10,100,1000`) and the
//! UI charts them.
//!
//! A run is measured on its *last* EXPLAIN (or its last statement when it has
//! none): the query under study, after the statements that load its data.

use crate::scenario::{run_pg, run_yb, Report, ReportError};

/// One run of a sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPoint {
    pub value: String,
    /// The largest `loops=` of the measured plan (the inner side of a join).
    pub loops: Option<u64>,
    pub read_requests: f64,
    pub rpc_count: f64,
    pub virtual_ms: f64,
    pub error: Option<ReportError>,
}

/// Most values one sweep runs (each is a whole run of the script).
pub const MAX_SWEEP_VALUES: usize = 64;

/// Parses `name=v1,v2,…`.
pub fn parse_sweep(arg: &str) -> Result<(String, Vec<String>), String> {
    let Some((name, values)) = arg.split_once('=') else {
        return Err(format!("expected NAME=V1,V2,…, got '{arg}'"));
    };
    let name = name.trim();
    let values: Vec<String> = values
        .split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    if name.is_empty() || values.is_empty() {
        return Err(format!("expected NAME=V1,V2,…, got '{arg}'"));
    }
    if values.len() > MAX_SWEEP_VALUES {
        return Err(format!(
            "a sweep runs at most {MAX_SWEEP_VALUES} values, got {}",
            values.len()
        ));
    }
    Ok((name.to_string(), values))
}

/// Runs `script` on `profile` ("pg" or "yb") once per value of setting
/// `name`, on top of `overrides`.
pub fn sweep(
    script: &str,
    profile: &str,
    overrides: &[(String, String)],
    name: &str,
    values: &[String],
) -> Vec<SweepPoint> {
    values
        .iter()
        .map(|v| {
            let mut o = overrides.to_vec();
            o.push((name.to_string(), v.clone()));
            let report = match profile {
                "pg" => run_pg(script, &o).0,
                _ => run_yb(script, &o).0,
            };
            point(v, &report)
        })
        .collect()
}

/// The figures of one run.
pub fn point(value: &str, r: &Report) -> SweepPoint {
    let measured = r
        .statements
        .iter()
        .rev()
        .find(|s| s.outcome.explain.is_some())
        .or(r.statements.last());
    let metric = |n: &str| measured.map_or(0.0, |s| s.metrics.get(n));
    SweepPoint {
        value: value.to_string(),
        loops: measured
            .and_then(|s| s.outcome.explain.as_ref())
            .and_then(|l| max_loops(l)),
        read_requests: metric("storage_read_requests"),
        rpc_count: metric("rpc_count"),
        virtual_ms: measured.map_or(0.0, |s| s.virtual_ms),
        error: r.error.clone(),
    }
}

/// The largest `loops=N` in EXPLAIN ANALYZE lines.
fn max_loops(lines: &[String]) -> Option<u64> {
    lines
        .iter()
        .filter_map(|l| {
            let at = l.find("loops=")? + "loops=".len();
            let digits: String = l[at..].chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .max()
}

/// Does the script pin `name` itself (a `Set(name …)` hint or a `SET name`)?
/// Then every run uses the script's value and the sweep shows nothing.
pub fn script_pins(script: &str, name: &str) -> bool {
    // Comments do not count (the article-001 script quotes the article's hint).
    let s: String = script
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n")
        .to_ascii_lowercase();
    let n = name.to_ascii_lowercase();
    s.contains(&format!("set({n} ")) || s.contains(&format!("set {n}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_and_values() {
        assert_eq!(
            parse_sweep("yb_bnl_batch_size=1, 10,100").unwrap(),
            (
                "yb_bnl_batch_size".into(),
                vec!["1".into(), "10".into(), "100".into()]
            )
        );
        assert!(parse_sweep("yb_bnl_batch_size").is_err());
        assert!(parse_sweep("=1,2").is_err());
        assert!(parse_sweep("x=").is_err());
        let many = format!("x={}", vec!["1"; 65].join(","));
        assert!(parse_sweep(&many).unwrap_err().contains("at most 64"));
    }

    #[test]
    fn loops_come_from_the_plan() {
        let lines = vec![
            "Nested Loop (actual time=1..2 rows=10 loops=1)".to_string(),
            "  ->  Index Scan using t_pkey on t b (actual time=1..2 rows=1 loops=200)".into(),
        ];
        assert_eq!(max_loops(&lines), Some(200));
        assert_eq!(max_loops(&[]), None);
    }

    #[test]
    fn a_pinned_setting_is_noticed() {
        assert!(script_pins(
            "/*+ Set(yb_bnl_batch_size '5') */ select",
            "yb_bnl_batch_size"
        ));
        assert!(script_pins(
            "SET yb_bnl_batch_size = 5;",
            "yb_bnl_batch_size"
        ));
        assert!(!script_pins("select 1", "yb_bnl_batch_size"));
    }
}
