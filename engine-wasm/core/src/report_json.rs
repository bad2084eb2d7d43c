//! A report as JSON: one object per profile, shaped as DESIGN §3 describes. The
//! CLI's `--json` prints it and the web worker hands it to the page.

use crate::metrics::Metrics;
use crate::scenario::Report;
use serde_json::{json, Map, Value};

fn metrics(m: &Metrics) -> Value {
    Value::Object(
        m.iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect::<Map<_, _>>(),
    )
}

pub fn report(r: &Report) -> Value {
    let statements: Vec<Value> = r
        .statements
        .iter()
        .map(|s| {
            let relations: Map<String, Value> = s
                .relations
                .by_relation
                .iter()
                .map(|(k, m)| (k.clone(), metrics(m)))
                .collect();
            json!({
                "sql": s.sql,
                "line": s.line,
                "run": s.run,
                "tag": s.outcome.tag,
                "columns": s.outcome.columns,
                "rows": s.outcome.rows,
                "row_count": s.outcome.row_count,
                "explain": s.outcome.explain.as_ref().map(|l| l.join("\n")),
                "notices": s.outcome.notices,
                "metrics": metrics(&s.metrics),
                "relations": relations,
                "replicas": s.relations.replicas.iter().map(|r| json!({
                    "relation": r.relation,
                    "tablet": r.tablet,
                    "tserver": format!("tserver-{}", r.tserver + 1),
                    "leader": r.leader,
                    "metrics": metrics(&r.metrics),
                })).collect::<Vec<_>>(),
                "virtual_ms": s.virtual_ms,
            })
        })
        .collect();
    let settings: Map<String, Value> = r
        .settings
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "profile": r.profile,
        "settings": settings,
        "statements": statements,
        "totals": {"metrics": metrics(&r.totals), "virtual_ms": r.total_virtual_ms},
        "error": r.error.as_ref().map(|e| json!({
            "message": e.message, "hint": e.hint, "line": e.line, "column": e.column,
            "kind": format!("{:?}", e.kind),
        })),
    })
}

/// A sweep as JSON: `{"setting", "points": [{"value", "loops", "read_requests",
/// "rpc_count", "virtual_ms", "error"}]}`.
pub fn sweep(setting: &str, points: &[crate::sweep::SweepPoint]) -> Value {
    let points: Vec<Value> = points
        .iter()
        .map(|p| {
            json!({
                "value": p.value,
                "loops": p.loops,
                "read_requests": p.read_requests,
                "rpc_count": p.rpc_count,
                "virtual_ms": p.virtual_ms,
                "error": p.error.as_ref().map(|e| json!({
                    "message": e.message, "line": e.line, "column": e.column,
                })),
            })
        })
        .collect();
    json!({"setting": setting, "points": points})
}

/// Every setting with its default, type, unit, bounds and meaning (the UI's
/// settings panel, like `pg_settings`).
pub fn settings_list() -> Value {
    let rows: Vec<Value> = crate::settings::Settings::new()
        .list()
        .into_iter()
        .map(|s| {
            json!({
                "name": s.name, "default": s.default, "type": s.type_name, "unit": s.unit,
                "min": s.min, "max": s.max, "values": s.values, "scope": s.scope.name(),
                "description": s.description,
            })
        })
        .collect();
    Value::Array(rows)
}
