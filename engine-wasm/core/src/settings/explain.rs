//! EXPLAIN's SETTINGS option: PostgreSQL 15's `get_explain_guc_options` lists
//! the settings flagged GUC_EXPLAIN whose value differs from the built-in
//! default, sorted by name, each as SHOW prints it. Of those, IndexLab holds
//! the planner settings it records ([`super::planner`]); their values are kept
//! as SET gave them, so they are normalized here the way PostgreSQL stores
//! and shows them (`65536` for work_mem is shown as `64MB`).

use super::def::KB;
use super::parse::parse_bool;
use super::{planner, Settings};

/// PostgreSQL 15's GUC_EXPLAIN settings among those IndexLab records
/// (`pg_settings_get_flags(name)` contains `EXPLAIN`), with how SHOW prints
/// them. `default_statistics_target`, `maintenance_work_mem` and the session
/// settings are not flagged, so EXPLAIN never lists them.
fn shape(name: &str) -> Option<Shape> {
    Some(match name {
        n if n.starts_with("enable_") => Shape::Bool,
        "geqo" | "jit" => Shape::Bool,
        "seq_page_cost"
        | "random_page_cost"
        | "cpu_tuple_cost"
        | "cpu_index_tuple_cost"
        | "cpu_operator_cost"
        | "parallel_setup_cost"
        | "parallel_tuple_cost"
        | "hash_mem_multiplier" => Shape::Float,
        "effective_io_concurrency"
        | "from_collapse_limit"
        | "join_collapse_limit"
        | "max_parallel_workers_per_gather" => Shape::Int,
        "work_mem" => Shape::Memory(KB),
        "temp_buffers"
        | "effective_cache_size"
        | "min_parallel_table_scan_size"
        | "min_parallel_index_scan_size" => Shape::Memory(8 * KB),
        "plan_cache_mode" => Shape::Word,
        "search_path" => Shape::Verbatim,
        _ => return None,
    })
}

#[derive(Clone, Copy)]
enum Shape {
    Bool,
    Float,
    Int,
    /// A size whose bare number counts in this many bytes.
    Memory(u64),
    Word,
    /// Shown as SHOW would after PostgreSQL's own parsing, which IndexLab
    /// does not reproduce: refused when changed.
    Verbatim,
}

impl Settings {
    /// The `(name, value)` pairs EXPLAIN (SETTINGS) prints; an error naming
    /// the setting IndexLab cannot show as PostgreSQL would. `yb`: YugabyteDB
    /// flags its own `yb_*` settings in ways IndexLab does not know, so a
    /// changed one is refused rather than guessed.
    pub fn explain_settings(&self, yb: bool) -> Result<Vec<(&'static str, String)>, String> {
        let mut out = Vec::new();
        if yb {
            if let Some((name, _)) = self
                .changed()
                .into_iter()
                .find(|(n, _)| n.starts_with("yb_"))
            {
                return Err(name.to_string());
            }
        }
        for (name, raw) in &self.recognized {
            let Some((_, default, scope)) = planner::lookup(name) else {
                continue;
            };
            if !scope.covers_pg() {
                if yb {
                    return Err(name.to_string());
                }
                continue;
            }
            let Some(shape) = shape(name) else { continue };
            let value = shown(shape, raw).ok_or_else(|| name.to_string())?;
            if shown(shape, default).as_deref() != Some(value.as_str()) {
                out.push((*name, value));
            }
        }
        out.sort_by(|a, b| a.0.cmp(b.0));
        Ok(out)
    }
}

/// `text` as SHOW prints the stored value; `None` when IndexLab cannot tell.
fn shown(shape: Shape, text: &str) -> Option<String> {
    let t = text.trim().trim_matches('\'');
    match shape {
        Shape::Bool => parse_bool(t).map(|b| if b { "on" } else { "off" }.to_string()),
        Shape::Float => t.parse::<f64>().ok().and_then(percent_g),
        Shape::Int => t.parse::<i64>().ok().map(|n| n.to_string()),
        Shape::Memory(base) => memory(t, base),
        Shape::Word => Some(t.to_ascii_lowercase()),
        Shape::Verbatim => (t == planner::lookup("search_path")?.1).then(|| t.to_string()),
    }
}

/// C's `%g` (six significant digits, no trailing zeros), which SHOW uses for
/// reals; `None` where it would switch to an exponent.
fn percent_g(v: f64) -> Option<String> {
    if v == 0.0 {
        return Some("0".into());
    }
    let exp = format!("{:.5e}", v.abs())
        .split('e')
        .nth(1)?
        .parse::<i32>()
        .ok()?;
    if !(-4..6).contains(&exp) {
        return None;
    }
    let s = format!("{:.*}", (5 - exp) as usize, v);
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    Some(s)
}

/// A size as SHOW prints it: in the largest of kB, MB, GB, TB that divides
/// it exactly. A bare number counts in `base` bytes.
fn memory(t: &str, base: u64) -> Option<String> {
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = if split == 0 {
        return None;
    } else {
        t.split_at(split)
    };
    let unit_bytes = match unit.trim() {
        "" => base,
        "B" => 1,
        "kB" => KB,
        "MB" => KB * KB,
        "GB" => KB * KB * KB,
        "TB" => KB * KB * KB * KB,
        _ => return None,
    };
    let bytes = (num.parse::<f64>().ok()? * unit_bytes as f64).round() as u64;
    // PostgreSQL rounds to its base unit.
    let units = (bytes as f64 / base as f64).round() as u64;
    let kb = units * base / KB;
    if kb == 0 {
        return Some("0".into());
    }
    let unit = [
        ("TB", 1u64 << 30),
        ("GB", 1 << 20),
        ("MB", 1 << 10),
        ("kB", 1),
    ]
    .into_iter()
    .find(|(_, size)| kb.is_multiple_of(*size))?;
    Some(format!("{}{}", kb / unit.1, unit.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_shown_as_postgresql_shows_them() {
        assert_eq!(memory("65536", KB).as_deref(), Some("64MB"));
        assert_eq!(memory("64MB", KB).as_deref(), Some("64MB"));
        assert_eq!(memory("100", 8 * KB).as_deref(), Some("800kB"));
        assert_eq!(percent_g(1.1).as_deref(), Some("1.1"));
        assert_eq!(percent_g(4.0).as_deref(), Some("4"));
        assert_eq!(percent_g(0.0025).as_deref(), Some("0.0025"));
        assert_eq!(percent_g(1e-5), None);
    }

    #[test]
    fn only_changed_flagged_settings_in_name_order() {
        let mut s = Settings::new();
        s.set_recognized("work_mem", "65536");
        s.set_recognized("random_page_cost", "1.1");
        s.set_recognized("enable_seqscan", "false");
        s.set_recognized("seq_page_cost", "1.0");
        s.set_recognized("maintenance_work_mem", "1GB");
        let got = s.explain_settings(false).unwrap();
        let want = [
            ("enable_seqscan", "off"),
            ("random_page_cost", "1.1"),
            ("work_mem", "64MB"),
        ];
        assert_eq!(got.len(), want.len());
        for ((n, v), (wn, wv)) in got.iter().zip(want) {
            assert_eq!((*n, v.as_str()), (wn, wv));
        }
    }
}
