//! `date`, `timestamp` (without time zone) and `interval`: input, output,
//! casts, operators, functions, index keys and sizes on both profiles. Every
//! expected answer is psql 15's for the same statements (TimeZone UTC,
//! DateStyle ISO, IntervalStyle postgres).

use crate::common;

use common::{both, error, explain_lines, explains, rows};
use indexlab_engine::scenario::run_pg;

const TABLE: &str = "create table ev (id int primary key, d date, ts timestamp, span interval);
insert into ev values (1, '2016-01-01', '2016-01-01 10:00:00', '1 day'),
 (2, DATE '2016-03-05', TIMESTAMP '2016-03-05 23:59:59.5', interval '2 hours'),
 (3, '2015-12-31', '2015-12-31', '-1 mon'), (4, null, null, null),
 (5, '0044-03-15 BC', '1999-12-31 23:59:59.999999', '1 year 2 mons 3 days 04:05:06.789');\n";

#[test]
fn values_read_and_print_as_postgresql_does() {
    for r in both(&format!("{TABLE}select * from ev order by d, id;\n")) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(
            rows(&r, 2),
            [
                [
                    "5",
                    "0044-03-15 BC",
                    "1999-12-31 23:59:59.999999",
                    "1 year 2 mons 3 days 04:05:06.789"
                ],
                ["3", "2015-12-31", "2015-12-31 00:00:00", "-1 mons"],
                ["1", "2016-01-01", "2016-01-01 10:00:00", "1 day"],
                ["2", "2016-03-05", "2016-03-05 23:59:59.5", "02:00:00"],
                ["4", "NULL", "NULL", "NULL"],
            ],
            "{}",
            r.profile
        );
    }
}

#[test]
fn operators_follow_the_calendar() {
    let q = "select id, d + 1, d - date '2016-01-01', d + interval '1 month', \
             ts - interval '36 hours', ts - d, span * 2, span / 4, -span from ev order by id;\n";
    for r in both(&format!("{TABLE}{q}")) {
        assert_eq!(r.error, None, "{}", r.profile);
        let got = rows(&r, 2);
        assert_eq!(
            got[0],
            [
                "1",
                "2016-01-02",
                "0",
                "2016-02-01 00:00:00",
                "2015-12-30 22:00:00",
                "10:00:00",
                "2 days",
                "06:00:00",
                "-1 days"
            ]
        );
        assert_eq!(
            got[2],
            [
                "3",
                "2016-01-01",
                "-1",
                "2016-01-31 00:00:00",
                "2015-12-29 12:00:00",
                "00:00:00",
                "-2 mons",
                "-7 days -12:00:00",
                "1 mon"
            ]
        );
        assert_eq!(
            got[4],
            [
                "5",
                "0044-03-16 BC",
                "-751961",
                "0044-04-15 00:00:00 BC",
                "1999-12-30 11:59:59.999999",
                "746116 days 23:59:59.999999",
                "2 years 4 mons 6 days 08:10:13.578",
                "3 mons 15 days 19:01:16.69725",
                "-1 years -2 mons -3 days -04:05:06.789"
            ]
        );
    }
}

#[test]
fn extract_date_part_and_date_trunc() {
    let q = "select id, extract(year from d), extract(month from ts), extract(dow from d), \
             date_part('epoch', ts), date_part('second', ts), date_trunc('month', ts), \
             date_trunc('week', d) from ev order by id;\n";
    for r in both(&format!("{TABLE}{q}")) {
        assert_eq!(r.error, None, "{}", r.profile);
        let got = rows(&r, 2);
        assert_eq!(
            got[1],
            [
                "2",
                "2016",
                "3",
                "6",
                "1457222399.5",
                "59.5",
                "2016-03-01 00:00:00",
                "2016-02-29 00:00:00+00"
            ]
        );
        assert_eq!(
            got[4],
            [
                "5",
                "-44",
                "12",
                "5",
                "946684799.999999",
                "59.999999",
                "1999-12-01 00:00:00",
                "0044-03-11 00:00:00+00 BC"
            ]
        );
    }
}

#[test]
fn comparisons_cross_date_and_timestamp_and_use_the_index() {
    let q = "create index ev_d on ev (d);
select id from ev where d between '2015-12-31' and '2016-01-31' order by id;
select id from ev where d < timestamp '2016-01-01 10:00' order by id;
select interval '1 mon' = interval '30 days', interval '1.5 days', interval '-1 mon +1 day', \
 interval '100 hours', '1:2:3.5'::interval;
select * from generate_series(timestamp '2016-01-31', timestamp '2016-05-01', interval '1 month');\n";
    for r in both(&format!("{TABLE}{q}")) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(rows(&r, 3), [["1"], ["3"]], "{}", r.profile);
        assert_eq!(rows(&r, 4), [["1"], ["3"], ["5"]], "{}", r.profile);
        assert_eq!(
            rows(&r, 5),
            [[
                "t",
                "1 day 12:00:00",
                "-1 mons +1 day",
                "100:00:00",
                "01:02:03.5"
            ]]
        );
        assert_eq!(
            rows(&r, 6),
            [
                ["2016-01-31 00:00:00"],
                ["2016-02-29 00:00:00"],
                ["2016-03-29 00:00:00"],
                ["2016-04-29 00:00:00"]
            ]
        );
    }
}

