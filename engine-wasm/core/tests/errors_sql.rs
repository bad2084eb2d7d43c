//! Bad input on both profiles: a clear message naming where it went wrong, never
//! a panic. The SQL layer is shared, so both profiles must give the same error.

use indexlab_engine::scenario::{run_pg, run_yb, ReportError};
use indexlab_engine::sql::error::ErrorKind;

/// The error `script` stops with, the same on pg and on yb.
fn error_of(script: &str) -> ReportError {
    let expect = |e: Option<ReportError>, profile: &str| {
        e.unwrap_or_else(|| panic!("expected an error on {profile} from:\n{script}"))
    };
    let pg = expect(run_pg(script, &[]).0.error, "pg");
    let yb = expect(run_yb(script, &[]).0.error, "yb");
    // The first line: PostgreSQL adds a DETAIL to some (a unique
    // violation's key), which YugabyteDB's DocDB check does not.
    let first = |m: &str| m.lines().next().unwrap_or_default().to_string();
    assert_eq!(
        (pg.kind, first(&pg.message), pg.line, pg.column),
        (yb.kind, first(&yb.message), yb.line, yb.column),
        "pg and yb disagree on:\n{script}"
    );
    pg
}

fn yb_setting_error(name: &str, value: &str) -> ReportError {
    let (report, _) = run_yb("select 1;", &[(name.into(), value.into())]);
    report
        .error
        .unwrap_or_else(|| panic!("{name}={value} was accepted"))
}

#[test]
fn unknown_table() {
    let e = error_of("create table t (a int);\nselect * from nope;");
    assert_eq!(e.message, "relation \"nope\" does not exist");
    // At the name, as PostgreSQL's error position points there.
    assert_eq!((e.line, e.column), (2, 15));
}

#[test]
fn unknown_column() {
    let e = error_of("create table t (a int);\n\n  select b from t;");
    assert_eq!(e.message, "column \"b\" does not exist");
    assert_eq!((e.line, e.column), (3, 10));
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
    let e = error_of("create table t (a int);\nlock table t;");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("LOCK"), "{}", e.message);
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
        "duplicate key value violates unique constraint \"t_pkey\"\nDETAIL:  Key (a)=(1) already exists."
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
        let _ = run_yb(script, &[]);
    }
}

#[test]
fn absurd_yb_settings_are_refused_by_name() {
    for (name, value) in [
        ("write_buffer_size", "1TB"),
        ("block_size", "0"),
        ("block_cache_size", "1PB"),
        ("num_tablets", "-1"),
        ("tablet_servers", "0"),
        ("replication_factor", "1000000000"),
        ("yb_fetch_row_limit", "-1"),
        ("compaction_style", "sideways"),
        ("bloom_bits_per_key", "1000000"),
    ] {
        let e = yb_setting_error(name, value);
        assert_eq!(e.kind, ErrorKind::Setting, "{name}={value}: {}", e.message);
        assert!(e.message.contains(name), "{name}={value}: {}", e.message);
    }
}

#[test]
fn yb_commands_on_unknown_tables_say_which() {
    let (r, _) = run_yb("create table t (a int);\n\\flush nope", &[]);
    let e = r.error.expect("an error");
    assert!(e.message.contains("\"nope\""), "{}", e.message);
    assert_eq!(e.line, 2);
    let (r, _) = run_yb("\\compact nope", &[]);
    assert!(r.error.expect("an error").message.contains("nope"));
}

