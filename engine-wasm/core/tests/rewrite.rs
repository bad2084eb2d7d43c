//! VACUUM FULL, CLUSTER and REINDEX on the pg profile: new files for the
//! table and its indexes, live rows copied compactly (in an index's order
//! for CLUSTER, ties where PostgreSQL's quicksort leaves them), copies
//! frozen, pg_class updated, transaction ids taken as PostgreSQL takes them.
//! Every expected answer is PostgreSQL 15's for the same script, run on a
//! cluster fresh from `initdb` (`psql -A -t`, rows `|`-joined).

use crate::psql;

use psql::{at, lines, run};

const SCRIPT: &str = "create extension pageinspect;
create table t (id int primary key, v text, n int) with (fillfactor = 50);
create index t_v on t (v);
insert into t select i, 'v' || (i % 7), i from generate_series(1, 300) i;
update t set n = n + 1 where id % 3 = 0;
delete from t where id % 5 = 0;
begin; insert into t values (1000, 'x', 1); rollback;
select relname, relpages, reltuples, relallvisible from pg_class where relname in ('t', 't_pkey', 't_v') order by 1;
vacuum full t;
select relname, relpages, reltuples, relallvisible from pg_class where relname in ('t', 't_pkey', 't_v') order by 1;
select lp, lp_off, lp_len, t_xmin, t_xmax, t_field3, t_ctid, t_infomask2, t_infomask from heap_page_items(get_raw_page('t', 0)) where lp <= 3;
select ctid, id from t order by id limit 5;
select pg_relation_size('t'), pg_relation_size('t_pkey'), pg_relation_size('t_v');
cluster t using t_v;
select ctid, id, v from t order by ctid limit 5;
select ctid, id, v from t where v = 'v3' order by ctid limit 3;
reindex index t_v;
reindex table t;
select pg_relation_size('t_v'), pg_relation_size('t_pkey');
vacuum (full, freeze) t;
select lp, t_xmin, t_xmax, t_infomask from heap_page_items(get_raw_page('t', 0)) where lp <= 2;
select txid_current();
cluster t_pkey on t;
select ctid, id from t order by ctid limit 3;
cluster t;
cluster;
cluster t using t_nope;
create table u (a int);
cluster u;
create index u_p on u (a) where a > 0;
cluster u using u_p;
vacuum freeze u;
insert into u values (1), (2);
delete from u where a = 2;
vacuum freeze u;
select lp, t_xmin, t_xmax, t_infomask from heap_page_items(get_raw_page('u', 0));
";

#[test]
fn vacuum_full_copies_live_rows_compactly_and_freezes_them() {
    let (r, _) = run(SCRIPT);
    assert_eq!(
        lines(&r, at(&r, 10)),
        ["t|3|240|0", "t_pkey|2|240|0", "t_v|2|240|0"]
    );
    // Frozen (0x300) with the old xmin kept; copies packed from the page's end.
    assert_eq!(
        lines(&r, at(&r, 11)),
        [
            "1|8152|36|727|0|0|(0,1)|3|2818",
            "2|8112|36|727|0|0|(0,2)|3|2818",
            "3|8072|36|727|0|0|(0,3)|3|2818",
        ]
    );
    // The copy follows the old heap's order: updated rows come later.
    assert_eq!(
        lines(&r, at(&r, 12)),
        ["(0,1)|1", "(0,2)|2", "(0,51)|3", "(0,3)|4", "(0,52)|6"]
    );
    assert_eq!(lines(&r, at(&r, 13)), ["24576|16384|16384"]);
}

#[test]
fn cluster_orders_rows_by_the_index_with_postgresql_s_ties() {
    let (r, _) = run(SCRIPT);
    assert_eq!(
        lines(&r, at(&r, 15)),
        [
            "(0,1)|196|v0",
            "(0,2)|231|v0",
            "(0,3)|224|v0",
            "(0,4)|147|v0",
            "(0,5)|161|v0"
        ]
    );
    assert_eq!(
        lines(&r, at(&r, 16)),
        ["(1,12)|297|v3", "(1,13)|17|v3", "(1,14)|31|v3"]
    );
    assert_eq!(lines(&r, at(&r, 19)), ["16384|16384"]);
    assert_eq!(lines(&r, at(&r, 21)), ["1|727|0|2818", "2|728|0|11010"]);
    assert_eq!(lines(&r, at(&r, 24)), ["(0,1)|1", "(0,2)|2", "(0,3)|3"]);
}

#[test]
fn failures_are_postgresql_s_and_still_take_a_transaction_id() {
    let (r, errors) = run(SCRIPT);
    assert_eq!(lines(&r, at(&r, 22)), ["736"]);
    assert_eq!(
        errors,
        [
            "index \"t_nope\" for table \"t\" does not exist",
            "there is no previously clustered index for table \"u\"",
            "cannot cluster on partial index \"u_p\"",
        ]
    );
    // Each failed CLUSTER locked its table first, which took an id; VACUUM
    // FREEZE froze the row left and truncated the freed line pointer.
    assert_eq!(lines(&r, at(&r, 36)), ["1|745|0|2816"]);
}

#[test]
fn cluster_marks_its_index_and_yugabytedb_refuses_it() {
    let (r, _) = run("create table t (id int primary key, v int);
create index t_v on t (v);
cluster t using t_v;
\\d t");
    let footers = &r.statements[3].outcome.footers;
    assert!(
        footers.iter().any(|f| f == "    \"t_v\" btree (v) CLUSTER"),
        "{footers:?}"
    );
    let yb = indexlab_engine::scenario::run_yb(
        "create table t (id int primary key);\ncluster t using t_pkey;",
        &[],
    )
    .0;
    let e = yb.error.expect("refused").message;
    assert!(
        e.contains("on YugabyteDB") && e.contains("not supported by IndexLab"),
        "{e}"
    );
}
