//! PostgreSQL's exact `numeric` on both profiles. Every expected answer is
//! what psql 15 printed for the same statements.

use crate::common;

use common::{both, error, rows};
use indexlab_engine::scenario::run_pg;

fn one_row(sql: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for r in both(sql) {
        assert_eq!(r.error, None, "{sql}: {:?}", r.error);
        out.push(rows(&r, 0));
    }
    assert_eq!(out[0], out[1], "pg and yb differ on {sql}");
    out.remove(0)
}

#[test]
fn literals_and_arithmetic_print_with_postgresql_s_scales() {
    assert_eq!(
        one_row(
            "select 1/3.0, 10/4.0, 1.5*2.25, 2.50+1, 1e3, 1.5e-3, 0.5, -0.0, 100000000000000000000"
        ),
        [[
            "0.33333333333333333333",
            "2.5000000000000000",
            "3.375",
            "3.50",
            "1000",
            "0.0015",
            "0.5",
            "0.0",
            "100000000000000000000"
        ]]
    );
    assert_eq!(
        one_row("select 12345678901234567890123.45 * 1000, 0.000001 * 0.0000001, 1e-5, 1.0e10"),
        [[
            "12345678901234567890123450.00",
            "0.0000000000001",
            "0.00001",
            "10000000000"
        ]]
    );
    assert_eq!(
        one_row("select 1.0 = 1.00, 2 > 1.5, 1.5::float8 = 1.5, 'abc' || 1.50, 1.1 + 1::float8"),
        [["t", "t", "t", "abc1.50", "2.1"]]
    );
}

#[test]
fn functions_round_half_away_from_zero() {
    assert_eq!(
        one_row(
            "select round(2.5), round(-2.5), round(2.345, 2), round(1234.5, -2), trunc(2.789, 1), \
             ceil(-2.5), floor(-2.5), sign(-2.5), mod(7.5, 2), 7.5 % 2, -7.5 % 2"
        ),
        [["3", "-3", "2.35", "1200", "2.7", "-2", "-3", "-1", "1.5", "1.5", "-1.5"]]
    );
    // On an integer or a float8 the one-argument forms are float8's (rint).
    assert_eq!(
        one_row(
            "select round(5), floor(5.5::float8), trunc(-2.7::float8), sign(0.0), abs(-0.00), \
             round(2.5::float8), ceil(4)"
        ),
        [["5", "5", "-2", "0", "0.00", "2", "4"]]
    );
}

#[test]
fn casts_follow_numeric_c() {
    assert_eq!(
        one_row(
            "select 2.5::int, (-2.5)::int, 3.5::int, 1.5::float8, 0.1::float8::numeric, \
             (1/3.0::float8)::numeric, 1e20::float8::numeric, 1.50::numeric(10,1), 1.25::numeric(10,1)"
        ),
        [["3", "-3", "4", "1.5", "0.1", "0.333333333333333", "100000000000000000000", "1.5", "1.3"]]
    );
    assert_eq!(
        one_row("select '  12.50  '::numeric, '1e2'::numeric(5,1), '-0'::numeric, 1.23e-2::numeric(5,4)"),
        [["12.50", "100.0", "0", "0.0123"]]
    );
}

#[test]
fn errors_are_postgresql_s_and_refusals_are_named() {
    for (sql, message) in [
        (
            "select 123.45::numeric(4,2)",
            "numeric field overflow\nDETAIL:  A field with precision 4, scale 2 must round to an absolute value less than 10^2.",
        ),
        ("select 'abc'::numeric", "invalid input syntax for type numeric: \"abc\""),
        ("select 1 / 0.0", "division by zero"),
        ("select 5 % 0.0", "division by zero"),
        ("select 99999999999::numeric::int", "integer out of range"),
    ] {
        for r in both(sql) {
            assert_eq!(error(&r), message, "{sql}");
        }
    }
    let r = run_pg("select 'NaN'::numeric", &[]).0;
    assert!(
        error(&r).contains("is not supported by IndexLab"),
        "{}",
        error(&r)
    );
}

