//! pageinspect's B-tree functions and pgstattuple's pgstatindex, computed from
//! IndexLab's B+tree. Every expected row below is what PostgreSQL 15.x printed
//! for the same script (psql, unaligned, ` | ` between fields, `\pset null
//! NULL`); a page's rows are summed up as their first four, their count and
//! their last two.

use indexlab_engine::exec::catalog_relation::CatalogRelation;
use indexlab_engine::pg::PgEngine;
use indexlab_engine::scenario::run_pg;
use indexlab_engine::value::Value;

use crate::psql;

/// The engine after `script` ran on the pg profile (a failed run fails the test).
fn engine(script: &str) -> PgEngine {
    let (report, engine) = run_pg(script, &[]);
    if let Some(e) = &report.error {
        panic!("line {}:{}: {}", e.line, e.column, e.message);
    }
    engine.expect("the pg profile keeps its engine")
}

/// The rows as psql prints them.
fn rows(rel: &CatalogRelation) -> Vec<String> {
    rel.rows
        .iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .map(|v| match v {
                    Value::Null => "NULL".to_string(),
                    Value::Bool(b) => if *b { "t" } else { "f" }.to_string(),
                    v => v.pg_text(),
                })
                .collect();
            cells.join(" | ")
        })
        .collect()
}

/// Up to eight rows as they are; more as the first four, a count and the last two.
fn summary(rows: Vec<String>) -> Vec<String> {
    if rows.len() <= 8 {
        return rows;
    }
    let mut out = rows[..4].to_vec();
    out.push(format!("... {} rows", rows.len()));
    out.extend_from_slice(&rows[rows.len() - 2..]);
    out
}

fn expect(e: &PgEngine, func: &str, index: &str, block: Option<i64>, expected: &[&str]) {
    let got = match e.inspect_btree(func, index, block) {
        Ok(rel) => summary(rows(&rel)),
        Err(err) => vec![format!("ERROR: {}", err.message)],
    };
    assert_eq!(got, expected, "{func}('{index}', {block:?})");
}

/// A page's first row, and how many rows it has (for pages of long tuples).
fn expect_first(e: &PgEngine, index: &str, block: i64, first: &str, count: usize) {
    let rel = e
        .inspect_btree("bt_page_items", index, Some(block))
        .unwrap_or_else(|err| panic!("bt_page_items('{index}', {block}): {}", err.message));
    let got = rows(&rel);
    assert_eq!(
        (got.first().map(String::as_str), got.len()),
        (Some(first), count),
        "bt_page_items('{index}', {block})"
    );
}

fn error(e: &PgEngine, func: &str, index: &str, block: Option<i64>) -> String {
    match e.inspect_btree(func, index, block) {
        Ok(rel) => panic!("{func}('{index}', {block:?}) answered {:?}", rows(&rel)),
        Err(err) => err.message.clone(),
    }
}

/// Small indexes of each modelled key type: bytes, alignment, NULLs, INCLUDE.
#[test]
fn each_type_is_laid_out_as_on_disk() {
    let e = engine(
        "create table t4(id int primary key);
         insert into t4 values (1),(2),(-1);
         create table tt(s text primary key, u uuid unique);
         insert into tt values ('a', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), ('hello world', '00000000-0000-0000-0000-000000000001');
         create table m(a int, b bigint, c text, d float8);
         create index m_ab on m(a,b);
         create index m_inc on m(a) include (c);
         create index m_d on m(d);
         insert into m values (1, 2, 'xyz', 1.5), (1, null, 'abcdefghij', null), (3, 4, null, -2);
         create table iv(i interval, dt date, b boolean, n smallint);
         create index iv_i on iv(i);
         create index iv_dbn on iv(dt, b, n);
         insert into iv values ('1 day 2 hours', '2000-01-03', true, 5);",
    );
    expect(
        &e,
        "bt_page_items",
        "t4_pkey",
        Some(1),
        &[
            "1 | (0,3) | 16 | f | f | ff ff ff ff 00 00 00 00 | f | (0,3) | NULL",
            "2 | (0,1) | 16 | f | f | 01 00 00 00 00 00 00 00 | f | (0,1) | NULL",
            "3 | (0,2) | 16 | f | f | 02 00 00 00 00 00 00 00 | f | (0,2) | NULL",
        ],
    );
    expect(&e, "bt_page_items", "tt_pkey", Some(1), &[
        "1 | (0,1) | 16 | f | t | 05 61 00 00 00 00 00 00 | f | (0,1) | NULL",
        "2 | (0,2) | 24 | f | t | 19 68 65 6c 6c 6f 20 77 6f 72 6c 64 00 00 00 00 | f | (0,2) | NULL",
    ]);
    expect(&e, "bt_page_items", "tt_u_key", Some(1), &[
        "1 | (0,2) | 24 | f | f | 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 | f | (0,2) | NULL",
        "2 | (0,1) | 24 | f | f | a0 ee bc 99 9c 0b 4e f8 bb 6d 6b b9 bd 38 0a 11 | f | (0,1) | NULL",
    ]);
    expect(
        &e,
        "bt_metap",
        "tt_u_key",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | t"],
    );
    expect(&e, "bt_page_items", "m_ab", Some(1), &[
        "1 | (0,1) | 24 | f | f | 01 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00 | f | (0,1) | NULL",
        "2 | (0,2) | 24 | t | f | 01 00 00 00 00 00 00 00 | f | (0,2) | NULL",
        "3 | (0,3) | 24 | f | f | 03 00 00 00 00 00 00 00 04 00 00 00 00 00 00 00 | f | (0,3) | NULL",
    ]);
    expect(&e, "bt_page_items", "m_inc", Some(1), &[
        "1 | (0,1) | 16 | f | t | 01 00 00 00 09 78 79 7a | f | (0,1) | NULL",
        "2 | (0,2) | 24 | f | t | 01 00 00 00 17 61 62 63 64 65 66 67 68 69 6a 00 | f | (0,2) | NULL",
        "3 | (0,3) | 24 | t | f | 03 00 00 00 00 00 00 00 | f | (0,3) | NULL",
    ]);
    expect(
        &e,
        "bt_page_items",
        "m_d",
        Some(1),
        &[
            "1 | (0,3) | 16 | f | f | 00 00 00 00 00 00 00 c0 | f | (0,3) | NULL",
            "2 | (0,1) | 16 | f | f | 00 00 00 00 00 00 f8 3f | f | (0,1) | NULL",
            "3 | (0,2) | 16 | t | f |  | f | (0,2) | NULL",
        ],
    );
    expect(
        &e,
        "bt_metap",
        "m_ab",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | t"],
    );
    expect(
        &e,
        "bt_metap",
        "m_inc",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | f"],
    );
    expect(
        &e,
        "bt_metap",
        "m_d",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | f"],
    );
    expect(
        &e,
        "bt_page_stats",
        "m_inc",
        Some(1),
        &["1 | l | 3 | 0 | 21 | 8192 | 8072 | 0 | 0 | 0 | 3"],
    );
    expect(
        &e,
        "pgstatindex",
        "m_inc",
        None,
        &["4 | 0 | 16384 | 1 | 0 | 1 | 0 | 0 | 0.98 | 0"],
    );
    expect(
        &e,
        "bt_metap",
        "iv_i",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | f"],
    );
    expect(&e, "bt_page_items", "iv_i", Some(1), &[
        "1 | (0,1) | 24 | f | f | 00 48 27 ad 01 00 00 00 01 00 00 00 00 00 00 00 | f | (0,1) | NULL",
    ]);
    expect(
        &e,
        "bt_page_items",
        "iv_dbn",
        Some(1),
        &["1 | (0,1) | 16 | f | f | 02 00 00 00 01 00 05 00 | f | (0,1) | NULL"],
    );
}