#[test]
fn explain_shows_constants_as_postgresql_prints_them() {
    let r = run_pg(
        "create table ev (id int primary key, d date, ts timestamp, span interval);
create index ev_d on ev (d);
explain (costs off) select id from ev where d >= '2016-01-01';
explain (costs off) select id from ev where ts < '2016-01-01 10:00' and span = '1 day';
explain (costs off) select id from ev where ts in ('2016-01-01 10:00', '2016-01-02') \
 and span not in ('1 day', '01:00:00');\n",
        &[],
    )
    .0;
    assert_eq!(r.error, None);
    let e = explains(&r);
    assert!(explain_lines(e[0])
        .iter()
        .any(|l| l.trim() == "Index Cond: (d >= '2016-01-01'::date)"));
    assert!(explain_lines(e[1]).iter().any(|l| l.trim()
        == "Filter: ((ts < '2016-01-01 10:00:00'::timestamp without time zone) AND (span = '1 day'::interval))"));
    assert!(explain_lines(e[2]).iter().any(|l| l.trim()
        == "Filter: ((ts = ANY ('{\"2016-01-01 10:00:00\",\"2016-01-02 00:00:00\"}'::timestamp without time zone[])) \
            AND (span <> ALL ('{\"1 day\",01:00:00}'::interval[])))"));
}

#[test]
fn sizes_on_a_heap_page_and_in_an_index_are_postgresql_s() {
    // pg_relation_size from PostgreSQL 15 for the same script.
    let r = run_pg(
        "create table s1 (a bool, d date, b bool, ts timestamp, c bool, iv interval, e int);
insert into s1 select true, date '2016-01-01' + g, false, timestamp '2016-01-01' + g * interval '1 hour', \
 true, g * interval '1 minute', g from generate_series(1, 2000) g;
create index s1_d on s1 (d);
create index s1_ts on s1 (ts);
create index s1_iv on s1 (iv);
select pg_relation_size('s1'), pg_relation_size('s1_d'), pg_relation_size('s1_ts'), pg_relation_size('s1_iv');\n",
        &[],
    )
    .0;
    assert_eq!(r.error, None);
    assert_eq!(rows(&r, 5), [["172032", "65536", "65536", "81920"]]);
}

#[test]
fn malformed_input_gets_postgresql_s_errors() {
    for (sql, message) in [
        (
            "select 'abc'::date;",
            "invalid input syntax for type date: \"abc\"",
        ),
        (
            "select '2016-02-30'::date;",
            "date/time field value out of range: \"2016-02-30\"",
        ),
        (
            "select 'x'::interval;",
            "invalid input syntax for type interval: \"x\"",
        ),
        (
            "select '2016-01-01 junk'::timestamp;",
            "invalid input syntax for type timestamp: \"2016-01-01 junk\"",
        ),
        (
            "select date '2016-01-01' + date '2016-01-01';",
            "operator does not exist: date + date",
        ),
        (
            "select extract(hour from date '2016-01-01');",
            "unit \"hour\" not supported for type date",
        ),
        (
            "select date_trunc('foo', timestamp '2016-01-01');",
            "unit \"foo\" not recognized for type timestamp without time zone",
        ),
        (
            "select make_date(2016, 2, 30);",
            "date field value out of range: 2016-02-30",
        ),
    ] {
        for r in both(sql) {
            assert_eq!(error(&r), message, "{sql} on {}", r.profile);
        }
    }
}

#[test]
fn what_indexlab_cannot_answer_is_refused_by_name() {
    for sql in [
        "create table t (x time);",
        "select '1/8/1999'::date;",
        "select 'today'::date;",
        "select extract(epoch from timestamp '2016-01-01');",
        "select interval 'P1D';",
        "select to_char(interval '1 day', 'DD');",
    ] {
        for r in both(sql) {
            let e = error(&r);
            assert!(
                e.contains("is not supported by IndexLab"),
                "{sql} on {}: {e}",
                r.profile
            );
        }
    }
}

#[test]
fn quoted_literals_take_the_type_the_operator_gives_them() {
    let q = "select timestamptz '2016-01-01' + '1 day', timestamp '2016-01-01' + '1 day', \
             '1 day' + timestamp '2016-01-01';
select date '2016-01-05' - '2016-01-01', timestamp '2016-01-02' - '2016-01-01 12:00', \
 interval '1 hour' + '30 minutes';
select current_date = now()::date, localtimestamp = now()::timestamp, \
 date_trunc('day', now()) = current_date;\n";
    for r in both(q) {
        assert_eq!(r.error, None, "{}", r.profile);
        assert_eq!(
            rows(&r, 0),
            [[
                "2016-01-02 00:00:00+00",
                "2016-01-02 00:00:00",
                "2016-01-02 00:00:00"
            ]]
        );
        assert_eq!(rows(&r, 1), [["4", "12:00:00", "01:30:00"]]);
        assert_eq!(rows(&r, 2), [["t", "t", "t"]]);
    }
}