const TABLE: &str = "create table t (id int primary key, amount numeric(10,2), n numeric, f float8);
insert into t values (1, 1.5, 1.50, 0.5), (2, 2.345, -3, 1.25), (3, null, 100000000000000000000, 2), (4, 7, 0.001, null);\n";

#[test]
fn columns_store_with_their_typmod_and_aggregate_as_numeric() {
    let script = format!(
        "{TABLE}select * from t order by id;
select sum(amount), avg(amount), min(n), max(n), sum(n), avg(n), count(n) from t;
select id, amount * 1.1, n + id, f * amount, amount / 3 from t order by id;
create index on t (amount);
select amount from t where amount >= 2 order by amount;
select id from t where id > 1.5 order by id;
select avg(x), sum(x), avg(x::bigint), sum(x::bigint) from generate_series(1,4) x;
insert into t values (9, 123456789.123, 0, 0);\n"
    );
    for r in both(&script) {
        assert_eq!(
            rows(&r, 2),
            [
                ["1", "1.50", "1.50", "0.5"],
                ["2", "2.35", "-3", "1.25"],
                ["3", "NULL", "100000000000000000000", "2"],
                ["4", "7.00", "0.001", "NULL"]
            ]
        );
        assert_eq!(
            rows(&r, 3),
            [[
                "10.85",
                "3.6166666666666667",
                "-3",
                "100000000000000000000",
                "99999999999999999998.501",
                "24999999999999999999.625",
                "4"
            ]]
        );
        assert_eq!(
            rows(&r, 4),
            [
                ["1", "1.650", "2.50", "0.75", "0.50000000000000000000"],
                ["2", "2.585", "-1", "2.9375", "0.78333333333333333333"],
                ["3", "NULL", "100000000000000000003", "NULL", "NULL"],
                ["4", "7.700", "4.001", "NULL", "2.3333333333333333"]
            ]
        );
        assert_eq!(rows(&r, 6), [["2.35"], ["7.00"]]);
        // The integer index cannot serve `id > 1.5`: 2 is in, as in PostgreSQL.
        assert_eq!(rows(&r, 7), [["2"], ["3"], ["4"]]);
        assert_eq!(
            rows(&r, 8),
            [["2.5000000000000000", "10", "2.5000000000000000", "10"]]
        );
        assert_eq!(
            error(&r),
            "numeric field overflow\nDETAIL:  A field with precision 10, scale 2 must round to an absolute value less than 10^8."
        );
    }
}

#[test]
fn describe_and_create_table_as_keep_the_typmod() {
    let script = "create table s (id bigint primary key, p numeric(12,3) default 0.5, q numeric default -1.25, r int);
\\d s
create table c as select id, p, p * 2 as p2, round(q, 2) as rq, sum(r) as sr from s group by id, p, q;
\\d c
select 1 union select 1.5 order by 1;
select 1.50 union select 1.5;\n";
    let r = run_pg(script, &[]).0;
    assert_eq!(r.error, None, "{:?}", r.error);
    let types = |i: usize| -> Vec<(String, String)> {
        rows(&r, i)
            .into_iter()
            .map(|row| (row[1].clone(), row[4].clone()))
            .collect()
    };
    assert_eq!(
        types(1),
        [
            ("bigint".into(), "".into()),
            ("numeric(12,3)".into(), "0.5".into()),
            ("numeric".into(), "'-1.25'::numeric".into()),
            ("integer".into(), "".into())
        ]
    );
    let c: Vec<String> = types(3).into_iter().map(|(t, _)| t).collect();
    assert_eq!(
        c,
        ["bigint", "numeric(12,3)", "numeric", "numeric", "bigint"]
    );
    assert_eq!(rows(&r, 4), [["1"], ["1.5"]]);
    assert_eq!(rows(&r, 5), [["1.50"]]);
}

