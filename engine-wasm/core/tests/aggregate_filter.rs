//! Aggregates with `FILTER (WHERE …)`: only the rows the condition holds
//! for feed the call, in every group. Expected rows: psql 15, `-A -t`.

use crate::psql;

const SCRIPT: &str = r"create table f (id int primary key, g int, v int, s text);
insert into f select i, i % 3, i, 's' || i from generate_series(1, 20) i;
insert into f values (21, null, null, null);
select count(*) filter (where v > 10), count(*), sum(v) filter (where g = 1), avg(v) filter (where s like 's1%') from f;
select g, count(*) filter (where v % 2 = 0) as even, max(v) filter (where v < 10), string_agg(s, ',' order by v desc) filter (where v > 15) from f group by g order by g nulls last;
select count(distinct g) filter (where v > 5) from f;
select count(*) filter (where v) from f;
select count(*) filter (where null) from f;
select lower(s) filter (where v > 1) from f;
select g from f group by g having count(*) filter (where v > 10) > 3 order by g;
select count(*) filter (where count(*) > 1) from f;
";

const POSTGRES: &str = r"@@4
10|21|70|13.2727272727272727
@@5
0|3|9|s18
1|3|7|s19,s16
2|4|8|s20,s17
|0||
@@6
3
@@8
0
@@10
2
";

#[test]
fn filtered_aggregates_answer_as_postgresql_does() {
    psql::assert_rows_after_errors(SCRIPT, POSTGRES);
    let (_, errors) = psql::run(SCRIPT);
    assert_eq!(
        errors,
        [
            "argument of FILTER must be type boolean, not type integer",
            "FILTER specified, but lower is not an aggregate function",
            "aggregate functions are not allowed in FILTER"
        ]
    );
}

#[test]
fn explain_prints_the_filter_in_the_aggregate() {
    let (r, errors) = psql::run(
        "create table f (v int);
explain (costs off, verbose) select count(*) filter (where v > 10) from f;",
    );
    assert!(errors.is_empty(), "{errors:?}");
    let plan = r.statements[1].outcome.explain.clone().unwrap();
    assert_eq!(
        plan[1], "  Output: count(*) FILTER (WHERE (v > 10))",
        "{plan:?}"
    );
}