/// 1000 ascending bigint keys: two leaves then a third, and a root above them.
#[test]
fn a_root_split_makes_high_keys_and_a_minus_infinity_pivot() {
    let e = engine(
        "create table demo(id bigint primary key, t text);
         insert into demo select i, 'x'||i from generate_series(1,1000) i;",
    );
    expect(
        &e,
        "bt_metap",
        "demo_pkey",
        None,
        &["340322 | 4 | 3 | 1 | 3 | 1 | 0 | -1 | t"],
    );
    expect(
        &e,
        "bt_page_stats",
        "demo_pkey",
        Some(1),
        &["1 | l | 367 | 0 | 16 | 8192 | 808 | 0 | 2 | 0 | 1"],
    );
    expect(
        &e,
        "bt_page_stats",
        "demo_pkey",
        Some(2),
        &["2 | l | 367 | 0 | 16 | 8192 | 808 | 1 | 4 | 0 | 1"],
    );
    expect(
        &e,
        "bt_page_stats",
        "demo_pkey",
        Some(3),
        &["3 | r | 3 | 0 | 13 | 8192 | 8096 | 0 | 0 | 1 | 2"],
    );
    expect(
        &e,
        "bt_page_stats",
        "demo_pkey",
        Some(4),
        &["4 | l | 268 | 0 | 16 | 8192 | 2788 | 2 | 0 | 0 | 1"],
    );
    expect(
        &e,
        "bt_page_items",
        "demo_pkey",
        Some(1),
        &[
            "1 | (1,1) | 16 | f | f | 6f 01 00 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (0,1) | 16 | f | f | 01 00 00 00 00 00 00 00 | f | (0,1) | NULL",
            "3 | (0,2) | 16 | f | f | 02 00 00 00 00 00 00 00 | f | (0,2) | NULL",
            "4 | (0,3) | 16 | f | f | 03 00 00 00 00 00 00 00 | f | (0,3) | NULL",
            "... 367 rows",
            "366 | (1,180) | 16 | f | f | 6d 01 00 00 00 00 00 00 | f | (1,180) | NULL",
            "367 | (1,181) | 16 | f | f | 6e 01 00 00 00 00 00 00 | f | (1,181) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "demo_pkey",
        Some(2),
        &[
            "1 | (3,1) | 16 | f | f | dd 02 00 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (1,182) | 16 | f | f | 6f 01 00 00 00 00 00 00 | f | (1,182) | NULL",
            "3 | (1,183) | 16 | f | f | 70 01 00 00 00 00 00 00 | f | (1,183) | NULL",
            "4 | (1,184) | 16 | f | f | 71 01 00 00 00 00 00 00 | f | (1,184) | NULL",
            "... 367 rows",
            "366 | (3,176) | 16 | f | f | db 02 00 00 00 00 00 00 | f | (3,176) | NULL",
            "367 | (3,177) | 16 | f | f | dc 02 00 00 00 00 00 00 | f | (3,177) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "demo_pkey",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (2,1) | 16 | f | f | 6f 01 00 00 00 00 00 00 | NULL | NULL | NULL",
            "3 | (4,1) | 16 | f | f | dd 02 00 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "demo_pkey",
        Some(4),
        &[
            "1 | (3,178) | 16 | f | f | dd 02 00 00 00 00 00 00 | f | (3,178) | NULL",
            "2 | (3,179) | 16 | f | f | de 02 00 00 00 00 00 00 | f | (3,179) | NULL",
            "3 | (3,180) | 16 | f | f | df 02 00 00 00 00 00 00 | f | (3,180) | NULL",
            "4 | (3,181) | 16 | f | f | e0 02 00 00 00 00 00 00 | f | (3,181) | NULL",
            "... 268 rows",
            "267 | (5,74) | 16 | f | f | e7 03 00 00 00 00 00 00 | f | (5,74) | NULL",
            "268 | (5,75) | 16 | f | f | e8 03 00 00 00 00 00 00 | f | (5,75) | NULL",
        ],
    );
    expect(
        &e,
        "pgstatindex",
        "demo_pkey",
        None,
        &["4 | 1 | 40960 | 3 | 1 | 3 | 0 | 0 | 81.99 | 0"],
    );
}

/// 200000 ascending keys: the root splits and internal pages get high keys.
#[test]
fn three_levels_from_sequential_inserts() {
    let e = engine(
        "create table s3(id bigint primary key);
         insert into s3 select i from generate_series(1,200000) i;",
    );
    expect(
        &e,
        "bt_metap",
        "s3_pkey",
        None,
        &["340322 | 4 | 412 | 2 | 412 | 2 | 0 | -1 | t"],
    );
    expect(
        &e,
        "pgstatindex",
        "s3_pkey",
        None,
        &["4 | 2 | 4513792 | 412 | 3 | 547 | 0 | 0 | 90 | 0"],
    );
    expect(
        &e,
        "bt_page_stats",
        "s3_pkey",
        Some(412),
        &["412 | r | 2 | 0 | 12 | 8192 | 8116 | 0 | 0 | 2 | 2"],
    );
    expect(
        &e,
        "bt_page_items",
        "s3_pkey",
        Some(412),
        &[
            "1 | (3,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (411,1) | 16 | f | f | 77 97 01 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_stats",
        "s3_pkey",
        Some(3),
        &["3 | i | 286 | 0 | 15 | 8192 | 2436 | 0 | 411 | 1 | 0"],
    );
    expect(
        &e,
        "bt_page_items",
        "s3_pkey",
        Some(3),
        &[
            "1 | (287,1) | 16 | f | f | 77 97 01 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "3 | (2,1) | 16 | f | f | 6f 01 00 00 00 00 00 00 | NULL | NULL | NULL",
            "4 | (4,1) | 16 | f | f | dd 02 00 00 00 00 00 00 | NULL | NULL | NULL",
            "... 286 rows",
            "285 | (285,1) | 16 | f | f | 9b 94 01 00 00 00 00 00 | NULL | NULL | NULL",
            "286 | (286,1) | 16 | f | f | 09 96 01 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_stats",
        "s3_pkey",
        Some(411),
        &["411 | i | 262 | 0 | 15 | 8192 | 2916 | 3 | 0 | 1 | 0"],
    );
    expect(
        &e,
        "bt_page_items",
        "s3_pkey",
        Some(411),
        &[
            "1 | (287,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (288,1) | 16 | f | f | e5 98 01 00 00 00 00 00 | NULL | NULL | NULL",
            "3 | (289,1) | 16 | f | f | 53 9a 01 00 00 00 00 00 | NULL | NULL | NULL",
            "4 | (290,1) | 16 | f | f | c1 9b 01 00 00 00 00 00 | NULL | NULL | NULL",
            "... 262 rows",
            "261 | (549,1) | 16 | f | f | 2f 0b 03 00 00 00 00 00 | NULL | NULL | NULL",
            "262 | (550,1) | 16 | f | f | 9d 0c 03 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_stats",
        "s3_pkey",
        Some(413),
        &["413 | l | 367 | 0 | 16 | 8192 | 808 | 410 | 414 | 0 | 1"],
    );
    expect(
        &e,
        "bt_page_items",
        "s3_pkey",
        Some(413),
        &[
            "1 | (663,1) | 16 | f | f | 2d 4a 02 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (662,83) | 16 | f | f | bf 48 02 00 00 00 00 00 | f | (662,83) | NULL",
            "3 | (662,84) | 16 | f | f | c0 48 02 00 00 00 00 00 | f | (662,84) | NULL",
            "4 | (662,85) | 16 | f | f | c1 48 02 00 00 00 00 00 | f | (662,85) | NULL",
            "... 367 rows",
            "366 | (663,221) | 16 | f | f | 2b 4a 02 00 00 00 00 00 | f | (663,221) | NULL",
            "367 | (663,222) | 16 | f | f | 2c 4a 02 00 00 00 00 00 | f | (663,222) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_stats",
        "s3_pkey",
        Some(550),
        &["550 | l | 164 | 0 | 16 | 8192 | 4868 | 549 | 0 | 0 | 1"],
    );
    expect(
        &e,
        "bt_page_items",
        "s3_pkey",
        Some(550),
        &[
            "1 | (884,53) | 16 | f | f | 9d 0c 03 00 00 00 00 00 | f | (884,53) | NULL",
            "2 | (884,54) | 16 | f | f | 9e 0c 03 00 00 00 00 00 | f | (884,54) | NULL",
            "3 | (884,55) | 16 | f | f | 9f 0c 03 00 00 00 00 00 | f | (884,55) | NULL",
            "4 | (884,56) | 16 | f | f | a0 0c 03 00 00 00 00 00 | f | (884,56) | NULL",
            "... 164 rows",
            "163 | (884,215) | 16 | f | f | 3f 0d 03 00 00 00 00 00 | f | (884,215) | NULL",
            "164 | (884,216) | 16 | f | f | 40 0d 03 00 00 00 00 00 | f | (884,216) | NULL",
        ],
    );
}

/// 200000 keys in a scattered order: half-full leaves out of block order.
#[test]
fn three_levels_from_random_inserts() {
    let e = engine(
        "create table r3(id int primary key);
         insert into r3 select (i*7919) % 200003 from generate_series(1,200000) i;",
    );
    expect(
        &e,
        "bt_metap",
        "r3_pkey",
        None,
        &["340322 | 4 | 412 | 2 | 412 | 2 | 0 | -1 | t"],
    );
    expect(
        &e,
        "pgstatindex",
        "r3_pkey",
        None,
        &["4 | 2 | 4825088 | 412 | 3 | 585 | 0 | 0 | 84.17 | 49.91"],
    );
    expect(
        &e,
        "bt_page_stats",
        "r3_pkey",
        Some(412),
        &["412 | r | 2 | 0 | 12 | 8192 | 8116 | 0 | 0 | 2 | 2"],
    );
    expect(
        &e,
        "bt_page_items",
        "r3_pkey",
        Some(412),
        &[
            "1 | (3,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (411,1) | 16 | f | f | c3 0f 02 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_stats",
        "r3_pkey",
        Some(3),
        &["3 | i | 385 | 0 | 15 | 8192 | 456 | 0 | 411 | 1 | 0"],
    );
    expect(
        &e,
        "bt_page_items",
        "r3_pkey",
        Some(3),
        &[
            "1 | (6,1) | 16 | f | f | c3 0f 02 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "3 | (457,1) | 16 | f | f | 53 01 00 00 00 00 00 00 | NULL | NULL | NULL",
            "4 | (252,1) | 16 | f | f | b1 02 00 00 00 00 00 00 | NULL | NULL | NULL",
            "... 385 rows",
            "384 | (161,1) | 16 | f | f | e9 0c 02 00 00 00 00 00 | NULL | NULL | NULL",
            "385 | (337,1) | 16 | f | f | 54 0e 02 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_stats",
        "r3_pkey",
        Some(100),
        &["100 | l | 361 | 0 | 16 | 8192 | 928 | 452 | 404 | 0 | 1"],
    );
    expect(
        &e,
        "bt_page_items",
        "r3_pkey",
        Some(100),
        &[
            "1 | (313,1) | 16 | f | f | f9 9f 00 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (98,133) | 16 | f | f | 91 9e 00 00 00 00 00 00 | f | (98,133) | NULL",
            "3 | (396,143) | 16 | f | f | 92 9e 00 00 00 00 00 00 | f | (396,143) | NULL",
            "4 | (694,153) | 16 | f | f | 93 9e 00 00 00 00 00 00 | f | (694,153) | NULL",
            "... 361 rows",
            "360 | (602,33) | 16 | f | f | f7 9f 00 00 00 00 00 00 | f | (602,33) | NULL",
            "361 | (15,50) | 16 | f | f | f8 9f 00 00 00 00 00 00 | f | (15,50) | NULL",
        ],
    );
}

/// CREATE INDEX over 50000 scattered rows: leaves filled to the fillfactor.
#[test]
fn create_index_on_a_filled_table() {
    let e = engine(
        "create table b(id int);
         insert into b select (i*7919) % 100003 from generate_series(1,50000) i;
         create index b_id on b(id);",
    );
    expect(
        &e,
        "bt_metap",
        "b_id",
        None,
        &["340322 | 4 | 3 | 1 | 3 | 1 | 0 | -1 | t"],
    );
    expect(
        &e,
        "pgstatindex",
        "b_id",
        None,
        &["4 | 1 | 1138688 | 3 | 1 | 137 | 0 | 0 | 89.83 | 0"],
    );
    expect(
        &e,
        "bt_page_stats",
        "b_id",
        Some(1),
        &["1 | l | 367 | 0 | 16 | 8192 | 808 | 0 | 2 | 0 | 1"],
    );
    expect(
        &e,
        "bt_page_items",
        "b_id",
        Some(1),
        &[
            "1 | (134,1) | 16 | f | f | de 02 00 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (209,84) | 16 | f | f | 01 00 00 00 00 00 00 00 | f | (209,84) | NULL",
            "3 | (185,141) | 16 | f | f | 03 00 00 00 00 00 00 00 | f | (185,141) | NULL",
            "4 | (161,198) | 16 | f | f | 05 00 00 00 00 00 00 00 | f | (161,198) | NULL",
            "... 367 rows",
            "366 | (181,199) | 16 | f | f | da 02 00 00 00 00 00 00 | f | (181,199) | NULL",
            "367 | (158,30) | 16 | f | f | dc 02 00 00 00 00 00 00 | f | (158,30) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_stats",
        "b_id",
        Some(3),
        &["3 | r | 137 | 0 | 15 | 8192 | 5416 | 0 | 0 | 1 | 2"],
    );
    expect(
        &e,
        "bt_page_items",
        "b_id",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (2,1) | 16 | f | f | de 02 00 00 00 00 00 00 | NULL | NULL | NULL",
            "3 | (4,1) | 16 | f | f | bb 05 00 00 00 00 00 00 | NULL | NULL | NULL",
            "4 | (5,1) | 16 | f | f | 97 08 00 00 00 00 00 00 | NULL | NULL | NULL",
            "... 137 rows",
            "136 | (137,1) | 16 | f | f | 08 82 01 00 00 00 00 00 | NULL | NULL | NULL",
            "137 | (138,1) | 16 | f | f | e6 84 01 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
}

/// No row was ever inserted: no root yet.
#[test]
fn an_empty_index_is_its_metapage() {
    let e = engine("create table e(id int primary key);");
    expect(
        &e,
        "bt_metap",
        "e_pkey",
        None,
        &["340322 | 4 | 0 | 0 | 0 | 0 | 0 | -1 | t"],
    );
    expect(
        &e,
        "pgstatindex",
        "e_pkey",
        None,
        &["4 | 0 | 8192 | 0 | 0 | 0 | 0 | 0 | NaN | NaN"],
    );
}

/// Updates (HOT and not) and a delete, then VACUUM removes the dead entries.
#[test]
fn unique_index_after_updates_deletes_and_vacuum() {
    let e = engine(
        "create table u(id int primary key, v int);
         insert into u select i, i from generate_series(1,10) i;
         update u set v = 0 where id = 3;
         update u set id = id + 100 where id = 5;
         delete from u where id = 7;
         vacuum u;",
    );
    expect(
        &e,
        "bt_metap",
        "u_pkey",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | t"],
    );
    expect(
        &e,
        "bt_page_stats",
        "u_pkey",
        Some(1),
        &["1 | l | 9 | 0 | 16 | 8192 | 7968 | 0 | 0 | 0 | 3"],
    );
    expect(
        &e,
        "bt_page_items",
        "u_pkey",
        Some(1),
        &[
            "1 | (0,1) | 16 | f | f | 01 00 00 00 00 00 00 00 | f | (0,1) | NULL",
            "2 | (0,2) | 16 | f | f | 02 00 00 00 00 00 00 00 | f | (0,2) | NULL",
            "3 | (0,3) | 16 | f | f | 03 00 00 00 00 00 00 00 | f | (0,3) | NULL",
            "4 | (0,4) | 16 | f | f | 04 00 00 00 00 00 00 00 | f | (0,4) | NULL",
            "... 9 rows",
            "8 | (0,10) | 16 | f | f | 0a 00 00 00 00 00 00 00 | f | (0,10) | NULL",
            "9 | (0,12) | 16 | f | f | 69 00 00 00 00 00 00 00 | f | (0,12) | NULL",
        ],
    );
    expect(
        &e,
        "pgstatindex",
        "u_pkey",
        None,
        &["4 | 0 | 16384 | 1 | 0 | 1 | 0 | 0 | 2.26 | 0"],
    );
}
/// PostgreSQL's errors for a wrong relation or block, in its words.
#[test]
fn wrong_relations_and_blocks_are_refused_as_postgresql_refuses_them() {
    let e = engine(
        "create table demo(id bigint primary key, t text);
         insert into demo select i, 'x'||i from generate_series(1,1000) i;",
    );
    let cases: [(&str, &str, Option<i64>, &str); 12] = [
        (
            "bt_page_stats",
            "demo_pkey",
            Some(0),
            "block 0 is a meta page",
        ),
        (
            "bt_page_items",
            "demo_pkey",
            Some(0),
            "block 0 is a meta page",
        ),
        (
            "bt_page_stats",
            "demo_pkey",
            Some(5),
            "block number out of range",
        ),
        (
            "bt_page_items",
            "demo_pkey",
            Some(5),
            "block number out of range",
        ),
        (
            "bt_page_stats",
            "demo_pkey",
            Some(-1),
            "invalid block number",
        ),
        (
            "bt_page_stats",
            "demo",
            Some(1),
            "\"demo\" is not a btree index",
        ),
        ("bt_metap", "demo", None, "\"demo\" is not a btree index"),
        (
            "pgstatindex",
            "demo",
            None,
            "relation \"demo\" is not a btree index",
        ),
        (
            "bt_page_stats",
            "nope",
            Some(1),
            "relation \"nope\" does not exist",
        ),
        (
            "bt_page_stats",
            "\"DEMO_PKEY\"",
            Some(3),
            "relation \"DEMO_PKEY\" does not exist",
        ),
        (
            "bt_page_items_bytea",
            "demo_pkey",
            Some(0),
            "block is a meta page",
        ),
        (
            "bt_page_items_bytea",
            "demo_pkey",
            Some(9),
            "block number 9 is out of range for relation \"demo_pkey\"",
        ),
    ];
    for (func, index, block, message) in cases {
        assert_eq!(
            error(&e, func, index, block),
            message,
            "{func}('{index}', {block:?})"
        );
    }
    assert_eq!(
        error(&e, "bt_page_items_bytea", "demo", Some(0)),
        "input page is not a valid btree page"
    );
    // Unquoted names fold to lower case and may be qualified by the schema.
    let root = ["3 | r | 3 | 0 | 13 | 8192 | 8096 | 0 | 0 | 1 | 2"];
    expect(&e, "bt_page_stats", "DEMO_PKEY", Some(3), &root);
    expect(&e, "bt_page_stats", "public.demo_pkey", Some(3), &root);
    // The bytea form reads the same page.
    expect(
        &e,
        "bt_page_items_bytea",
        "demo_pkey",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (2,1) | 16 | f | f | 6f 01 00 00 00 00 00 00 | NULL | NULL | NULL",
            "3 | (4,1) | 16 | f | f | dd 02 00 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
}

/// Index scans that find a row dead to all set the LP_DEAD hint on its entry
/// (ids 7 and 5, the latter's old version after a key update), and so does the
/// uniqueness check of an insert (id 8): `dead`, `dead_items` and BTP_HAS_GARBAGE
/// (64) in the flags. The HOT update of id 3 made no entry.
#[test]
fn killed_entries_show_lp_dead() {
    let e = engine(
        "create table u(id int primary key, v int);
         insert into u select i, i from generate_series(1,10) i;
         update u set v = 0 where id = 3;
         update u set id = id + 100 where id = 5;
         delete from u where id = 7;
         delete from u where id = 8;
         set enable_seqscan = off;
         select * from u where id = 7;
         select * from u where id = 5;
         insert into u values (8, 80);",
    );
    expect(
        &e,
        "bt_page_stats",
        "u_pkey",
        Some(1),
        &["1 | l | 9 | 3 | 16 | 8192 | 7908 | 0 | 0 | 0 | 67"],
    );
    expect(
        &e,
        "bt_page_items",
        "u_pkey",
        Some(1),
        &[
            "1 | (0,1) | 16 | f | f | 01 00 00 00 00 00 00 00 | f | (0,1) | NULL",
            "2 | (0,2) | 16 | f | f | 02 00 00 00 00 00 00 00 | f | (0,2) | NULL",
            "3 | (0,3) | 16 | f | f | 03 00 00 00 00 00 00 00 | f | (0,3) | NULL",
            "4 | (0,4) | 16 | f | f | 04 00 00 00 00 00 00 00 | f | (0,4) | NULL",
            "... 12 rows",
            "11 | (0,10) | 16 | f | f | 0a 00 00 00 00 00 00 00 | f | (0,10) | NULL",
            "12 | (0,12) | 16 | f | f | 69 00 00 00 00 00 00 00 | f | (0,12) | NULL",
        ],
    );
    expect(
        &e,
        "pgstatindex",
        "u_pkey",
        None,
        &["4 | 0 | 16384 | 1 | 0 | 1 | 0 | 0 | 2.99 | 0"],
    );
}

/// PostgreSQL merges duplicates into posting lists once a leaf fills
/// (`2 | (16,8414) | 1352 | … | {"(0,3)","(0,6)",…}`), and truncates the pivots
/// of a multi-column index to the columns that separate (`1 | (1,1) | 16 | …
/// | 6f 01 00 00 00 00 00 00`): neither is modelled, so both are refused.
#[test]
fn deduplication_is_refused() {
    let e = engine(
        "create table d(a int);
         create index d_a on d(a);
         insert into d select i % 3 from generate_series(1,2000) i;",
    );
    for (func, block) in [
        ("bt_page_items", Some(1)),
        ("bt_metap", None),
        ("pgstatindex", None),
    ] {
        let message = error(&e, func, "d_a", block);
        assert!(
            message.contains("deduplication"),
            "{func}('d_a'): {message}"
        );
        assert!(
            message.ends_with("is not supported by IndexLab"),
            "{message}"
        );
    }
}

/// numeric keys: the short varlena header, NUMERIC_SHORT's sign, scale and
/// weight, then base-10000 digits (not an equal-image type: no deduplication).
#[test]
fn numeric_keys_are_varlenas_of_base_10000_digits() {
    let e = engine(
        "create table nu(n numeric, p numeric(10,2));
         create index nu_n on nu(n);
         create index nu_p on nu(p);
         insert into nu values (1.5, 3.1), (-2, -0.01), (0, 0), (12345.6789, 99999999.99), (0.001, 1), (123456789012345678901234567890, null), (-0.000000000000000000000001, 5);",
    );
    expect(&e, "bt_page_items", "nu_n", Some(1), &[
        "1 | (0,2) | 16 | f | t | 0b 00 a0 02 00 00 00 00 | f | (0,2) | NULL",
        "2 | (0,7) | 16 | f | t | 0b 7a ac 01 00 00 00 00 | f | (0,7) | NULL",
        "3 | (0,3) | 16 | f | t | 07 00 80 00 00 00 00 00 | f | (0,3) | NULL",
        "4 | (0,5) | 16 | f | t | 0b ff 81 0a 00 00 00 00 | f | (0,5) | NULL",
            "5 | (0,1) | 16 | f | t | 0f 80 80 01 00 88 13 00 | f | (0,1) | NULL",
        "6 | (0,4) | 24 | f | t | 13 01 82 01 00 29 09 85 1a 00 00 00 00 00 00 00 | f | (0,4) | NULL",
        "7 | (0,6) | 32 | f | t | 27 07 80 0c 00 80 0d d2 1e d2 04 2e 16 34 23 80 0d d2 1e 00 00 00 00 00 | f | (0,6) | NULL",
    ]);
    expect(&e, "bt_page_items", "nu_p", Some(1), &[
        "1 | (0,2) | 16 | f | t | 0b 7f a1 64 00 00 00 00 | f | (0,2) | NULL",
        "2 | (0,3) | 16 | f | t | 07 00 81 00 00 00 00 00 | f | (0,3) | NULL",
        "3 | (0,5) | 16 | f | t | 0b 00 81 01 00 00 00 00 | f | (0,5) | NULL",
        "4 | (0,1) | 16 | f | t | 0f 00 81 03 00 e8 03 00 | f | (0,1) | NULL",
            "5 | (0,7) | 16 | f | t | 0b 00 81 05 00 00 00 00 | f | (0,7) | NULL",
        "6 | (0,4) | 24 | f | t | 13 01 81 0f 27 0f 27 ac 26 00 00 00 00 00 00 00 | f | (0,4) | NULL",
        "7 | (0,6) | 16 | t | f |  | f | (0,6) | NULL",
    ]);
    expect(
        &e,
        "bt_metap",
        "nu_n",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | f"],
    );
}

/// DESC, expression and partial indexes, timestamps, smallint and boolean,
/// and a text too long for a 1-byte header (4-byte header, aligned to 4).
#[test]
fn desc_expression_partial_and_long_keys() {
    let e = engine(
        "create table x(a int, s text, f float8, ts timestamp, tz timestamptz, sm smallint, bo boolean);
         create index x_desc on x(a desc, s);
         create index x_lower on x(lower(s));
         create index x_part on x(a) where a > 1;
         create index x_ts on x(ts);
         create index x_tz on x(tz);
         create index x_sm on x(sm, bo);
         create index x_long on x(s, a);
         insert into x values (1, 'Abc', 0.5, '2024-03-01 12:34:56', '2024-03-01 12:34:56+00', -3, false),
           (2, repeat('y', 150), -0.0, '1999-12-31', '1999-12-31 00:00:00+00', 7, true),
           (3, null, null, null, null, null, null);",
    );
    expect(&e, "bt_page_items", "x_desc", Some(1), &[
        "1 | (0,3) | 24 | t | f | 03 00 00 00 00 00 00 00 | f | (0,3) | NULL",
        "2 | (0,2) | 168 | f | t | 02 00 00 00 68 02 00 00 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 00 00 | f | (0,2) | NULL",
        "3 | (0,1) | 16 | f | t | 01 00 00 00 09 41 62 63 | f | (0,1) | NULL",
    ]);
    expect(&e, "bt_page_items", "x_lower", Some(1), &[
        "1 | (0,1) | 16 | f | t | 09 61 62 63 00 00 00 00 | f | (0,1) | NULL",
        "2 | (0,2) | 168 | f | t | 68 02 00 00 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 00 00 00 00 00 00 | f | (0,2) | NULL",
        "3 | (0,3) | 16 | t | f |  | f | (0,3) | NULL",
    ]);
    expect(
        &e,
        "bt_page_items",
        "x_part",
        Some(1),
        &[
            "1 | (0,2) | 16 | f | f | 02 00 00 00 00 00 00 00 | f | (0,2) | NULL",
            "2 | (0,3) | 16 | f | f | 03 00 00 00 00 00 00 00 | f | (0,3) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "x_ts",
        Some(1),
        &[
            "1 | (0,2) | 16 | f | f | 00 a0 28 e2 eb ff ff ff | f | (0,2) | NULL",
            "2 | (0,1) | 16 | f | f | 00 dc 3d 5f 97 b5 02 00 | f | (0,1) | NULL",
            "3 | (0,3) | 16 | t | f |  | f | (0,3) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "x_tz",
        Some(1),
        &[
            "1 | (0,2) | 16 | f | f | 00 a0 28 e2 eb ff ff ff | f | (0,2) | NULL",
            "2 | (0,1) | 16 | f | f | 00 dc 3d 5f 97 b5 02 00 | f | (0,1) | NULL",
            "3 | (0,3) | 16 | t | f |  | f | (0,3) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "x_sm",
        Some(1),
        &[
            "1 | (0,1) | 16 | f | f | fd ff 00 00 00 00 00 00 | f | (0,1) | NULL",
            "2 | (0,2) | 16 | f | f | 07 00 01 00 00 00 00 00 | f | (0,2) | NULL",
            "3 | (0,3) | 16 | t | f |  | f | (0,3) | NULL",
        ],
    );
    expect(&e, "bt_page_items", "x_long", Some(1), &[
        "1 | (0,1) | 16 | f | t | 09 41 62 63 01 00 00 00 | f | (0,1) | NULL",
        "2 | (0,2) | 168 | f | t | 68 02 00 00 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 79 00 00 02 00 00 00 | f | (0,2) | NULL",
        "3 | (0,3) | 24 | t | f | 03 00 00 00 00 00 00 00 | f | (0,3) | NULL",
    ]);
    expect(
        &e,
        "bt_page_stats",
        "x_long",
        Some(1),
        &["1 | l | 3 | 0 | 69 | 8192 | 7928 | 0 | 0 | 0 | 3"],
    );
    expect(
        &e,
        "bt_metap",
        "x_lower",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | t"],
    );
    expect(
        &e,
        "bt_metap",
        "x_ts",
        None,
        &["340322 | 4 | 1 | 0 | 1 | 0 | 0 | -1 | t"],
    );
}

/// VACUUM deletes a leaf it emptied (PostgreSQL then shows block 1 as
/// `1 | d | 0 | 0 | 0 | 8192 | 8140 | 0 | 2 | 0 | 261`, and pgstatindex one
/// deleted page); the model keeps the page, so the index is refused.
#[test]
fn emptied_pages_are_refused() {
    let e = engine(
        "create table dv(id bigint primary key);
         insert into dv select i from generate_series(1,1000) i;
         delete from dv where id <= 400;
         vacuum dv;",
    );
    for (func, block) in [
        ("pgstatindex", None),
        ("bt_page_stats", Some(1)),
        ("bt_metap", None),
    ] {
        let message = error(&e, func, "dv_pkey", block);
        assert!(
            message.contains("deletion of emptied B-tree pages"),
            "{message}"
        );
        assert!(
            message.ends_with("is not supported by IndexLab"),
            "{message}"
        );
    }
}

/// A leaf holding killed entries fills up: PostgreSQL deletes them to make
/// room (simple deletion) before it splits (pgstatindex then shows
/// `4 | 1 | 32768 | 3 | 1 | 2 | 0 | 0 | 61.14 | 0`); the model splits at
/// once, so its pages are no longer the database's and are refused.
#[test]
fn a_split_that_postgresql_would_have_avoided_is_refused() {
    let script = "create table k(id int primary key);
         insert into k select i from generate_series(1,400) i;
         delete from k where id in (1, 2, 3);
         set enable_seqscan = off;
         select * from k where id = 1;
         select * from k where id = 2;
         select * from k where id = 3;";
    let e = engine(script);
    expect(
        &e,
        "bt_page_stats",
        "k_pkey",
        Some(1),
        &["1 | l | 397 | 3 | 16 | 8192 | 148 | 0 | 0 | 0 | 67"],
    );
    let e = engine(&format!(
        "{script}\ninsert into k select i from generate_series(401,500) i;"
    ));
    for (func, block) in [("bt_page_stats", Some(1)), ("pgstatindex", None)] {
        let message = error(&e, func, "k_pkey", block);
        assert!(message.contains("LP_DEAD"), "{message}");
        assert!(
            message.ends_with("is not supported by IndexLab"),
            "{message}"
        );
    }
}

/// Franck Pachot's "dead tuple space reused without vacuum" index: a bigint key
/// with a 500-byte INCLUDE column. The high key and the root's downlink keep
/// the key alone (16 bytes, not 520).
#[test]
fn an_include_index_truncates_its_pivots_to_the_key() {
    let e = engine(
        "create table demo (id bigint, value text);
         create unique index demo_pkey on demo (id) include (value);
         insert into demo select generate_series(0,15), lpad('x',500,'x');",
    );
    expect(
        &e,
        "bt_metap",
        "demo_pkey",
        None,
        &["340322 | 4 | 3 | 1 | 3 | 1 | 0 | -1 | f"],
    );
    expect_first(
        &e,
        "demo_pkey",
        1,
        "1 | (0,1) | 16 | f | f | 0d 00 00 00 00 00 00 00 | NULL | NULL | NULL",
        14,
    );
    expect_first(&e, "demo_pkey", 2, "1 | (0,14) | 520 | f | t | 0d 00 00 00 00 00 00 00 e0 07 00 00 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 78 | f | (0,14) | NULL", 3);
    expect(
        &e,
        "bt_page_items",
        "demo_pkey",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (2,1) | 16 | f | f | 0d 00 00 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "pgstatindex",
        "demo_pkey",
        None,
        &["4 | 1 | 32768 | 3 | 1 | 2 | 0 | 0 | 51.59 | 0"],
    );
}

/// Two int4 columns: pivots keep the first column alone where it differs
/// (ctid offset 1), both where only the second does (offset 2).
#[test]
fn multi_column_pivots_keep_the_attributes_that_differ() {
    let e = engine(
        "create table mm(a int, b int);
         create index mm_ab on mm(a,b);
         insert into mm select i, i from generate_series(1,2000) i;
         create table t2 (a int, b int);
         create index t2_ab on t2 (a, b);
         insert into t2 select n / 1000, n from generate_series(1, 5000) n;",
    );
    expect(
        &e,
        "bt_metap",
        "mm_ab",
        None,
        &["340322 | 4 | 3 | 1 | 3 | 1 | 0 | -1 | t"],
    );
    expect(
        &e,
        "pgstatindex",
        "mm_ab",
        None,
        &["4 | 1 | 65536 | 3 | 1 | 6 | 0 | 0 | 82.03 | 0"],
    );
    expect(
        &e,
        "bt_page_items",
        "mm_ab",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (2,1) | 16 | f | f | 6f 01 00 00 00 00 00 00 | NULL | NULL | NULL",
            "3 | (4,1) | 16 | f | f | dd 02 00 00 00 00 00 00 | NULL | NULL | NULL",
            "4 | (5,1) | 16 | f | f | 4b 04 00 00 00 00 00 00 | NULL | NULL | NULL",
            "5 | (6,1) | 16 | f | f | b9 05 00 00 00 00 00 00 | NULL | NULL | NULL",
            "6 | (7,1) | 16 | f | f | 27 07 00 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "mm_ab",
        Some(1),
        &[
            "1 | (1,1) | 16 | f | f | 6f 01 00 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (0,1) | 16 | f | f | 01 00 00 00 01 00 00 00 | f | (0,1) | NULL",
            "3 | (0,2) | 16 | f | f | 02 00 00 00 02 00 00 00 | f | (0,2) | NULL",
            "4 | (0,3) | 16 | f | f | 03 00 00 00 03 00 00 00 | f | (0,3) | NULL",
            "... 367 rows",
            "366 | (1,139) | 16 | f | f | 6d 01 00 00 6d 01 00 00 | f | (1,139) | NULL",
            "367 | (1,140) | 16 | f | f | 6e 01 00 00 6e 01 00 00 | f | (1,140) | NULL",
        ],
    );
    expect(
        &e,
        "pgstatindex",
        "t2_ab",
        None,
        &["4 | 1 | 131072 | 3 | 1 | 14 | 0 | 0 | 87.9 | 0"],
    );
    expect(
        &e,
        "bt_page_items",
        "t2_ab",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (2,2) | 16 | f | f | 00 00 00 00 6f 01 00 00 | NULL | NULL | NULL",
            "3 | (4,2) | 16 | f | f | 00 00 00 00 dd 02 00 00 | NULL | NULL | NULL",
            "4 | (5,2) | 16 | f | f | 01 00 00 00 4b 04 00 00 | NULL | NULL | NULL",
            "... 14 rows",
            "13 | (14,2) | 16 | f | f | 04 00 00 00 29 11 00 00 | NULL | NULL | NULL",
            "14 | (15,2) | 16 | f | f | 04 00 00 00 97 12 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "t2_ab",
        Some(2),
        &[
            "1 | (3,2) | 16 | f | f | 00 00 00 00 dd 02 00 00 | NULL | NULL | NULL",
            "2 | (1,141) | 16 | f | f | 00 00 00 00 6f 01 00 00 | f | (1,141) | NULL",
            "3 | (1,142) | 16 | f | f | 00 00 00 00 70 01 00 00 | f | (1,142) | NULL",
            "4 | (1,143) | 16 | f | f | 00 00 00 00 71 01 00 00 | f | (1,143) | NULL",
            "... 367 rows",
            "366 | (3,53) | 16 | f | f | 00 00 00 00 db 02 00 00 | f | (3,53) | NULL",
            "367 | (3,54) | 16 | f | f | 00 00 00 00 dc 02 00 00 | f | (3,54) | NULL",
        ],
    );
}

/// Fifty ascending runs interleaved: `_bt_afternewitemoff` splits right after
/// the new item (or at the fillfactor), and the penalty prefers a split
/// between two leading values (pivots of one attribute).
#[test]
fn localized_ascending_runs_split_after_the_new_item() {
    let e = engine(
        "create table t2b (a int, b int);
         create index t2b_ab on t2b (a, b);
         insert into t2b select (n * 7919) % 50, n from generate_series(1, 20000) n;",
    );
    expect(
        &e,
        "pgstatindex",
        "t2b_ab",
        None,
        &["4 | 1 | 532480 | 3 | 1 | 63 | 0 | 0 | 78.18 | 60.32"],
    );
    expect(
        &e,
        "bt_page_items",
        "t2b_ab",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (61,1) | 16 | f | f | 01 00 00 00 00 00 00 00 | NULL | NULL | NULL",
            "3 | (56,2) | 16 | f | f | 01 00 00 00 f3 1f 00 00 | NULL | NULL | NULL",
            "4 | (22,1) | 16 | f | f | 02 00 00 00 00 00 00 00 | NULL | NULL | NULL",
            "... 63 rows",
            "62 | (63,2) | 16 | f | f | 30 00 00 00 d0 27 00 00 | NULL | NULL | NULL",
            "63 | (21,2) | 16 | f | f | 31 00 00 00 e5 07 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "t2b_ab",
        Some(10),
        &[
            "1 | (0,1) | 16 | f | f | 06 00 00 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (0,45) | 16 | f | f | 05 00 00 00 2d 00 00 00 | f | (0,45) | NULL",
            "3 | (0,95) | 16 | f | f | 05 00 00 00 5f 00 00 00 | f | (0,95) | NULL",
            "4 | (0,145) | 16 | f | f | 05 00 00 00 91 00 00 00 | f | (0,145) | NULL",
            "... 401 rows",
            "400 | (88,57) | 16 | f | f | 05 00 00 00 e9 4d 00 00 | f | (88,57) | NULL",
            "401 | (88,107) | 16 | f | f | 05 00 00 00 1b 4e 00 00 | f | (88,107) | NULL",
        ],
    );
}

/// A unique int4 key with a 32-byte INCLUDE column over 100k rows: three
/// levels, pivots of 16 bytes on both internal levels.
#[test]
fn an_include_index_over_100k_rows() {
    let e = engine(
        "create table t3 (id int, v text);
         create unique index t3_inc on t3 (id) include (v);
         insert into t3 select n, lpad(n::text, 32, '0') from generate_series(1, 100000) n;",
    );
    expect(
        &e,
        "bt_metap",
        "t3_inc",
        None,
        &["340322 | 4 | 412 | 2 | 412 | 2 | 0 | -1 | f"],
    );
    expect(
        &e,
        "pgstatindex",
        "t3_inc",
        None,
        &["4 | 2 | 5898240 | 412 | 4 | 715 | 0 | 0 | 89.51 | 0"],
    );
    expect(
        &e,
        "bt_page_items",
        "t3_inc",
        Some(412),
        &[
            "1 | (3,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (411,1) | 16 | f | f | dd 9b 00 00 00 00 00 00 | NULL | NULL | NULL",
            "3 | (698,1) | 16 | f | f | b9 37 01 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "t3_inc",
        Some(3),
        &[
            "1 | (287,1) | 16 | f | f | dd 9b 00 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "3 | (2,1) | 16 | f | f | 8d 00 00 00 00 00 00 00 | NULL | NULL | NULL",
            "4 | (4,1) | 16 | f | f | 19 01 00 00 00 00 00 00 | NULL | NULL | NULL",
            "... 286 rows",
            "285 | (285,1) | 16 | f | f | c5 9a 00 00 00 00 00 00 | NULL | NULL | NULL",
            "286 | (286,1) | 16 | f | f | 51 9b 00 00 00 00 00 00 | NULL | NULL | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "t3_inc",
        Some(1),
        &[
            "1 | (1,1) | 16 | f | f | 8d 00 00 00 00 00 00 00 | NULL | NULL | NULL",
            "2 | (0,1) | 48 | f | t | 01 00 00 00 43 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 31 00 00 00 | f | (0,1) | NULL",
            "3 | (0,2) | 48 | f | t | 02 00 00 00 43 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 32 00 00 00 | f | (0,2) | NULL",
            "4 | (0,3) | 48 | f | t | 03 00 00 00 43 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 33 00 00 00 | f | (0,3) | NULL",
            "... 141 rows",
            "140 | (1,19) | 48 | f | t | 8b 00 00 00 43 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 31 33 39 00 00 00 | f | (1,19) | NULL",
            "141 | (1,20) | 48 | f | t | 8c 00 00 00 43 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 31 34 30 00 00 00 | f | (1,20) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_stats",
        "t3_inc",
        Some(3),
        &["3 | i | 286 | 0 | 15 | 8192 | 2436 | 0 | 411 | 1 | 0"],
    );
    expect(
        &e,
        "bt_page_stats",
        "t3_inc",
        Some(412),
        &["412 | r | 3 | 0 | 13 | 8192 | 8096 | 0 | 0 | 2 | 2"],
    );
}

/// Text keys of 4 to 8 bytes inserted in a scattered order, alone and before an
/// int4: splits weigh the 8 bytes a heap TID might add to the high key, and a
/// pivot of (text, int4) keeps the text alone where it differs.
#[test]
fn text_keys_of_varying_length() {
    let e = engine(
        "create table t4 (k text);
         create index t4_k on t4 (k);
         insert into t4 select 'key' || ((n * 7919) % 30011) from generate_series(1, 30000) n;
         create table t5 (k text, v int);
         create index t5_kv on t5 (k, v);
         insert into t5 select 'key' || ((n * 7919) % 3001), n from generate_series(1, 30000) n;",
    );
    expect(
        &e,
        "pgstatindex",
        "t4_k",
        None,
        &["4 | 1 | 1204224 | 3 | 1 | 145 | 0 | 0 | 64.66 | 49.66"],
    );
    expect(
        &e,
        "pgstatindex",
        "t5_kv",
        None,
        &["4 | 1 | 1228800 | 3 | 1 | 148 | 0 | 0 | 69.92 | 50"],
    );
    expect(
        &e,
        "bt_page_items",
        "t5_kv",
        Some(1),
        &[
            "1 | (11,1) | 16 | f | t | 11 6b 65 79 31 30 31 37 | NULL | NULL | NULL",
            "2 | (16,41) | 24 | f | t | 0b 6b 65 79 30 00 00 00 b9 0b 00 00 00 00 00 00 | f | (16,41) | NULL",
            "3 | (32,82) | 24 | f | t | 0b 6b 65 79 30 00 00 00 72 17 00 00 00 00 00 00 | f | (32,82) | NULL",
            "4 | (48,123) | 24 | f | t | 0b 6b 65 79 30 00 00 00 2b 23 00 00 00 00 00 00 | f | (48,123) | NULL",
            "... 220 rows",
            "219 | (135,73) | 24 | f | t | 11 6b 65 79 31 30 31 36 d8 61 00 00 00 00 00 00 | f | (135,73) | NULL",
            "220 | (151,114) | 24 | f | t | 11 6b 65 79 31 30 31 36 91 6d 00 00 00 00 00 00 | f | (151,114) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "t5_kv",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (97,1) | 16 | f | t | 11 6b 65 79 31 30 31 37 | NULL | NULL | NULL",
            "3 | (46,1) | 16 | f | t | 11 6b 65 79 31 30 33 36 | NULL | NULL | NULL",
            "4 | (86,1) | 16 | f | t | 11 6b 65 79 31 30 35 35 | NULL | NULL | NULL",
            "... 148 rows",
            "147 | (19,1) | 16 | f | t | 0f 6b 65 79 39 37 31 00 | NULL | NULL | NULL",
            "148 | (148,1) | 16 | f | t | 0f 6b 65 79 39 39 37 00 | NULL | NULL | NULL",
        ],
    );
}

/// float8 (no equalimage) and INCLUDE indexes are never deduplicated: equal
/// keys across leaves are told apart by a heap TID in the pivot (24 bytes,
/// ctid offset 4097 = one attribute | BT_PIVOT_HEAP_TID_ATTR, shown as htid),
/// placed by the "many duplicates" and "single value" split strategies.
#[test]
fn duplicates_without_deduplication_keep_a_heap_tid_in_pivots() {
    let e = engine(
        "create table f(x float8);
         create index f_x on f(x);
         insert into f select (i % 3)::float8 from generate_series(1,2000) i;
         create table g(a int, b int);
         create index g_a on g(a) include (b);
         insert into g select i % 3, i from generate_series(1,3000) i;",
    );
    expect(
        &e,
        "pgstatindex",
        "f_x",
        None,
        &["4 | 1 | 65536 | 3 | 1 | 6 | 0 | 0 | 82.08 | 33.33"],
    );
    expect(
        &e,
        "bt_page_items",
        "f_x",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (6,4097) | 24 | f | f | 00 00 00 00 00 00 00 00 | NULL | (5,40) | NULL",
            "3 | (4,1) | 16 | f | f | 00 00 00 00 00 00 f0 3f | NULL | NULL | NULL",
            "4 | (5,4097) | 24 | f | f | 00 00 00 00 00 00 f0 3f | NULL | (5,38) | NULL",
            "5 | (2,1) | 16 | f | f | 00 00 00 00 00 00 00 40 | NULL | NULL | NULL",
            "6 | (7,4097) | 24 | f | f | 00 00 00 00 00 00 00 40 | NULL | (5,39) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "f_x",
        Some(1),
        &[
            "1 | (5,4097) | 24 | f | f | 00 00 00 00 00 00 00 00 | NULL | (5,40) | NULL",
            "2 | (0,3) | 16 | f | f | 00 00 00 00 00 00 00 00 | f | (0,3) | NULL",
            "3 | (0,6) | 16 | f | f | 00 00 00 00 00 00 00 00 | f | (0,6) | NULL",
            "4 | (0,9) | 16 | f | f | 00 00 00 00 00 00 00 00 | f | (0,9) | NULL",
            "... 391 rows",
            "390 | (5,37) | 16 | f | f | 00 00 00 00 00 00 00 00 | f | (5,37) | NULL",
            "391 | (5,40) | 16 | f | f | 00 00 00 00 00 00 00 00 | f | (5,40) | NULL",
        ],
    );
    expect(
        &e,
        "pgstatindex",
        "g_a",
        None,
        &["4 | 1 | 90112 | 3 | 1 | 9 | 0 | 0 | 82.11 | 22.22"],
    );
    expect(
        &e,
        "bt_page_items",
        "g_a",
        Some(3),
        &[
            "1 | (1,0) | 8 | f | f |  | NULL | NULL | NULL",
            "2 | (6,4097) | 24 | f | f | 00 00 00 00 00 00 00 00 | NULL | (5,40) | NULL",
            "3 | (9,4097) | 24 | f | f | 00 00 00 00 00 00 00 00 | NULL | (10,80) | NULL",
            "4 | (4,1) | 16 | f | f | 01 00 00 00 00 00 00 00 | NULL | NULL | NULL",
            "... 9 rows",
            "8 | (7,4097) | 24 | f | f | 02 00 00 00 00 00 00 00 | NULL | (5,39) | NULL",
            "9 | (10,4097) | 24 | f | f | 02 00 00 00 00 00 00 00 | NULL | (10,79) | NULL",
        ],
    );
    expect(
        &e,
        "bt_page_items",
        "g_a",
        Some(2),
        &[
            "1 | (5,4097) | 24 | f | f | 02 00 00 00 00 00 00 00 | NULL | (5,39) | NULL",
            "2 | (0,2) | 16 | f | f | 02 00 00 00 02 00 00 00 | f | (0,2) | NULL",
            "3 | (0,5) | 16 | f | f | 02 00 00 00 05 00 00 00 | f | (0,5) | NULL",
            "4 | (0,8) | 16 | f | f | 02 00 00 00 08 00 00 00 | f | (0,8) | NULL",
            "... 391 rows",
            "390 | (5,36) | 16 | f | f | 02 00 00 00 8e 04 00 00 | f | (5,36) | NULL",
            "391 | (5,39) | 16 | f | f | 02 00 00 00 91 04 00 00 | f | (5,39) | NULL",
        ],
    );
}

/// A descent goes right of a pivot whose heap TID was truncated away when the
/// scan key equals its key (`_bt_compare`: "keysz == ntupatts && heapTid ==
/// NULL"): `id = 262`, where 262 starts a leaf, reads root and that leaf only
/// (PostgreSQL 15: 3 buffers with the heap's visibility map page), and a
/// backward scan from `< 262` starts there too and steps back.
#[test]
fn a_descent_passes_a_truncated_pivot_equal_to_the_key() {
    let (report, _) = run_pg(
        "create table t3 (id int, v text);
         create unique index t3_inc on t3 (id) include (v);
         insert into t3 select n, 'value ' || n from generate_series(1, 100000) n;
         vacuum analyze t3;
         explain (analyze, buffers, costs off, timing off, summary off) select * from t3 where id = 262;
         explain (analyze, buffers, costs off, timing off, summary off) select * from t3 where id >= 262 and id < 264 order by id;
         explain (analyze, buffers, costs off, timing off, summary off) select * from t3 where id >= 262 and id < 264 order by id desc;
         explain (analyze, buffers, costs off, timing off, summary off) select * from t3 where id >= 262 and id <= 262 order by id desc;
         explain (analyze, buffers, costs off, timing off, summary off) select * from t3 where id > 250 and id < 262 order by id;
         explain (analyze, buffers, costs off, timing off, summary off) select * from t3 where id > 250 and id < 262 order by id desc;",
        &[],
    );
    if let Some(e) = &report.error {
        panic!("line {}:{}: {}", e.line, e.column, e.message);
    }
    let hits: Vec<u64> = report
        .statements
        .iter()
        .filter_map(|s| s.outcome.explain.as_ref())
        .map(|lines| {
            let line = lines
                .iter()
                .find(|l| l.contains("shared hit="))
                .unwrap_or_else(|| panic!("no buffers in {lines:?}"));
            let rest = &line[line.find("shared hit=").unwrap() + "shared hit=".len()..];
            rest.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap()
        })
        .collect();
    // PostgreSQL 15, same script (enable_seqscan and enable_bitmapscan off).
    assert_eq!(hits, vec![3, 3, 4, 4, 3, 4]);
}

/// An index tuple stores its INCLUDE values: once page pruning has freed the
/// row version an entry names (LP_DEAD in the heap), bt_page_items still
/// shows them. Expected rows: psql 15, `-A -t`, on a fresh cluster.
#[test]
fn include_values_outlive_the_pruned_row() {
    psql::assert_rows(
        "create table demo (id bigint, value text) with (autovacuum_enabled=off);
create unique index demo_pkey on demo (id) include (value);
insert into demo select generate_series(0,15), lpad('x',500,'x');
create extension pageinspect;
update demo set value=upper(value) where id=2;
select count(*) from demo;
select lp, lp_flags, t_xmax from heap_page_items(get_raw_page('demo', 0)) where lp = 3;
select itemoffset, htid, itemlen, dead, substr(data, 37, 6) from bt_page_items(get_raw_page('demo_pkey', 1)) where itemoffset between 3 and 5 order by itemoffset;",
        "@@6
16
@@7
3|3|
@@8
3|(0,2)|520|f|78 78 
4|(0,3)|520|f|78 78 
5|(1,2)|520|f|58 58 
",
    );
}
