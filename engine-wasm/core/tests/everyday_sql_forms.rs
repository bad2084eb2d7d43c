//! Everyday forms PostgreSQL reads as others: IS [NOT] DISTINCT FROM,
//! `= ANY (ARRAY[…])` and `<> ALL (ARRAY[…])`, generate_series() over
//! numerics (`1e4` is one) and with untyped bounds and steps, casts to text,
//! concat() and concat_ws(), left/right, position, split_part, TRIM and the
//! trims, initcap, chr, ascii, octet_length;
//! and the CHECKPOINT command. Rows equal PostgreSQL 15's for the same script
//! (psql 15's `-A -t` output after `@@` and each query's line).

use crate::psql;

const SCRIPT: &str = r#"create table t (id int primary key, a int, b text);
insert into t values (1, 1, 'x'), (2, null, 'y'), (3, 3, null);
select id from t where a is distinct from 1 order by id;
select id from t where a is not distinct from null order by id;
select id from t where b is distinct from 'y' order by id;
select id from t where id = any(array[1, 3]) order by id;
select id from t where a = any(array[1, null]) order by id;
select id from t where id <> all(array[1, 3]) order by id;
select null is distinct from null, 1 is distinct from null, 1 is not distinct from 1;
create table demo (id bigint generated always as identity primary key, a int, b text);
insert into demo (a, b) select n, 'x' from generate_series(1, 1e4) n;
select count(*), sum(a), max(a) from demo;
select * from generate_series(1, 2.5, 0.5);
select generate_series(10, 1e1, -3);
select count(*) from generate_series(1e0, 5);
select generate_series(5, 1, -1.5);
select generate_series('2024-01-01'::date, '2024-01-02', '12 hours');
select 1.5::float8::text, true::text, 1e-5::float8::text;
select concat('a', 1, null, true, 2.5), concat_ws('-', 'a', null, 'b', 3), concat_ws(null, 'a'), concat(null);
select pg_column_size(1), pg_column_size(concat('ab', 'c'));
select left('abcde', 2), left('abcde', -2), right('abcde', 2), right('abcde', -2), left('ab', 5);
select position('b' in 'abc'), position('z' in 'abc'), position('' in 'abc'), strpos('hello', 'l');
select split_part('a,b,c', ',', 2), split_part('a,b,c', ',', -1), split_part('a,b,c', ',', 5), split_part('abc', '', 1);
select trim(' x '), '[' || ltrim('  x ') || ']', '[' || rtrim(' x  ') || ']', trim(both 'x' from 'xxaxx'), trim(leading 'x' from 'xxaxx'), trim(trailing 'x' from 'xxaxx'), btrim('xyaxy', 'xy');
select initcap('hELLO wORLD-x1y foo_bar'), chr(65), ascii('A'), ascii(''), octet_length('abc'), char_length('abc');"#;

const POSTGRES: &str = r#"@@3
2
3
@@4
2
@@5
1
3
@@6
1
3
@@7
1
@@8
2
@@9
f|t|t
@@12
10000|50005000|10000
@@13
1
1.5
2.0
2.5
@@14
10
@@15
5
@@16
5
3.5
2.0
@@17
2024-01-01 00:00:00+00
2024-01-01 12:00:00+00
2024-01-02 00:00:00+00
@@18
1.5|true|1e-05
@@19
a1t2.5|a-b-3||
@@20
4|7
@@21
ab|abc|de|cde|ab
@@22
2|0|1|3
@@23
b|c||abc
@@24
x|[x ]|[ x]|a|axx|xxa|a
@@25
Hello World-X1y Foo_Bar|A|65|0|3|3"#;

#[test]
fn everyday_forms_return_postgresqls_rows() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

#[test]
fn checkpoint_writes_the_dirty_buffers_back() {
    let (r, errors) = psql::run(&format!("{SCRIPT}\ncheckpoint;"));
    assert!(errors.is_empty(), "{errors:?}");
    let last = r.statements.last().unwrap();
    assert_eq!(last.outcome.tag, "CHECKPOINT");
    // The load left dirty pages; the checkpoint wrote them.
    assert!(
        last.metrics.get("shared_written") > 0.0,
        "{:?}",
        last.metrics
    );
}

#[test]
fn split_part_refuses_field_zero_as_postgresql_does() {
    let (_, errors) = psql::run("select split_part('a,b', ',', 0);");
    assert_eq!(errors, ["field position must not be zero"]);
}
