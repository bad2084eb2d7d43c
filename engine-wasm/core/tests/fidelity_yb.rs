//! Fidelity: the seed articles' experiments, run as written on the YugabyteDB
//! profile, land on the articles' counters (DESIGN §5).

use indexlab_engine::scenario::{run_yb, Report, StatementReport};

fn script(name: &str) -> String {
    let path = format!("{}/../../tests/fidelity/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn overrides(settings: &[(&str, &str)]) -> Vec<(String, String)> {
    settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn run(text: &str, settings: &[(&str, &str)]) -> Report {
    let (report, _) = run_yb(text, &overrides(settings));
    if let Some(e) = &report.error {
        panic!("line {}:{}: {}", e.line, e.column, e.message);
    }
    report
}

fn explains(r: &Report) -> Vec<&StatementReport> {
    r.statements
        .iter()
        .filter(|s| s.outcome.explain.is_some())
        .collect()
}

fn m(s: &StatementReport, name: &str) -> u64 {
    s.metrics.get(name) as u64
}

fn rel(s: &StatementReport, relation: &str, name: &str) -> u64 {
    s.relations
        .by_relation
        .get(relation)
        .map_or(0, |m| m.get(name) as u64)
}

fn printed(s: &StatementReport, label: &str) -> bool {
    s.outcome
        .explain
        .as_ref()
        .is_some_and(|l| l.iter().any(|x| x.trim() == label))
}

#[test]
fn article_000_read_requests_seeks_and_nexts() {
    let r = run(&script("000-range-scan-yb.sql"), &[]);
    let e = explains(&r);
    assert_eq!(e.len(), 3);
    // LIMIT 50000 read yb_fetch_row_limit (1024) rows a request, every request
    // full: the last one fetches past the limit.
    let requests = 50_000u64.div_ceil(1024);
    let scanned = requests * 1024;
    for s in &e[..2] {
        assert!(printed(
            s,
            &format!("Storage Index Read Requests: {requests}")
        ));
        assert!(printed(
            s,
            &format!("Storage Index Rows Scanned: {scanned}")
        ));
        assert!(printed(
            s,
            &format!("Metric rocksdb_number_db_seek: {requests}.000")
        ));
        assert!(printed(s, "Metric rocksdb_number_db_next: 50225.000"));
        assert_eq!(m(s, "storage_read_requests"), requests);
        assert_eq!(m(s, "docdb_keys_found"), 50225);
        // Two data blocks per request through the cache, the rest bypassing it.
        assert_eq!(
            m(s, "rocksdb_block_cache_data_hit") + m(s, "rocksdb_block_cache_data_miss"),
            2 * requests
        );
        // About 76 bytes per entry read (61-byte internal key + 14.8-byte value).
        let per_entry = m(s, "rocksdb_iter_bytes_read") as f64 / 50274.0;
        assert!(
            (per_entry - 75.8).abs() <= 7.6,
            "{per_entry} bytes per entry"
        );
    }
    let one = e[2];
    assert!(printed(one, "Storage Index Read Requests: 1"));
    assert!(printed(one, "Storage Index Rows Scanned: 50000"));
    assert_eq!(m(one, "rocksdb_number_db_seek"), 1);
    assert_eq!(m(one, "rocksdb_number_db_next"), 50001);
    // The block cache is mostly bypassed: a handful of blocks for 50000 rows.
    assert!(m(one, "rocksdb_block_cache_hit") + m(one, "rocksdb_block_cache_miss") <= 6);
}

fn seeks_nexts(s: &StatementReport) -> (u64, u64) {
    (
        m(s, "rocksdb_number_db_seek"),
        m(s, "rocksdb_number_db_next"),
    )
}

#[test]
fn article_003_forward_and_backward_scans() {
    let text = script("003-backward-scan.sql");
    // Packed rows (YugabyteDB 2.19+): two seeks a row backward, no nexts.
    let r = run(&text, &[]);
    let e = explains(&r);
    assert_eq!(seeks_nexts(e[0]), (1, 999));
    let (seeks, nexts) = seeks_nexts(e[1]);
    assert!(
        (1990..=2010).contains(&seeks),
        "{seeks} seeks (article: 2002)"
    );
    assert_eq!(nexts, 0);
    assert_eq!(seeks_nexts(e[2]), (6, 0));
    assert!(e[1].outcome.explain.as_ref().unwrap()[0].contains("Index Scan Backward"));
    // One entry per column (2.13): a next to finish each row.
    let r = run(&text, &[("yb_enable_packed_row", "off")]);
    let e = explains(&r);
    assert_eq!(seeks_nexts(e[0]), (1, 999));
    let (seeks, nexts) = seeks_nexts(e[1]);
    assert!(
        (1990..=2070).contains(&seeks),
        "{seeks} seeks (article: 2062)"
    );
    assert!(
        (990..=1020).contains(&nexts),
        "{nexts} nexts (article: 1014)"
    );
    assert_eq!(seeks_nexts(e[2]), (6, 3));
}

/// The article measured a backward scan at about 4× the forward one (21.6
/// against 5.4 ms). Nothing in the engine knows that: the time comes from the
/// work counted (a seek searches the memtable's skip list, a step back
/// searches it again, a next compares one key), so the ratio is a property of
/// the mechanism, checked here on the article's table.
#[test]
fn article_003_backward_costs_what_its_seeks_do() {
    let text = script("003-backward-scan.sql");
    for packed in ["on", "off"] {
        let r = run(&text, &[("yb_enable_packed_row", packed)]);
        let e = explains(&r);
        let ratio = e[1].virtual_ms / e[0].virtual_ms;
        assert!(
            ratio >= 2.5,
            "packed rows {packed}: backward {} ms against forward {} ms ({ratio:.2}×)",
            e[1].virtual_ms,
            e[0].virtual_ms
        );
    }
}

const TABLE_004: &str = "create table demo (n bigint) split into 1 tablets;\n";
/// The rows article 004 inserts (as `004-secondary-indexes.sql` does).
const ROWS_004: u64 = 10_000;
/// Seeks DocDB spends writing one row: a conflict check, and for a table row or
/// a unique index entry a duplicate check (a seek to the document and one to
/// its latest version); a non-unique index entry is a blind upsert.
const SEEKS_CHECKED: u64 = 3;
const SEEKS_BLIND: u64 = 1;

#[test]
fn article_004_seeks_per_row_by_index_kind() {
    let text = format!(
        "{TABLE_004}create index demo_n on demo(n asc);\n\
         create unique index demo_u on demo(n asc);\n\
         insert into demo select generate_series(1,{ROWS_004});\n\
         delete from demo;\n"
    );
    let replicas = 3;
    let r = run(&text, &[("replication_factor", &replicas.to_string())]);
    let insert = &r.statements[3];
    let seeks = |relation| rel(insert, relation, "rocksdb_number_db_seek");
    assert_eq!(seeks("demo"), SEEKS_CHECKED * ROWS_004);
    assert_eq!(seeks("demo_n"), SEEKS_BLIND * ROWS_004);
    assert_eq!(seeks("demo_u"), SEEKS_CHECKED * ROWS_004);
    for relation in ["demo", "demo_n", "demo_u"] {
        // Every replica writes every entry.
        assert_eq!(rel(insert, relation, "rocksdb_insert"), replicas * ROWS_004);
    }
    // A delete writes a tombstone in the table and in each index.
    let delete = &r.statements[4];
    assert_eq!(delete.outcome.row_count, ROWS_004);
    for relation in ["demo", "demo_n", "demo_u"] {
        assert_eq!(rel(delete, relation, "rocksdb_insert"), replicas * ROWS_004);
    }
    // Nothing comes back.
    let after = run(&format!("{text}select n from demo;\n"), &[]);
    assert_eq!(after.statements.last().unwrap().outcome.row_count, 0);
}

#[test]
fn article_004_every_index_adds_its_writes() {
    let mut last = 0;
    for n in 0..=3 {
        let mut text = TABLE_004.to_string();
        for i in 0..n {
            text.push_str(&format!("create index i{i} on demo(n);\n"));
        }
        text.push_str(&script("004-secondary-indexes.sql"));
        let r = run(&text, &[]);
        let dml: Vec<&StatementReport> = r.statements[n + 1..n + 4].iter().collect();
        let inserts: Vec<u64> = dml.iter().map(|s| m(s, "rocksdb_insert")).collect();
        assert_eq!(
            inserts[0],
            ROWS_004 * (1 + n as u64),
            "insert with {n} indexes"
        );
        // An update rewrites the row and moves each index entry (tombstone + new).
        assert_eq!(
            inserts[1],
            ROWS_004 * (1 + 2 * n as u64),
            "update with {n} indexes"
        );
        assert_eq!(
            inserts[2],
            ROWS_004 * (1 + n as u64),
            "delete with {n} indexes"
        );
        assert!(inserts[0] > last);
        last = inserts[0];
    }
}

/// Article 004's per-tablet table: three tablet servers, replication factor 3.
/// Every replica of every tablet applies the inserts; only the leaders seek,
/// and the leaders sit on different servers.
#[test]
fn article_004_inserts_reach_every_replica_seeks_only_the_leader() {
    let r = run(
        &format!(
            "{TABLE_004}create index demo_n on demo(n asc);\n\
             create unique index demo_u on demo(n asc);\n\
             insert into demo select generate_series(1,{ROWS_004});\n"
        ),
        &[("tablet_servers", "3"), ("replication_factor", "3")],
    );
    let insert = r.statements.last().unwrap();
    let replicas = &insert.relations.replicas;
    assert_eq!(replicas.len(), 9, "{replicas:#?}");
    for rel in ["demo", "demo_n", "demo_u"] {
        let of: Vec<_> = replicas.iter().filter(|x| x.relation == rel).collect();
        assert_eq!(of.len(), 3, "{rel}");
        let mut servers: Vec<u32> = of.iter().map(|x| x.tserver).collect();
        servers.sort_unstable();
        assert_eq!(servers, [0, 1, 2], "{rel}: one replica per server");
        for x in &of {
            assert_eq!(x.metrics.get("rocksdb_insert"), ROWS_004 as f64, "{rel}");
            let seeks = x.metrics.get("rocksdb_number_db_seek");
            let expected = match (x.leader, rel) {
                (false, _) => 0,
                (true, "demo_n") => SEEKS_BLIND * ROWS_004,
                (true, _) => SEEKS_CHECKED * ROWS_004,
            } as f64;
            assert_eq!(seeks, expected, "{rel} leader={}", x.leader);
        }
    }
    let leaders: std::collections::BTreeSet<u32> = replicas
        .iter()
        .filter(|x| x.leader)
        .map(|x| x.tserver)
        .collect();
    assert_eq!(leaders.len(), 3, "leaders spread over the servers");
    // The relation totals count every replica's inserts.
    assert_eq!(rel(insert, "demo", "rocksdb_insert"), 3 * ROWS_004);
    // Writes reach the followers as RPCs: each write request to a leader
    // replicates to its two followers.
    let rpcs = rel(insert, "demo", "rpc_count");
    let requests = rel(insert, "demo", "storage_write_requests");
    assert_eq!(rpcs, 3 * requests);
}

/// `ysql_prefetch_limit` (the tablet-server flag of article 001) sizes read
/// requests unless the session sets `yb_fetch_row_limit`.
#[test]
fn prefetch_limit_sizes_requests_unless_the_session_sets_fetch_rows() {
    let text = "create table t (id int, primary key (id asc));\n\
                insert into t select generate_series(1,1000);\n\
                explain (analyze, dist, costs off) select * from t;\n";
    let requests = |settings: &[(&str, &str)]| {
        let r = run(text, settings);
        m(r.statements.last().unwrap(), "storage_read_requests")
    };
    assert_eq!(requests(&[]), 1);
    assert_eq!(requests(&[("ysql_prefetch_limit", "100")]), 10);
    assert_eq!(
        requests(&[
            ("ysql_prefetch_limit", "100"),
            ("yb_fetch_row_limit", "250")
        ]),
        4
    );
}

/// One traced iterator call: op, found, data block, comparisons, blocks read.
type Step<'a> = (&'a str, bool, Option<u32>, u64, u32);

/// The scan view draws each iterator call: the trace's steps of a statement
/// are the report's seeks, nexts and prevs one by one (plus the step off the
/// end, which RocksDB does not count), each with where it landed.
#[test]
fn article_003_scans_are_traced_step_by_step() {
    use indexlab_engine::scenario::run_yb;
    use indexlab_engine::trace::Event;
    // Compacted, so the rows are in an SST and the steps land in its blocks.
    let text = script("003-backward-scan.sql").replacen("explain", "\\compact demo\nexplain", 1);
    let (r, engine) = run_yb(&text, &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    let engine = engine.expect("engine");
    let mut statement = 0usize;
    let mut steps: Vec<Vec<Step>> = vec![Vec::new(); r.statements.len()];
    for e in engine.trace().events() {
        match e {
            Event::StatementStart { index, .. } => statement = *index as usize,
            Event::IterStep {
                op,
                found,
                block,
                comparisons,
                blocks_read,
                ..
            } => {
                steps[statement].push((op, *found, *block, comparisons.total(), *blocks_read));
            }
            _ => {}
        }
    }
    for (i, s) in r.statements.iter().enumerate() {
        if s.outcome.explain.is_none() {
            continue;
        }
        let count = |ops: &[&str]| steps[i].iter().filter(|x| ops.contains(&x.0)).count() as u64;
        let seeks = count(&["seek", "seek_for_prev", "seek_to_first", "seek_to_last"]);
        assert_eq!(seeks, m(s, "rocksdb_number_db_seek"), "{}", s.sql);
        assert_eq!(
            count(&["prev"]),
            m(s, "rocksdb_number_db_prev"),
            "{}",
            s.sql
        );
        // Nexts: RocksDB counts those that stay on the data.
        let found_nexts = steps[i].iter().filter(|x| x.0 == "next" && x.1).count() as u64;
        assert_eq!(found_nexts, m(s, "rocksdb_number_db_next"), "{}", s.sql);
        // Every step that found a row landed in a data block of the SST.
        assert!(
            steps[i].iter().filter(|x| x.1).all(|x| x.2.is_some()),
            "{}",
            s.sql
        );
    }
    let forward = &steps[explains_at(&r, 0)];
    let backward = &steps[explains_at(&r, 1)];
    // The first seek reads blocks (index, then data); a seek compares many
    // keys, a next one.
    assert!(forward[0].4 >= 1, "the first seek reads its blocks");
    assert!(forward[0].3 > 1 && forward[1].3 == 1, "{:?}", &forward[..2]);
    let per_row = |s: &[Step]| s.iter().map(|x| x.3).sum::<u64>() as f64 / 1000.0;
    assert!(per_row(backward) > 10.0 * per_row(forward));
}

/// Statement index of the `n`-th EXPLAIN.
fn explains_at(r: &Report, n: usize) -> usize {
    r.statements
        .iter()
        .enumerate()
        .filter(|(_, s)| s.outcome.explain.is_some())
        .nth(n)
        .map(|(i, _)| i)
        .expect("explain")
}
