use super::*;

fn split(text: &str) -> Vec<ScriptItem> {
    split_script(text).unwrap_or_else(|e| panic!("{e}"))
}

fn statements(text: &str) -> Vec<Statement> {
    split(text)
        .into_iter()
        .filter_map(|i| match i {
            ScriptItem::Statement(s) => Some(s),
            ScriptItem::Meta(_) => None,
        })
        .collect()
}

/// (sql, runs) of each statement.
fn runs(text: &str) -> Vec<(String, u32)> {
    statements(text)
        .into_iter()
        .map(|s| (s.sql, s.runs))
        .collect()
}

fn sqls(text: &str) -> Vec<String> {
    statements(text).into_iter().map(|s| s.sql).collect()
}

fn error(text: &str) -> ScriptError {
    split_script(text).expect_err("an error")
}

fn watch_of(s: &Statement) -> Watch {
    match s.trigger {
        Trigger::Watch(w) => w,
        other => panic!("not a watch: {other:?}"),
    }
}

const ARTICLE_000: &str = "create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,10000)
\\watch c=100 i=0.01
";

#[test]
fn article_000_watch_runs_the_unterminated_insert_100_times() {
    let s = statements(ARTICLE_000);
    assert_eq!(s.len(), 3);
    assert_eq!((s[0].runs, s[0].trigger), (1, Trigger::Semicolon));
    assert_eq!(
        s[2].sql,
        "insert into demo(value) select clock_timestamp() from generate_series(1,10000)"
    );
    assert_eq!(s[2].runs, 100);
    assert_eq!(s[2].at, Position::new(3, 1));
    let w = watch_of(&s[2]);
    assert_eq!((w.count, w.interval_secs, w.recalled), (100, 0.01, false));
    assert_eq!(w.at, Position::new(4, 1));
}

#[test]
fn article_000_multi_line_form() {
    let text = "create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) 
 select clock_timestamp() from generate_series(1,10000)
\\watch c=100 i=0.01
";
    let s = statements(text);
    assert_eq!(s.len(), 3);
    assert_eq!(
        s[2].sql,
        "insert into demo(value) \n select clock_timestamp() from generate_series(1,10000)"
    );
    assert_eq!((s[2].runs, watch_of(&s[2]).at), (100, Position::new(5, 1)));
}

#[test]
fn article_004_watch_count_with_a_number() {
    let text =
        "create table demo (n bigint);\ncreate index nonconcurrently on demo(n)\n\\watch count=3\n";
    assert_eq!(
        runs(text),
        [
            ("create table demo (n bigint)".into(), 1),
            ("create index nonconcurrently on demo(n)".into(), 3)
        ]
    );
}

#[test]
fn article_004_shell_variable_is_psqls_error_at_the_option() {
    let e = error("create table demo (n bigint);\ncreate index nonconcurrently on demo(n)\n\\watch count=$i\n");
    assert_eq!(
        e.to_string(),
        "line 3, column 8: \\watch: incorrect iteration count \"$i\""
    );
}

#[test]
fn semicolon_then_watch_runs_once_then_count_more_times() {
    let s = statements("insert into t values (1);\n\\watch c=3\n");
    assert_eq!(s.iter().map(|s| s.runs).collect::<Vec<_>>(), [1, 3]);
    assert_eq!(s[1].sql, s[0].sql);
    assert_eq!(s[1].at, Position::new(1, 1));
    assert!(watch_of(&s[1]).recalled);
}

#[test]
fn a_watched_buffer_does_not_become_the_previous_statement() {
    let text = "select 1;\nselect 2\n\\watch c=2\n\\watch c=3\n";
    assert_eq!(
        runs(text),
        [
            ("select 1".into(), 1),
            ("select 2".into(), 2),
            ("select 1".into(), 3)
        ]
    );
}

#[test]
fn watch_without_count_is_refused_with_a_suggestion() {
    // The query runs once (psql sends it), then the \watch is refused where it stands.
    let (sql, meta) = refused("select 1;\n  \\watch 0.5\n");
    assert_eq!(sql, ["select 1"]);
    assert_eq!(meta.1, Position::new(2, 3));
    assert!(meta.0.contains("c=N"), "{}", meta.0);
    assert!(refused("select 1;\n\\watch\n").1 .0.contains("c=10"));
}

/// The statements before a refused meta-command, and its message and place.
fn refused(text: &str) -> (Vec<String>, (String, Position)) {
    let mut sql = Vec::new();
    for item in split(text) {
        match item {
            ScriptItem::Statement(s) => sql.push(s.sql),
            ScriptItem::Meta(Meta {
                command: MetaCommand::Unsupported(m),
                at,
            }) => return (sql, (m, at)),
            ScriptItem::Meta(_) => {}
        }
    }
    panic!("nothing refused in {text:?}")
}

