//! The blocks keep every node once and in order, whatever order keys arrive in.

use super::*;
use crate::lsm::memtable::block::BLOCK_CAP;
use crate::lsm::types::{cmp_internal, pack, ValueKind};
use crate::rng::Rng;
use std::cmp::Ordering;

/// Every listed node, walked with cursor steps.
pub(super) fn walk(list: &MemTableRep) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = Position::START;
    while list.node_at(at) != NIL {
        out.push(list.node_at(at));
        at = list.step(at);
    }
    out
}

fn collect(list: &MemTableRep) -> Vec<(Vec<u8>, u64)> {
    walk(list)
        .into_iter()
        .map(|n| (list.key(n).to_vec(), list.trailer(n)))
        .collect()
}

/// The blocks list every node once, in order, each block within its cap and
/// with the right first prefix; the splits happened (no block over the cap);
/// stepping back from the end visits the same nodes in reverse.
fn check_blocks(list: &MemTableRep) {
    let walked = walk(list);
    let mut i = 0;
    for b in &list.blocks {
        assert!(b.len() > 0 && b.len() <= BLOCK_CAP);
        assert_eq!(b.first(), b.entries()[0].prefix());
        for (p, id) in b.entries().iter().map(|e| (e.prefix(), e.id())) {
            assert_eq!(id, walked[i], "steps follow the blocks");
            assert_eq!(p, list.prefix(id));
            i += 1;
        }
    }
    assert_eq!(i, walked.len());
    assert_eq!(walked.len(), list.len());
    for w in walked.windows(2) {
        assert_eq!(
            list.cmp_nodes(w[0], w[1]),
            Ordering::Less,
            "strictly ordered"
        );
    }
    let mut back = Vec::new();
    let mut at = list.last();
    while let Some(p) = at {
        back.push(list.node_at(p));
        at = list.step_back(p);
    }
    back.reverse();
    assert_eq!(back, walked);
}

#[test]
fn keeps_order_for_any_insert_pattern() {
    for pattern in 0..3 {
        let mut list = MemTableRep::new(42);
        let mut rng = Rng::new(pattern);
        let mut expected = Vec::new();
        for i in 0..3000u64 {
            let k = match pattern {
                0 => i,
                1 => 1_000_000 - i,
                _ => rng.below(500),
            };
            // Variable lengths, shared 8-byte prefixes: the full-key path.
            let mut key = b"prefix--".to_vec();
            key.extend_from_slice(&k.to_be_bytes()[..(k % 9) as usize]);
            key.extend_from_slice(&k.to_be_bytes());
            let t = pack(i + 1, ValueKind::Put);
            list.insert(&key, t, b"v").expect("fits");
            expected.push((key, t));
        }
        expected.sort_by(|a, b| cmp_internal(&a.0, a.1, &b.0, b.1));
        assert_eq!(collect(&list), expected, "pattern {pattern}");
        check_blocks(&list);
        assert_eq!(list.len(), 3000);
    }
}

/// Keys arriving at either end of the memtable leave full blocks behind
/// (split in the middle, every block but the last written stayed half
/// empty); random keys still split in the middle, and the order holds.
#[test]
fn keys_arriving_at_one_end_fill_their_blocks() {
    for descending in [true, false] {
        let mut list = MemTableRep::new(9);
        let n = 20 * BLOCK_CAP as u64;
        for i in 0..n {
            let k = if descending { n - i } else { i };
            let node = list
                .alloc(&k.to_be_bytes(), pack(i + 1, ValueKind::Put), b"v")
                .0;
            if !list.link_if_at_hint(node) {
                list.link(node);
            }
        }
        check_blocks(&list);
        let full = list.blocks.iter().filter(|b| b.len() == BLOCK_CAP).count();
        assert!(
            full + 1 >= list.blocks.len(),
            "descending {descending}: {full} of {} blocks full",
            list.blocks.len()
        );
    }
    let mut list = MemTableRep::new(9);
    let mut rng = Rng::new(4);
    for i in 0..20 * BLOCK_CAP as u64 {
        list.insert(
            &rng.below(1 << 40).to_be_bytes(),
            pack(i + 1, ValueKind::Put),
            b"v",
        );
    }
    check_blocks(&list);
    let least = list.blocks.iter().map(Block::len).min().unwrap();
    assert!(
        least >= BLOCK_CAP / 4,
        "random keys split in the middle: {least}"
    );
}

