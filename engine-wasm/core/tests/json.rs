//! `json` and `jsonb`: columns of either type, their operators (`->`,
//! `->>`, `#>`, `#>>`, `@>`, `<@`, `?`, `||`, `-`, `#-`), the functions
//! documents are built and read with, jsonb's key order and B-tree order,
//! and the bytes each takes in a row. Expected rows: psql 15, `-A -t`, each
//! query's rows after `@@` and its line.

use crate::psql;

const SCRIPT: &str = r#"create table docs (id int primary key, doc jsonb, raw json);
insert into docs select g, jsonb_build_object('n', g, 'tag', 't' || (g % 3), 'tags', jsonb_build_array('a', g % 2 = 0, null), 'price', g * 1.50), json_build_object('n', g, 'k', 'v' || g) from generate_series(1, 6) g;
insert into docs values (7, '{"n": 7, "nested": {"deep": [1, {"x": "y"}]}, "n": 8}', '{"n" : 7,  "n": 9, "s": "a\tb"}');
insert into docs values (8, 'null', '[1, 2,  3]'), (9, '"just a string"', '"s"'), (10, '[3, 1, 2]', 'null'), (11, null, null);
select id, doc, raw from docs order by id;
select id, doc->'n', doc->>'tag', doc->'tags'->1, doc->'tags'->>-1, doc #> '{nested,deep,1}', doc #>> '{nested,deep,1,x}' from docs order by id;
select id, raw->'n', raw->>'k', raw->>'s', raw->0, raw->-1, raw #> '{1}', raw #>> '{}' from docs order by id;
select id, doc @> '{"tag": "t1"}', '{"tag": "t1"}' <@ doc, doc ? 'tags', doc ? 'x', doc @> '[1]', doc @> '3' from docs order by id;
select id, jsonb_typeof(doc), json_typeof(raw), pg_column_size(doc), pg_column_size(raw) from docs order by id;
select doc->>'tag' as tag, count(*), sum((doc->>'n')::int), max(doc->>'price') from docs where doc ? 'tag' group by doc->>'tag' order by tag;
select id from docs where (doc->>'n')::int > 3 and doc->>'tag' <> 't1' order by id;
select id, doc || '{"extra": true}', doc - 'tags', doc #- '{tags,0}' from docs where id in (1, 2) order by id;
select id from docs order by doc, id;
select doc, count(*) from docs where id > 7 or id = 1 group by doc order by doc;
select jsonb_set(doc, '{n}', '100'), jsonb_set(doc, '{new}', '"v"', false), jsonb_set(doc, '{tags,9}', '1'), jsonb_set(doc, '{tags,-9}', '0') from docs where id = 2;
select jsonb_strip_nulls(doc), jsonb_array_length(doc->'tags'), json_array_length(raw) from docs where id = 8 order by id;
select to_jsonb(1.5::float8), to_jsonb('x'::text), to_jsonb(true), to_json(42), to_jsonb('2024-01-02 03:04:05.5+00'::timestamptz), to_json('2024-01-02'::date), jsonb_build_array(1, 'two', null, '{"a": 1}'::jsonb);
select json_build_object('a', 1, 'b', null, 'c', '{"x" :  1}'::json, 'd', '{"y": 2}'::jsonb), json_build_array(), jsonb_build_object(), json_build_object(1, 2);
select '{"a":1}'::jsonb = '{"a":1.0}', '[]'::jsonb < 'null', '1'::jsonb < '[1]', '{"b":1}'::jsonb < '{"a":1,"c":2}', '"z"'::jsonb < '1';
select jsonb_extract_path(doc, 'tags', '0'), jsonb_extract_path_text(doc, 'tag'), json_extract_path_text(raw, 'k') from docs where id = 1;
select (doc->'n')::int + 1, (doc->'price')::numeric * 2, (doc->'tags'->1)::boolean, doc->'tags'->>2 is null from docs where id = 2;
select doc::text, raw::jsonb, doc::json from docs where id = 7;
select pg_relation_size('docs'), count(*) from docs;"#;

