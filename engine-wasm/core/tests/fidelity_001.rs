//! Fidelity, article 001: Batched Nested Loop on a 2000-row table in 10 hash
//! tablets. Loops and read requests land on the article's table for every
//! batch size and request limit it tried, and the best batch size moves from
//! about 100 at low latency to about 1000 across regions (DESIGN §5).

use crate::common;

use common::{explain_lines, explains, number_after, run_yb_ok, script};
use indexlab_engine::sweep::sweep;

const ROWS: u64 = 2000;

/// The article's script with the batch size in the hint, as its shell loop
/// writes it.
fn with_batch(batch: u64) -> String {
    let text = script("001-batched-nested-loop.sql");
    let plain = "/*+ nestloop(a b) leading((a b)) */";
    assert!(text.contains(plain));
    text.replace(
        plain,
        &format!("/*+ nestloop(a b) leading((a b)) Set(yb_bnl_batch_size '{batch}') */"),
    )
}

/// What EXPLAIN (ANALYZE, DIST) prints for the inner scan: loops, read requests
/// per loop; and the join node's title and rows.
struct Printed {
    title: String,
    rows: u64,
    loops: u64,
    requests_per_loop: u64,
}

fn run(batch: u64, request_limit: u64) -> Printed {
    let limit = request_limit.to_string();
    let report = run_yb_ok(
        &with_batch(batch),
        &[
            ("ysql_request_limit", &limit),
            ("ysql_prefetch_limit", "1024"),
        ],
    );
    let e = explains(&report);
    let lines = explain_lines(e.last().expect("an EXPLAIN"));
    let inner = lines
        .iter()
        .position(|l| l.contains("Index Scan using demo_pkey on demo b"))
        .unwrap_or_else(|| panic!("no inner index scan in\n{}", lines.join("\n")));
    let requests = lines[inner + 1..]
        .iter()
        .find_map(|l| number_after(l, "Read Requests: "))
        .expect("the inner scan's read requests");
    Printed {
        title: lines[0].trim().to_string(),
        rows: number_after(&lines[0], "rows=").unwrap() as u64,
        loops: number_after(&lines[inner], "loops=").unwrap() as u64,
        requests_per_loop: requests as u64,
    }
}

#[test]
fn article_001_loops_and_read_requests_as_printed() {
    // (yb_bnl_batch_size, ysql_request_limit, loops, read requests per loop):
    // the article's table, prefetch limit 1024.
    let article = [
        (2000, 2000, 1, 1),
        (1024, 1024, 2, 1),
        (1024, 2000, 2, 1),
        (2000, 1024, 1, 2),
        (100, 2000, 20, 1),
        (100, 1024, 20, 1),
        (100, 100, 20, 1),
        (1024, 100, 2, 10),
        (2000, 100, 1, 20),
        (10, 100, 200, 1),
        (10, 1024, 200, 1),
        (10, 2000, 200, 1),
        (1, 100, 2000, 1),
        (1, 2000, 2000, 1),
        (1, 1024, 2000, 1),
    ];
    for (batch, limit, loops, per_loop) in article {
        let p = run(batch, limit);
        assert_eq!(p.rows, ROWS, "batch {batch}: every row joins once");
        assert_eq!(
            (p.loops, p.requests_per_loop),
            (loops, per_loop),
            "batch {batch}, ysql_request_limit {limit}"
        );
        let batched = p.title.starts_with("YB Batched Nested Loop Join");
        assert_eq!(batched, batch > 1, "{}", p.title);
    }
}

#[test]
fn read_requests_follow_the_request_limit_for_every_pair() {
    for limit in [100u64, 1024, 2000] {
        for batch in [1u64, 10, 100, 500, 1023, 1024, 1025, 2000] {
            let p = run(batch, limit);
            assert_eq!(p.loops, ROWS.div_ceil(batch));
            // Each loop sends ceil(its keys / limit) requests; EXPLAIN prints
            // the average over loops without decimals.
            let total: u64 = (0..p.loops)
                .map(|i| (ROWS - i * batch).min(batch).div_ceil(limit))
                .sum();
            let avg = total as f64 / p.loops as f64;
            assert!(
                p.requests_per_loop == avg.floor() as u64
                    || p.requests_per_loop == avg.ceil() as u64,
                "batch {batch}, limit {limit}: printed {} for {total} over {} loops",
                p.requests_per_loop,
                p.loops
            );
        }
    }
}