#[test]
fn searches() {
    let mut list = MemTableRep::new(1);
    for (i, k) in [b"b", b"d", b"f"].iter().enumerate() {
        list.insert(*k, pack(i as u64 + 1, ValueKind::Put), b"x");
    }
    let t = pack(100, ValueKind::Put);
    let ge = |k: &[u8]| list.node_at(list.find_ge(k, t));
    let at_or_before = |k: &[u8], t| list.find_last_at_or_before(k, t).map(|p| list.node_at(p));
    assert_eq!(list.key(ge(b"c")), b"d");
    assert_eq!(list.key(ge(b"d")), b"d");
    assert_eq!(ge(b"g"), NIL);
    assert_eq!(at_or_before(b"a", 0), None);
    assert_eq!(list.key(at_or_before(b"d", 0).unwrap()), b"d");
    assert_eq!(list.key(at_or_before(b"d", t).unwrap()), b"b");
    let last = list.node_at(list.last().unwrap());
    assert_eq!((list.key(last), list.value(last)), (&b"f"[..], &b"x"[..]));
    assert_eq!(MemTableRep::new(3).last(), None);
    assert_eq!(MemTableRep::new(3).node_at(Position::START), NIL);
}

/// Seeks move the hint that inserts start from: interleaved seeks (repeated,
/// near, far) and inserts must keep every seek answer and the order exact.
#[test]
fn seeks_between_inserts_leave_the_list_exact() {
    let mut list = MemTableRep::new(7);
    let mut rng = Rng::new(11);
    let mut model: Vec<(Vec<u8>, u64)> = Vec::new();
    let key_of = |k: u64| {
        let mut key = b"doc-pfx:".to_vec();
        key.extend_from_slice(&k.to_be_bytes());
        key
    };
    for i in 0..4000u64 {
        let probe = key_of(rng.below(2000));
        let t = pack(u64::MAX >> 9, ValueKind::Put);
        for _ in 0..1 + rng.below(3) {
            let got = list.node_at(list.find_ge(&probe, t));
            let want = model
                .iter()
                .find(|(k, tr)| cmp_internal(k, *tr, &probe, t) != Ordering::Less);
            match want {
                None => assert_eq!(got, NIL),
                Some((k, tr)) => assert_eq!((list.key(got), list.trailer(got)), (&k[..], *tr)),
            }
        }
        // Insert right where the seek went (DocDB's pattern) or elsewhere.
        let key = if rng.below(2) == 0 {
            probe.clone()
        } else {
            key_of(rng.below(2000))
        };
        let tr = pack(i + 1, ValueKind::Put);
        let same_place = key == probe;
        if i % 2 == 0 {
            list.insert(&key, tr, b"v").expect("fits");
        } else {
            // The memtable's path: link at once only where the seek left
            // the hint; a newer version of the probed key always is.
            let (node, _) = list.alloc(&key, tr, b"v");
            let linked = list.link_if_at_hint(node);
            if same_place {
                assert!(linked, "a write at the probed key is at the hint");
            }
            if !linked {
                list.link(node);
            }
        }
        let at = model.partition_point(|(k, t2)| cmp_internal(k, *t2, &key, tr) == Ordering::Less);
        model.insert(at, (key, tr));
    }
    assert_eq!(collect(&list), model);
    check_blocks(&list);
}

#[test]
fn a_skip_list_search_is_charged_twice_log2_n_comparisons() {
    use super::skip_list_search_comparisons as cost;
    assert_eq!(cost(0), 0, "nothing to compare");
    assert_eq!(cost(1), 1);
    // 4 · log₄ n: each doubling of the list costs two comparisons more.
    assert_eq!(cost(1 << 10), 20);
    assert_eq!(cost(1 << 11) - cost(1 << 10), 2);
}