#[test]
fn numeric_rows_take_postgresql_s_bytes_on_a_page() {
    // psql 15: 229376 bytes of heap; the indexes on p and q 65536 and 81920.
    let script = "create table s (id bigint primary key, p numeric(12,3) default 0.5, q numeric default -1.25, r int);
insert into s (id, r) select g, g from generate_series(1, 2000) g;
update s set p = id * 1.005, q = id / 7.0;
select pg_relation_size('s');
create index s_p on s (p);
create index s_q on s (q desc);
select pg_relation_size('s_p'), pg_relation_size('s_q');
select count(*), sum(p), avg(p), min(q), max(q), sum(r), avg(r), sum(id), avg(id) from s;
select p, q from s where p between 10 and 12.5 order by p;\n";
    let r = run_pg(script, &[]).0;
    assert_eq!(r.error, None, "{:?}", r.error);
    assert_eq!(rows(&r, 3), [["229376"]]);
    assert_eq!(rows(&r, 6), [["65536", "81920"]]);
    assert_eq!(
        rows(&r, 7),
        [[
            "2000",
            "2011005.000",
            "1005.5025000000000000",
            "0.14285714285714285714",
            "285.7142857142857143",
            "2001000",
            "1000.5000000000000000",
            "2001000",
            "1000.5000000000000000"
        ]]
    );
    assert_eq!(
        rows(&r, 8),
        [
            ["10.050", "1.4285714285714286"],
            ["11.055", "1.5714285714285714"],
            ["12.060", "1.7142857142857143"]
        ]
    );
}

#[test]
fn coalesce_of_an_integer_and_a_numeric_is_a_numeric() {
    let script = "create table m (a int, b numeric(6,2));
insert into m values (3, null), (null, 2.50), (4, 1.25);
select coalesce(a, b) / 2, greatest(a, b, 1) from m order by 1;
select coalesce(a, b) as k, count(*) from m group by 1 order by 1;\n";
    for r in both(script) {
        assert_eq!(r.error, None, "{:?}", r.error);
        assert_eq!(
            rows(&r, 2),
            [
                ["1.25000000000000000000", "2.50"],
                ["1.5000000000000000", "3"],
                ["2.0000000000000000", "4"]
            ]
        );
        assert_eq!(rows(&r, 3), [["2.50", "1"], ["3", "1"], ["4", "1"]]);
    }
}

#[test]
fn index_bounds_meet_stored_values_of_another_scale() {
    // psql 15 gave these rows; yb's default index is hashed, so it gets a
    // numeric(p,s) column, where every stored value has the column's scale.
    let pg_script = "create table k (id int, p numeric(10,2), q numeric, primary key (p));
insert into k values (1, 2.5, 2.50), (2, 2.56, 2.5), (3, 3, 3.0), (4, -1.25, -1.250);
create index k_q on k (q);
create index k_pd on k (p desc);
select id from k where p = 2.5;
select id from k where p > 2.555 order by id;
select id from k where p < 1e20 order by id;
select id from k where p in (2.50, 3, 7.123) order by id;
select id, q from k where q = 2.5 order by id;
select id, q from k where q > 2.5 order by id;
select id from k where q in (3, -1.25) order by id;
select p from k where p between -2 and 2.9 order by p;\n";
    let r = run_pg(pg_script, &[]).0;
    assert_eq!(r.error, None, "{:?}", r.error);
    assert_eq!(rows(&r, 4), [["1"]]);
    assert_eq!(rows(&r, 5), [["2"], ["3"]]);
    assert_eq!(rows(&r, 6), [["1"], ["2"], ["3"], ["4"]]);
    assert_eq!(rows(&r, 7), [["1"], ["3"]]);
    assert_eq!(rows(&r, 8), [["1", "2.50"], ["2", "2.5"]]);
    assert_eq!(rows(&r, 9), [["3", "3.0"]]);
    assert_eq!(rows(&r, 10), [["3"], ["4"]]);
    assert_eq!(rows(&r, 11), [["-1.25"], ["2.50"], ["2.56"]]);
    let yb_script = pg_script.replace("q numeric,", "q numeric(10,3),");
    let r = common::run_yb_ok(&yb_script, &[]);
    assert_eq!(rows(&r, 4), [["1"]]);
    assert_eq!(rows(&r, 5), [["2"], ["3"]]);
    assert_eq!(rows(&r, 7), [["1"], ["3"]]);
    assert_eq!(rows(&r, 8), [["1", "2.500"], ["2", "2.500"]]);
    assert_eq!(rows(&r, 11), [["-1.25"], ["2.50"], ["2.56"]]);
    // On YugabyteDB a unique or hashed key on numeric without a typmod is
    // refused (its DocDB key keeps the scale).
    let r = indexlab_engine::scenario::run_yb("create table u (q numeric primary key)", &[]).0;
    assert!(
        error(&r).contains("is not supported by IndexLab"),
        "{}",
        error(&r)
    );
}