const POSTGRES: &str = r#"@@5
1|{"n": 1, "tag": "t1", "tags": ["a", false, null], "price": 1.50}|{"n" : 1, "k" : "v1"}
2|{"n": 2, "tag": "t2", "tags": ["a", true, null], "price": 3.00}|{"n" : 2, "k" : "v2"}
3|{"n": 3, "tag": "t0", "tags": ["a", false, null], "price": 4.50}|{"n" : 3, "k" : "v3"}
4|{"n": 4, "tag": "t1", "tags": ["a", true, null], "price": 6.00}|{"n" : 4, "k" : "v4"}
5|{"n": 5, "tag": "t2", "tags": ["a", false, null], "price": 7.50}|{"n" : 5, "k" : "v5"}
6|{"n": 6, "tag": "t0", "tags": ["a", true, null], "price": 9.00}|{"n" : 6, "k" : "v6"}
7|{"n": 8, "nested": {"deep": [1, {"x": "y"}]}}|{"n" : 7,  "n": 9, "s": "a\tb"}
8|null|[1, 2,  3]
9|"just a string"|"s"
10|[3, 1, 2]|null
11||
@@6
1|1|t1|false|||
2|2|t2|true|||
3|3|t0|false|||
4|4|t1|true|||
5|5|t2|false|||
6|6|t0|true|||
7|8||||{"x": "y"}|y
8||||||
9||||||
10||||||
11||||||
@@7
1|1|v1|||||{"n" : 1, "k" : "v1"}
2|2|v2|||||{"n" : 2, "k" : "v2"}
3|3|v3|||||{"n" : 3, "k" : "v3"}
4|4|v4|||||{"n" : 4, "k" : "v4"}
5|5|v5|||||{"n" : 5, "k" : "v5"}
6|6|v6|||||{"n" : 6, "k" : "v6"}
7|9||a	b||||{"n" : 7,  "n": 9, "s": "a\tb"}
8||||1|3|2|[1, 2,  3]
9|||||||s
10|||||||
11|||||||
@@8
1|t|t|t|f|f|f
2|f|f|t|f|f|f
3|f|f|t|f|f|f
4|t|t|t|f|f|f
5|f|f|t|f|f|f
6|f|f|t|f|f|f
7|f|f|f|f|f|f
8|f|f|f|f|f|f
9|f|f|f|f|f|f
10|f|f|f|f|t|t
11||||||
@@9
1|object|object|95|22
2|object|object|93|22
3|object|object|95|22
4|object|object|93|22
5|object|object|95|22
6|object|object|93|22
7|object|object|87|32
8|null|array|9|11
9|string|string|22|4
10|array|null|41|5
11||||
@@10
t0|2|9|9.00
t1|2|5|6.00
t2|2|7|7.50
@@11
5
6
@@12
1|{"n": 1, "tag": "t1", "tags": ["a", false, null], "extra": true, "price": 1.50}|{"n": 1, "tag": "t1", "price": 1.50}|{"n": 1, "tag": "t1", "tags": [false, null], "price": 1.50}
2|{"n": 2, "tag": "t2", "tags": ["a", true, null], "extra": true, "price": 3.00}|{"n": 2, "tag": "t2", "price": 3.00}|{"n": 2, "tag": "t2", "tags": [true, null], "price": 3.00}
@@13
8
9
10
7
1
2
3
4
5
6
11
@@14
null|1
"just a string"|1
[3, 1, 2]|1
{"n": 1, "tag": "t1", "tags": ["a", false, null], "price": 1.50}|1
|1
@@15
{"n": 100, "tag": "t2", "tags": ["a", true, null], "price": 3.00}|{"n": 2, "tag": "t2", "tags": ["a", true, null], "price": 3.00}|{"n": 2, "tag": "t2", "tags": ["a", true, null, 1], "price": 3.00}|{"n": 2, "tag": "t2", "tags": [0, "a", true, null], "price": 3.00}
@@16
null||3
@@17
1.5|"x"|true|42|"2024-01-02T03:04:05.5+00:00"|"2024-01-02"|[1, "two", null, {"a": 1}]
@@18
{"a" : 1, "b" : null, "c" : {"x" :  1}, "d" : {"y": 2}}|[]|{}|{"1" : 2}
@@19
t|t|t|t|t
@@20
"a"|t1|v1
@@21
3|6.00|t|t
@@22
{"n": 8, "nested": {"deep": [1, {"x": "y"}]}}|{"n": 9, "s": "a\tb"}|{"n": 8, "nested": {"deep": [1, {"x": "y"}]}}
@@23
8192|11
"#;

