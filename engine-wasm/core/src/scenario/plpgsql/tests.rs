//! The parser's tree and errors, and the interpreter on both profiles. Each
//! expected message is PostgreSQL 15's for the same block, unless it says
//! "not supported by IndexLab".

use super::head::is_do;
use super::parse::{parse_do, placeholders};
use super::tree::*;
use crate::scenario::{run_pg, run_yb, Report};
use crate::sql::error::{ErrorKind, Position};

fn parse(sql: &str) -> DoBlock {
    parse_do(sql, "yb").unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The error parsing `sql` on `profile`, and the column it is placed at
/// (the statements are one line).
fn parse_error(sql: &str, profile: &str) -> (String, u32) {
    let e = parse_do(sql, profile).expect_err(sql);
    let at = e.at.unwrap_or(Position::new(0, 0));
    assert_eq!(at.line, 1, "{sql}: {e}");
    (e.message.clone(), at.column)
}

/// The column of the first `word` in `sql`.
fn column_of(sql: &str, word: &str) -> u32 {
    sql.find(word).expect(word) as u32 + 1
}

#[test]
fn do_is_recognized_after_comments_and_never_inside_a_word() {
    assert!(is_do("do $$ begin end $$"));
    assert!(is_do("  -- c\n/* d */ DO $$ begin end $$"));
    assert!(!is_do("double_it()"));
    assert!(!is_do("select 1"));
}

#[test]
fn the_published_loop_is_one_integer_for_with_a_perform() {
    let b = parse(
        "do $$ begin for i in 1..50000 loop\n perform a from demo where a=42;\n end loop; end; $$",
    );
    let [Stmt {
        kind: StmtKind::Loop(l),
        ..
    }] = &b.body.body[..]
    else {
        panic!("{:?}", b.body.body)
    };
    let LoopKind::Integer { var, reverse, .. } = &l.kind else {
        panic!("{:?}", l.kind)
    };
    assert!(!reverse);
    assert_eq!(b.vars[*var].name, "i");
    let [Stmt {
        kind: StmtKind::Sql(SqlStmt::Perform(q)),
        ..
    }] = &l.body[..]
    else {
        panic!("{:?}", l.body)
    };
    // `a` is a column, not a variable: nothing to bind.
    assert!(q.vars.is_empty());
    assert_eq!(b.queries, 1);
}

#[test]
fn variables_resolve_to_the_innermost_declaration() {
    let b = parse(
        "do $$ declare n int := 0; i text; begin for i in 1..3 loop \
         insert into t values (i, n); end loop; end $$",
    );
    let StmtKind::Loop(l) = &b.body.body[0].kind else {
        panic!()
    };
    let LoopKind::Integer { var, .. } = l.kind else {
        panic!()
    };
    let StmtKind::Sql(SqlStmt::Run(q)) = &l.body[0].kind else {
        panic!()
    };
    // The loop's own integer `i`, not the block's text `i`.
    let i = q.vars.iter().find(|(n, _)| n == "i").unwrap().1;
    assert_eq!(i, var);
    assert_eq!(b.vars[i].ty, crate::value::SqlType::Int4);
    assert!(q.vars.iter().any(|(n, _)| n == "n"));
}

#[test]
fn expressions_on_values_are_simple_and_queries_are_run() {
    let b = parse("do $$ declare n int; begin n := n + 1; n := count(*) from t; end $$");
    let kinds: Vec<bool> = b
        .body
        .body
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Assign { value, .. } => matches!(value, PlExpr::Simple(_)),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(kinds, [true, false]);
}

#[test]
fn a_body_in_single_quotes_places_errors_past_its_doubled_quotes() {
    let sql = "do 'begin raise notice ''x''; lop; end'";
    let (message, column) = parse_error(sql, "yb");
    assert_eq!(message, "syntax error at or near \"lop\"");
    assert_eq!(column, column_of(sql, "lop"));
}

#[test]
fn syntax_errors_say_where() {
    let sql = "do $$ begin for i in 1..3 loop insert into t values (i, i); end lop; end $$";
    let (message, column) = parse_error(sql, "yb");
    assert_eq!(message, "syntax error at or near \"lop\"");
    assert_eq!(column, column_of(sql, "lop"));
    let sql = "do $$ begin for i in 1..3 lop insert into t values (i, i); end loop; end $$";
    let (message, column) = parse_error(sql, "yb");
    assert_eq!(message, "missing \"LOOP\" at end of SQL expression");
    assert_eq!(column, column_of(sql, ";"));
    let (message, _) = parse_error("do $$ begin $$", "yb");
    assert_eq!(message, "syntax error at end of input");
    let sql = "do $$ begin undefined_thing; end $$";
    assert_eq!(
        parse_error(sql, "yb"),
        (
            "syntax error at or near \"undefined_thing\"".to_string(),
            column_of(sql, "undefined")
        )
    );
}

#[test]
fn postgresql_s_compile_errors() {
    for (sql, message, word) in [
        (
            "do $$ begin exit; end $$",
            "EXIT cannot be used outside a loop, unless it has a label",
            "exit",
        ),
        (
            "do $$ begin continue; end $$",
            "CONTINUE cannot be used outside a loop",
            "continue",
        ),
        (
            "do $$ begin exit nosuch; end $$",
            "there is no label \"nosuch\" attached to any block or loop enclosing this statement",
            "nosuch",
        ),
        (
            "do $$ <<b>> begin for i in 1..2 loop continue b; end loop; end $$",
            "block label \"b\" cannot be used in CONTINUE",
            "b;",
        ),
        (
            "do $$ declare x int; x int; begin end $$",
            "duplicate declaration at or near \"x\"",
            "x int; b",
        ),
        (
            "do $$ declare x constant int := 1; begin x := 2; end $$",
            "variable \"x\" is declared CONSTANT",
            "x := 2",
        ),
        (
            "do $$ declare x int not null; begin end $$",
            "variable \"x\" must have a default value, since it's declared NOT NULL",
            "x int",
        ),
        (
            "do $$ begin x := 1; end $$",
            "\"x\" is not a known variable",
            "x :=",
        ),
        (
            "do $$ declare n int; begin select 1 into nosuch; end $$",
            "\"nosuch\" is not a known variable",
            "nosuch",
        ),
        (
            "do $$ <<a>> begin end b $$",
            "end label \"b\" differs from block's label \"a\"",
            "b $$",
        ),
        (
            "do $$ begin raise notice 'x % %', 1; end $$",
            "too few parameters specified for RAISE",
            "raise",
        ),
        (
            "do $$ begin raise notice 'x', 1; end $$",
            "too many parameters specified for RAISE",
            "raise",
        ),
        (
            "do $$ begin select 1; end $$",
            "query has no destination for result data",
            "select",
        ),
        (
            "do $$ begin vacuum t; end $$",
            "VACUUM cannot be executed from a function",
            "vacuum",
        ),
        (
            "do $$ begin return 1; end $$",
            "RETURN cannot have a parameter in function returning void",
            "1;",
        ),
    ] {
        assert_eq!(
            parse_error(sql, "yb"),
            (message.to_string(), column_of(sql, word)),
            "{sql}"
        );
    }
}

#[test]
fn constructs_outside_the_subset_are_refused_by_name_at_their_word() {
    for (sql, what, word) in [
        (
            "do $$ declare n int; begin execute 'select $1' into n using 1; end $$",
            "EXECUTE … USING (parameters of dynamic SQL)",
            "execute",
        ),
        (
            "do $$ begin null; exception when others then null; end $$",
            "an EXCEPTION section",
            "exception",
        ),
        (
            "do $$ begin return query select 1; end $$",
            "RETURN QUERY",
            "return",
        ),
        (
            "do $$ declare r record; begin end $$",
            "a record variable",
            "record",
        ),
        (
            "do $$ declare c cursor for select 1; begin end $$",
            "a cursor",
            "cursor",
        ),
        ("do $$ begin open c; end $$", "a cursor", "open"),
        (
            "do $$ begin foreach x in array '{1}' loop end loop; end $$",
            "FOREACH",
            "foreach",
        ),
        (
            "do $$ begin for r in select 1 loop end loop; end $$",
            "FOR over a query's rows",
            "for",
        ),
        (
            "do $$ begin commit; end $$",
            "COMMIT inside a DO block",
            "commit",
        ),
        (
            "do $$ begin get diagnostics n = row_count; end $$",
            "GET DIAGNOSTICS",
            "get",
        ),
        ("do $$ declare x t%rowtype; begin end $$", "%ROWTYPE", "%"),
        (
            "do $$ begin raise notice 'x' using hint = 'h'; end $$",
            "RAISE … USING",
            "using",
        ),
        (
            "do $$ begin end $$ language plpython3u",
            "language plpython3u",
            "plpython3u",
        ),
    ] {
        let e = parse_do(sql, "yb").expect_err(sql);
        assert_eq!(e.kind, ErrorKind::Unsupported, "{sql}: {e}");
        assert!(e.message.contains(what), "{sql}: {e}");
        assert!(
            e.message.ends_with("is not supported by IndexLab"),
            "{sql}: {e}"
        );
        assert_eq!(e.at.map(|p| p.column), Some(column_of(sql, word)), "{sql}");
    }
}

#[test]
fn update_and_delete_are_refused_on_pg_and_run_on_yb() {
    let sql = "do $$ begin insert into t values (1); update t set a = 2; end $$";
    let e = parse_do(sql, "pg").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        e.message
            .starts_with("UPDATE inside a DO block is not supported by IndexLab on the pg profile"),
        "{e}"
    );
    assert!(e.message.contains("one transaction"), "{e}");
    assert_eq!(e.at.map(|p| p.column), Some(column_of(sql, "update")));
    assert!(parse_do("do $$ begin delete from t; end $$", "pg").is_err());
    assert!(parse_do(sql, "yb").is_ok());
}

