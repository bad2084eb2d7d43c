//! What the planner knows about a table before it reads a row: the numbers
//! PostgreSQL's `get_relation_info` and `estimate_rel_size` (plancat.c,
//! tableam.c) take from `pg_class`, `pg_statistic` and the files' sizes.
//!
//! They are not kept current: only VACUUM, ANALYZE and CREATE INDEX write
//! `reltuples` and `relpages`, so after a load the planner scales the old
//! density to the file's size now, and before any of them it guesses a
//! density from the columns' widths. This is why a table nobody analyzed
//! gets a plan from defaults.

use crate::value::Value;

/// One column's statistics, as `pg_statistic` holds them (ANALYZE's
/// `compute_scalar_stats` fills them).
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnStats {
    pub null_frac: f32,
    pub avg_width: i32,
    pub n_distinct: f32,
    /// Most common values, most common first, with their frequencies.
    pub most_common: Vec<(Value, f32)>,
    pub histogram: Vec<Value>,
    /// None when fewer than two non-NULL values were sampled.
    pub correlation: Option<f32>,
}

/// A table as the planner sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct RelationStats {
    /// Blocks in the heap's file now (`RelationGetNumberOfBlocks`).
    pub blocks_now: u32,
    /// `pg_class.relpages`, `reltuples` (-1: never measured), `relallvisible`.
    pub relpages: u32,
    pub reltuples: f64,
    pub relallvisible: u32,
    /// Bytes a page offers tuples: the page less its 24-byte header.
    pub usable_page_bytes: u32,
    /// Each column's width for the planner: ANALYZE's `avg_width`, else
    /// the type's typical width (`get_typavgwidth`).
    pub column_widths: Vec<u32>,
    /// Each column's statistics, None before ANALYZE saw it.
    pub columns: Vec<Option<ColumnStats>>,
    /// Whether a unique, non-partial index has this column as its only key
    /// (`has_unique_index`): an equality then finds at most one row.
    pub unique: Vec<bool>,
}

/// An index as the planner sees it (`IndexOptInfo`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndexStats {
    /// Blocks in its file now, the metapage included.
    pub pages: u32,
    /// The index tuples it holds: the table's estimate for a full index
    /// (`info->tuples = rel->tuples`), its own for a partial one.
    pub tuples: f64,
    /// Levels above the leaves (`_bt_getrootheight`: 0 when the root is a
    /// leaf or there is none).
    pub tree_height: u32,
    pub unique: bool,
}

/// `estimate_rel_size` for a heap: the pages and tuples the planner assumes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizeEstimate {
    pub pages: f64,
    pub tuples: f64,
    /// The share of pages all-visible (`relallvisible / pages`).
    pub all_visible_frac: f64,
}

/// `MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData)`: what each tuple
/// costs a page besides its data.
const TUPLE_OVERHEAD: u32 = 24 + 4;

impl RelationStats {
    /// `table_block_relation_estimate_size` (PostgreSQL 15).
    pub fn estimate(&self) -> SizeEstimate {
        let mut pages = self.blocks_now;
        // Never measured and tiny: assume 10 pages, so a table that was
        // empty at planning time is not planned as if it stayed so.
        if pages < 10 && self.reltuples < 0.0 {
            pages = 10;
        }
        if pages == 0 {
            return SizeEstimate {
                pages: 0.0,
                tuples: 0.0,
                all_visible_frac: 0.0,
            };
        }
        let density = if self.reltuples >= 0.0 && self.relpages > 0 {
            self.reltuples / f64::from(self.relpages)
        } else {
            let width = self.column_widths.iter().sum::<u32>() + TUPLE_OVERHEAD;
            // Integer division, as PostgreSQL's.
            f64::from(self.usable_page_bytes / width)
        };
        let all_visible_frac = if self.relallvisible == 0 {
            0.0
        } else if self.relallvisible >= pages {
            1.0
        } else {
            f64::from(self.relallvisible) / f64::from(pages)
        };
        SizeEstimate {
            pages: f64::from(pages),
            tuples: (density * f64::from(pages)).round_ties_even(),
            all_visible_frac,
        }
    }
}

/// `clamp_row_est`: at least one row, and a whole number.
pub fn clamp_rows(rows: f64) -> f64 {
    if rows <= 1.0 {
        1.0
    } else {
        rows.round_ties_even()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(blocks: u32, relpages: u32, reltuples: f64) -> RelationStats {
        RelationStats {
            blocks_now: blocks,
            relpages,
            reltuples,
            relallvisible: 0,
            usable_page_bytes: 8168,
            column_widths: vec![4, 4, 32],
            columns: vec![None, None, None],
            unique: vec![true, false, false],
        }
    }

    #[test]
    fn a_never_measured_table_is_guessed_from_its_widths() {
        // (int, int, text): 40 bytes + 28 of overhead, 120 to a page; 55
        // blocks hold 6 600 rows as PostgreSQL 15 estimates them.
        let e = table(55, 0, -1.0).estimate();
        assert_eq!((e.pages, e.tuples), (55.0, 6600.0));
        // Empty and never measured: ten pages' worth.
        assert_eq!(table(0, 0, -1.0).estimate().tuples, 1200.0);
    }

    #[test]
    fn a_measured_table_keeps_its_density() {
        let e = table(110, 55, 10_000.0).estimate();
        assert_eq!(e.tuples, 20_000.0);
        assert_eq!(table(0, 0, 0.0).estimate().tuples, 0.0);
    }
}
