//! `character(n)` (bpchar) on the pg profile: values blank-padded to n on
//! the page and in output, compared without their trailing blanks, read as
//! text without them (a function's argument, `||`, `::text`), LIKE over
//! the padded value, an assignment too long refused and a cast cut.
//! Expected rows: psql 15 (`-A -t`) on a cluster fresh from initdb.

use crate::psql;

const SCRIPT: &str = "create table c (id int, s char(4), t text, u char(2));
insert into c values (1, 'ab', 'ab', 'ab'), (2, 'ab  ', 'ab ', 'a'), (3, 'x', 'x', null), (4, null, 'q', 'q ');
select id, s, '[' || s || ']', length(s), octet_length(s), s::text, s like 'ab', s like 'ab%', upper(s) from c order by id;
select id from c where s = 'ab ' order by id;
select id from c where s = t order by id;
select id from c where s = u order by id;
select id from c where s in ('ab', 'x  ') order by id;
select s, count(*) from c group by s order by s;
select max(s), min(u) from c;
select pg_column_size(s), pg_column_size(u) from c order by id;
insert into c values (5, 'abcde', 'x', 'x');
insert into c values (5, 'abcd  ', 'x', 'x');
select '[' || s || ']' from c where id = 5;
select 'abc'::char(2), 'a'::char(3) || 'b', 'abc'::character;
select coalesce(s, 'zz') from c order by id;
create index c_s on c (s);
select id from c where s = 'x' order by id;
insert into c values (6, 7, 'x', 'x');
select s from c where id = 6;";

#[test]
fn rows_are_postgresqls() {
    let (_, errors) = psql::run(SCRIPT);
    assert_eq!(errors, ["value too long for type character(4)"]);
    let expected: String = "@@1
@@2
@@3
1|ab  |[ab]|2|4|ab|f|t|AB
2|ab  |[ab]|2|4|ab|f|t|AB
3|x   |[x]|1|4|x|f|f|X
4||||||||
@@4
1
2
@@5
1
3
@@6
1
@@7
1
2
3
@@8
ab  |2
x   |1
|1
@@9
x   |a 
@@10
5|3
5|3
5|
|3
@@11
@@12
@@13
[abcd]
@@14
ab|ab|a
@@15
ab  
ab  
x   
zz
abcd
@@16
@@17
3
@@18
@@19
7   
"
    .lines()
    .filter(|l| !l.starts_with("@@11") && !l.starts_with("@@12"))
    .map(|l| format!("{l}\n"))
    .collect();
    psql::assert_rows_after_errors(SCRIPT, &expected);
}

/// The index holds the padded key; EXPLAIN shows the constant as a bpchar.
#[test]
fn an_index_on_a_bpchar_column() {
    let (report, errors) = psql::run(
        "create table c (id int primary key, s char(4));
insert into c select g, case when g % 3 = 0 then 'ab' else 'xyz' end from generate_series(1, 20) g;
create index c_s on c (s);
explain (costs off) select * from c where s = 'ab';
select count(*) from c where s = 'ab';
\\d c",
    );
    assert!(errors.is_empty(), "{errors:?}");
    let plan = report.statements[3]
        .outcome
        .explain
        .clone()
        .unwrap_or_default();
    assert!(
        plan.iter().any(|l| l.contains("(s = 'ab'::bpchar)")),
        "{plan:?}"
    );
    assert_eq!(psql::lines(&report, 4), ["6"]);
    let described = &report.statements[5].outcome.rows;
    assert_eq!(described[1][1].as_deref(), Some("character(4)"));
}

/// `lower(c)` of a char(n) column is stored as `lower((c)::text)`, which
/// IndexLab's index definitions do not print: pg_indexes refuses it by name
/// rather than show a definition PostgreSQL would not.
#[test]
fn an_index_on_a_function_of_a_char_column_is_not_printed_wrong() {
    let r = indexlab_engine::scenario::run_pg(
        "create table t (id int, c char(3));
create unique index t_lower on t (lower(c));
select indexdef from pg_indexes where indexname = 't_lower';",
        &[],
    )
    .0;
    let e = r.error.expect("refused");
    assert!(
        e.message
            .contains("a char(n) column read by a function, which PostgreSQL casts to text"),
        "{}",
        e.message
    );
}
