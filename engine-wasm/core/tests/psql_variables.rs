//! psql variables: `\set`, `\gset` and their interpolation (`:n`, `:'s'`),
//! as psql 15 runs the same script (expected rows from `psql -A -t`).

use crate::psql;

const SCRIPT: &str = r#"create table t (id int primary key, v text);
insert into t select i, 'v'||i from generate_series(1,10) i;
\set n 3
\set name 'v5'
select * from t where id = :n;
select count(*) as total, max(id) as top from t \gset
select :total * 2 as twice, :'name' as lit, v from t where v = :'name';
select id from t where id > :top - 2 order by 1 \gset p_
select min(id) as low from t where id > :n \gset p_
select :p_low, ':n', 1::int;
\set m :p_low
select :m + 1;
\unset m
select :m;"#;

#[test]
fn variables_are_set_stored_and_interpolated_as_psql_does() {
    let (r, errors) = psql::run(SCRIPT);
    assert_eq!(
        errors,
        [
            "more than one row returned for \\gset",
            "the psql variable :m without a value (no \\set or \\gset before it gave it one) \
             is not supported by IndexLab"
        ]
    );
    assert_eq!(psql::lines(&r, psql::at(&r, 5)), ["3|v3"]);
    assert_eq!(psql::lines(&r, psql::at(&r, 7)), ["20|v5|v5"]);
    assert_eq!(psql::lines(&r, psql::at(&r, 10)), ["4|:n|1"]);
    assert_eq!(psql::lines(&r, psql::at(&r, 12)), ["5"]);
    // The statement as it ran, its variables substituted.
    assert_eq!(r.statements[psql::at(&r, 12)].sql, "select 4 + 1");
}
