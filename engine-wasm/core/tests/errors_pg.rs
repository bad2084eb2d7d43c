//! Bad input on the PostgreSQL profile: a clear message naming where it went wrong,
//! never a panic.

use indexlab_engine::scenario::{run_pg, ReportError};
use indexlab_engine::sql::error::ErrorKind;

fn error_of(script: &str) -> ReportError {
    let (report, _) = run_pg(script, &[]);
    report
        .error
        .unwrap_or_else(|| panic!("expected an error from:\n{script}"))
}

#[test]
fn unknown_table() {
    let e = error_of("create table t (a int);\nselect * from nope;");
    assert_eq!(e.message, "relation \"nope\" does not exist");
    assert_eq!((e.line, e.column), (2, 1));
}

#[test]
fn unknown_column() {
    let e = error_of("create table t (a int);\n\n  select b from t;");
    assert_eq!(e.message, "column \"b\" does not exist");
    assert_eq!((e.line, e.column), (3, 3));
}

#[test]
fn type_mismatch() {
    let e = error_of("create table t (a int);\ninsert into t values ('x');");
    assert_eq!(e.kind, ErrorKind::Semantic);
    assert!(
        e.message.contains("column is of type integer"),
        "{}",
        e.message
    );
    let e = error_of("create table t (a int);\nselect * from t where a < 'x';");
    assert_eq!(e.message, "invalid input syntax for type integer: \"x\"");
}

#[test]
fn syntax_error_points_into_the_statement() {
    let e = error_of("create table t (a int);\nselect a frm t;");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.line, 2);
    assert!(e.column > 1, "column {}", e.column);
}

#[test]
fn unsupported_statement_is_named() {
    let e = error_of("create table t (a int);\ntruncate t;");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("TRUNCATE"), "{}", e.message);
    assert_eq!(e.line, 2);
}

#[test]
fn row_count_over_the_limit() {
    let e = error_of(
        "create table t (a bigint);\ninsert into t select generate_series(1, 1000000000000);",
    );
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("max_rows=10000000"), "{}", e.message);
    assert!(e.hint.is_some());
}

#[test]
fn duplicate_key_and_unknown_setting() {
    let e = error_of(
        "create table t (a int primary key);\ninsert into t values (1);\ninsert into t values (1);",
    );
    assert_eq!(
        e.message,
        "duplicate key value violates unique constraint \"t_pkey\""
    );
    assert_eq!(e.line, 3);
    let e = error_of("set nope = 1;");
    assert!(
        e.message
            .contains("unrecognized configuration parameter \"nope\""),
        "{}",
        e.message
    );
}

#[test]
fn absurd_settings_are_refused() {
    let (report, _) = run_pg("select 1;", &[("shared_buffers".into(), "1TB".into())]);
    let e = report.error.expect("an error");
    assert_eq!(e.kind, ErrorKind::Setting);
    assert!(e.message.contains("shared_buffers"), "{}", e.message);
}

#[test]
fn garbage_never_panics() {
    for script in [
        "",
        ";;;",
        "\\watch",
        "select",
        "insert into",
        "(((",
        "'",
        "$$",
        "\\bogus",
    ] {
        let _ = run_pg(script, &[]);
    }
}

#[test]
fn yugabyte_dialect_bits_are_ignored_with_a_notice() {
    let (r, _) = run_pg(
        "create table t (n bigint) split into 3 tablets;
         create index nonconcurrently on t (n);
         explain (analyze, dist, debug, costs off) select * from t;
         \\flush t",
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let notices: Vec<&String> = r
        .statements
        .iter()
        .flat_map(|s| &s.outcome.notices)
        .collect();
    assert!(
        notices.iter().any(|n| n.contains("SPLIT INTO 3 TABLETS")),
        "{notices:?}"
    );
    assert!(notices.iter().any(|n| n.contains("DIST")), "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("DEBUG")), "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("\\flush")), "{notices:?}");
}
