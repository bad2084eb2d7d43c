//! SET and RESET as scripts use them: what a setting changes applies from the
//! next statement, and RESET (or SET … TO DEFAULT) returns to the run's own
//! settings: the defaults plus what the run was started with (`--set`).

use crate::common;

use crate::psql;

use indexlab_engine::scenario::{run_pg, run_yb, Report, StatementReport};

const LOAD: &str = "create table t (id bigint primary key, v bigint);\n\
                    insert into t select n, n from generate_series(1, 500) n;\n";

type Run = fn(&str, &[(String, String)]) -> Report;

fn pg(script: &str, settings: &[(String, String)]) -> Report {
    run_pg(script, settings).0
}

fn yb(script: &str, settings: &[(String, String)]) -> Report {
    run_yb(script, settings).0
}

/// The load's INSERT, run after `prelude`.
fn insert_after(run: Run, prelude: &str) -> StatementReport {
    let report = run(&format!("{prelude}{LOAD}"), &[]);
    assert!(report.error.is_none(), "{:?}", report.error);
    let insert = report
        .statements
        .into_iter()
        .find(|s| s.sql.starts_with("insert"));
    insert.expect("the insert ran")
}

#[test]
fn reset_restores_the_cost_model_on_both_profiles() {
    for (name, run) in [("pg", pg as Run), ("yb", yb)] {
        let ms = |prelude: &str| insert_after(run, prelude).virtual_ms;
        let plain = ms("");
        let slow = ms("set cost_cpu_row = 50;\n");
        let reset = ms("set cost_cpu_row = 50;\nreset cost_cpu_row;\n");
        assert!(
            slow > plain * 2.0,
            "{name}: SET applies ({slow} vs {plain} ms)"
        );
        assert_eq!(reset, plain, "{name}: RESET restores the default cost");
    }
}

#[test]
fn yb_replication_factor_and_packed_rows_apply_and_reset() {
    let inserts = |prelude: &str| insert_after(yb, prelude).metrics.get("rocksdb_insert");
    let one = inserts("");
    assert!(one >= 500.0, "{one}");
    assert_eq!(inserts("set replication_factor = 3;\n"), 3.0 * one);
    assert_eq!(
        inserts("set replication_factor = 3;\nreset replication_factor;\n"),
        one
    );
    // Without packed rows a row is a liveness entry plus one entry per column.
    let unpacked = inserts("set yb_enable_packed_row = false;\n");
    assert!(unpacked > one, "{unpacked} vs {one}");
}

#[test]
fn reset_and_reset_all_return_to_the_runs_own_settings() {
    let script =
        "set yb_fetch_row_limit = 5;\nreset yb_fetch_row_limit;\nshow yb_fetch_row_limit;\n\
                  set yb_fetch_row_limit = 6;\nset yb_fetch_row_limit to default;\n\
                  show yb_fetch_row_limit;\n\
                  set yb_fetch_row_limit = 7;\nset cost_cpu_row = 1;\nreset all;\n\
                  show yb_fetch_row_limit;\nshow cost_cpu_row;\n";
    let started = [("yb_fetch_row_limit".to_string(), "50000".to_string())];
    for (name, run) in [("pg", pg as Run), ("yb", yb)] {
        let report = run(script, &started);
        assert!(report.error.is_none(), "{name}: {:?}", report.error);
        let shown: Vec<&str> = report
            .statements
            .iter()
            .filter(|s| s.sql.starts_with("show"))
            .map(|s| s.outcome.rows[0][0].as_deref().unwrap_or(""))
            .collect();
        let default_cpu_row = indexlab_engine::settings::Settings::new()
            .show("cost_cpu_row")
            .unwrap();
        assert_eq!(
            shown,
            ["50000", "50000", "50000", default_cpu_row.as_str()],
            "{name}"
        );
    }
}

#[test]
fn reset_session_authorization_is_refused_with_its_place() {
    let report = pg("select 1;\nreset session authorization;\n", &[]);
    let e = report.error.expect("refused");
    assert_eq!((e.line, e.column), (2, 1));
    assert!(
        e.message.contains("RESET SESSION AUTHORIZATION"),
        "{}",
        e.message
    );
}

#[test]
fn reset_of_the_other_profiles_setting_says_it_is_ignored_as_set_does() {
    let notices = |run: Run, script: &str| -> Vec<String> {
        let report = run(script, &[]);
        assert!(report.error.is_none(), "{:?}", report.error);
        report
            .statements
            .into_iter()
            .flat_map(|s| s.outcome.notices)
            .collect()
    };
    let pg_notes = notices(pg, "reset yb_fetch_row_limit;\nreset shared_buffers;\n");
    assert_eq!(pg_notes.len(), 1, "{pg_notes:?}");
    assert!(
        pg_notes[0].contains("the pg profile ignores it"),
        "{pg_notes:?}"
    );
    let yb_notes = notices(yb, "reset shared_buffers;\nreset yb_fetch_row_limit;\n");
    assert_eq!(yb_notes.len(), 1, "{yb_notes:?}");
    assert!(
        yb_notes[0].contains("the yb profile ignores it"),
        "{yb_notes:?}"
    );
}

