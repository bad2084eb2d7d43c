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

/// Whether PostgreSQL would have deduplicated the leaf the model just split
/// into `pages` instead of splitting it: a non-unique index of such types
/// whose equal keys, merged into posting lists, free room for the new entry
/// (`newitem`, its tuple plus line pointer). A few equal keys among many
/// (two random bigints that met) free less, and PostgreSQL splits too.
pub(super) fn would_deduplicate(ix: &Index, pages: [PageNo; 2], newitem: u32) -> bool {
    if ix.unique || !all_equal_image(ix) {
        return false;
    }
    let mut items: Vec<(&[u8], u32)> = Vec::new();
    for page in pages {
        let Some(view) = ix.tree.page_view(page) else {
            return false;
        };
        let leaf = view.items.iter().filter(|i| i.kind == ItemKind::Leaf);
        items.extend(leaf.map(|i| (i.key, u32::from(i.size))));
    }
    saving(&items, view_page_size(ix)) >= newitem
}

/// Bytes a deduplication pass frees over `items` (key, tuple size) in key
/// order: each run of equal keys becomes posting list tuples of at most
/// `maxpostingsize` bytes (a sixth of a page: 1352 of 8 kB), each `MAXALIGN(base tuple +
/// 6 bytes per heap TID)` under one line pointer.
fn saving(items: &[(&[u8], u32)], page_size: u32) -> u32 {
    const LP: u32 = 4;
    const TID: u32 = 6;
    let maxalign = |n: u32| n.div_ceil(8) * 8;
    // BTMaxItemSize: a third of the page less its header, three line
    // pointers and special space, less a heap TID; a posting list half that.
    let max_item = ((page_size - 40 - 16) / 3) / 8 * 8 - 8;
    let max_posting = max_item / 2;
    let mut freed = 0;
    for run in items.chunk_by(|a, b| a.0 == b.0) {
        let base = run[0].1;
        let per_posting = ((max_posting.saturating_sub(base)) / TID).max(1) as usize;
        for part in run.chunks(per_posting).filter(|p| p.len() > 1) {
            let before: u32 = part.iter().map(|(_, s)| s + LP).sum();
            let after = maxalign(base + TID * part.len() as u32) + LP;
            freed += before.saturating_sub(after);
        }
    }
    freed
}

fn view_page_size(ix: &Index) -> u32 {
    ix.tree.page_view(1).map_or(8192, |v| v.page_size)
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

#[cfg(test)]
mod tests {
    use super::saving;

    #[test]
    fn one_pair_of_equal_keys_frees_less_than_an_entry() {
        // Two 16-byte tuples (40 bytes with line pointers) become one
        // MAXALIGN(16 + 12) = 32-byte posting tuple: 4 bytes freed.
        let items = [(&[1u8][..], 16), (&[2u8][..], 16), (&[2u8][..], 16)];
        assert_eq!(saving(&items, 8192), 4);
    }

    #[test]
    fn a_run_of_equal_keys_frees_most_of_its_bytes() {
        let items = vec![(&[7u8][..], 16); 100];
        // 2000 bytes become one posting tuple of MAXALIGN(16 + 600) = 616 + 4.
        assert_eq!(saving(&items, 8192), 2000 - 620);
    }
}