#[test]
fn yb_unique_index_rejects_a_duplicate() {
    let e = error_of(
        "create table t (a int primary key, b int);\ncreate unique index t_b on t (b);\n\
         insert into t values (1, 5);\ninsert into t values (2, 5);",
    );
    assert_eq!(
        e.message,
        "duplicate key value violates unique constraint \"t_b\"\nDETAIL:  Key (b)=(5) already exists."
    );
    assert_eq!(e.line, 4);
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

/// PostgreSQL's grammar has no ASC or DESC in a key constraint (YugabyteDB's
/// range keys have): the pg profile ignores the words with a notice, and its
/// key is the ascending B-tree PostgreSQL builds, read backward for DESC. A
/// CREATE INDEX keeps its DESC, as in PostgreSQL.
#[test]
fn key_order_in_a_constraint_is_ignored_on_pg_with_a_notice() {
    let (r, _) = run_pg(
        "create table t (id int, v int, w int, primary key (id desc), unique (v asc));
         insert into t select g, g, g from generate_series(1, 500) g;
         explain (costs off) select id from t order by id desc;
         explain (costs off) select id from t order by id;
         create index t_w_desc on t (w desc);
         explain (costs off) select w from t order by w desc limit 5;",
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let notices = &r.statements[0].outcome.notices;
    assert!(
        notices.iter().any(
            |n| n.contains("ASC and DESC in a PRIMARY KEY or UNIQUE constraint")
                && n.contains("PostgreSQL refuses them")
        ),
        "{notices:?}"
    );
    let plan = |i: usize| {
        r.statements[i]
            .outcome
            .explain
            .clone()
            .unwrap_or_default()
            .join("\n")
    };
    assert!(
        plan(2).contains("Index Only Scan Backward using t_pkey"),
        "{}",
        plan(2)
    );
    assert!(
        plan(3).contains("Index Only Scan using t_pkey"),
        "{}",
        plan(3)
    );
    assert!(!plan(3).contains("Backward"), "{}", plan(3));
    assert!(plan(5).contains("using t_w_desc"), "{}", plan(5));
    assert!(!plan(5).contains("Backward"), "{}", plan(5));
    // yb keeps the order it was given: its key is declared, not ignored.
    let (y, _) = run_yb("create table t (id int, primary key (id desc));", &[]);
    assert!(y.statements[0].outcome.notices.is_empty());
}

#[test]
fn yb_tablet_counts_are_bounded() {
    for n in ["0", "1025", "1000000000", "99999999999999999999"] {
        let (r, _) = run_yb(
            &format!("create table t (a int) split into {n} tablets;"),
            &[],
        );
        let e = r.error.unwrap_or_else(|| panic!("{n} tablets accepted"));
        assert!(e.message.contains("tablets"), "{n}: {}", e.message);
        assert_eq!(e.line, 1);
    }
    let (r, _) = run_yb("create table t (a int) split into 1024 tablets;", &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
}

#[test]
fn absurd_batch_sizes_and_latencies_are_refused() {
    for bad in ["0", "1000000000", "-5", "lots"] {
        let e = yb_setting_error("yb_bnl_batch_size", bad);
        assert!(e.message.contains("yb_bnl_batch_size"), "{}", e.message);
    }
    for bad in ["-1", "-0.8ms", "fast", "1000000s"] {
        let e = yb_setting_error("network", bad);
        assert!(e.message.contains("network"), "{bad}: {}", e.message);
    }
    // The same through a hint: the statement's line, the setting's name.
    let script = "create table t (id int primary key);\n\
                  /*+ Set(yb_bnl_batch_size '0') */ select * from t a join t b using (id);";
    let (report, _) = run_yb(script, &[]);
    let e = report.error.expect("a batch size of 0 is refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("yb_bnl_batch_size"), "{}", e.message);
}

#[test]
fn unsupported_joins_are_named() {
    // A RIGHT JOIN would have to keep LATERAL rows with no outer row to read.
    let lateral = error_of(
        "create table t (id int primary key);\n\
         select * from t a right join lateral (select a.id) b on true;",
    );
    assert_eq!(
        lateral.message,
        "invalid reference to FROM-clause entry for table \"a\"\n\
         DETAIL:  The combining JOIN type must be INNER or LEFT for a LATERAL reference."
    );
    assert_eq!(lateral.line, 2);
    // PostgreSQL can run a FULL JOIN only by hashing or merging.
    let full = error_of(
        "create table t (id int primary key);\n\
         select * from t a full join t b on a.id < b.id;",
    );
    assert_eq!(
        full.message,
        "FULL JOIN is only supported with merge-joinable or hash-joinable join conditions"
    );
}

#[test]
fn a_join_cannot_reach_back_past_a_comma() {
    // In `FROM a, b JOIN c ON …`, the JOIN binds b and c only.
    let e = error_of(
        "create table a (x int);\ncreate table b (x int);\ncreate table c (x int);\n\
         select * from a, b join c on c.x = a.x;",
    );
    assert_eq!(
        e.message,
        "invalid reference to FROM-clause entry for table \"a\""
    );
    assert_eq!(e.line, 4);
}

#[test]
fn a_syntax_error_at_the_end_of_input_points_just_after_the_statement() {
    let e = error_of("select 1;\n  set max_rows;");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(
        e.message.starts_with("syntax error at end of input: "),
        "{}",
        e.message
    );
    assert_eq!((e.line, e.column), (2, 15));
}

#[test]
fn a_non_ascii_name_next_to_a_syntax_error_is_not_cut_in_half() {
    // Each once sliced a string inside 'é' or the RTL mark and panicked.
    for script in [
        "select 1 frmé t;",
        "select * frmé t;",
        "create index i on\u{200f} t (a);",
    ] {
        let e = error_of(script);
        assert!(e.line == 1 && e.column >= 1, "{script}: {e:?}");
    }
    let e = error_of("select 1 from t whéré a;");
    assert_eq!((e.line, e.column), (1, 23), "{}", e.message);
}

#[test]
fn a_psql_variable_is_refused_by_name_at_its_place() {
    let e = error_of("create table t (a int);\nselect * from t where a = :'v';");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        e.message.contains("the psql variable :'v'"),
        "{}",
        e.message
    );
    assert_eq!((e.line, e.column), (2, 27));
    // A cast is not a variable.
    let (r, _) = run_pg("create table t (a int);\nselect a::text from t;", &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
}
