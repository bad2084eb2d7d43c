//! A run for the page's player: per profile, the report and the trace. The
//! CLI's `--traced` prints it as JSON, exactly as the wasm build returns it
//! (`npm run identical` checks the bytes); the page receives the same types
//! packed (`indexlab-wasm`'s `run_traced_packed`).

use crate::report_json::ReportJson;
use crate::scenario::{run_profile_with, Progress, ScenarioEngine};
use crate::trace::Trace;
use crate::{pg::PgEngine, yb::YbEngine};
use serde::Serialize;

/// One profile's run: its report, and its trace (none when the settings
/// were refused before anything ran).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TracedRun {
    pub report: ReportJson,
    pub trace: Option<Trace>,
}

/// One profile's run, or both side by side.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Traced {
    One(Box<TracedRun>),
    Both {
        pg: Box<TracedRun>,
        yb: Box<TracedRun>,
    },
}

/// Runs `script` for the player on "pg", "yb" or "both", with snapshots on
/// (the overrides may still change the detail budget). None for an unknown
/// profile.
pub fn run_traced(script: &str, profile: &str, overrides: &[(String, String)]) -> Option<Traced> {
    run_traced_with(script, profile, overrides, &mut |_, _| {})
}

/// The same, telling `progress` which profile runs and how far it is.
pub fn run_traced_with(
    script: &str,
    profile: &str,
    overrides: &[(String, String)],
    progress: &mut dyn FnMut(&str, Progress),
) -> Option<Traced> {
    let mut o = vec![("trace_snapshots".to_string(), "on".to_string())];
    o.extend_from_slice(overrides);
    match profile {
        "pg" => Some(Traced::One(Box::new(traced::<PgEngine>(
            script, &o, progress,
        )))),
        "yb" => Some(Traced::One(Box::new(traced::<YbEngine>(
            script, &o, progress,
        )))),
        "both" => Some(Traced::Both {
            pg: Box::new(traced::<PgEngine>(script, &o, progress)),
            yb: Box::new(traced::<YbEngine>(script, &o, progress)),
        }),
        _ => None,
    }
}

/// One profile's report and trace.
pub fn traced<E: ScenarioEngine>(
    script: &str,
    overrides: &[(String, String)],
    progress: &mut dyn FnMut(&str, Progress),
) -> TracedRun {
    let (r, e) = run_profile_with::<E>(script, overrides, &mut |p| progress(E::PROFILE, p));
    TracedRun {
        report: ReportJson::from(&r),
        trace: e.map(|mut e| {
            std::mem::replace(e.trace_mut(), Trace::new(crate::trace::TraceBudget::NONE))
        }),
    }
}

