//! Subqueries in FROM, WITH queries of any shape (read as subqueries), joined
//! with tables or each other, and
//! ORDER BY a position past `*`: each query's rows equal PostgreSQL 15's for
//! the same script (psql 15's `-A -t` output, each query's rows after `@@`
//! and its line).

use crate::psql;

const SCRIPT: &str = r#"create table t (id int primary key, k int, v text);
insert into t select i, i % 4, 'v' || (i % 3) from generate_series(1, 20) i;
select count(*) from (select distinct k from t) x;
select avg(n) from (select k, count(*) n from t group by k) s;
select * from (select k, count(*) as n from t group by k) s where n > 4 order by k;
select s.a, s.b from (select id, k from t where id < 4) as s(a, b) order by 1 desc;
select * from (select id from t) sub order by id desc limit 3;
select x from (select 1 as x union all select 2) u order by x;
select * from generate_series(1,3) order by 1 desc;
select g from generate_series(1,5) g where g > 2 order by g desc limit 2;
select max(m) from (select k, max(id) m from t group by k) q where q.k > 1;
with g as (select k, count(*) n from t group by k) select * from g where n > 4 order by k;
with a as (select id, k from t where id < 10), b as (select k, max(id) m from a group by k) select * from b order by k;
with ids as (select id from t order by id desc limit 3) select count(*) from ids;
select * from t order by 3, 1 limit 4;
create table u (k int, label text);
insert into u values (0, 'zero'), (1, 'one'), (2, 'two');
with c as (select k, count(*) n from t group by k) select u.label, c.n from u join c using (k) order by 1;
select u.label, s.m from u left join (select k, max(id) m from t group by k) s on s.k = u.k order by 1;
select * from (select k from t where id < 4) a join (select k, label from u) b on a.k = b.k order by 1;
with c as (select k, count(*) n from t group by k) select t.id, c.n from t join c on c.k = t.k where t.id < 6 order by 1;
select count(*) from t, (select 1 as one) x;"#;

const POSTGRES: &str = r#"@@3
4
@@4
5.0000000000000000
@@5
0|5
1|5
2|5
3|5
@@6
3|3
2|2
1|1
@@7
20
19
18
@@8
1
2
@@9
3
2
1
@@10
5
4
@@11
19
@@12
0|5
1|5
2|5
3|5
@@13
0|8
1|9
2|6
3|7
@@14
3
@@15
3|3|v0
6|2|v0
9|1|v0
12|0|v0
@@18
one|5
two|5
zero|5
@@19
one|17
two|18
zero|20
@@20
1|1|one
2|2|two
@@21
1|5
2|5
3|5
4|5
5|5
@@22
20"#;

#[test]
fn derived_tables_return_postgresqls_rows() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

#[test]
fn a_subquery_in_from_needs_a_name_as_in_postgresql_15() {
    let (_, errors) = psql::run("select * from (select 1);");
    assert_eq!(errors, ["subquery in FROM must have an alias"]);
}

/// A WITH query is visible inside the subqueries of the query's
/// expressions, and inside a later WITH query's (a CTE named like a table
/// reads the table in its own body). Expected rows: psql 15, `-A -t`.
#[test]
fn with_queries_are_seen_by_subqueries_in_expressions() {
    psql::assert_rows(
        "create table demo (id int, value int);
insert into demo select g, g * 10 from generate_series(1, 20) g;
with ids as (select id from demo where value < 100 order by value desc limit 5), d as (select * from demo where demo.id between (select min(id) from ids) and (select max(id) from ids) order by value desc limit 5) select * from ids join d using (id) order by value desc limit 5;
with a as (select 3 as x) select id from demo where id < (select x from a);
with a as (select 3 as x), b as (select id from demo where id < (select x from a)) select * from b;",
        "@@3
9|90
8|80
7|70
6|60
5|50
@@4
1
2
@@5
1
2
",
    );
}

/// `WITH name(a, b) AS (…)` and `FROM (VALUES …) AS v(a, b)` rename the
/// columns they give; VALUES in FROM names them column1, column2, …; a
/// subquery in FROM sees the query's WITH queries. Expected rows: psql 15,
/// `-A -t`.
#[test]
fn with_and_values_column_lists_rename_as_in_postgresql() {
    psql::assert_rows(
        "create table demo (id int primary key, value int);
insert into demo select g, g * 10 from generate_series(1, 20) g;
with my_values(value) as (values (30), (50), (70)) select id from demo where value in (select value from my_values) order by id;
with t(a, b) as (select 1 as b, 2 as a) select a, b from t;
with t(a) as (select 1 as b, 2 as c) select * from t;
select * from (values (1, 'x'), (2, 'y')) as v(n, s) order by n desc;
select * from (values (3), (1)) v order by 1;
select column2 from (values (1, 'x'), (2, 'y')) v where column1 = 2;
with t(x) as (values (1), (2)), u(y) as (select x * 10 from t) select y from u order by y;
select v.k, d.value from (values (2), (4)) as v(k) join demo d on d.id = v.k order by 1;
with t as (select 1 x) select * from (select * from t) s;
with t as (select 1 x) select * from (select 2 y) s join (select * from t) r on true;",
        "@@3
3
5
7
@@4
1|2
@@5
1|2
@@6
2|y
1|x
@@7
1
3
@@8
y
@@9
10
20
@@10
2|20
4|40
@@11
1
@@12
2|1
",
    );
}

#[test]
fn a_column_list_longer_than_the_query_is_refused_as_postgresql_does() {
    let (_, errors) = psql::run(
        "with t(a, b, c) as (select 1, 2) select * from t;
select * from (values (1)) v(a, b);",
    );
    assert_eq!(
        errors,
        [
            "WITH query \"t\" has 2 columns available but 3 columns specified",
            "table \"v\" has 1 columns available but 2 columns specified"
        ]
    );
}