#[test]
fn json_and_jsonb_answer_as_postgresql_does() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

/// The same documents stored in YugabyteDB's packed rows answer the same
/// (all but the last line: pg_relation_size is a PostgreSQL heap's).
#[test]
fn json_and_jsonb_answer_the_same_on_yugabytedb() {
    let script: Vec<&str> = SCRIPT.lines().collect();
    let last = script.len();
    let expected = POSTGRES
        .split_once(&format!("@@{last}\n"))
        .map_or(POSTGRES, |(head, _)| head);
    psql::assert_rows_yb(&script[..last - 1].join("\n"), expected);
}

/// Bad documents and misused operators fail with PostgreSQL 15's messages
/// (psql 15 on the same statements).
#[test]
fn json_errors_are_postgresqls() {
    let (_, errors) = psql::run(
        r#"select '{"a" 1}'::jsonb;
select '[1,'::json;
select '{"a":1}'::json = '{"a":1}'::json;
select '"\u0000"'::jsonb;
select jsonb_build_object('a');
select jsonb_build_object(null, 1);
select json_build_object(null, 1);
select jsonb_set('1', '{a}', '2');
select jsonb_set('[1]', '{x}', '2');
select jsonb_set('[1]', '{NULL}', '2');
select 'null'::jsonb::int;
select '{"a":1}'::jsonb::int;
select '"x"'::jsonb - 'x';
select '{"a":1}'::jsonb - 0;
select jsonb_array_length('{}');
select json_array_length('1');
select '[1]'::jsonb #> 'a';
create table j (id int, d json, b jsonb);
create index on j (d);
insert into j values (1, 'x', null);
insert into j values (1, null, '{');"#,
    );
    assert_eq!(
        errors,
        [
            "invalid input syntax for type json\nDETAIL:  Expected \":\", but found \"1\".",
            "invalid input syntax for type json\nDETAIL:  The input string ended unexpectedly.",
            "operator does not exist: json = json",
            "unsupported Unicode escape sequence\nDETAIL:  \\u0000 cannot be converted to text.",
            "argument list must have even number of elements",
            "argument 1: key must not be null",
            "argument 1 cannot be null",
            "cannot set path in scalar",
            "path element at position 1 is not an integer: \"x\"",
            "path element at position 1 is null",
            "cannot cast jsonb null to type integer",
            "cannot cast jsonb object to type integer",
            "cannot delete from scalar",
            "cannot delete from object using integer index",
            "cannot get array length of a non-array",
            "cannot get array length of a scalar",
            "malformed array literal: \"a\"\nDETAIL:  Array value must start with \"{\" or dimension information.",
            "data type json has no default operator class for access method \"btree\"",
            "invalid input syntax for type json\nDETAIL:  Token \"x\" is invalid.",
            "invalid input syntax for type json\nDETAIL:  The input string ended unexpectedly.",
        ]
    );
}

