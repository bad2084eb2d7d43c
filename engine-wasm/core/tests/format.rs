//! `format(template, args…)`: `%s`, `%I`, `%L`, `%%`, positions, flags and
//! widths, and PostgreSQL's errors for bad templates. Expected rows: psql
//! 15, `-A -t`, each query's rows after `@@` and its line.

use crate::psql;

const SCRIPT: &str = r#"select format('Hello %s, %s', 'World', 42), format('%I.%I', 'public', 'My Table'), format('%I %I %I', 'select', 'abc_1', 'Abc'), format('%L %L %L', 'it''s', null, E'a\\b');
select format('%s|%10s|%-10s|', 'a', 'b', 'c'), format('%2$s %1$s %s', 'x', 'y', 'z'), format('%*s|', 6, 'r'), format('%-*s|', 6, 'l'), format('%s', null), format(null), format('100%%'), format('%s %s', true, 1.50);
select format('explain (format json) select * from demo where val < %s', 3 * 1000), format('%3$s', 'a', 'b', 'c'), format('[%-5s]', 'abcdefg'), format('%2$*1$s|', 4, 'v');"#;

const POSTGRES: &str = r#"@@1
Hello World, 42|public."My Table"|"select" abc_1 "Abc"|'it''s' NULL E'a\\b'
@@2
a|         b|c         ||y x y|     r||l     ||||100%|t 1.50
@@3
explain (format json) select * from demo where val < 3000|c|[abcdefg]|   v|
"#;

#[test]
fn format_writes_as_postgresql_does() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

#[test]
fn bad_templates_fail_as_in_postgresql() {
    let (_, errors) = psql::run(
        "select format('%s %s', 1);\nselect format('%x', 1);\nselect format('%0$s', 1);\nselect format('%I', null);\nselect format('%', 1);",
    );
    assert_eq!(
        errors,
        [
            "too few arguments for format()",
            "unrecognized format() type specifier \"x\"",
            "format specifies argument 0, but arguments are numbered from 1",
            "null values cannot be formatted as an SQL identifier",
            "unterminated format() type specifier",
        ]
    );
}