#[test]
fn watch_with_nothing_to_run_is_psqls_error() {
    let e = error("\\watch c=2");
    assert_eq!(
        e.to_string(),
        "line 1, column 1: \\watch cannot be used with an empty query"
    );
    // An empty statement sent with `;` becomes the previous one, as in psql.
    assert!(error("select 1;\n;\n\\watch c=2")
        .message
        .contains("empty query"));
    assert!(error("/* only a comment */\n\\watch c=2")
        .message
        .contains("empty query"));
}

#[test]
fn watch_may_follow_sql_on_the_same_line() {
    assert_eq!(
        runs("select 1 \\watch c=2\nselect 2;"),
        [("select 1".into(), 2), ("select 2".into(), 1)]
    );
}

#[test]
fn semicolons_inside_quotes_and_comments_do_not_split() {
    let text = "select 'a;b', 'it''s;', E'x\\';y', \"c;d\" -- e;f\n from t; \
                select $$g;h$$, $fn$ ; $$ ; $fn$, $1; \
                select /* i; /* nested; */ j; */ 2;";
    assert_eq!(
        sqls(text),
        [
            "select 'a;b', 'it''s;', E'x\\';y', \"c;d\" -- e;f\n from t",
            "select $$g;h$$, $fn$ ; $$ ; $fn$, $1",
            "select /* i; /* nested; */ j; */ 2",
        ]
    );
}

#[test]
fn a_plain_string_keeps_backslashes_literal() {
    // standard_conforming_strings: the backslash does not escape the quote.
    assert_eq!(
        sqls("select 'a\\'; select 2;"),
        ["select 'a\\'", "select 2"]
    );
    // …but a word ending in e is not an E prefix.
    assert_eq!(
        sqls("select some'a\\'; select 2;"),
        ["select some'a\\'", "select 2"]
    );
}

#[test]
fn semicolons_inside_parentheses_do_not_split() {
    assert_eq!(
        sqls("select (1;\n2); select 3;"),
        ["select (1;\n2)", "select 3"]
    );
}

#[test]
fn leading_whitespace_and_line_comments_are_dropped_but_hints_stay() {
    let s = statements("\n  -- setup\n  /*+ SeqScan(t) */ select * from t ; -- trailing\n");
    assert_eq!(s[0].sql, "/*+ SeqScan(t) */ select * from t");
    assert_eq!(s[0].at, Position::new(3, 3));
    let s = statements("explain (costs off) /*+ nestloop(a b) */\nselect 1;");
    assert_eq!(
        s[0].sql,
        "explain (costs off) /*+ nestloop(a b) */\nselect 1"
    );
}

#[test]
fn trailing_text_without_semicolon_runs_at_the_end() {
    let s = statements("select 1;\nselect 2\n");
    assert_eq!(s[1].sql, "select 2");
    assert_eq!(s[1].trigger, Trigger::EndOfScript);
    // Only comments and whitespace left: nothing to run.
    assert_eq!(sqls("select 1;\n-- bye\n/* end */\n").len(), 1);
}

#[test]
fn empty_input_and_empty_statements_give_nothing() {
    assert!(split("").is_empty());
    assert!(split(" \n\t\n").is_empty());
    assert!(split(";;\n;").is_empty());
}

#[test]
fn unterminated_constructs_point_at_their_start() {
    let e = error("select 1;\nselect 2;\n    'abc");
    assert_eq!(
        e.to_string(),
        "line 3, column 5: unterminated quoted string"
    );
    let e = error("select \"abc");
    assert_eq!(
        (e.message.as_str(), e.line, e.column),
        ("unterminated quoted identifier", 1, 8)
    );
    let e = error("select 1 /* a /* b */");
    assert_eq!(
        (e.message.as_str(), e.column),
        ("unterminated /* comment", 10)
    );
    let e = error("do $x$ begin end $y$;");
    assert_eq!(
        (e.message.as_str(), e.column),
        ("unterminated dollar-quoted string", 4)
    );
    let e = error("select E'\\';");
    assert_eq!(e.column, 9);
    let e = error("select (1;\nselect 2;");
    assert_eq!((e.line, e.column), (1, 8));
    assert!(e.message.starts_with("unclosed parenthesis"));
}

#[test]
fn unknown_meta_commands_are_named() {
    // psql runs what comes before an unknown command, and names it when reached.
    let (sql, (message, at)) = refused("select 1;\n\\i ybwr.sql\n");
    assert_eq!(sql, ["select 1"]);
    assert_eq!(at, Position::new(2, 1));
    assert!(
        message.starts_with("the meta-command \\i is not supported by IndexLab"),
        "{message}"
    );
    assert!(refused("\\! curl -s x").1 .0.contains("\\!"));
    assert!(refused("\\WATCH c=1").1 .0.contains("\\WATCH"));
    assert!(refused("\\ x").1 .0.starts_with("invalid command \\"));
}

