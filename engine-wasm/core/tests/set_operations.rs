//! UNION, INTERSECT and EXCEPT [ALL] on both profiles: each answer is
//! PostgreSQL 15's for the same script (checked with psql), rows sorted by
//! the test where the query has no ORDER BY (PostgreSQL's order then is its
//! hash table's).

use crate::common;

use crate::psql;

use common::{both, error, rows};
use indexlab_engine::scenario::{run_pg, run_yb, Report};

const TABLES: &str = "create table t (a int, b bigint, c text);
insert into t values (1, 10, 'x'), (2, 20, 'y'), (2, 20, 'y'), (null, null, null), (null, null, null), (3, 30, 'z');
create table u (a int, b smallint, c varchar(3), d float8);
insert into u values (2, 20, 'y', 1.5), (3, 31, 'z', 2), (null, null, null, null), (4, 40, 'w', 3);
create index on u (a);\n";

/// Statement `i`'s rows, sorted (for a query without ORDER BY).
fn sorted(r: &Report, i: usize) -> Vec<Vec<String>> {
    let mut v = rows(r, i);
    v.sort();
    v
}

fn column(r: &Report, i: usize) -> Vec<String> {
    rows(r, i)
        .into_iter()
        .map(|mut row| row.remove(0))
        .collect()
}

#[test]
fn each_operation_counts_rows_as_postgresql_does() {
    let script = format!(
        "{TABLES}select a from t union select a from u;
select a from t union all select a from u;
select a from t intersect select a from u;
select a from t intersect all select a from u;
select a from t except select a from u;
select a from t except all select a from u;
select a, c from t except all select a, c from u;
select a from t union distinct select a from u;\n"
    );
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        // NULLs are equal to each other here (as for DISTINCT).
        assert_eq!(sorted(&r, 5), [["1"], ["2"], ["3"], ["4"], ["NULL"]]);
        assert_eq!(r.statements[6].outcome.row_count, 10, "{}", r.profile);
        assert_eq!(sorted(&r, 7), [["2"], ["3"], ["NULL"]], "{}", r.profile);
        // min(2, 1) twos, min(2, 1) NULLs.
        assert_eq!(sorted(&r, 8), [["2"], ["3"], ["NULL"]], "{}", r.profile);
        assert_eq!(sorted(&r, 9), [["1"]], "{}", r.profile);
        // 2 − 1 twos and 2 − 1 NULLs are left.
        assert_eq!(sorted(&r, 10), [["1"], ["2"], ["NULL"]], "{}", r.profile);
        assert_eq!(
            sorted(&r, 11),
            [["1", "x"], ["2", "y"], ["NULL", "NULL"]],
            "{}",
            r.profile
        );
        assert_eq!(sorted(&r, 12), sorted(&r, 5), "{}", r.profile);
    }
}

#[test]
fn intersect_binds_tighter_and_parentheses_group() {
    let script = format!(
        "{TABLES}select 1 union select 2 intersect select 2 order by 1;
(select 1 union select 2) intersect select 2;
select 1 except select 2 union select 3 order by 1;
select 1 union select 1 intersect select 2 order by 1;
select 1 union all select 1 except all select 1;
select 2 intersect select 2 union all select 3 intersect select 3 order by 1;
(select a from t order by a limit 2) union all (select a from u order by a desc limit 1) order by 1;
select a from t union (select a from u order by a limit 1) order by 1;
select a from t union all select a from u union select 5 order by a;\n"
    );
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(column(&r, 5), ["1", "2"], "{}", r.profile);
        assert_eq!(column(&r, 6), ["2"], "{}", r.profile);
        assert_eq!(column(&r, 7), ["1", "3"], "{}", r.profile);
        assert_eq!(column(&r, 8), ["1"], "{}", r.profile);
        assert_eq!(column(&r, 9), ["1"], "{}", r.profile);
        assert_eq!(column(&r, 10), ["2", "3"], "{}", r.profile);
        // Each parenthesized branch keeps its own ORDER BY and LIMIT.
        assert_eq!(column(&r, 11), ["1", "2", "NULL"], "{}", r.profile);
        assert_eq!(column(&r, 12), ["1", "2", "3", "NULL"], "{}", r.profile);
        assert_eq!(
            column(&r, 13),
            ["1", "2", "3", "4", "5", "NULL"],
            "{}",
            r.profile
        );
    }
}