/// Virtual time of the join for each batch size at a given network latency.
fn times(network: &str, batches: &[u64]) -> Vec<(u64, f64)> {
    let values: Vec<String> = batches.iter().map(u64::to_string).collect();
    let overrides = vec![("network".to_string(), network.to_string())];
    let text = script("001-batched-nested-loop.sql");
    sweep(&text, "yb", &overrides, "yb_bnl_batch_size", &values)
        .into_iter()
        .zip(batches)
        .map(|(p, b)| {
            assert!(p.error.is_none(), "{:?}", p.error);
            (*b, p.virtual_ms)
        })
        .collect()
}

fn best(t: &[(u64, f64)]) -> (u64, f64) {
    *t.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap()
}

fn at(t: &[(u64, f64)], batch: u64) -> f64 {
    t.iter().find(|(b, _)| *b == batch).unwrap().1
}

const BATCHES: [u64; 10] = [1, 10, 50, 100, 200, 400, 600, 800, 1000, 1200];

#[test]
fn within_a_region_about_100_to_200_is_best_and_1000_clearly_slower() {
    let t = times("multi-az", &BATCHES);
    let (b, ms) = best(&t);
    assert!((100..=200).contains(&b), "best batch {b} in {t:?}");
    assert!(at(&t, 1000) > 1.5 * ms, "{t:?}");
    // No batching pays one round trip per outer row.
    assert!(at(&t, 1) > 10.0 * ms, "{t:?}");
}

#[test]
fn across_regions_about_1000_is_best_and_100_times_faster_than_no_batching() {
    let t = times("multi-region", &BATCHES);
    let (b, _) = best(&t);
    assert!((800..=1000).contains(&b), "best batch {b} in {t:?}");
    let ratio = at(&t, 1) / at(&t, 1000);
    assert!(
        (50.0..=300.0).contains(&ratio),
        "1 vs 1000: {ratio:.0}x in {t:?}"
    );
    // Past the request limit a loop needs two requests: slower again.
    assert!(at(&t, 1200) > at(&t, 1000), "{t:?}");
}

/// Every RPC of the join is in the trace: from the query node to a tablet
/// server and back, each message half a round trip on the wire, as many
/// requests as the statement's `rpc_count`.
#[test]
fn every_rpc_crosses_the_network_in_the_trace() {
    use indexlab_engine::scenario::run_yb;
    use indexlab_engine::trace::Event;
    let settings = common::overrides(&[("network", "multi-az"), ("yb_bnl_batch_size", "100")]);
    let text = script("001-batched-nested-loop.sql");
    let (report, engine) = run_yb(&text, &settings);
    let engine = engine.expect("the run finished");
    let rpc_count = report.statements.last().unwrap().metrics.get("rpc_count") as usize;
    let events = engine.trace().events();
    let last_start = events
        .iter()
        .rposition(|e| matches!(e, Event::StatementStart { .. }))
        .unwrap();
    let mut requests = 0;
    for e in &events[last_start..] {
        if let Event::Rpc {
            kind,
            from,
            to,
            send_us,
            arrive_us,
            ..
        } = e
        {
            assert!((arrive_us - send_us - 400.0).abs() < 1e-6, "{e:?}");
            if *kind == "read" {
                requests += 1;
                assert_eq!(from, "ysql");
                assert!(to.starts_with("tserver-"), "{to}");
            } else {
                assert_eq!(*kind, "read response");
                assert_eq!(to, "ysql");
            }
        }
    }
    assert_eq!(requests, rpc_count);
    assert!(
        rpc_count >= 20 + 10,
        "20 loops and the outer scan's 10 tablets"
    );
}

/// The network view brackets each loop with its keys: the trace says when each
/// loop began and which outer keys it carried, every outer row once.
#[test]
fn each_loop_is_traced_with_its_batch_of_keys() {
    use indexlab_engine::scenario::run_yb;
    use indexlab_engine::trace::Event;
    for batch in [1u64, 100, 1024] {
        let (r, engine) = run_yb(&with_batch(batch), &[]);
        assert!(r.error.is_none(), "{:?}", r.error);
        let loops: Vec<(u32, u32, f64)> = engine
            .expect("engine")
            .trace()
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::JoinLoop {
                    number,
                    keys,
                    at_us,
                    ..
                } => Some((*number, *keys, *at_us)),
                _ => None,
            })
            .collect();
        assert_eq!(loops.len() as u64, ROWS.div_ceil(batch), "batch {batch}");
        let keys: u64 = loops.iter().map(|l| u64::from(l.1)).sum();
        assert_eq!(keys, ROWS, "every outer row's key in one loop");
        assert!(loops.iter().enumerate().all(|(i, l)| l.0 as usize == i + 1));
        assert!(
            loops.windows(2).all(|w| w[0].2 < w[1].2),
            "loops follow each other in time"
        );
    }
}
