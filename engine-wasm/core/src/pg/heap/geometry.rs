//! The sizes that decide how many tuples fit on a heap page (htup_details.h, hio.c).

use super::super::tuple::{maxalign, HEAP_TUPLE_HEADER_SIZE, ITEM_ID_SIZE, PAGE_HEADER_SIZE};
use super::HeapError;

/// Settings of one heap relation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapConfig {
    /// Bytes per page (`BLCKSZ`, 8192 by default).
    pub page_size: u32,
    /// Percentage of a page INSERT may fill (`WITH (fillfactor = n)`, 10..=100,
    /// default 100). UPDATE may use the rest for new versions on the same page.
    pub fillfactor: u8,
}

impl Default for HeapConfig {
    fn default() -> Self {
        HeapConfig {
            page_size: 8192,
            fillfactor: 100,
        }
    }
}

/// Derived limits of a heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapGeometry {
    pub page_size: u32,
    pub fillfactor: u8,
    /// `MaxHeapTuplesPerPage`: line pointers a page may have (291 for 8 KiB).
    pub max_tuples_per_page: u32,
    /// `MaxHeapTupleSize`: the largest tuple (8160 for 8 KiB).
    pub max_tuple_size: u32,
    /// Bytes INSERT leaves free for the fillfactor (`RelationGetTargetPageFreeSpace`).
    pub save_free_space: u32,
    /// hio.c's `nearlyEmptyFreeSpace`: a request above it is capped, so a big tuple
    /// with a low fillfactor can still go on an empty page.
    pub nearly_empty_free_space: u32,
}

impl HeapGeometry {
    pub fn new(config: HeapConfig) -> Result<Self, HeapError> {
        let HeapConfig {
            page_size,
            fillfactor,
        } = config;
        if !page_size.is_power_of_two() || !(1024..=32768).contains(&page_size) {
            return Err(HeapError::InvalidConfig(format!(
                "page size {page_size} (must be a power of two, 1024..=32768)"
            )));
        }
        if !(10..=100).contains(&fillfactor) {
            return Err(HeapError::InvalidConfig(format!(
                "fillfactor {fillfactor} (must be 10..=100)"
            )));
        }
        let max_tuples_per_page =
            (page_size - PAGE_HEADER_SIZE) / (maxalign(HEAP_TUPLE_HEADER_SIZE) + ITEM_ID_SIZE);
        let max_tuple_size = page_size - maxalign(PAGE_HEADER_SIZE + ITEM_ID_SIZE);
        Ok(HeapGeometry {
            page_size,
            fillfactor,
            max_tuples_per_page,
            max_tuple_size,
            save_free_space: page_size * (100 - fillfactor as u32) / 100,
            nearly_empty_free_space: max_tuple_size - (max_tuples_per_page / 8 * ITEM_ID_SIZE),
        })
    }

    /// The free space INSERT requires on a page for a tuple of `len` (MAXALIGN'd)
    /// bytes: the tuple plus the fillfactor reserve (hio.c `targetFreeSpace`).
    pub fn target_free_space(&self, len: u32) -> u32 {
        if len + self.save_free_space > self.nearly_empty_free_space {
            len.max(self.nearly_empty_free_space)
        } else {
            len + self.save_free_space
        }
    }

    /// How many tuples of `size` bytes consecutive INSERTs put on one page: the
    /// insertion rule applied to an empty page until it refuses.
    pub fn rows_per_page(&self, size: u16) -> u32 {
        let len = maxalign(size as u32);
        let need = self.target_free_space(len);
        let mut rows = 0;
        loop {
            let lower = PAGE_HEADER_SIZE + ITEM_ID_SIZE * rows;
            let upper = self.page_size - rows * len;
            let free = upper.saturating_sub(lower).saturating_sub(ITEM_ID_SIZE);
            if rows >= self.max_tuples_per_page || need > free {
                return rows;
            }
            rows += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geom(fillfactor: u8) -> HeapGeometry {
        HeapGeometry::new(HeapConfig {
            page_size: 8192,
            fillfactor,
        })
        .unwrap()
    }

    #[test]
    fn postgres_limits_for_8k() {
        let g = geom(100);
        assert_eq!(g.max_tuples_per_page, 291);
        assert_eq!(g.max_tuple_size, 8160);
        assert_eq!(g.save_free_space, 0);
        assert_eq!(geom(90).save_free_space, 819);
    }

    #[test]
    fn rows_per_page_for_article_shapes() {
        // (bigint, timestamptz): 40-byte tuples + 4-byte line pointers, after
        // the 24-byte page header.
        assert_eq!(geom(100).rows_per_page(40), (8192 - 24) / (40 + 4));
        // (bigint): 32-byte tuples, article 004.
        assert_eq!(geom(100).rows_per_page(32), (8192 - 24) / (32 + 4));
        // Empty tuples hit MaxHeapTuplesPerPage.
        assert_eq!(geom(100).rows_per_page(24), 291);
        // fillfactor 50 keeps half the page free.
        assert_eq!(
            geom(50).rows_per_page(40),
            (8192 - 24 - 8192 / 2) / (40 + 4)
        );
    }

    #[test]
    fn rejects_bad_settings() {
        for (page_size, fillfactor) in [(8192, 9), (8192, 101), (1000, 100), (65536, 100)] {
            assert!(HeapGeometry::new(HeapConfig {
                page_size,
                fillfactor
            })
            .is_err());
        }
    }
}
