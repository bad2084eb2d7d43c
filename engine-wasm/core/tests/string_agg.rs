//! `string_agg(text, delimiter)`: the group's values joined in the order
//! the rows come (sorted first with DISTINCT, as PostgreSQL sorts a
//! DISTINCT aggregate's input), NULLs skipped, NULL for no value; and
//! `E'…'` string constants with their escapes. Expected rows: psql 15,
//! `-A -t`, each query's rows after `@@` and its line.

use crate::psql;

const SCRIPT: &str = r#"create table t (id int primary key, k int, v text, c char(3));
insert into t select g, g % 3, 'v' || g, 'x' from generate_series(1, 10) g;
insert into t values (11, 1, null, null);
select k, string_agg(v, ',') from t group by k order by k;
select string_agg(v, ' | ') from t where id < 4;
select string_agg(v, null) from t where id < 4;
select string_agg(distinct k::text, '-') from t;
select string_agg(v, ',') from t where id > 100;
select id, (select string_agg(v, ',') from t t2 where t2.k = t.k and t2.id < t.id) from t order by id;
select length(string_agg(id::text, E'\n')), string_agg(id::text, E'\t') from t where id < 3;"#;

const POSTGRES: &str = "@@4
0|v3,v6,v9
1|v1,v4,v7,v10
2|v2,v5,v8
@@5
v1 | v2 | v3
@@6
v1v2v3
@@7
0-1-2
@@8

@@9
1|
2|
3|
4|v1
5|v2
6|v3
7|v1,v4
8|v2,v5
9|v3,v6
10|v1,v4,v7
11|v1,v4,v7,v10
@@10
3|1	2
";

#[test]
fn string_agg_joins_as_postgresql_does() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

#[test]
fn string_agg_of_no_text_is_postgresqls_error() {
    let (_, errors) = psql::run(
        "create table t (id int);\ninsert into t values (1);\nselect string_agg(id, ',') from t;",
    );
    assert_eq!(
        errors,
        ["function string_agg(integer, unknown) does not exist"]
    );
}

/// `ORDER BY` inside the call orders the values joined (a stable sort: equal
/// keys keep the rows' order); with DISTINCT its keys must be the argument.
/// Expected rows: psql 15, `-A -t`.
#[test]
fn order_by_inside_the_call_orders_the_values() {
    psql::assert_rows(
        "create table t (id int primary key, k int, v text);
insert into t select g, g % 3, 'v' || g from generate_series(1, 10) g;
insert into t values (11, null, 'w'), (12, 1, null);
select k, string_agg(v, ',' order by v) from t group by k order by k;
select string_agg(v, ',' order by id desc) from t;
select string_agg(v, ',' order by k nulls first, id desc) from t;
select string_agg(distinct v, ',' order by v desc) from t where id < 5;
select count(*), max(v order by v), string_agg(v, ';' order by length(v), v) from t;",
        "@@4
0|v3,v6,v9
1|v1,v10,v4,v7
2|v2,v5,v8
|w
@@5
w,v10,v9,v8,v7,v6,v5,v4,v3,v2,v1
@@6
w,v9,v6,v3,v10,v7,v4,v1,v8,v5,v2
@@7
v4,v3,v2,v1
@@8
12|w|w;v1;v2;v3;v4;v5;v6;v7;v8;v9;v10
",
    );
    let (_, errors) = psql::run(
        "create table t (id int, v text);\nselect string_agg(distinct v, ',' order by id) from t;",
    );
    assert_eq!(
        errors,
        ["in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list"]
    );
}