#[test]
fn order_by_limit_and_offset_apply_to_the_whole_result() {
    let script = format!(
        "{TABLES}select a as x from t union select b from u order by x limit 2 offset 1;
select a x, b y from t union select a, b from u order by y desc, x limit 3;
select b from t union all select b from u order by 1 desc nulls last;
select c from t union select c from u order by c desc;
select 1 as k union select 2 order by k offset 1;
select a from t union select a from u order by a desc limit all;
select a from t union select a from u limit 2;\n"
    );
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        // The first branch names the columns.
        assert_eq!(r.statements[5].outcome.columns, ["x"], "{}", r.profile);
        assert_eq!(column(&r, 5), ["2", "3"], "{}", r.profile);
        assert_eq!(r.statements[6].outcome.columns, ["x", "y"]);
        assert_eq!(
            rows(&r, 6),
            [["NULL", "NULL"], ["4", "40"], ["3", "31"]],
            "{}",
            r.profile
        );
        assert_eq!(
            column(&r, 7),
            ["40", "31", "30", "20", "20", "20", "10", "NULL", "NULL", "NULL"]
        );
        assert_eq!(column(&r, 8), ["NULL", "z", "y", "x", "w"], "{}", r.profile);
        assert_eq!(column(&r, 9), ["2"], "{}", r.profile);
        assert_eq!(column(&r, 10), ["NULL", "4", "3", "2", "1"]);
        assert_eq!(r.statements[11].outcome.row_count, 2, "{}", r.profile);
    }
}

#[test]
fn types_resolve_as_postgresql_resolves_them() {
    let script = format!(
        "{TABLES}select a from t union select d from u order by 1;
select '1' union select 2 order by 1;
select null union select 2 order by 1;
select 'a' union select 'b' order by 1;
select c from t union all select 'q' order by 1;
values (1), (2) union select 3 order by 1;
select true union select false order by 1;
create table w as select a, b from t union select a, b from u;
\\d w\n"
    );
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        // integer and double precision make double precision.
        assert_eq!(column(&r, 5), ["1", "1.5", "2", "3", "NULL"]);
        // An untyped literal takes the other side's type: integer order.
        assert_eq!(column(&r, 6), ["1", "2"], "{}", r.profile);
        assert_eq!(column(&r, 7), ["2", "NULL"], "{}", r.profile);
        assert_eq!(column(&r, 8), ["a", "b"], "{}", r.profile);
        assert_eq!(
            column(&r, 9),
            ["q", "x", "y", "y", "z", "NULL", "NULL"],
            "{}",
            r.profile
        );
        assert_eq!(r.statements[10].outcome.columns, ["column1"]);
        assert_eq!(column(&r, 10), ["1", "2", "3"], "{}", r.profile);
        assert_eq!(column(&r, 11), ["f", "t"], "{}", r.profile);
        // integer with integer, bigint with smallint: bigint.
        let types: Vec<String> = rows(&r, 13).into_iter().map(|c| c[1].clone()).collect();
        assert_eq!(types, ["integer", "bigint"], "{}", r.profile);
    }
}

