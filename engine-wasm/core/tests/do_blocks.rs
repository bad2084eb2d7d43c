//! `DO $$ … $$` blocks as published experiments write them, on both profiles:
//! loops that insert rows and time lookups, notices, the limits a block runs
//! within, and what is refused. Each answer is PostgreSQL 15's for the same
//! script, unless the message says "not supported by IndexLab".

use indexlab_engine::scenario::{run_pg, run_yb, Report};
use indexlab_engine::sql::error::ErrorKind;

fn both(script: &str) -> Vec<Report> {
    vec![run_pg(script, &[]).0, run_yb(script, &[]).0]
}

/// The column of `word` on line `line` of `script`.
fn column(script: &str, line: u32, word: &str) -> u32 {
    let text = script.lines().nth(line as usize - 1).unwrap();
    text.find(word).unwrap() as u32 + 1
}

fn cell(r: &Report, statement: usize) -> String {
    r.statements[statement].outcome.rows[0][0]
        .clone()
        .unwrap_or_else(|| "NULL".into())
}

#[test]
fn a_for_loop_inserts_its_rows_and_raises_a_notice() {
    let script = "create table t (id int primary key, v int);
do $$
 declare
  n int := 0;
 begin
  for i in 1..100 loop
   insert into t (id, v) values (i, i * 2);
   n := n + 1;
  end loop;
  raise notice 'inserted %', n;
 end;
$$;
select count(*), sum(v), max(id) from t;\n";
    for r in both(script) {
        assert_eq!(r.error, None, "{}", r.profile);
        // One item of the report, tagged DO, with the notice.
        assert_eq!(r.statements.len(), 3, "{}", r.profile);
        let block = &r.statements[1];
        assert_eq!(block.outcome.tag, "DO");
        assert_eq!(block.outcome.notices, ["inserted 100"], "{}", r.profile);
        assert_eq!((block.line, block.column), (2, 1));
        assert_eq!(
            r.statements[2].outcome.rows[0],
            [
                Some("100".to_string()),
                Some("10100".to_string()),
                Some("100".to_string())
            ],
            "{}",
            r.profile
        );
        // The inserts' storage work is the block's.
        assert!(block.virtual_ms > 0.0, "{}", r.profile);
        assert!(!block.metrics.is_empty(), "{}", r.profile);
    }
}

#[test]
fn a_perform_loop_does_the_work_of_its_lookups_in_one_item() {
    let script = "create table demo (a int primary key, b int, c int);
insert into demo select n, n, n from generate_series(1, 1000) n;
select a from demo where a=42;
do $$ begin for i in 1..1000 loop
 perform a from demo where a=42;
 end loop; end; $$;\n";
    for r in both(script) {
        assert_eq!(r.error, None, "{}", r.profile);
        let (one, block) = (&r.statements[2], &r.statements[3]);
        assert_eq!(block.outcome.tag, "DO");
        // PERFORM keeps no rows.
        assert!(block.outcome.rows.is_empty());
        // 1000 lookups: 1000 times one lookup's pages or read requests.
        let scaled: Vec<(&str, f64)> = one.metrics.iter().map(|(k, v)| (k, v * 1000.0)).collect();
        let block_metrics: Vec<(&str, f64)> = block.metrics.iter().collect();
        assert_eq!(block_metrics, scaled, "{}", r.profile);
        let ratio = block.virtual_ms / one.virtual_ms;
        assert!((ratio - 1000.0).abs() < 1.0, "{}: {ratio}", r.profile);
    }
}

#[test]
fn variables_enter_statements_as_values() {
    let script = "create table t (id int, label text, big bigint);
do $$
declare
  name text := 'x';
  big bigint := 3000000000;
begin
  for i in reverse 10..1 by 3 loop
    insert into t values (i, name || i, big * i);
    name := name || '!';
  end loop;
end $$;
select id, label, big from t order by id;\n";
    for r in both(script) {
        assert_eq!(r.error, None, "{}", r.profile);
        let rows: Vec<Vec<String>> = r.statements[2]
            .outcome
            .rows
            .iter()
            .map(|row| row.iter().map(|c| c.clone().unwrap_or_default()).collect())
            .collect();
        assert_eq!(
            rows,
            [
                ["1", "x!!!1", "3000000000"],
                ["4", "x!!4", "12000000000"],
                ["7", "x!7", "21000000000"],
                ["10", "x10", "30000000000"],
            ],
            "{}",
            r.profile
        );
    }
}

