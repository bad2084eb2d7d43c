//! Indexes on expressions (`CREATE INDEX … (lower(v))`, `((a + b))`): the
//! index stores the expression's value, a query naming the same expression
//! uses it, and PostgreSQL 15 never answers such a query index-only (the
//! plain column is not in the index). Each expected answer is PostgreSQL
//! 15's for the same script.

use crate::common;

use common::{both, error, explain_lines, rows};
use indexlab_engine::scenario::run_pg;

const TABLE: &str = "create table t (id int primary key, v text, a int, b int);
insert into t select i, 'V' || i, i % 100, i % 7 from generate_series(1, 10000) i;
create index on t (lower(v));
create index on t ((a + b));
create index t_u on t (upper(v)) include (a);
vacuum analyze t;\n";

#[test]
fn a_query_on_the_indexed_expression_uses_the_index_never_index_only() {
    let script = format!(
        "{TABLE}select relname, relpages, reltuples from pg_class where relname in ('t_lower_idx', 't_u') order by 1;
explain (costs off) select id from t where lower(v) = 'v42';
explain (costs off) select lower(v) from t where lower(v) = 'v42';
explain (costs off) select a from t where upper(v) = 'V42';
explain (costs off) select * from t where lower(v) > 'v99' order by lower(v) limit 3;
select * from t where lower(v) > 'v99' order by lower(v) limit 3;
select count(*) from t where a + b = 50;\n"
    );
    let r = run_pg(&script, &[]).0;
    assert_eq!(error(&r), "");
    assert_eq!(
        rows(&r, 6),
        [["t_lower_idx", "30", "10000"], ["t_u", "41", "10000"]]
    );
    let plan = |i: usize| explain_lines(&r.statements[i]).join("\n");
    for i in [7, 8] {
        assert_eq!(
            plan(i),
            "Index Scan using t_lower_idx on t\n  Index Cond: (lower(v) = 'v42'::text)"
        );
    }
    assert_eq!(
        plan(9),
        "Index Scan using t_u on t\n  Index Cond: (upper(v) = 'V42'::text)"
    );
    assert_eq!(
        plan(10),
        "Limit\n  ->  Index Scan using t_lower_idx on t\n        Index Cond: (lower(v) > 'v99'::text)"
    );
    assert_eq!(
        rows(&r, 11),
        [
            ["990", "V990", "90", "3"],
            ["9900", "V9900", "0", "2"],
            ["9901", "V9901", "1", "3"]
        ]
    );
    assert_eq!(rows(&r, 12), [["100"]]);
}

#[test]
fn an_update_moves_the_row_to_its_new_key_on_both_profiles() {
    let script = format!(
        "{TABLE}update t set v = 'X1' where id = 1;
select id from t where lower(v) = 'x1';
select id from t where lower(v) = 'v1';
\\d t_lower_idx\n"
    );
    for r in both(&script) {
        assert_eq!(error(&r), "");
        assert_eq!(rows(&r, 7), [["1"]]);
        assert!(rows(&r, 8).is_empty());
        assert_eq!(rows(&r, 9), [["lower", "text", "yes", "lower(v)"]]);
    }
}

#[test]
fn describe_names_and_prints_expression_keys_as_postgresql() {
    let r = run_pg(&format!("{TABLE}\\d t\n"), &[]).0;
    let text = r.statements[6].outcome.footers.join("\n");
    for line in [
        "\"t_expr_idx\" btree ((a + b))",
        "\"t_lower_idx\" btree (lower(v))",
        "\"t_u\" btree (upper(v)) INCLUDE (a)",
    ] {
        assert!(text.contains(line), "{text}");
    }
}

#[test]
fn an_expression_postgresql_refuses_is_refused_with_its_message() {
    for (key, expected) in [
        (
            "(now())",
            "functions in index expression must be marked IMMUTABLE",
        ),
        (
            "(random())",
            "functions in index expression must be marked IMMUTABLE",
        ),
        ("(lower(zz))", "column \"zz\" does not exist"),
    ] {
        let script =
            format!("create table t (id int primary key, v text);\ncreate index on t {key};\n");
        for r in both(&script) {
            assert_eq!(error(&r), expected, "{key}");
        }
    }
    // A constraint's key is a column, in PostgreSQL's grammar.
    let r = run_pg("create table t (v text, primary key (lower(v)));\n", &[]).0;
    assert!(error(&r).starts_with("syntax error"), "{}", error(&r));
}