/// The buffer pool, the block cache and the cluster are built when the engine
/// starts: SET refuses them as PostgreSQL refuses its `postmaster` parameters,
/// instead of answering SET while the pool keeps its size. The other engine's
/// setting is still only ignored, with its notice; and set for the run, it works.
#[test]
fn settings_fixed_at_start_are_refused_by_set() {
    for (run, name, value) in [
        (pg as Run, "shared_buffers", "'1MB'"),
        (pg, "page_size", "'16kB'"),
        (yb, "block_cache_size", "'1MB'"),
        (yb, "tablet_servers", "5"),
    ] {
        let report = run(&format!("select 1;\nset {name} = {value};\n"), &[]);
        let error = report.error.expect("SET refused");
        assert_eq!(error.line, 2, "{error:?}");
        assert_eq!(
            error.message,
            format!("parameter \"{name}\" cannot be changed without restarting the server")
        );
        assert!(
            error
                .hint
                .as_deref()
                .unwrap_or("")
                .contains(&format!("--set {name}=")),
            "{error:?}"
        );
    }
    let other = yb("set shared_buffers = '1MB';\nshow shared_buffers;\n", &[]);
    assert!(other.error.is_none(), "{:?}", other.error);
    let small = pg(
        &format!("{LOAD}show shared_buffers;\n"),
        &[("shared_buffers".into(), "1MB".into())],
    );
    assert!(small.error.is_none(), "{:?}", small.error);
    assert_eq!(
        small.statements.last().unwrap().outcome.rows[0][0].as_deref(),
        Some("1MB")
    );
}

/// A value the run was given out of range is the settings' fault, not line 1's:
/// the report names no line. The same value SET by the script names its line.
#[test]
fn a_bad_run_setting_is_reported_in_the_settings_not_at_a_line() {
    let bad = vec![("num_tablets".to_string(), "100000".to_string())];
    let r = yb("create table t (id int primary key);", &bad);
    let e = r.error.expect("100000 tablets refused");
    assert!(e.in_settings(), "{e:?}");
    assert_eq!((e.line, e.column), (0, 0));
    assert!(e.message.contains("num_tablets"), "{}", e.message);
    assert!(r.statements.is_empty());

    let r = yb(
        "create table t (id int primary key);\nset num_tablets = 100000;",
        &[],
    );
    let e = r.error.expect("SET of 100000 tablets refused");
    assert!(!e.in_settings());
    assert_eq!(e.line, 2, "{e:?}");
}

/// psql's `\c` alone connects again to the same database: a new session,
/// whose settings are the server's and which has no prepared statements.
#[test]
fn reconnecting_starts_a_new_session() {
    let script = "set work_mem = '1MB';\nprepare q as select 1;\n\\c\nshow work_mem;\nexecute q;\n";
    for r in common::both(script) {
        assert_eq!(common::rows(&r, 3), [["4MB"]]);
        assert_eq!(common::error(&r), "prepared statement \"q\" does not exist");
    }
    let r = indexlab_engine::scenario::run_pg("\\c otherdb\n", &[]).0;
    assert!(
        common::error(&r).contains("one database"),
        "{}",
        common::error(&r)
    );
}

/// psql's `\dconfig pattern` on pg: PostgreSQL 15's settings whose names
/// match, valued as SHOW gives them (psql 15 printed these rows); a
/// matching setting IndexLab does not model is refused by name, as is
/// `\dconfig` on yb (ysqlsh has none).
#[test]
fn dconfig_lists_the_matching_settings() {
    let r = run_pg(
        "set random_page_cost = 1.1;\n\\dconfig *page_cost\n\\dconfig enable_*scan\n",
        &[],
    )
    .0;
    let rows = |i: usize| psql::lines(&r, i);
    assert_eq!(rows(1), ["random_page_cost|1.1", "seq_page_cost|1"]);
    assert_eq!(
        rows(2),
        [
            "enable_bitmapscan|on",
            "enable_indexonlyscan|on",
            "enable_indexscan|on",
            "enable_seqscan|on",
            "enable_tidscan|on"
        ]
    );
    assert_eq!(
        r.statements[1].outcome.title.as_deref(),
        Some("List of configuration parameters")
    );
    let e = run_pg("\\dconfig datestyle\n", &[])
        .0
        .error
        .unwrap()
        .message;
    assert!(
        e.contains("(DateStyle)") && e.ends_with("is not supported by IndexLab"),
        "{e}"
    );
    let e = run_yb("\\dconfig *page_cost\n", &[])
        .0
        .error
        .unwrap()
        .message;
    assert!(e.contains("YugabyteDB"), "{e}");
}