#[test]
fn a_runaway_loop_ends_at_the_block_s_limit() {
    let script = "do $$ declare n int := 0; begin loop n := n + 1; end loop; end $$;";
    for r in both(script) {
        let e = r.error.expect("a limit");
        assert_eq!(e.kind, ErrorKind::Limit, "{}", e.message);
        assert!(
            e.message.contains("1000000 statements and loop iterations"),
            "{}",
            e.message
        );
        assert!(e.hint.unwrap_or_default().contains("EXIT"));
    }
}

#[test]
fn a_block_s_rows_count_against_max_rows() {
    let script = "set max_rows = 100;
create table t (id int);
do $$ begin for i in 1..1000 loop insert into t values (i); end loop; end $$;";
    for r in both(script) {
        let e = r.error.expect("over max_rows");
        assert_eq!(e.kind, ErrorKind::Limit, "{}", e.message);
        assert!(e.message.contains("max_rows=100"), "{}", e.message);
        // Placed at the INSERT inside the block.
        assert_eq!((e.line, e.column), (3, column(script, 3, "insert")));
    }
}

#[test]
fn unsupported_constructs_are_named_where_they_are() {
    let script = "create table t (a int);
do $$
begin
  execute 'insert into t values ($1)' using 1;
end $$;";
    for r in both(script) {
        let e = r.error.expect("refused");
        assert_eq!(e.kind, ErrorKind::Unsupported);
        assert_eq!(
            e.message,
            "EXECUTE … USING (parameters of dynamic SQL) is not supported by IndexLab"
        );
        assert_eq!((e.line, e.column), (4, 3));
        // Refused before anything ran: the table is the only statement.
        assert_eq!(r.statements.len(), 1);
    }
}

#[test]
fn a_syntax_error_inside_the_block_says_where() {
    let script = "do $$ begin for i in 1..3 loop null; end lop; end $$;";
    for r in both(script) {
        let e = r.error.expect("a syntax error");
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert_eq!(e.message, "syntax error at or near \"lop\"");
        assert_eq!(e.column as usize, script.find("lop").unwrap() + 1);
    }
}

#[test]
fn update_and_delete_run_on_yb_and_are_refused_on_pg() {
    let script = "create table t (id int primary key, v int);
insert into t select i, 0 from generate_series(1, 10) i;
do $$ begin
  for i in 1..10 loop update t set v = v + i where id <= i; end loop;
  delete from t where id > 8;
end $$;
select sum(v), count(*) from t;";
    let yb = run_yb(script, &[]).0;
    assert_eq!(yb.error, None);
    // Row k gets every i >= k: 10 + 9 + … + k.
    let expected: i64 = (1..=8).map(|k: i64| (k..=10).sum::<i64>()).sum();
    assert_eq!(cell(&yb, 3), expected.to_string());
    let pg = run_pg(script, &[]).0;
    let e = pg.error.expect("refused on pg");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("not supported by IndexLab"));
    assert!(e.message.contains("one transaction"), "{}", e.message);
    assert_eq!((e.line, e.column), (4, column(script, 4, "update")));
}

#[test]
fn a_block_inside_begin_keeps_the_transaction_open() {
    let script = "create table t (at timestamptz);
begin;
insert into t values (now());
do $$ begin insert into t values (now()); end $$;
insert into t select now() from generate_series(1, 500);
commit;
select count(distinct at) from t;";
    for r in both(script) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(cell(&r, 6), "1", "{}", r.profile);
    }
}

#[test]
fn watch_runs_the_block_again() {
    let script = "create table t (id int);
do $$ begin insert into t values (1); end $$
\\watch c=3
select count(*) from t;";
    for r in both(script) {
        assert_eq!(r.error, None, "{}", r.profile);
        let runs: Vec<u32> = r.statements[1..4].iter().map(|s| s.run).collect();
        assert_eq!(runs, [1, 2, 3]);
        assert_eq!(cell(&r, 4), "3");
    }
}

