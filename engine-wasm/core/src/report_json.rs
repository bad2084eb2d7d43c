//! A report as the CLI's `--json` prints it and the page reads it (DESIGN §3):
//! typed, so the page's TypeScript types are generated from the same
//! definitions (`npm run schema`).

use crate::metrics::Metrics;
use crate::scenario::{Report, ReportError, StatementReport};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Counters by name, as the databases name them.
pub type MetricsJson = BTreeMap<&'static str, f64>;

fn metrics(m: &Metrics) -> MetricsJson {
    m.iter().collect()
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Report"))]
pub struct ReportJson {
    pub profile: String,
    /// Settings that differ from their defaults, as SHOW prints them.
    pub settings: BTreeMap<String, String>,
    pub statements: Vec<StatementJson>,
    pub totals: TotalsJson,
    pub error: Option<ErrorJson>,
}

/// One run of one statement.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "StatementReport"))]
pub struct StatementJson {
    pub sql: String,
    pub line: u32,
    /// 1-based run number (a `\watch c=100` runs its statement 100 times).
    pub run: u32,
    /// psql's command tag (`INSERT 0 10000`, `SELECT 3`).
    pub tag: String,
    pub columns: Vec<String>,
    /// The first rows, as psql prints them; NULL is `null`, not an empty string.
    pub rows: Vec<Vec<Option<String>>>,
    pub row_count: u64,
    /// EXPLAIN's output, lines joined by newlines.
    pub explain: Option<String>,
    pub notices: Vec<String>,
    /// The title psql centres above the table (`\d t`: `Table "public.t"`).
    pub title: Option<String>,
    /// The lines psql prints under the table (`\d t`: `Indexes:` and one
    /// line per index), in place of `(N rows)`.
    pub footers: Vec<String>,
    /// Whether psql prints `(N rows)` under the table (not when there are
    /// footers, nor under `\d`'s descriptions).
    pub rows_line: bool,
    /// EXPLAIN: why the planner chose each part of the plan, one sentence
    /// per cost-based choice (pg), top node first.
    pub why: Vec<String>,
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub metrics: MetricsJson,
    /// The same counters per relation.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, Record<string, number>>"))]
    pub relations: BTreeMap<String, MetricsJson>,
    /// yb: the counters per tablet replica.
    pub replicas: Vec<ReplicaJson>,
    pub virtual_ms: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReplicaReport"))]
pub struct ReplicaJson {
    pub relation: String,
    pub tablet: u32,
    /// `tserver-1`, `tserver-2`…
    pub tserver: String,
    pub leader: bool,
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub metrics: MetricsJson,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Totals"))]
pub struct TotalsJson {
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub metrics: MetricsJson,
    pub virtual_ms: f64,
}

/// Where and why the script stopped.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReportError"))]
pub struct ErrorJson {
    pub message: String,
    pub hint: Option<String>,
    /// 1-based; 0 (with column 0) when the run's settings, not its script,
    /// are wrong.
    pub line: u32,
    pub column: u32,
    /// What kind of error (Syntax, Unsupported, Setting…).
    pub kind: String,
}

impl From<&ReportError> for ErrorJson {
    fn from(e: &ReportError) -> Self {
        ErrorJson {
            message: e.message.clone(),
            hint: e.hint.clone(),
            line: e.line,
            column: e.column,
            kind: format!("{:?}", e.kind),
        }
    }
}

impl From<&StatementReport> for StatementJson {
    fn from(s: &StatementReport) -> Self {
        StatementJson {
            sql: s.sql.clone(),
            line: s.line,
            run: s.run,
            tag: s.outcome.tag.clone(),
            columns: s.outcome.columns.clone(),
            rows: s.outcome.rows.clone(),
            row_count: s.outcome.row_count,
            explain: s.outcome.explain.as_ref().map(|l| l.join("\n")),
            notices: s.outcome.notices.clone(),
            title: s.outcome.title.clone(),
            footers: s.outcome.footers.clone(),
            rows_line: s.outcome.rows_line().is_some(),
            why: s.outcome.why.clone(),
            metrics: metrics(&s.metrics),
            relations: s
                .relations
                .by_relation
                .iter()
                .map(|(k, m)| (k.clone(), metrics(m)))
                .collect(),
            replicas: s
                .relations
                .replicas
                .iter()
                .map(|r| ReplicaJson {
                    relation: r.relation.clone(),
                    tablet: r.tablet,
                    tserver: format!("tserver-{}", r.tserver + 1),
                    leader: r.leader,
                    metrics: metrics(&r.metrics),
                })
                .collect(),
            virtual_ms: s.virtual_ms,
        }
    }
}

impl From<&Report> for ReportJson {
    fn from(r: &Report) -> Self {
        ReportJson {
            profile: r.profile.to_string(),
            settings: r.settings.iter().cloned().collect(),
            statements: r.statements.iter().map(StatementJson::from).collect(),
            totals: TotalsJson {
                metrics: metrics(&r.totals),
                virtual_ms: r.total_virtual_ms,
            },
            error: r.error.as_ref().map(ErrorJson::from),
        }
    }
}

/// The report as a JSON value, keys in sorted order (the CLI's `--json`).
pub fn report(r: &Report) -> Value {
    // Through a Value: its maps sort their keys, the order `--json` has always had.
    serde_json::to_value(ReportJson::from(r)).expect("a report is plain data")
}

/// One run of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SweepPointJson {
    pub value: String,
    /// The largest `loops=` of the measured plan (the inner side of a join).
    pub loops: Option<u64>,
    pub read_requests: f64,
    pub rpc_count: f64,
    pub virtual_ms: f64,
    pub error: Option<SweepErrorJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SweepErrorJson {
    pub message: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SweepJson {
    pub setting: String,
    pub points: Vec<SweepPointJson>,
}

/// A sweep as JSON: the setting, and per value the measured query's figures.
pub fn sweep(setting: &str, points: &[crate::sweep::SweepPoint]) -> Value {
    let json = SweepJson {
        setting: setting.to_string(),
        points: points
            .iter()
            .map(|p| SweepPointJson {
                value: p.value.clone(),
                loops: p.loops,
                read_requests: p.read_requests,
                rpc_count: p.rpc_count,
                virtual_ms: p.virtual_ms,
                error: p.error.as_ref().map(|e| SweepErrorJson {
                    message: e.message.clone(),
                    line: e.line,
                    column: e.column,
                }),
            })
            .collect(),
    };
    serde_json::to_value(json).expect("a sweep is plain data")
}

/// One setting as the settings panel lists it (like `pg_settings`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "SettingInfo"))]
pub struct SettingJson {
    pub name: String,
    pub default: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub unit: String,
    /// The bounds, as shown; empty for booleans and enums.
    pub min: String,
    pub max: String,
    pub values: Vec<String>,
    pub scope: String,
    pub description: String,
}

/// Every setting with its default, type, unit, bounds and meaning (the UI's
/// settings panel, like `pg_settings`).
pub fn settings_list() -> Value {
    let rows: Vec<SettingJson> = crate::settings::Settings::new()
        .list()
        .into_iter()
        .map(|s| SettingJson {
            name: s.name.to_string(),
            default: s.default,
            type_name: s.type_name.to_string(),
            unit: s.unit,
            min: s.min,
            max: s.max,
            values: s.values.iter().map(|v| v.to_string()).collect(),
            scope: s.scope.name().to_string(),
            description: s.description.to_string(),
        })
        .collect();
    serde_json::to_value(rows).expect("settings are plain data")
}