/// As JSON text (the CLI's `--traced`).
pub fn to_json(t: &Traced) -> String {
    serde_json::to_string(t).expect("a trace is plain data")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{run_pg, run_yb};
    use serde_json::Value;

    fn trace(t: &Trace) -> Value {
        serde_json::to_value(t).unwrap()
    }

    fn count_events(trace: &Value, kind: &str) -> usize {
        let events = trace["events"].as_array().unwrap();
        events.iter().filter(|e| e["type"] == kind).count()
    }

    fn set(snapshots: bool) -> Vec<(String, String)> {
        vec![("trace_snapshots".into(), snapshots.to_string())]
    }

    const SCRIPT: &str = "create table t (id int primary key, v int);\n\
                          insert into t select generate_series(1,2000), 0;\n\
                          select * from t where id = 5;\n";

    #[test]
    fn statements_are_marked_and_snapshots_taken_between_them() {
        let (report, engine) = run_pg(SCRIPT, &set(true));
        assert!(report.error.is_none());
        let t = trace(engine.unwrap().trace());
        let events = t["events"].as_array().unwrap();
        let starts: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "statement_start")
            .collect();
        assert_eq!(starts.len(), 3);
        assert_eq!(starts[2]["sql"], "select * from t where id = 5");
        // One picture before each statement and one at the end.
        let snaps = t["snapshots"].as_array().unwrap();
        assert_eq!(snaps.len(), 4);
        for (i, s) in snaps.iter().take(3).enumerate() {
            let at = s["at_event"].as_u64().unwrap() as usize;
            assert_eq!(events[at]["type"], "statement_start");
            assert_eq!(events[at]["index"], i);
        }
        // The last picture shows the 2000-row tree: its leaves and their fill.
        let tree = &snaps[3]["state"]["trees"][0];
        assert_eq!(tree["relation"], "t_pkey");
        assert_eq!(tree["entries"], 2000);
        let leaves = tree["levels"].as_array().unwrap().last().unwrap();
        assert!(leaves["fill"].as_array().unwrap().len() >= 4);
        assert!(!snaps[3]["state"]["pool"]["frames"]
            .as_array()
            .unwrap()
            .is_empty());
    }

    #[test]
    fn progress_counts_every_run_of_every_statement_for_each_profile() {
        // A \watch c=3 runs its statement 3 times; a meta-command counts once.
        let script = "create table t (id int);\n\
                      insert into t select generate_series(1,10)\n\\watch c=3\n\
                      \\echo done\n";
        let mut seen: Vec<(String, u32, u32)> = Vec::new();
        let out = run_traced_with(script, "both", &[], &mut |profile, p| {
            seen.push((profile.to_string(), p.done, p.total))
        })
        .expect("known profile");
        let out = serde_json::to_value(&out).unwrap();
        assert!(out["pg"]["report"]["error"].is_null());
        let of = |name: &str| -> Vec<(u32, u32)> {
            seen.iter()
                .filter(|(p, ..)| p == name)
                .map(|(_, d, t)| (*d, *t))
                .collect()
        };
        let want: Vec<(u32, u32)> = (0..=5).map(|d| (d, 5)).collect();
        assert_eq!(of("pg"), want);
        assert_eq!(of("yb"), want);
        // pg runs first, then yb.
        assert_eq!(seen.iter().position(|(p, ..)| p == "yb"), Some(6));
    }

    #[test]
    fn progress_stops_where_an_error_stops_the_script() {
        let mut seen = Vec::new();
        run_traced_with(
            "select 1;\nselect nope frm t;\nselect 2;\n",
            "pg",
            &[],
            &mut |_, p| seen.push((p.done, p.total)),
        );
        // Parsing stops at the broken statement: one of three done.
        assert_eq!(seen, vec![(0, 3), (1, 3)]);
    }

    #[test]
    fn yb_snapshots_show_tablets_and_levels() {
        let script = format!("{SCRIPT}\\flush t\n");
        let (report, engine) = run_yb(&script, &set(true));
        assert!(report.error.is_none());
        let t = trace(engine.unwrap().trace());
        let last = &t["snapshots"].as_array().unwrap().last().unwrap()["state"];
        let tablets = last["tablets"].as_array().unwrap();
        assert_eq!(tablets.len(), 3, "t in 3 hash tablets");
        let ssts: usize = tablets
            .iter()
            .map(|t| t["levels"][0]["ssts"].as_array().map_or(0, Vec::len))
            .sum();
        assert_eq!(ssts, 3, "one L0 SST per tablet after the flush");
        assert_eq!(count_events(&t, "flush"), 3);
    }

    #[test]
    fn yb_ssts_count_docdb_tombstones_and_caches_are_reported() {
        // A DELETE writes a DocDB tombstone value per row (not a RocksDB Delete);
        // the index entries of the deleted rows are deleted the same way.
        let script = "create table t (id int, v int, primary key (id asc));\n\
                      create index t_v on t (v);\n\
                      insert into t select generate_series(1,300), 0;\n\
                      delete from t where id <= 100;\n\
                      \\flush\n\
                      select id from t where id > 250;\n";
        let (report, engine) = run_yb(script, &set(true));
        assert!(report.error.is_none(), "{:?}", report.error);
        let t = trace(engine.unwrap().trace());
        let last = &t["snapshots"].as_array().unwrap().last().unwrap()["state"];
        let count = |relation: &str, field: &str| -> u64 {
            last["tablets"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["relation"] == relation)
                .flat_map(|t| t["levels"].as_array().unwrap().iter())
                .flat_map(|l| l["ssts"].as_array().unwrap().iter())
                .map(|s| s[field].as_u64().unwrap())
                .sum()
        };
        assert_eq!(count("t", "deletes"), 100);
        assert_eq!(count("t", "entries"), 400);
        assert_eq!(count("t_v", "deletes"), 100);
        // The block cache filled with the reads, and the trace said so.
        let used: u64 = last["caches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["used"].as_u64().unwrap())
            .sum();
        assert!(used > 0);
        assert!(count_events(&t, "block_cache") > 0);
    }

    #[test]
    fn pg_trees_send_high_keys_and_splits_their_separators() {
        let (_, engine) = run_pg(SCRIPT, &set(true));
        let t = trace(engine.unwrap().trace());
        let last = &t["snapshots"].as_array().unwrap().last().unwrap()["state"];
        let levels = last["trees"][0]["levels"].as_array().unwrap();
        let leaves = levels.last().unwrap();
        let high = leaves["high"].as_array().unwrap();
        assert_eq!(high.len(), leaves["pages"].as_array().unwrap().len());
        // The rightmost page has no bound; the others' bounds rise left to right.
        assert!(high.last().unwrap().is_null());
        let bounds: Vec<i64> = high[..high.len() - 1]
            .iter()
            .map(|h| {
                let s = h.as_str().unwrap();
                s.trim_matches(|c| c == '(' || c == ')').parse().unwrap()
            })
            .collect();
        assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
        assert!(bounds[0] > 1 && *bounds.last().unwrap() < 2000);
        // Each split names its separator: the left page's new high key.
        let first = t["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == "page_split")
            .unwrap();
        assert_eq!(first["separator"], high[0]);
    }

    #[test]
    fn no_snapshots_unless_asked() {
        let (_, engine) = run_pg(SCRIPT, &[]);
        assert!(engine.unwrap().trace().snapshots.is_empty());
    }
}
