//! `pg_column_size()`: a stored column's datum (a short varlena has a 1-byte
//! header) against a computed value's (4 bytes), fixed widths by type, an
//! untyped literal as a cstring; equal to PostgreSQL 15's answers for the
//! same script (psql 15's `-A -t` output after `@@` and each query's line).

use crate::psql;

const SCRIPT: &str = r#"create table t (i int, b bigint, s smallint, f float8, x text, v varchar(10), n numeric, d date, ts timestamptz, bo bool, u uuid, iv interval, nn numeric(10,2));
insert into t values (1, 2, 3, 1.5, 'abc', 'hello', 1.5, '2024-01-01', now(), true, gen_random_uuid(), '1 day', 12.34);
select pg_column_size(i), pg_column_size(b), pg_column_size(s), pg_column_size(f), pg_column_size(x), pg_column_size(v), pg_column_size(n), pg_column_size(d), pg_column_size(ts), pg_column_size(bo), pg_column_size(u), pg_column_size(iv), pg_column_size(nn) from t;
select pg_column_size(1), pg_column_size(1::bigint), pg_column_size('abc'), pg_column_size('abc'::text), pg_column_size(x || 'd'), pg_column_size(1.5), pg_column_size(n + 1), pg_column_size(null::int) from t;
select pg_column_size(repeat('x', 200)) from t;
select pg_column_size(n), pg_column_size(123456.789::numeric), pg_column_size(0::numeric) from t;"#;

const POSTGRES: &str = r#"@@3
4|8|2|8|4|6|7|4|8|1|16|16|7
@@4
4|8|4|7|8|10|10|
@@5
204
@@6
7|12|6"#;

#[test]
fn column_sizes_are_postgresqls() {
    psql::assert_rows(SCRIPT, POSTGRES);
}
