//! Correlated subqueries (a subquery reading its query's own columns), in
//! the select list, WHERE and ORDER BY: run once per row of their query, as
//! PostgreSQL's SubPlans are, through a LATERAL item (`exec/subplan.rs`).
//! Each query's rows equal PostgreSQL 15's for the same script (psql 15's
//! `-A -t` output, each query's rows after `@@` and its line).

use crate::psql;

const SCRIPT: &str = r#"create table t (id int primary key, k int, v text);
insert into t select g, g % 3, 'v' || g from generate_series(1, 12) g;
create table u (id int primary key, tid int, amount int);
insert into u select g, g % 7, g * 10 from generate_series(1, 20) g;
select id, (select count(*) from u where u.tid = t.id) as n from t order by id;
select id from t where exists (select 1 from u where u.tid = t.id and u.amount > 100) order by id;
select id from t where not exists (select 1 from u where u.tid = t.id) order by id;
select id, k from t where k in (select tid from u where u.amount < t.id * 10) order by id;
select id from t where id not in (select tid from u where u.id < t.id) order by id;
select t.id, (select max(amount) from u where u.tid = t.k) m, (select min(id) from u where tid = t.id) from t where t.id < 5 order by 1;
select * from t where (select sum(amount) from u where tid = t.id) > 40 order by id;
select k, count(*) from t where exists (select 1 from u where u.tid = t.id) group by k order by k;
select id from t a where exists (select 1 from t b where b.k = a.k and b.id > a.id + 8) order by id;
select id, (select v from t t2 where t2.id = t.id + 1) from t order by id limit 4;
select count(*) from t where id in (select tid from u where amount > t.id);
select id, (select count(*) from u where tid = k) from t order by id;
select id, (select count(*) from u where u.id = t.id) from t order by id;
select id from t where exists (select 1 from u where tid = t.id and exists (select 1 from u u2 where u2.id = u.id + 7 and u2.tid = t.k)) order by id;
select id, exists (select 1 from u where tid = t.id) as has from t order by 2, 1 limit 5;
select * from t x where x.id = (select max(id) from t y where y.k = x.k) order by 1;
select t.id, s.c from t join (select tid, count(*) c from u group by tid) s on s.tid = t.id where exists (select 1 from u where u.tid = t.k) order by 1;
select id from t where k = 1 and (id > 10 or exists (select 1 from u where u.tid = t.id)) order by id;
select id, (select amount from u where u.id = t.id) * 2 as double from t where id <= 3 order by id;
select distinct k from t where exists (select 1 from u where u.tid = t.id) order by k;"#;

const POSTGRES: &str = r#"@@5
1|3
2|3
3|3
4|3
5|3
6|3
7|0
8|0
9|0
10|0
11|0
12|0
@@6
1
2
3
4
5
6
@@7
7
8
9
10
11
12
@@8
4|1
5|2
7|1
8|2
9|0
10|1
11|2
12|0
@@9
1
2
3
4
5
6
7
8
9
10
11
12
@@10
1|150|1
2|160|2
3|140|3
4|150|4
@@11
1|1|v1
2|2|v2
3|0|v3
4|1|v4
5|2|v5
6|0|v6
@@12
0|2
1|2
2|2
@@13
1
2
3
@@14
1|v2
2|v3
3|v4
4|v5
@@15
6
@@16
1|3
2|3
3|2
4|3
5|3
6|2
7|3
8|3
9|2
10|3
11|3
12|2
@@17
1|1
2|1
3|1
4|1
5|1
6|1
7|1
8|1
9|1
10|1
11|1
12|1
@@18
1
2
@@19
7|f
8|f
9|f
10|f
11|f
@@20
10|1|v10
11|2|v11
12|0|v12
@@21
1|3
2|3
3|3
4|3
5|3
6|3
@@22
1
4
@@23
1|20
2|40
3|60
@@24
0
1
2
"#;

#[test]
fn correlated_subqueries_return_postgresqls_rows() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

