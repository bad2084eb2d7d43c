//! The size of a heap's free space map fork, as PostgreSQL grows and cuts it
//! (`freespace.c`). The map itself (where inserts find room) is
//! [`super::free_space_map`]; this is only how many blocks its fork has, for
//! `pg_relation_size(t, 'fsm')` and `pg_table_size`.
//!
//! The fork is a tree of FSM pages three levels deep, stored depth first: the
//! root, then each inner page before its leaves. A leaf page holds one slot a
//! heap page (`SlotsPerFSMPage`: 4 069 for 8 kB pages). Recording a heap page
//! extends the fork up to the leaf that addresses it; truncating the heap
//! removes the leaf pages past the new end.

/// Heap pages one FSM leaf page addresses.
fn slots_per_page(page_size: u32) -> u32 {
    // The page's nodes (less the page header and the fp_next_slot word),
    // less its inner nodes (half the page).
    page_size / 2 - 27
}

/// The block number of leaf page `leaf` (`fsm_logical_to_physical`).
fn leaf_block(leaf: u32, page_size: u32) -> u32 {
    let slots = slots_per_page(page_size);
    let (mut pages, mut l) = (0, leaf);
    for _ in 0..3 {
        pages += l + 1;
        l /= slots;
    }
    pages - 1
}

/// Blocks the fork has once heap page `page` is recorded.
pub fn blocks_to_cover(page: u32, page_size: u32) -> u32 {
    leaf_block(page / slots_per_page(page_size), page_size) + 1
}

/// Blocks the fork keeps when the heap is cut to `heap_pages` pages
/// (`FreeSpaceMapPrepareTruncateRel`): a leaf whose first slot is cut goes.
pub fn blocks_after_truncation(heap_pages: u32, page_size: u32) -> u32 {
    let slots = slots_per_page(page_size);
    let (leaf, slot) = (heap_pages / slots, heap_pages % slots);
    if slot == 0 {
        leaf_block(leaf, page_size)
    } else {
        leaf_block(leaf, page_size) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_blocks_until_the_first_leaf_is_full() {
        assert_eq!(blocks_to_cover(0, 8192), 3);
        assert_eq!(blocks_to_cover(4068, 8192), 3);
        assert_eq!(blocks_to_cover(4069, 8192), 4);
    }

    #[test]
    fn a_heap_cut_to_nothing_keeps_the_root_and_inner_page() {
        assert_eq!(blocks_after_truncation(0, 8192), 2);
        assert_eq!(blocks_after_truncation(1, 8192), 3);
    }
}
