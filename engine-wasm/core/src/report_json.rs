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