#[test]
fn nesting_is_bounded() {
    let deep = format!(
        "do $$ {} null; {} $$",
        "begin ".repeat(super::parse::MAX_NESTING + 1),
        "end; ".repeat(super::parse::MAX_NESTING + 1)
    );
    let e = parse_do(&deep, "yb").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
}

#[test]
fn raise_counts_its_placeholders() {
    assert_eq!(placeholders("a % b %% c %"), 2);
    assert_eq!(placeholders("100%%"), 0);
}

// --- The interpreter, through scenarios.

fn both(script: &str) -> [Report; 2] {
    [run_pg(script, &[]).0, run_yb(script, &[]).0]
}

fn notices(r: &Report, statement: usize) -> Vec<String> {
    r.statements[statement].outcome.notices.clone()
}

#[test]
fn loops_exit_and_continue_by_postgresql_s_rules() {
    let script = "do $$
declare i int := 0;
begin
  while i < 5 loop
    i := i + 1;
    continue when i = 2;
    exit when i = 4;
    raise notice 'while %', i;
  end loop;
  <<outer>> for a in 1..3 loop
    for b in reverse 3..1 by 2 loop
      continue outer when b = 1;
      raise notice 'for % %', a, b;
    end loop;
  end loop;
  loop
    i := i * 10;
    if i > 100 then exit; elsif i > 50 then raise notice 'elsif %', i; else null; end if;
  end loop;
  raise notice 'found % i %', found, i;
end $$;";
    for r in both(script) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(
            notices(&r, 0),
            [
                "while 1",
                "while 3",
                "for 1 3",
                "for 2 3",
                "for 3 3",
                "found t i 400"
            ],
            "{}",
            r.profile
        );
        assert_eq!(r.statements[0].outcome.tag, "DO");
    }
}

