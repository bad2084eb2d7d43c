//! The engine's own limits, found by the fuzzer (`engine-wasm/fuzz`): input
//! too big or too deep for a browser tab is refused with a message saying
//! what was too big and where, instead of overflowing the stack, exhausting
//! memory or running for minutes.

use indexlab_engine::scenario::{run_pg, run_yb, Report, ReportError};
use indexlab_engine::sql::error::ErrorKind;
use indexlab_engine::sql::parse::depth::MAX_EXPRESSION_DEPTH;

/// The error `script` stops with, the same on pg and on yb.
fn error_of(script: &str) -> ReportError {
    let pg = run_pg(script, &[]).0.error;
    let yb = run_yb(script, &[]).0.error;
    let pg = pg.unwrap_or_else(|| panic!("expected an error from:\n{script:.300}"));
    assert_eq!(Some(&pg), yb.as_ref(), "pg and yb disagree");
    pg
}

/// Runs `script` on both profiles in a thread with a 1 MiB stack, about
/// what the page's wasm has; a stack overflow aborts the test.
fn run_in_small_stack(script: String) -> [Report; 2] {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || [run_pg(&script, &[]).0, run_yb(&script, &[]).0])
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn a_100000_term_and_chain_is_refused_where_it_crosses_the_limit() {
    let chain = vec!["1 = 1"; 100_000].join(" AND ");
    let e = error_of(&format!(
        "create table t (a int);\nselect * from t where {chain};"
    ));
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message
            .contains(&format!("more than {MAX_EXPRESSION_DEPTH}")),
        "{}",
        e.message
    );
    assert_eq!(e.line, 2);
    // Inside the chain, not at the statement's start.
    assert!(e.column > 1000, "column {}", e.column);
}

#[test]
fn depth_at_the_limit_fits_in_a_small_stack() {
    // The deepest trees the limit lets through: a left-deep chain of
    // operators, in a select list and in a WHERE condition, converted,
    // planned, evaluated and deparsed for EXPLAIN.
    let terms = MAX_EXPRESSION_DEPTH - 10;
    let sum = vec!["a"; terms].join(" + ");
    let and = vec!["b"; terms].join(" AND ");
    let script = format!(
        "create table t (a int, b boolean);\n\
         insert into t values (1, true), (2, false);\n\
         select {sum} from t;\n\
         select * from t where {and};\n\
         explain (analyze, costs off) select * from t where {and};\n"
    );
    for report in run_in_small_stack(script) {
        assert_eq!(report.error, None, "{}", report.profile);
        let mut sums: Vec<&str> = report.statements[2]
            .outcome
            .rows
            .iter()
            .map(|r| r[0].as_deref().unwrap())
            .collect();
        sums.sort();
        assert_eq!(sums, ["1980", "990"], "{}", report.profile);
    }
}

#[test]
fn the_planner_estimates_the_deepest_conditions_in_a_small_stack() {
    // Selectivity and cost recurse over a condition: an OR chain, arithmetic
    // compared with a constant, and a NOT, each as deep as the limit allows,
    // on an indexed table so every path is costed.
    let terms = MAX_EXPRESSION_DEPTH - 10;
    let or = vec!["a = 1"; terms / 2].join(" OR ");
    let sum = vec!["a"; terms / 2].join(" + ");
    let script = format!(
        "create table t (a int primary key, b boolean);\n\
         insert into t select g, g % 2 = 0 from generate_series(1, 100) g;\n\
         analyze t;\n\
         select count(*) from t where {or};\n\
         select count(*) from t where {sum} > 5 and a < 50;\n\
         explain select * from t where not ({or}) order by a limit 3;\n\
         select count(*) from t where a not between 3 and 5 and b not between false and false;\n"
    );
    for report in run_in_small_stack(script) {
        assert_eq!(report.error, None, "{}", report.profile);
    }
}

#[test]
fn deep_parentheses_are_refused_at_the_deepest_one() {
    let e = error_of(&format!("select {}1{};", "(".repeat(100), ")".repeat(100)));
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("nested too deeply"), "{}", e.message);
    assert_eq!((e.line, e.column), (1, 107));
}

#[test]
fn watching_an_insert_stops_at_the_runs_row_budget() {
    // Each run is within max_rows; the 21st takes the run over it.
    let script = "set max_rows = 20000;\ncreate table t (a int);\n\
                  insert into t select generate_series(1, 1000)\n\\watch c=5000\n";
    let e = error_of(script);
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message.contains("21000 rows") && e.message.contains("max_rows=20000"),
        "{}",
        e.message
    );
    assert_eq!((e.line, e.column), (3, 1));
    let (report, _) = run_pg(script, &[]);
    assert_eq!(report.statements.len(), 2 + 21);
}

#[test]
fn a_table_copied_into_itself_stops_at_the_runs_row_budget() {
    let script = "set max_rows = 5000;\ncreate table t (a int);\ninsert into t values (1);\n\
                  insert into t select * from t\n\\watch c=100\n";
    let e = error_of(script);
    assert_eq!(e.kind, ErrorKind::Limit);
    // 1 + 1 + 2 + 4 + … + 4096 = 8192 rows by the 13th copy.
    assert!(e.message.contains("8192 rows"), "{}", e.message);
    assert_eq!((e.line, e.column), (4, 1));
}

#[test]
fn a_nested_loop_without_an_index_stops_at_max_rows_inner_rows() {
    // 300 × 300 rows read by the inner side, over max_rows = 20 000: refused
    // (two 100 000-row tables would read 10^10 and never finish). With no
    // equality to hash on, the join can only be a nested loop.
    let e = error_of(
        "set max_rows = 20000;\n\
         create table a (id int, x int);\n\
         create table b (id int, x int);\n\
         insert into a select g, g from generate_series(1, 300) g;\n\
         insert into b select g, g from generate_series(1, 300) g;\n\
         select a.id from a join b on a.x <= b.x - 200;",
    );
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("max_rows=20000"), "{}", e.message);
    assert_eq!(e.line, 6);
    // Within the budget the same kind of join runs (10 000 inner rows read).
    let ok = run_pg(
        "set max_rows = 20000;\n\
         create table a (id int, x int);\n\
         create table b (id int, x int);\n\
         insert into a select g, g from generate_series(1, 100) g;\n\
         insert into b select g, g from generate_series(1, 100) g;\n\
         select a.id from a join b on a.x <= b.x;",
        &[],
    )
    .0;
    assert!(ok.error.is_none(), "{:?}", ok.error);
    assert_eq!(ok.statements.last().unwrap().outcome.row_count, 5050);
}

/// A correlated subquery (or LATERAL item) reruns its scans for every outer
/// row: the rows those runs read are bounded by max_rows too.
#[test]
fn a_correlated_subquery_stops_at_max_rows_rows_read() {
    let script = "create table t (id int);\ninsert into t select generate_series(1, 200);\n\
                  create table u (tid int);\ninsert into u select generate_series(1, 300);\n\
                  set max_rows = 20000;\n\
                  select count(*) from t where exists (select 1 from u where u.tid = t.id + 1000);";
    let e = error_of(script);
    assert_eq!(e.line, 6);
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("max_rows=20000"), "{}", e.message);
}