#[test]
fn mismatches_are_postgresqls_errors() {
    for (query, message) in [
        (
            "select a from t union select c from t",
            "UNION types integer and text cannot be matched",
        ),
        (
            "select a from t union select c from u",
            "UNION types integer and character varying cannot be matched",
        ),
        (
            "select c from u union select c from t union select a from t",
            "UNION types character varying and integer cannot be matched",
        ),
        (
            "select 'a' union select 'b' union select 1",
            "UNION types text and integer cannot be matched",
        ),
        (
            "select true union select 1",
            "UNION types boolean and integer cannot be matched",
        ),
        (
            "select a from t union select a, b from u",
            "each UNION query must have the same number of columns",
        ),
        (
            "select a from t intersect select a, b from u",
            "each INTERSECT query must have the same number of columns",
        ),
        (
            "select 1 union select 'a'",
            "invalid input syntax for type integer: \"a\"",
        ),
        (
            "select a from t union select a from u order by a + 1",
            "invalid UNION/INTERSECT/EXCEPT ORDER BY clause",
        ),
        (
            "select a from t union select a from u order by t.a",
            "missing FROM-clause entry for table \"t\"",
        ),
        (
            "select a from t union select a from u order by b",
            "column \"b\" does not exist",
        ),
        (
            "select a from t union select a from u order by 3",
            "ORDER BY position 3 is not in select list",
        ),
        (
            "select a, a from t union select 1, 2 order by a",
            "ORDER BY \"a\" is ambiguous",
        ),
        (
            "select (select a from u union select 4)",
            "more than one row returned by a subquery used as an expression",
        ),
    ] {
        for r in both(&format!("{TABLES}{query};\n")) {
            assert_eq!(error(&r), message, "{query} on {}", r.profile);
            assert_eq!(r.statements.len(), 5, "{query}: it ran nothing");
        }
    }
}

#[test]
fn subqueries_with_clauses_and_insert_select_combine_branches() {
    let script = format!(
        "{TABLES}select * from t where a in (select a from u union select 1);
select count(*) from t where a in (select a from t intersect all select a from u);
select (select a from u where a = 4 union select 4) as z;
with x as (select * from t where a > 1) select a from x union select a from u order by 1;
prepare p(int) as select a from t where a = $1 union select $1 + 100 order by 1;
execute p(2);
insert into t select a, b, c from u union select 9, 9, 'n';
select count(*), count(distinct a) from t;\n"
    );
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(
            sorted(&r, 5),
            [
                ["1", "10", "x"],
                ["2", "20", "y"],
                ["2", "20", "y"],
                ["3", "30", "z"]
            ]
        );
        assert_eq!(column(&r, 6), ["3"], "{}", r.profile);
        assert_eq!(r.statements[7].outcome.columns, ["z"]);
        assert_eq!(column(&r, 7), ["4"], "{}", r.profile);
        assert_eq!(column(&r, 8), ["2", "3", "4", "NULL"], "{}", r.profile);
        assert_eq!(column(&r, 10), ["2", "102"], "{}", r.profile);
        assert_eq!(r.statements[11].outcome.tag, "INSERT 0 5");
        assert_eq!(rows(&r, 12), [["11", "5"]], "{}", r.profile);
    }
}

#[test]
fn a_with_query_holding_a_union_reads_as_a_subquery() {
    let script = format!(
        "{TABLES}with x as (select a from t union select a from u) select * from x order by a;\n\
         select a from t union select a from u order by a;\n"
    );
    for r in both(&script) {
        let n = r.statements.len();
        assert!(r.error.is_none(), "{}: {:?}", r.profile, r.error);
        assert_eq!(
            r.statements[n - 2].outcome.rows,
            r.statements[n - 1].outcome.rows,
            "{}",
            r.profile
        );
        assert!(!r.statements[n - 1].outcome.rows.is_empty());
    }
}

#[test]
fn what_indexlab_does_not_model_is_refused_by_name() {
    for (query, what) in [
        (
            "explain select a from t union select a from u",
            "EXPLAIN of a query with UNION, INTERSECT or EXCEPT",
        ),
        (
            "explain analyze select * from t where a in (select a from u union select 1)",
            "EXPLAIN of a query with UNION, INTERSECT or EXCEPT",
        ),
        (
            "select a into w from t union select a from u",
            "SELECT … INTO with UNION, INTERSECT or EXCEPT",
        ),
    ] {
        for r in both(&format!("{TABLES}{query};\n")) {
            let e = error(&r);
            assert!(
                e.contains(what) && e.contains("is not supported by IndexLab"),
                "{query} on {}: {e}",
                r.profile
            );
        }
    }
}