#[test]
fn select_into_and_found_as_postgresql_sets_them() {
    let script = "create table u (a int, b int);
insert into u values (1, 2);
do $$
declare n int := 5; m text;
begin
  select a, b into n, m from u;
  raise notice '% % %', n, m, found;
  select a into n from u where false;
  raise notice '% %', n, found;
  n := count(*) + 10 from u;
  raise notice '%', n;
  perform 1 from u where a = 42;
  raise notice '%', found;
end $$;";
    for r in both(script) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(
            notices(&r, 2),
            ["1 2 t", "<NULL> f", "11", "f"],
            "{}",
            r.profile
        );
    }
}

#[test]
fn runtime_errors_are_placed_at_their_statement() {
    let script = "do $$ declare x int; begin x := 2147483647; x := x + 1; end $$;";
    for r in both(script) {
        let e = r.error.expect("an error");
        assert_eq!(e.message, "integer out of range");
        assert_eq!((e.line, e.column), (1, column_of(script, "x := x")));
    }
    let block = "do $$ declare a int := 1; begin perform a from u; end $$;";
    for r in both(&format!("create table u (a int);\n{block}")) {
        let e = r.error.expect("an error");
        assert_eq!(e.message, "column reference \"a\" is ambiguous");
        // At the word, in the script.
        assert_eq!((e.line, e.column), (2, column_of(block, "a from")));
    }
    let script = "do $$ begin raise exception 'boom %', 1 + 1; end $$;";
    for r in both(script) {
        assert_eq!(r.error.expect("an error").message, "boom 2");
    }
}

#[test]
fn the_block_is_one_transaction_with_one_now() {
    let script = "create table t (id int, at timestamptz, c timestamptz);
do $$ begin
  insert into t values (1, now(), clock_timestamp());
  for i in 2..200 loop insert into t values (i, now(), clock_timestamp()); end loop;
end $$;
select count(distinct at), count(distinct c) > 1 from t;";
    for r in both(script) {
        assert_eq!(r.error, None, "{}", r.profile);
        let row = &r.statements[2].outcome.rows[0];
        assert_eq!(row[0].as_deref(), Some("1"), "{}", r.profile);
    }
}
