//! `WITH RECURSIVE`: the non-recursive term, then the recursive term over
//! the rows the last pass added, to a fixpoint (UNION drops the rows seen
//! before). Expected rows and errors: psql 15, `-A -t`.

use crate::psql;

const SCRIPT: &str = r"with recursive r(n) as (select 1 union all select n + 1 from r where n < 5) select sum(n), count(*) from r;
with recursive r as (select 1 as n union select n % 3 + 1 from r) select n from r order by n;
create table emp (id int primary key, boss int, name text);
insert into emp values (1, null, 'ceo'), (2, 1, 'cto'), (3, 1, 'cfo'), (4, 2, 'dev'), (5, 4, 'intern');
with recursive chain as (select id, boss, name, 1 as depth from emp where id = 5 union all select e.id, e.boss, e.name, c.depth + 1 from emp e join chain c on e.id = c.boss) select name, depth from chain order by depth;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3), u as (select n * 10 as m from t) select * from u order by m;
with recursive t(n) as (select n from t union all select 1) select * from t;
with recursive t(n) as (select 1 intersect select n from t) select * from t;
with recursive g as (select 1 as a, 'x'::text as s union all select a + 1, s || 'y' from g where a < 4) select * from g;
with r as (select 1) select * from r;
";

const POSTGRES: &str = r"@@1
15|5
@@2
1
2
3
@@5
intern|1
dev|2
cto|3
ceo|4
@@6
10
20
30
@@9
1|x
2|xy
3|xyy
4|xyyy
@@10
1
";

#[test]
fn recursive_queries_answer_as_postgresql_does() {
    psql::assert_rows_after_errors(SCRIPT, POSTGRES);
    let (_, errors) = psql::run(SCRIPT);
    assert_eq!(
        errors,
        [
            "recursive reference to query \"t\" must not appear within its non-recursive term",
            "recursive query \"t\" does not have the form non-recursive-term UNION [ALL] recursive-term"
        ]
    );
}

#[test]
fn a_recursion_that_never_ends_stops_with_a_clear_limit() {
    let (_, errors) = psql::run(
        "with recursive t(n) as (select 1 union all select n + 1 from t) select count(*) from t;",
    );
    assert_eq!(errors.len(), 1);
    // PostgreSQL would run until memory ran out; a page must not hang.
    assert!(
        errors[0].contains("still gives rows after 10000 passes"),
        "{errors:?}"
    );
}

#[test]
fn explain_of_a_recursive_query_is_refused_by_name() {
    let (_, errors) = psql::run(
        "explain with recursive r(n) as (select 1 union all select n + 1 from r where n < 5) select * from r;",
    );
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].contains("EXPLAIN of WITH RECURSIVE"),
        "{errors:?}"
    );
}