#[test]
fn each_branch_reads_storage_through_its_own_plan() {
    // The index on u serves the second branch; the rows come from storage.
    let script =
        format!("{TABLES}select a from t where a = 1 union all select a from u where a = 4;\n");
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(sorted(&r, 5), [["1"], ["4"]], "{}", r.profile);
    }
}

#[test]
fn branches_stay_within_max_rows() {
    let script = "set max_rows = 15;\ncreate table t (a int);\n\
                  insert into t select generate_series(1, 7);\n\
                  select a from t union select a from t;\n\
                  select a from t union all select a from t union all select a from t;\n";
    for r in both(script) {
        assert!(error(&r).contains("max_rows=15"), "{}", error(&r));
        // The two branches of 7 rows ran; the third took them over.
        assert_eq!(r.statements.len(), 4, "{}", r.profile);
        assert_eq!(r.statements[3].outcome.row_count, 7);
    }
}

#[test]
fn a_chain_at_the_depth_limit_fits_in_a_small_stack() {
    // `union select N` counts two levels of the depth limit: 450 branches
    // are a tree 449 deep, converted, typed and run without recursion.
    let chain: Vec<String> = (1..=450).map(|i| format!("select {i}")).collect();
    let chain = chain.join(" union ");
    let script = format!(
        "create table t (a int);\ninsert into t values (7), (451);\n\
         {chain};\nselect count(*) from t where a in ({chain});\n"
    );
    let [pg, yb] = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || [run_pg(&script, &[]).0, run_yb(&script, &[]).0])
        .unwrap()
        .join()
        .unwrap();
    for r in [pg, yb] {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(r.statements[2].outcome.row_count, 450, "{}", r.profile);
        assert_eq!(column(&r, 3), ["1"], "{}", r.profile);
    }
}

#[test]
fn branches_of_any_query_shape_and_do_blocks() {
    let script = format!(
        "{TABLES}select * from t join u using (a) union all select 1, 2, 'x', 3, 'y', 4 order by 1;
select x from generate_series(1, 3) x union select 5 order by 1;
do $$ declare n int; k int := 4; begin
  select count(*) into n from t where a in (select a from t union select a from u where a = k);
  raise notice 'n=%', n;
  select a into n from t where a = 1 union select k order by 1 desc limit 1;
  raise notice 'n=%', n;
  perform a from t union all select a from u;
  insert into u (a) select a from t except select a from u;
end $$;
select a from u order by 1;\n"
    );
    for r in both(&script) {
        assert_eq!(r.error, None, "{}", r.profile);
        // `*` over USING has the joined column once.
        assert_eq!(
            rows(&r, 5),
            [
                ["1", "2", "x", "3", "y", "4"],
                ["2", "20", "y", "20", "y", "1.5"],
                ["2", "20", "y", "20", "y", "1.5"],
                ["3", "30", "z", "31", "z", "2"]
            ],
            "{}",
            r.profile
        );
        assert_eq!(column(&r, 6), ["1", "2", "3", "5"], "{}", r.profile);
        assert_eq!(r.statements[7].outcome.notices, ["n=4", "n=4"]);
        assert_eq!(column(&r, 8), ["1", "2", "3", "4", "NULL"], "{}", r.profile);
    }
}

/// A set operation's column of type bpchar sorts without its trailing
/// blanks: `'x'` and `'x  '` tie on the first key, and the second decides.
/// Expected rows: psql 15, `-A -t`.
#[test]
fn a_bpchar_column_sorts_without_its_trailing_blanks() {
    psql::assert_rows(
        "create table t (c char(3));
insert into t values ('x'), (null);
select 'x' a, c from t union select 'x', 'x' order by 1, 2 desc nulls last;
select c, c from t union select 'x', c from t order by 1, 2 desc nulls last;",
        "@@3\nx|x  \nx|\n@@4\nx  |x  \nx|\n|\n",
    );
}
