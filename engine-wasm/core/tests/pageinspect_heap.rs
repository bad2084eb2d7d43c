//! pageinspect's `heap_page_items()` on the pg profile: where tuples sit on
//! the page, their lengths, headers (command ids, combo command ids, `t_ctid`
//! chains, HOT flags, hint bits set by the scans that read them), data bytes,
//! and what aborted statements and ROLLBACK leave behind. Every expected
//! answer is PostgreSQL 15's for the same script, run on a cluster fresh from
//! `initdb` (`psql -A -t`, so rows are `|`-joined).

use crate::common;
use crate::psql;

use psql::{at, lines, run};

const SCRIPT: &str = "create extension pageinspect;
create table demo (id bigint, value text, n int, d date, x numeric) with (autovacuum_enabled=off);
create unique index demo_pkey on demo (id) include (value);
insert into demo select generate_series(0,5), lpad('x',50,'x'), null, date '2024-01-02', 12.5;
select lp, lp_off, lp_len, t_infomask2, t_infomask, t_hoff, t_bits, t_data from heap_page_items(get_raw_page('demo', 0)) where lp = 2;
update demo set value=upper(value) where id=2;
update demo set n = 5 where id=3;
delete from demo where id = 4;
select t_ctid, lp, lp_off, lp_len, t_xmin, t_xmax, t_field3, t_infomask2, t_infomask from heap_page_items(get_raw_page('demo', 0));
select count(*) from demo;
select lp, t_infomask from heap_page_items(get_raw_page('demo', 0));
begin;
insert into demo values (10, 'a', 1, null, 1);
update demo set n = 7 where id = 10;
update demo set n = 8 where id = 10;
delete from demo where id = 5;
select t_ctid, lp, lp_off, lp_len, t_xmin, t_xmax, t_field3, t_infomask2, t_infomask from heap_page_items(get_raw_page('demo', 0)) where lp >= 6;
rollback;
select id, n from demo order by id;
select lp, t_xmax, t_infomask from heap_page_items(get_raw_page('demo', 0)) where lp >= 6;
insert into demo values (1, 'dup');
vacuum demo;
select t_ctid, lp, lp_off, lp_flags, lp_len, t_xmin, t_xmax, t_field3, t_infomask2, t_infomask from heap_page_items(get_raw_page('demo', 0));
select encode(substr(t_data, 1, 9), 'hex'), encode(substr(t_data, 9, 3), 'escape'), length(t_data) from heap_page_items(get_raw_page('demo', 0)) where lp = 1;
";

#[test]
fn a_tuple_s_position_length_header_and_bytes_are_postgresql_s() {
    let (r, _) = run(SCRIPT);
    assert_eq!(
        lines(&r, at(&r, 5)),
        [concat!(
            "2|8000|95|5|2051|24|11011000|\\x0100000000000000",
            "67", // a 50-byte text's 1-byte header: (51 << 1) | 1
            "78787878787878787878787878787878787878787878787878",
            "78787878787878787878787878787878787878787878787878",
            "00",             // padding: a date is aligned on 4
            "3f220000",       // 2024-01-02: 8767 days after 2000-01-01
            "0f80800c008813"  // numeric 12.5: header, NUMERIC_SHORT with dscale 1, 0012 5000
        )]
    );
    assert_eq!(lines(&r, at(&r, 24)), ["000000000000000067|gxx|71"]);
}

#[test]
fn updates_link_versions_and_mark_hot_and_key_changes() {
    let (r, _) = run(SCRIPT);
    // An update's old version names the new one in t_ctid; a HOT update sets
    // HEAP_HOT_UPDATED (16389 = 0x4005) and HEAP_ONLY_TUPLE (32773); a delete
    // sets HEAP_KEYS_UPDATED (8197); new versions carry HEAP_UPDATED.
    assert_eq!(
        lines(&r, at(&r, 9)),
        [
            "(0,1)|1|8096|95|727|0|0|5|2051",
            "(0,2)|2|8000|95|727|0|0|5|2051",
            "(0,7)|3|7904|95|727|728|0|5|259",
            "(0,8)|4|7808|95|727|729|0|16389|259",
            "(0,5)|5|7712|95|727|730|0|8197|259",
            "(0,6)|6|7616|95|727|0|0|5|2051",
            "(0,7)|7|7520|95|728|0|0|5|10243",
            "(0,8)|8|7416|99|729|0|0|32773|10242",
        ]
    );
}

#[test]
fn a_sequential_scan_sets_the_hint_bits_it_learns() {
    let (r, _) = run(SCRIPT);
    // count(*) read the page: committed xmins get HEAP_XMIN_COMMITTED (0x100),
    // committed xmaxes HEAP_XMAX_COMMITTED (0x400).
    assert_eq!(
        lines(&r, at(&r, 11)),
        ["1|2307", "2|2307", "3|1283", "4|1283", "5|1283", "6|2307", "7|10499", "8|10498"]
    );
}

