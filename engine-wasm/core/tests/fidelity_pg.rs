//! Fidelity: the seed articles' experiments, run as written on the PostgreSQL
//! profile, land on the articles' numbers (DESIGN §5). Scripts live in
//! `tests/fidelity/` at the repository root, so authors can run them with the CLI.

use indexlab_engine::scenario::{run_pg, Report, StatementReport};

fn script(name: &str) -> String {
    let path = format!("{}/../../tests/fidelity/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run(text: &str, settings: &[(&str, &str)]) -> Report {
    let overrides: Vec<(String, String)> = settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let (report, _) = run_pg(text, &overrides);
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

/// The number after `label` in the EXPLAIN text (first occurrence).
fn explain_figure(s: &StatementReport, label: &str) -> u64 {
    let lines = s.outcome.explain.as_ref().expect("an EXPLAIN");
    let line = lines
        .iter()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("no '{label}' in:\n{}", lines.join("\n")));
    let rest = &line[line.find(label).unwrap() + label.len()..];
    rest.chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap()
}

fn within_10_percent(actual: u64, expected: u64) -> bool {
    (actual as f64 - expected as f64).abs() <= expected as f64 * 0.10
}

#[test]
fn article_000_index_only_scan_buffers_before_and_after_vacuum() {
    let r = run(&script("000-range-scan.sql"), &[]);
    let e = explains(&r);
    assert_eq!(e.len(), 2);
    let (before, after) = (e[0], e[1]);
    // Exact counts must match exactly; page counts within 10 %.
    assert_eq!(explain_figure(before, "Heap Fetches: "), 50_000);
    assert_eq!(explain_figure(after, "Heap Fetches: "), 0);
    // The same figure as a counter, for the metrics panel.
    assert_eq!(before.metrics.get("heap_fetches"), 50_000.0);
    assert_eq!(after.metrics.get("heap_fetches"), 0.0);
    assert_eq!(explain_figure(before, "rows="), 50_000);
    let hit_before = explain_figure(before, "shared hit=");
    let hit_after = explain_figure(after, "shared hit=");
    assert!(
        within_10_percent(hit_before, 616),
        "before VACUUM: {hit_before}"
    );
    assert!(
        within_10_percent(hit_after, 346),
        "after VACUUM: {hit_after}"
    );
    // Everything was in cache: the article's query reads nothing from storage.
    assert_eq!(before.metrics.get("shared_read"), 0.0);
    let text = before.outcome.explain.as_ref().unwrap().join("\n");
    assert!(
        text.contains("Index Only Scan using demo_value on demo"),
        "{text}"
    );
    assert!(text.contains("Index Cond: (value < now())"), "{text}");
}

#[test]
fn article_003_btree_reads_the_same_pages_forward_and_backward() {
    let r = run(&script("003-backward-scan.sql"), &[]);
    let e = explains(&r);
    let forward = e[0].metrics.get("shared_hit") + e[0].metrics.get("shared_read");
    let backward = e[1].metrics.get("shared_hit") + e[1].metrics.get("shared_read");
    assert!(forward > 0.0);
    assert_eq!(forward, backward, "B+tree leaves are linked both ways");
    let plan = e[1].outcome.explain.as_ref().unwrap().join("\n");
    assert!(plan.contains("Backward using demo_pkey"), "{plan}");
    // The IN list is PostgreSQL 15's plan for it (recorded from 15.18): a
    // bitmap of three entries, two heap pages, then a sort of three rows.
    assert_eq!(explain_figure(e[2], "rows="), 3); // the estimate line comes first
    let in_list = e[2].outcome.explain.as_ref().unwrap().join("\n");
    assert!(
        in_list.contains("actual time=") && in_list.contains("rows=3 loops=1"),
        "{in_list}"
    );
    assert!(in_list.contains("Index Cond: (id = ANY ('{100,200,300}'::integer[]))"));
    assert!(
        in_list.contains("Sort  (cost=20.00..20.01 rows=3 width=4)"),
        "{in_list}"
    );
    assert!(in_list.contains("Heap Blocks: exact=2"), "{in_list}");
    assert_eq!(e[2].metrics.get("shared_hit"), 8.0);
}

/// Article 004's DML with `n` non-unique (or unique) secondary indexes.
fn dml_costs(indexes: usize, unique: bool) -> Vec<(String, f64, f64)> {
    let mut text = String::from("create table demo (n bigint);\n");
    let kind = if unique { "unique index" } else { "index" };
    for _ in 0..indexes {
        text.push_str(&format!("create {kind} nonconcurrently on demo(n);\n"));
    }
    text.push_str(&script("004-secondary-indexes.sql"));
    let r = run(&text, &[]);
    r.statements
        .iter()
        .skip(1 + indexes)
        .map(|s| {
            let verb = s.sql.split_whitespace().next().unwrap().to_string();
            (verb, s.virtual_ms, s.metrics.get("shared_hit"))
        })
        .collect()
}

#[test]
fn article_004_each_index_adds_insert_and_update_cost_not_delete() {
    for unique in [false, true] {
        let runs: Vec<_> = (0..=4).map(|k| dml_costs(k, unique)).collect();
        for k in 1..runs.len() {
            let (prev, cur) = (&runs[k - 1], &runs[k]);
            for verb in ["insert", "update"] {
                let p = prev.iter().find(|x| x.0 == verb).unwrap();
                let c = cur.iter().find(|x| x.0 == verb).unwrap();
                assert!(
                    c.1 > p.1 * 1.05,
                    "{verb} time, {k} indexes: {} vs {}",
                    c.1,
                    p.1
                );
                assert!(c.2 > p.2, "{verb} buffers, {k} indexes");
            }
            let p = prev.iter().find(|x| x.0 == "delete").unwrap();
            let c = cur.iter().find(|x| x.0 == "delete").unwrap();
            // A delete only marks the heap tuple: indexes are not touched.
            assert_eq!(c.2, p.2, "delete buffers, {k} indexes (unique={unique})");
        }
    }
}

fn reads_per_insert(shared_buffers: &str) -> f64 {
    let r = run(
        &script("002-iibench.sql"),
        &[("shared_buffers", shared_buffers)],
    );
    // The steady state: the last quarter of the load.
    let inserts: Vec<_> = r
        .statements
        .iter()
        .filter(|s| s.sql.starts_with("insert"))
        .collect();
    let tail = &inserts[inserts.len() * 3 / 4..];
    let reads: f64 = tail.iter().map(|s| s.metrics.get("shared_read")).sum();
    reads / (tail.len() as f64 * 1000.0)
}

#[test]
fn article_002_btree_reads_per_insert_explode_when_the_cache_shrinks() {
    let large = reads_per_insert("128MB");
    let small = reads_per_insert("1MB");
    assert!(
        large < 0.01,
        "the working set fits in 128MB: {large} reads/insert"
    );
    assert!(
        small > 1.0,
        "random secondary-index leaves miss a 1MB cache: {small}"
    );
    assert!(small > 100.0 * large.max(0.001));
}
