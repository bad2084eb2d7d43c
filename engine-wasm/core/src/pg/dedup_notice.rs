//! B-tree deduplication, which IndexLab does not model yet, said where it
//! would have changed the tree. PostgreSQL 13 and later merge equal keys of
//! a full leaf into posting list tuples before splitting it (`_bt_dedup_pass`
//! in nbtdedup.c), and build an index the same way (`_bt_load`), when the
//! index is not unique and every key column's type compares by its bytes
//! (`allequalimage`). IndexLab's leaf keeps one tuple per row and splits: from
//! that statement on, the index has more pages than PostgreSQL's, so its size,
//! `relpages`, `pgstatindex` and the buffers its scans count are larger. The
//! first statement that makes such a split (or builds such an index) gets a
//! notice naming the index, once.

use super::catalog::Index;
use crate::btree::ItemKind;
use crate::storage::PageNo;
use crate::value::SqlType;

/// btm_allequalimage (_bt_allequalimage): every key column's type has an
/// equalimage support function that says yes, and there are no INCLUDE
/// columns. numeric, float and interval do not (equal values can have
/// different bytes); text does under the C collation, the only one modelled.
pub(super) fn all_equal_image(ix: &Index) -> bool {
    ix.include.is_empty()
        && ix.key_columns.iter().all(|c| {
            matches!(
                c.ty,
                SqlType::Int2
                    | SqlType::Int4
                    | SqlType::Int8
                    | SqlType::Bool
                    | SqlType::Date
                    | SqlType::Timestamp
                    | SqlType::Timestamptz
                    | SqlType::Text
                    | SqlType::Uuid
            )
        })
}

/// Whether PostgreSQL would have deduplicated leaf `page` of `ix` rather
/// than split it as the model did: a non-unique index of such types whose
/// page holds two equal keys.
pub(super) fn would_deduplicate(ix: &Index, page: PageNo) -> bool {
    if ix.unique || !all_equal_image(ix) {
        return false;
    }
    let Some(view) = ix.tree.page_view(page) else {
        return false;
    };
    let keys: Vec<&[u8]> = (view.items.iter())
        .filter(|i| i.kind == ItemKind::Leaf)
        .map(|i| i.key)
        .collect();
    keys.windows(2).any(|w| w[0] == w[1])
}

/// The notice, once per index.
pub(super) fn notice(ix: &mut Index) -> Option<String> {
    if ix.dedup_noticed {
        return None;
    }
    ix.dedup_noticed = true;
    Some(format!(
        "index \"{}\" holds equal keys on a page that filled: PostgreSQL 13+ would merge them \
         into posting list tuples (deduplication), which IndexLab does not model yet, so from \
         here this index has more pages than PostgreSQL's (its size, relpages, pgstatindex and \
         the buffers its scans read are larger)",
        ix.name
    ))
}