/// Blocks nested as deep as IndexLab allows parse and run on a 1 MiB stack,
/// about what the page's wasm has (the limit itself is a unit test's).
#[test]
fn deep_nesting_fits_in_a_small_stack() {
    // With the block itself, one level under the limit (100).
    let levels = 49;
    let script = format!(
        "do $$ declare n int := 0; begin {} n := n + 1; {} raise notice '%', n; end $$;",
        "for i in 1..1 loop if true then ".repeat(levels),
        "end if; end loop; ".repeat(levels),
    );
    let blocks = format!(
        "do $$ declare n int := 0; begin {} n := n + 1; {} raise notice '%', n; end $$;",
        "declare m int := 1; begin ".repeat(levels * 2),
        "end; ".repeat(levels * 2),
    );
    let reports = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || [both(&script), both(&blocks)].concat())
        .unwrap()
        .join()
        .unwrap();
    for r in reports {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(r.statements[0].outcome.notices, ["1"]);
    }
}

/// EXECUTE runs the text it is given when it is reached, `INTO` takes its
/// first row (an EXPLAIN's plan too: FORMAT JSON is one document), and
/// tables made by EXECUTE are there after the block. Expected rows: psql 15.
#[test]
fn execute_runs_dynamic_sql_and_its_into_takes_the_first_row() {
    let script = "create table demo (id int primary key, val int);
insert into demo select g, g % 100 from generate_series(1, 1000) g;
create temporary table plans (val float, sql text, plan json);
do $$
 declare
  sql text;
  plan json;
  n int;
 begin
  for i in 1..3 loop
   sql=format('explain (format json) select * from demo where val < %s', i*10);
   execute sql into plan;
   insert into plans (val, sql, plan) values (i, sql, plan);
  end loop;
  execute 'select count(*) from demo' into n;
  raise notice 'n=%', n;
  for i in 1..2 loop
    execute format('create table t%s (id int)', i);
    execute format('insert into t%s values (%s)', i, i);
  end loop;
 end;
$$;
select val, plan->0->'Plan'->>'Node Type', sql from plans order by val;
select * from t1, t2;";
    // (YugabyteDB's EXPLAIN prints other JSON fields: pg only.)
    {
        let r = run_pg(script, &[]).0;
        let rows = |i: usize| -> Vec<Vec<String>> {
            r.statements[i]
                .outcome
                .rows
                .iter()
                .map(|row| row.iter().map(|c| c.clone().unwrap_or_default()).collect())
                .collect()
        };
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(r.statements[3].outcome.notices, ["n=1000"]);
        assert_eq!(
            rows(4),
            [1, 2, 3].map(|i| vec![
                i.to_string(),
                "Seq Scan".to_string(),
                format!(
                    "explain (format json) select * from demo where val < {}",
                    i * 10
                )
            ])
        );
        assert_eq!(rows(5), [["1", "2"]]);
    }
}

/// A block that fails is a transaction that fails: the rows it changed
/// before the error are gone, as in PostgreSQL (`count` is 0 in psql 15).
#[test]
fn a_failed_block_undoes_its_row_changes() {
    use indexlab_engine::pg::PgEngine;
    use indexlab_engine::scenario::run_profile_continuing;
    use indexlab_engine::yb::YbEngine;
    let script = "create table x (id int);
do $$ declare n int; begin insert into x values (1); execute 'select id from x union all select id from x' into strict n; end $$;
select count(*) from x;";
    let mut errors = Vec::new();
    let pg = run_profile_continuing::<PgEngine>(script, &[], &mut |e| errors.push(e.message)).0;
    let yb = run_profile_continuing::<YbEngine>(script, &[], &mut |e| errors.push(e.message)).0;
    assert_eq!(errors, ["query returned more than one row"; 2]);
    for r in [pg, yb] {
        let last = r.statements.last().unwrap();
        assert_eq!(last.outcome.rows, [[Some("0".to_string())]]);
    }
}