#[test]
fn a_scalar_subquery_of_two_rows_fails_as_in_postgresql() {
    let (_, errors) = psql::run(
        "create table t (id int);
insert into t values (1), (2);
create table u (tid int);
insert into u values (1), (1);
select id, (select tid from u where u.tid = t.id) from t;",
    );
    assert_eq!(
        errors,
        ["more than one row returned by a subquery used as an expression"]
    );
}

/// PostgreSQL plans them as SubPlans or semi-joins, which IndexLab does not
/// draw: EXPLAIN says so rather than print another plan.
#[test]
fn explain_of_a_correlated_subquery_is_refused_by_name() {
    let (_, errors) = psql::run(
        "create table t (id int);
create table u (tid int);
explain select id from t where exists (select 1 from u where u.tid = t.id);",
    );
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with("EXPLAIN of a query with a correlated subquery"),
        "{errors:?}"
    );
}

/// A correlated subquery may hold a UNION, INTERSECT or EXCEPT, each branch
/// reading the outer row. Expected rows: psql 15, `-A -t`.
#[test]
fn a_correlated_set_operation_reads_the_outer_row_in_each_branch() {
    psql::assert_rows(
        "create table t (a int, b bigint, c text);
insert into t values (1, 10, 'x'), (2, 20, 'y'), (2, 20, 'y'), (null, null, null), (null, null, null), (3, 30, 'z');
create table u (a int, b smallint, c varchar(3), d float8);
insert into u values (2, 20, 'y', 1.5), (3, 31, 'z', 2), (null, null, null, null), (4, 40, 'w', 3);
select * from t where exists (select 1 from u where u.a = t.a union select 2) order by a;
select a, (select count(*) from (select c from u where u.a >= t.a union all select c from u where u.a < t.a) s) from t order by a;
select a from t where a in (select a from u where u.b > t.b intersect select 3) order by a;",
        "@@5
1|10|x
2|20|y
2|20|y
3|30|z
||
||
@@6
1|3
2|3
2|3
3|3
|0
|0
@@7
3
",
    );
}

/// UPDATE and DELETE check a correlated WHERE on each row their scan keeps.
/// Expected rows: psql 15, `-A -t`.
#[test]
fn update_and_delete_check_a_correlated_where_per_row() {
    psql::assert_rows(
        "create table t (id int primary key, k int, v text);
insert into t select g, g % 3, 'v' || g from generate_series(1, 12) g;
create table u (id int primary key, tid int, amount int);
insert into u select g, g % 7, g * 10 from generate_series(1, 20) g;
delete from t where exists (select 1 from u where u.tid = t.id and u.amount > 150);
select id from t order by id;
update t set v = 'x' where id in (select tid from u where u.amount > t.id * 20) and k > 0;
delete from t where k = 2 and not exists (select 1 from u where u.tid = t.k) returning id;
delete from u where amount > (select count(*) * 30 from t where t.k = u.tid);
select count(*) from u;
select id, v from t order by id;",
        "@@6
1
7
8
9
10
11
12
@@10
3
@@11
1|x
7|v7
8|v8
9|v9
10|v10
11|v11
12|v12
",
    );
}

/// UPDATE's SET may read a subquery: a correlated one runs per row, an
/// uncorrelated one once. Expected rows: psql 15, `-A -t`.
#[test]
fn update_set_reads_a_subquery_per_row_or_once() {
    psql::assert_rows(
        "create table t (id int primary key, k int, v text);
insert into t select g, g % 3, 'v' || g from generate_series(1, 12) g;
create table u (id int primary key, tid int, amount int);
insert into u select g, g % 7, g * 10 from generate_series(1, 20) g;
update t set v = (select max(amount)::text from u where u.tid = t.id) where id < 5;
update t set k = (select count(*) from u where u.tid = t.k), v = v || '!' where id > 9;
select id, k, v from t order by id;
update t set v = (select max(amount)::text from u);
select id, v from t order by id limit 2;",
        "@@7
1|1|150
2|2|160
3|0|170
4|1|180
5|2|v5
6|0|v6
7|1|v7
8|2|v8
9|0|v9
10|3|v10!
11|3|v11!
12|2|v12!
@@9
1|200
2|200
",
    );
}