/// What IndexLab does not model is refused by name: a B-tree over a whole
/// jsonb value, and any index method but B-tree (a GIN index on a document
/// used to be built as a B-tree, of the wrong size).
#[test]
fn unmodelled_indexes_are_refused_by_name() {
    let (_, errors) = psql::run(
        "create table j (id int, b jsonb, t text);
create index on j (b);
create index on j using gin (b jsonb_path_ops);
create index on j using hash (id);
create index on j using bloom (id);
create index on j using btree (id);
create index on j ((b->>'name'));",
    );
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert!(errors[0].contains("B-tree index on a jsonb value"));
    for (e, method) in errors[1..].iter().zip(["gin", "hash", "bloom"]) {
        assert!(
            e.contains(&format!("an index USING {method}"))
                && e.contains("not supported by IndexLab"),
            "{e}"
        );
    }
}

/// pg_column_size of a subquery's column: a table's value passed through
/// is the stored datum (a 1-byte header for a short one), a value the
/// subquery computes is a fresh datum with a 4-byte header.
/// Expected rows: psql 15, `-A -t`.
#[test]
fn column_size_tells_stored_from_computed_values() {
    psql::assert_rows(
        "create table t (id int, c text);
insert into t values (1, 'abc');
select pg_column_size(c) from t;
select pg_column_size(s.c) from (select * from t) s;
select pg_column_size(c) from (select id, c from t) s;
select pg_column_size(x) from (select c || 'd' as x from t) s;
select pg_column_size(doc) from (select *, jsonb_build_object('a', 1) doc from t) s;
select pg_column_size(d) from (select c as d from t) s;",
        "@@3
4
@@4
4
@@5
4
@@6
8
@@7
28
@@8
4
",
    );
}

/// A scalar alone reads as an array of one under `->` (not under a path).
/// An operator ending in `-` is split as PostgreSQL's lexer splits it
/// (`->>-1` is `->>` applied to `-1`), and a bpchar keeps its blanks inside
/// a document and in format(), which take its output text.
/// Expected rows: psql 15, `-A -t`.
#[test]
fn operators_before_a_minus_and_padded_characters() {
    psql::assert_rows(
        "select '[1,2,3]'::jsonb->>-1, '[1,2,3]'::jsonb->-2, 3=-3, 2<-1;
select jsonb_build_object('c', 'ab'::char(3)), to_jsonb('ab'::char(3)), json_build_array('ab'::char(4)), format('%s|', 'ab'::char(3));
select jsonb_build_object('i', interval '1 hour', 'd', date '2016-01-01', 't', timestamp '2016-01-01 06:00', 'n', 1.50::numeric(5,2), 's', 2::smallint);
select '5'::jsonb -> 0, '\"a\"'::jsonb ->> -1, '5'::jsonb -> 1, '5'::jsonb #> '{0}', '5'::json -> 0;",
        "@@1
3|2|f|f
@@2
{\"c\": \"ab \"}|\"ab \"|[\"ab  \"]|ab |
@@3
{\"d\": \"2016-01-01\", \"i\": \"01:00:00\", \"n\": 1.50, \"s\": 2, \"t\": \"2016-01-01T06:00:00\"}
@@4
5|a|||
",
    );
}

#[test]
fn json_has_no_equality_or_ordering_operator() {
    // PostgreSQL 15's errors; jsonb has both operators.
    let (r, errors) = psql::run(
        "create table j (id int, d json, b jsonb);
insert into j values (1, '{\"a\":1}', '{\"a\":1}'), (2, '{\"a\":1}', '{\"a\": 1.0}');
select d, count(*) from j group by d;
select distinct d from j;
select d from j order by d;
select count(distinct d) from j;
select d from j union select d from j;
select d from j intersect all select d from j;
select count(*) from (select d from j union all select d from j) u;
select b, count(*) from j group by b;
select count(distinct b) from j;",
    );
    let equality = "could not identify an equality operator for type json";
    let ordering = "could not identify an ordering operator for type json";
    assert_eq!(
        errors,
        [equality, equality, ordering, equality, equality, equality]
    );
    assert_eq!(psql::lines(&r, psql::at(&r, 9)), ["4"]);
    assert_eq!(psql::lines(&r, psql::at(&r, 10)), ["{\"a\": 1}|2"]);
    assert_eq!(psql::lines(&r, psql::at(&r, 11)), ["1"]);
}
