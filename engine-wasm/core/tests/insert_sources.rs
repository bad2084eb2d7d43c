//! Where an INSERT's rows come from: a WITH list before INSERT (its queries
//! seen by the INSERT's SELECT or VALUES), and subqueries inside VALUES,
//! each answered once before any row is written (PostgreSQL's InitPlans).
//! Expected rows: psql 15, `-A -t`, each query's rows after `@@` and its line.

use crate::psql;

const SCRIPT: &str = r#"create table o (c int, d text, q float);
with f(d1) as (values ('a'),('b')), c (d2) as (values ('x'),('y')) insert into o (c, d, q) select cu, d1 || ' ' || d2, 1 from f, c, generate_series(1, 3) cu, generate_series(1, 2);
with w as (select 5 v) insert into o (c) values ((select v from w));
with w as (select max(c) m from o) insert into o (c, d) select m + 1, 'next' from w returning c, d;
select c, d, count(*) from o group by c, d order by c, d;
insert into o (c, d) values ((select 5), 'five'), ((select max(c) from o) + 1, 'after'), ((select count(*) from o where d = 'next'), 'count');
select c, d from o where d in ('five', 'after', 'count') order by c;"#;

const POSTGRES: &str = r#"@@4
6|next
@@5
1|a x|2
1|a y|2
1|b x|2
1|b y|2
2|a x|2
2|a y|2
2|b x|2
2|b y|2
3|a x|2
3|a y|2
3|b x|2
3|b y|2
5||1
6|next|1
@@7
1|count
5|five
7|after
"#;

#[test]
fn with_before_insert_and_subqueries_in_values() {
    psql::assert_rows(SCRIPT, POSTGRES);
    psql::assert_rows_yb(SCRIPT, POSTGRES);
}
