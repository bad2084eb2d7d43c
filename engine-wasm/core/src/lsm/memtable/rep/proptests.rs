//! Model-based: every search answers as a sorted `BTreeMap` of internal keys
//! does, whatever mix of inserts (linked at once or through a search) and
//! searches, over keys that tie on their 8-byte prefixes and blocks that split.

use super::*;
use crate::lsm::types::{pack, ValueKind};
use proptest::prelude::*;
use std::cmp::Reverse;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
enum Op {
    Insert(u16),
    /// Insert the key the last search was for (DocDB's read-then-write).
    InsertAtSearch,
    Seek(u16),
    SeekForPrev(u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u16>().prop_map(Op::Insert),
        2 => Just(Op::InsertAtSearch),
        2 => any::<u16>().prop_map(Op::Seek),
        1 => any::<u16>().prop_map(Op::SeekForPrev),
    ]
}

fn key(k: u16) -> Vec<u8> {
    // Shared 8-byte prefix, then a spread key: most comparisons tie on prefix.
    let mut key = b"tablet01".to_vec();
    key.extend_from_slice(&(k % 700).to_be_bytes());
    key
}

type Model = BTreeMap<(Vec<u8>, Reverse<u64>), ()>;

fn as_pair(rep: &MemTableRep, n: u32) -> Option<(Vec<u8>, u64)> {
    (n != NIL).then(|| (rep.key(n).to_vec(), rep.trailer(n)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn matches_a_sorted_map(ops in proptest::collection::vec(op(), 1..1500)) {
        let mut rep = MemTableRep::new(5);
        let mut model = Model::new();
        let mut last_search = key(0);
        let mut seq = 0u64;
        for op in ops {
            match op {
                Op::Insert(_) | Op::InsertAtSearch => {
                    seq += 1;
                    let k = match op {
                        Op::Insert(k) => key(k),
                        _ => last_search.clone(),
                    };
                    let t = pack(seq, ValueKind::Put);
                    let (node, _) = rep.alloc(&k, t, b"v");
                    if !rep.link_if_at_hint(node) {
                        rep.link(node);
                    }
                    model.insert((k, Reverse(t)), ());
                }
                Op::Seek(k) => {
                    last_search = key(k);
                    let t = pack(u64::MAX >> 9, ValueKind::Put);
                    let want = model
                        .range((last_search.clone(), Reverse(t))..)
                        .next()
                        .map(|((k, Reverse(t)), _)| (k.clone(), *t));
                    prop_assert_eq!(as_pair(&rep, rep.node_at(rep.find_ge(&last_search, t))), want);
                }
                Op::SeekForPrev(k) => {
                    let k = key(k);
                    let t = pack(0, ValueKind::Put);
                    let want = model
                        .range(..=(k.clone(), Reverse(t)))
                        .next_back()
                        .map(|((k, Reverse(t)), _)| (k.clone(), *t));
                    let got = rep.find_last_at_or_before(&k, t).map_or(NIL, |p| rep.node_at(p));
                    prop_assert_eq!(as_pair(&rep, got), want);
                }
            }
        }
        let all: Vec<(Vec<u8>, u64)> =
            model.keys().map(|(k, Reverse(t))| (k.clone(), *t)).collect();
        let linked: Vec<(Vec<u8>, u64)> = super::tests::walk(&rep)
            .into_iter()
            .map(|n| (rep.key(n).to_vec(), rep.trailer(n)))
            .collect();
        prop_assert_eq!(&linked, &all);
        prop_assert_eq!(as_pair(&rep, rep.last().map_or(NIL, |p| rep.node_at(p))), all.last().cloned());
        prop_assert_eq!(rep.len(), all.len());
    }
}
