//! PREPARE without parameter types: each `$n` takes its type from where it
//! stands, as PostgreSQL infers it.

use crate::psql;

/// An undeclared parameter compared with a column takes the column's type,
/// as PostgreSQL infers it at PREPARE: `customer_id = $1` with 42 compares
/// with the text '42'. Expected rows: psql 15, `-A -t`.
#[test]
fn an_undeclared_parameter_takes_its_columns_type() {
    let script = "create table o (id int primary key, customer_id text, quantity int, description text);
insert into o select g, (g % 50)::text, g % 100, case when g % 3 = 0 then 'banana' else 'apple' end from generate_series(1, 500) g;
prepare demo as select id from o where customer_id = $1 and quantity > $2 and description like $3 order by id;
execute demo(42, 20, '%banana%');
prepare p2 as select $1::int + 1, id from o where id = $1;
execute p2(7);
prepare p3 as select count(*) from o where quantity between $1 and $2;
execute p3(10, 12);";
    let expected = "@@4\n42\n192\n342\n492\n@@6\n8|7\n@@8\n15\n";
    psql::assert_rows(script, expected);
    psql::assert_rows_yb(script, expected);
}

/// A quoted constant bounding an index scan of an integer key is read as an
/// integer, as PostgreSQL types the literal by the column (it used to be an
/// error where the index, not a filter, took the condition). Expected rows:
/// psql 15, `-A -t`.
#[test]
fn a_quoted_constant_bounds_an_integer_key() {
    let script = "create table t (id int primary key, v text);
insert into t select i, 'v' || i from generate_series(1, 100) i;
delete from t where id < '10';
select count(*) from t where id < '50';
update t set v = 'x' where id = '60';
select v from t where id = 60;";
    let expected = "@@4\n40\n@@6\nx\n";
    psql::assert_rows(script, expected);
    psql::assert_rows_yb(script, expected);
}

/// EXPLAIN EXECUTE shows an integer parameter as the integer PostgreSQL's
/// custom plan holds (`quantity > 20`), a text one as text; the equality an
/// equivalence class took comes last. Expected lines: PostgreSQL 15.
#[test]
fn explain_execute_prints_each_parameter_as_its_type() {
    let script =
        "create table o (id int primary key, customer_id text, quantity int, description text);
prepare demo as select id from o where customer_id = $1 and quantity > $2 and description like $3;
explain (costs off) execute demo(42, 20, '%banana%');
explain (costs off) select id from o where quantity > '20' and customer_id = '7';";
    let (r, _) = indexlab_engine::scenario::run_pg(script, &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    let plans: Vec<Vec<String>> = r
        .statements
        .iter()
        .filter_map(|s| s.outcome.explain.clone())
        .collect();
    assert_eq!(
        plans[0][1].trim(),
        "Filter: ((quantity > 20) AND (description ~~ '%banana%'::text) AND (customer_id = '42'::text))"
    );
    assert_eq!(
        plans[1][1].trim(),
        "Filter: ((quantity > 20) AND (customer_id = '7'::text))"
    );
}