#[test]
fn other_meta_commands() {
    let items = split("\\flush\n\\flush Demo\n\\compact \"My T\"\n\\checkpoint\n\\echo 'a  b' c\n");
    let commands: Vec<(MetaCommand, Position)> = items
        .into_iter()
        .map(|i| match i {
            ScriptItem::Meta(m) => (m.command, m.at),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        commands,
        [
            (MetaCommand::Flush(None), Position::new(1, 1)),
            (MetaCommand::Flush(Some("demo".into())), Position::new(2, 1)),
            (
                MetaCommand::Compact(Some("My T".into())),
                Position::new(3, 1)
            ),
            (MetaCommand::Checkpoint, Position::new(4, 1)),
            (MetaCommand::Echo("a  b c".into()), Position::new(5, 1)),
        ]
    );
}

#[test]
fn meta_command_argument_errors() {
    let e = error("\\checkpoint now");
    assert_eq!(
        (e.message.as_str(), e.column),
        ("\\checkpoint: extra argument \"now\"", 13)
    );
    assert_eq!(error("\\flush a b").column, 10);
}

#[test]
fn the_query_buffer_survives_other_meta_commands() {
    let items = split("insert into t\n\\flush\nvalues (1);");
    assert!(matches!(
        items[0],
        ScriptItem::Meta(Meta {
            command: MetaCommand::Flush(None),
            ..
        })
    ));
    let ScriptItem::Statement(s) = &items[1] else {
        panic!("{items:?}")
    };
    assert_eq!(s.sql, "insert into t\nvalues (1)");
    assert_eq!(s.at, Position::new(1, 1));
    let values = s.sql.find("values").unwrap();
    assert_eq!(s.position_at(values), Position::new(3, 1));
    assert_eq!(s.position_at(7), Position::new(1, 8));
    assert_eq!(
        s.script_position(Position::new(2, 3)),
        Some(Position::new(3, 3))
    );
    assert_eq!(s.script_position(Position::new(9, 1)), None);
}

#[test]
fn separator_and_escaped_semicolon() {
    let items = split("\\echo hi \\\\ select 1;\nselect 2\\; select 3;\n\\echo a \\echo b");
    assert_eq!(items.len(), 5);
    assert_eq!(
        items[0],
        ScriptItem::Meta(Meta {
            command: MetaCommand::Echo("hi".into()),
            at: Position::new(1, 1)
        })
    );
    assert_eq!(sqls("\\echo hi \\\\ select 1;"), ["select 1"]);
    assert_eq!(sqls("select 2\\; select 3;"), ["select 2; select 3"]);
    let ScriptItem::Meta(m) = &items[4] else {
        panic!()
    };
    assert_eq!(
        (m.command.clone(), m.at),
        (MetaCommand::Echo("b".into()), Position::new(3, 9))
    );
}

#[test]
fn windows_line_endings() {
    let s = statements("select 1;\r\nselect 2\r\n\\watch c=2\r\n");
    assert_eq!(s[1].sql, "select 2");
    assert_eq!((s[1].runs, s[1].at), (2, Position::new(2, 1)));
}

#[test]
fn positions_count_characters_not_bytes() {
    let s = statements("select 'é'; select 2;");
    assert_eq!(s[1].at, Position::new(1, 13));
}

#[test]
fn script_errors_convert_to_sql_errors() {
    let e: SqlError = error("'").into();
    assert_eq!(e.kind, ErrorKind::Script);
    assert_eq!(e.at, Some(Position::new(1, 1)));
}

#[test]
fn statements_built_by_hand_map_positions_too() {
    let s = Statement::new("select\n  1", Position::new(4, 3));
    assert_eq!((s.runs, s.trigger), (1, Trigger::Semicolon));
    assert_eq!(s.position_at(9), Position::new(5, 3));
    assert_eq!(ScriptItem::Statement(s).at(), Position::new(4, 3));
}

#[test]
fn runs_in_all_are_bounded_at_the_watch_that_goes_over() {
    // Each \watch is within its own limit; together they are not.
    let text = "select 1;\n\\watch c=6000\n\\echo x\n  \\watch c=5000\n";
    let e = error(text);
    assert_eq!(e.position(), Position::new(4, 3));
    assert!(
        e.message.contains("11002 times") && e.message.contains("limit of 10000"),
        "{}",
        e.message
    );
    assert_eq!(split("select 1;\n\\watch c=9999\n").len(), 2);
}

#[test]
fn a_script_of_many_statements_is_bounded_too() {
    let e = error(&"select 1;\n".repeat(10_001));
    assert_eq!(e.position(), Position::new(10_001, 1));
}
