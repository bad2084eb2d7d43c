//! The phases of a plan node's work, recorded in the trace so the scan view
//! can mark which steps belonged to which phase: a Hash Join's build then
//! probe, a Merge Join's two reads in key order then its pass, a Sort.
//! Also the top-N heapsort's bookkeeping, worked out as PostgreSQL's bounded
//! tuplesort does it (tuplesort.c, `puttuple_common` and
//! `make_bounded_heap`), so the view can show how few rows a LIMIT's heap
//! keeps.

use super::engine::QueryEngine;
use crate::trace::{Event, TopNHeap};
use std::collections::BinaryHeap;

/// Which node, which phase, and the table it read ("" for none).
pub struct Phase<'a> {
    node: &'static str,
    phase: &'static str,
    relation: &'a str,
}

impl<'a> Phase<'a> {
    pub fn of(node: &'static str, phase: &'static str, relation: &'a str) -> Self {
        Phase {
            node,
            phase,
            relation,
        }
    }
}

/// Records that `phase` ended, having taken in and handed on these rows.
pub fn record<E: QueryEngine>(
    engine: &mut E,
    phase: Phase,
    (rows_in, rows_out): (u64, u64),
    detail: String,
) {
    record_with_heap(engine, phase, (rows_in, rows_out), detail, None);
}

/// [`record`], with a top-N heapsort's figures.
pub fn record_with_heap<E: QueryEngine>(
    engine: &mut E,
    phase: Phase,
    (rows_in, rows_out): (u64, u64),
    detail: String,
    heap: Option<TopNHeap>,
) {
    let relation = phase.relation.to_string();
    engine.trace_detail(|| Event::PlanPhase {
        node: phase.node,
        phase: phase.phase,
        relation,
        rows_in,
        rows_out,
        detail,
        heap,
    });
}

/// Slices of the input the heap's entries are counted in.
pub const SLICES: usize = 32;

/// A bounded sort of rows arriving in this order, each given by its place in
/// the sorted output (`ranks`: 0 is the first row out; equal keys are ranked
/// by arrival, as the stable sort hands them out). The first rows are held
/// as they come; when more than `2 × bound` are held, the best `bound` of them
/// become a heap; each later row is compared with the heap's worst and
/// either replaces it or is dropped. PostgreSQL drops a row equal to the
/// worst, and ranking ties by arrival does the same here.
pub fn top_n_heap(ranks: &[usize], bound: u64) -> TopNHeap {
    let n = ranks.len();
    let k = bound as usize;
    let mut heap = BinaryHeap::new();
    let mut figures = TopNHeap {
        bound,
        held: 0,
        replaced: 0,
        dropped: 0,
        entered: vec![0; SLICES],
    };
    let mut bounded = false;
    for (i, &rank) in ranks.iter().enumerate() {
        let slice = i * SLICES / n;
        if !bounded {
            heap.push(rank);
            figures.held += 1;
            figures.entered[slice] += 1;
            if heap.len() > 2 * k {
                // make_bounded_heap: only the best k stay.
                while heap.len() > k {
                    heap.pop();
                }
                bounded = true;
            }
        } else if heap.peek().is_some_and(|&worst| rank < worst) {
            heap.pop();
            heap.push(rank);
            figures.replaced += 1;
            figures.entered[slice] += 1;
        } else {
            figures.dropped += 1;
        }
    }
    figures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_in_ascending_order_are_dropped_after_the_first_2k_plus_1() {
        let ranks: Vec<usize> = (0..100).collect();
        let h = top_n_heap(&ranks, 10);
        assert_eq!((h.held, h.replaced, h.dropped), (21, 0, 79));
        assert_eq!(h.entered.iter().sum::<u64>(), 21);
    }

    #[test]
    fn rows_in_descending_order_each_replace_the_worst() {
        let ranks: Vec<usize> = (0..100).rev().collect();
        let h = top_n_heap(&ranks, 10);
        assert_eq!((h.held, h.replaced, h.dropped), (21, 79, 0));
        // Every slice of the input had rows going in.
        assert!(h.entered.iter().all(|&e| e > 0));
    }

    #[test]
    fn a_late_row_rarely_gets_in_when_the_order_is_scattered() {
        // A fixed permutation (multiplying by a number prime to n).
        let n = 10_000;
        let ranks: Vec<usize> = (0..n).map(|i| (i * 7_919) % n).collect();
        let h = top_n_heap(&ranks, 10);
        assert_eq!(h.held + h.replaced + h.dropped, n as u64);
        let first: u64 = h.entered[..SLICES / 2].iter().sum();
        let last: u64 = h.entered[SLICES / 2..].iter().sum();
        assert!(first > last, "{first} {last}");
    }
}
