use super::*;

fn jb(s: &str) -> Jsonb {
    Jsonb::parse(s).unwrap()
}

#[test]
fn jsonb_prints_keys_sorted_shortest_first_last_duplicate_wins() {
    // psql 15: select '{"b":1,"a":2, "aa":[1,  2.50, 1e2, -0, 1E-2], "a":3}'::jsonb;
    assert_eq!(
        jb(r#"{"b":1,"a":2, "aa":[1,  2.50, 1e2, -0, 1E-2], "a":3}"#).to_text(),
        r#"{"a": 3, "b": 1, "aa": [1, 2.50, 100, 0, 0.01]}"#
    );
}

#[test]
fn datum_sizes_match_pg_column_size() {
    // psql 15: pg_column_size('{"a":1}'::jsonb) = 28, of '[1,"abc",{"k":true}]' 45.
    assert_eq!(jb(r#"{"a":1}"#).datum_size(), 28);
    assert_eq!(jb(r#"[1,"abc",{"k":true}]"#).datum_size(), 45);
}

#[test]
fn errors_are_worded_as_postgresql_words_them() {
    let detail = |s: &str| Jsonb::parse(s).unwrap_err().detail();
    assert_eq!(detail("{\"a\" 1}"), "Expected \":\", but found \"1\".");
    assert_eq!(detail("[1,"), "The input string ended unexpectedly.");
    assert_eq!(detail("01"), "Token \"01\" is invalid.");
    assert_eq!(detail("[1] x"), "Token \"x\" is invalid.");
    assert_eq!(detail("[1] 2"), "Expected end of input, but found \"2\".");
    assert_eq!(detail("{,}"), "Expected string or \"}\", but found \",\".");
}

#[test]
fn order_follows_compare_jsonb_containers() {
    use std::cmp::Ordering::*;
    let c = |a: &str, b: &str| compare(&jb(a), &jb(b));
    assert_eq!(c("[]", "null"), Less);
    assert_eq!(c("1", "[1]"), Less);
    assert_eq!(c("null", "\"a\""), Less);
    assert_eq!(c("\"z\"", "1"), Less);
    assert_eq!(c("1", "true"), Less);
    assert_eq!(c("{\"a\":1}", "{\"a\":1.0}"), Equal);
    assert_eq!(c("{\"b\":1}", "{\"a\":1,\"c\":2}"), Less);
    assert_eq!(c("[1,2]", "[1,3]"), Less);
}