/// On pg a unique key of an unconstrained numeric compares values, not
/// their scales: `2.50` meets `2.5` (on insert, ON CONFLICT, CREATE UNIQUE
/// INDEX, ALTER TABLE … ADD UNIQUE). Expected: psql 15 on a fresh cluster.
#[test]
fn unique_numeric_keys_compare_values_whatever_their_scale() {
    let script = "create table n (id numeric primary key, v int);
insert into n values (2.5, 1);
insert into n values (2.50, 2);
insert into n values (2.500, 3) on conflict (id) do update set v = excluded.v;
select id, v from n;
insert into n values (1, 1), (1.0, 2);
create table m (a numeric, b int);
insert into m values (1.5, 1), (1.50, 1), (1.5, 2);
create unique index m_ab on m (a, b);
alter table m add constraint m_k unique (a, b);
delete from m where b = 1 and a::text = '1.50';
create unique index m_ab on m (a desc, b);
insert into m values (1.500, 2);
insert into m values (1.500, 3);
select a, b from m order by b, a::text;";
    let mut errors = Vec::new();
    let (report, _) = indexlab_engine::scenario::run_profile_continuing::<
        indexlab_engine::pg::PgEngine,
    >(script, &[], &mut |e| errors.push((e.line, e.message)));
    let first_lines: Vec<(u32, &str)> = errors
        .iter()
        .map(|(l, m)| (*l, m.lines().next().unwrap_or_default()))
        .collect();
    assert_eq!(
        first_lines,
        [
            (
                3,
                "duplicate key value violates unique constraint \"n_pkey\""
            ),
            (
                6,
                "duplicate key value violates unique constraint \"n_pkey\""
            ),
            (9, "could not create unique index \"m_ab\""),
            (10, "could not create unique index \"m_k\""),
            (
                13,
                "duplicate key value violates unique constraint \"m_ab\""
            ),
        ]
    );
    let at = |line: u32| {
        let i = report
            .statements
            .iter()
            .position(|s| s.line == line)
            .unwrap();
        report.statements[i].outcome.rows.clone()
    };
    let text = |rows: Vec<Vec<Option<String>>>| -> Vec<String> {
        rows.into_iter()
            .map(|r| {
                r.into_iter()
                    .map(Option::unwrap_or_default)
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect()
    };
    assert_eq!(text(at(5)), ["2.5|3"]);
    assert_eq!(text(at(15)), ["1.5|1", "1.5|2", "1.500|3"]);
}

#[test]
fn case_of_an_integer_and_a_numeric_is_a_numeric() {
    let rows_of = one_row(
        "select case when 1 > 2 then 2.5 else 1 end / 2, case when 1 < 2 then 3 else 0.5 end",
    );
    assert_eq!(rows_of, [["0.50000000000000000000", "3"]]);
}
