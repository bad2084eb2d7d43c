//! LATERAL: a subquery in FROM that reads the FROM items before it, and a
//! function in FROM whose arguments name their columns (PostgreSQL makes
//! every function in FROM lateral). Each runs once per outer row, as
//! PostgreSQL's nested loop reruns it with the row as its parameters. Each
//! query's rows equal PostgreSQL 15's for the same script (psql 15's
//! `-A -t` output, each query's rows after `@@` and its line).

use crate::psql;

const SCRIPT: &str = "create table demo (id int generated always as identity primary key, a int, b int, c int default 0);
insert into demo (a, b) select a, b from generate_series(1, 4) a, lateral (select generate_series(1, 2 * a) b) b;
select a, count(*), sum(b) from demo group by a order by a;
select * from generate_series(1, 3) a, generate_series(1, a) b order by 1, 2;
select a, b from generate_series(1, 3) a cross join lateral (select a * 10 as b) x order by 1;
create table t (id int primary key, k int, v text);
insert into t select g, g % 3, 'v' || g from generate_series(1, 12) g;
select ks.k, top.id from (select distinct k from t) ks cross join lateral (select id from t where t.k = ks.k order by id desc limit 2) top order by 1, 2;
select g, top.id from generate_series(0, 4) g left join lateral (select id from t where t.k = g order by id limit 1) top on true order by 1;
select g, x.n from generate_series(1, 3) g, lateral (select count(*) n from t where id <= g) x order by g;
select * from t, generate_series(1, 2) s where t.id < 3 order by 1, 4;
select t.id, l.m from t join lateral (select max(id) m from t u where u.k = t.k and u.id < t.id) l on l.m is not null where t.id > 9 order by 1;
select g, s.x from generate_series(1, 3) g, lateral (select g + 100 as x where g <> 2) s order by 1;
select g, x from generate_series(1, 2) g, lateral (select x from generate_series(g, 3) x) l order by 1, 2;";

const POSTGRES: &str = "@@3
1|2|3
2|4|10
3|6|21
4|8|36
@@4
1|1
2|1
2|2
3|1
3|2
3|3
@@5
1|10
2|20
3|30
@@8
0|9
0|12
1|7
1|10
2|8
2|11
@@9
0|3
1|1
2|2
3|
4|
@@10
1|1
2|2
3|3
@@11
1|1|v1|1
1|1|v1|2
2|2|v2|1
2|2|v2|2
@@12
10|7
11|8
12|9
@@13
1|101
3|103
@@14
1|1
1|2
1|3
2|2
2|3
";

#[test]
fn lateral_items_return_postgresqls_rows() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

/// The inner side runs once per outer row: EXPLAIN ANALYZE counts its loops.
#[test]
fn a_lateral_function_runs_once_per_outer_row() {
    let (r, errors) = psql::run(
        "explain (analyze, costs off, timing off, summary off) select * from generate_series(1, 3) a, generate_series(1, a) b;",
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        r.statements[0].outcome.explain.clone().unwrap_or_default(),
        [
            "Nested Loop (actual rows=6 loops=1)",
            "  ->  Function Scan on generate_series a (actual rows=3 loops=1)",
            "  ->  Function Scan on generate_series b (actual rows=2 loops=3)",
        ]
    );
}