#[test]
fn a_transaction_numbers_its_commands_and_combines_cmin_with_cmax() {
    let (r, _) = run(SCRIPT);
    // Inserted and updated twice by one transaction: combo command ids 0 and
    // 1 (HEAP_COMBOCID, 0x20), its last version cmin 2; the delete by command 3.
    assert_eq!(
        lines(&r, at(&r, 17)),
        [
            "(0,6)|6|7616|95|727|731|3|8197|259",
            "(0,7)|7|7520|95|728|0|0|5|10499",
            "(0,8)|8|7416|99|729|0|0|32773|10498",
            "(0,10)|9|7368|45|731|731|0|16389|35",
            "(0,11)|10|7320|45|731|731|1|49157|8227",
            "(0,11)|11|7272|45|731|0|2|32773|10243",
        ]
    );
}

#[test]
fn rollback_leaves_aborted_versions_and_revives_what_it_deleted() {
    let (r, errors) = run(SCRIPT);
    assert_eq!(r.statements[at(&r, 18)].outcome.tag, "ROLLBACK");
    assert_eq!(
        lines(&r, at(&r, 19)),
        ["0|", "1|", "2|", "3|5", "5|"],
        "id 10 is gone and id 5 is back"
    );
    // The scan learnt the fates: the aborted xmins HEAP_XMIN_INVALID (0x200),
    // the aborted xmax HEAP_XMAX_INVALID (0x800).
    assert_eq!(
        lines(&r, at(&r, 20)),
        [
            "6|731|2307",
            "7|0|10499",
            "8|0|10498",
            "9|731|547",
            "10|731|8739",
            "11|0|10755"
        ]
    );
    assert_eq!(
        errors,
        ["duplicate key value violates unique constraint \"demo_pkey\"\nDETAIL:  Key (id)=(1) already exists."]
    );
}

#[test]
fn vacuum_prunes_and_compacts_the_page_in_line_pointer_order() {
    let (r, _) = run(SCRIPT);
    // The failed insert's tuple and the dead versions are gone; the HOT
    // chain's root is a redirect to its live member (lp_off 8); the tuples
    // left are packed at the page's end, line pointer 1 last.
    assert_eq!(
        lines(&r, at(&r, 23)),
        [
            "(0,1)|1|8096|1|95|727|0|0|5|2307",
            "(0,2)|2|8000|1|95|727|0|0|5|2307",
            "|3|0|0|0|||||",
            "|4|8|2|0|||||",
            "|5|0|0|0|||||",
            "(0,6)|6|7904|1|95|727|731|3|8197|2307",
            "(0,7)|7|7808|1|95|728|0|0|5|10499",
            "(0,8)|8|7704|1|99|729|0|0|32773|10498",
        ]
    );
}

#[test]
fn a_failed_statement_s_rows_are_dead_and_its_block_ignores_the_rest() {
    let script = "create table t (id int primary key, v text);
insert into t values (1, 'a');
insert into t values (2, 'b'), (1, 'c');
select id, v from t order by id;
select n_tup_ins, n_live_tup, n_dead_tup from pg_stat_user_tables where relname = 't';
begin;
insert into t values (3, 'c');
insert into t values (1, 'x');
select 1;
commit;
select id from t order by id;";
    let (r, errors) = run(script);
    assert_eq!(lines(&r, at(&r, 4)), ["1|a"]);
    assert_eq!(lines(&r, at(&r, 5)), ["3|1|2"]);
    assert_eq!(r.statements[at(&r, 10)].outcome.tag, "ROLLBACK");
    assert_eq!(lines(&r, at(&r, 11)), ["1"]);
    assert_eq!(
        errors[2],
        "current transaction is aborted, commands ignored until end of transaction block"
    );
}

#[test]
fn wrong_pages_relations_and_profiles_get_clear_errors() {
    let (_, errors) = run("create table t (a int);
select * from heap_page_items(get_raw_page('t', 0));
create extension pageinspect;
select lp from heap_page_items(get_raw_page('t', 0));
insert into t values (1);
select lp from heap_page_items(get_raw_page('t', 3));
create index t_a on t (a);
select lp from heap_page_items(get_raw_page('t_a', 1));
select get_raw_page('t', 0);
select lp from heap_page_items(get_raw_page('nope', 0));");
    assert_eq!(
        errors,
        [
            "function heap_page_items() does not exist",
            "block number 0 is out of range for relation \"t\"",
            "block number 3 is out of range for relation \"t\"",
            "heap_page_items() of an index's page (it would decode the B-tree page as a heap \
             page; bt_page_items() reads index pages) is not supported by IndexLab",
            "get_raw_page() except as the page handed to heap_page_items() or bt_page_items() \
             (IndexLab keeps pages as structures, not as 8 KiB images) is not supported by IndexLab",
            "relation \"nope\" does not exist",
        ]
    );
    let yb = common::both(
        "create extension pageinspect;
create table t (a int);
select lp from heap_page_items(get_raw_page('t', 0));",
    );
    let e = common::error(&yb[1]);
    assert!(
        e.contains("on YugabyteDB") && e.contains("not supported by IndexLab"),
        "{e}"
    );
}

#[test]
fn a_statement_refused_inside_a_block_fails_the_block() {
    let (r, errors) = run("create table t (id int);
begin;
insert into t values (1);
select * from t tablesample system (10);
insert into t values (2);
commit;
select count(*) from t;");
    assert_eq!(
        errors[1],
        "current transaction is aborted, commands ignored until end of transaction block"
    );
    assert_eq!(r.statements[at(&r, 6)].outcome.tag, "ROLLBACK");
    assert_eq!(lines(&r, at(&r, 7)), ["0"]);
}
