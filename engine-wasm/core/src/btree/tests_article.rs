//! Article 000: one million rows in `(value timestamptz DESC, id bigint)` inserted in
//! increasing time order, so every insert lands at the left end of the leftmost leaf;
//! and the bigserial primary key, which grows at the right end.

use std::ops::Bound;

use super::*;
use crate::storage::{Access, AccessLog, NoAccounting};
use crate::value::{SqlType, Value};

const ROWS: u64 = 1_000_000;
/// 2024-01-01 00:00:00 UTC in PostgreSQL microseconds.
const START: i64 = 757_382_400_000_000;

fn columns() -> [KeyColumn; 2] {
    [
        KeyColumn::desc(SqlType::Timestamptz),
        KeyColumn::asc(SqlType::Int8),
    ]
}

/// clock_timestamp() of row `id`: time advances with every row.
fn time_of(id: u64) -> i64 {
    START + id as i64 * 7
}

fn article_index() -> BTree {
    let cols = columns();
    let types = [SqlType::Timestamptz, SqlType::Int8];
    let size = index_tuple_size(&[Value::Timestamp(0), Value::Int(0)], &types).unwrap();
    assert_eq!(size, 24);
    let mut tree = BTree::new(BTreeConfig::default(), &mut NoAccounting).unwrap();
    let mut key = Vec::with_capacity(32);
    for id in 1..=ROWS {
        key.clear();
        let row = [Value::Timestamp(time_of(id)), Value::Int(id as i64)];
        encode_key_into(&row, &cols, &mut key).unwrap();
        tree.insert(&key, id, size as u16, &mut NoAccounting)
            .unwrap();
    }
    tree
}

#[test]
fn desc_index_loaded_in_time_order_has_half_full_leaves() {
    let tree = article_index();
    assert_eq!(tree.len(), ROWS);
    assert_eq!(tree.height(), 3, "root, one internal level, leaves");
    let per_leaf = ROWS as f64 / tree.leaf_count() as f64;
    assert!(
        (140.0..=150.0).contains(&per_leaf),
        "{per_leaf} entries per leaf"
    );

    // where value < now() order by value desc limit 50000: a forward scan of the
    // DESC index from just after now().
    let now = [Value::Timestamp(time_of(ROWS + 1))];
    let bound = encode_key(&now, &columns()[..1]).unwrap();
    let mut log = AccessLog::default();
    let mut cursor = tree.seek(
        Bound::Excluded(&bound),
        Bound::Unbounded,
        Direction::Forward,
        &mut log,
    );
    let mut expect_id = ROWS;
    for _ in 0..50_000 {
        let e = cursor.next(&tree, &mut log).unwrap();
        assert_eq!(e.payload, expect_id, "newest first");
        expect_id -= 1;
    }
    let pages = log.0.len();
    assert!(log.0.iter().all(|(_, how)| *how == Access::Read));
    assert_eq!(pages, 2 + cursor.leaves_visited() as usize);
    // The article measured `Buffers: shared hit=346` after VACUUM: 2 + 344 leaves.
    assert!((312..=380).contains(&pages), "{pages} pages");
    eprintln!(
        "article 000: {} leaves, {per_leaf:.1} entries/leaf, height {}, pages per level {:?}, \
         50000-row scan touched {pages} pages ({} leaves), mean leaf fill {:.3}",
        tree.leaf_count(),
        tree.height(),
        tree.pages_per_level(),
        cursor.leaves_visited(),
        tree.mean_leaf_fill(),
    );
    tree.check_invariants().unwrap();

    // Backward over the same 50,000 entries touches the same number of pages.
    let oldest_kept = [Value::Timestamp(time_of(ROWS - 49_999))];
    let low = encode_key(&oldest_kept, &columns()[..1]).unwrap();
    let mut back = AccessLog::default();
    let mut c = tree.seek(
        Bound::Excluded(&bound),
        Bound::Included(&low),
        Direction::Backward,
        &mut back,
    );
    let mut n = 0;
    while c.next(&tree, &mut back).is_some() {
        n += 1;
    }
    assert_eq!(n, 50_000);
    let mut fwd = AccessLog::default();
    let mut c = tree.seek(
        Bound::Excluded(&bound),
        Bound::Included(&low),
        Direction::Forward,
        &mut fwd,
    );
    while c.next(&tree, &mut fwd).is_some() {}
    assert_eq!(back.0.len(), fwd.0.len());
}

#[test]
fn bigserial_primary_key_fills_leaves_to_ninety_percent() {
    let cols = [KeyColumn::asc(SqlType::Int8)];
    let size = index_tuple_size(&[Value::Int(1)], &[SqlType::Int8]).unwrap() as u16;
    assert_eq!(size, 16);
    let mut tree = BTree::new(BTreeConfig::default(), &mut NoAccounting).unwrap();
    let mut key = Vec::new();
    for id in 1..=200_000i64 {
        key.clear();
        encode_key_into(&[Value::Int(id)], &cols, &mut key).unwrap();
        tree.insert(&key, id as u64, size, &mut NoAccounting)
            .unwrap();
    }
    let chain = tree.leaf_chain();
    let fills: Vec<f64> = chain[..chain.len() - 1]
        .iter()
        .map(|&p| tree.page_info(p).unwrap().fill())
        .collect();
    let mean = fills.iter().sum::<f64>() / fills.len() as f64;
    eprintln!(
        "bigserial: {} leaves, {:.1} entries/leaf, mean fill {mean:.3}",
        chain.len(),
        200_000.0 / chain.len() as f64
    );
    assert!((0.89..=0.91).contains(&mean), "mean fill {mean}");
    tree.check_invariants().unwrap();
}
