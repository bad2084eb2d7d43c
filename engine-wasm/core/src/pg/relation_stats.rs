//! `pg_class.relpages`, `reltuples` and `relallvisible`: what PostgreSQL
//! believes about a relation's size, which its planner reads. They are not
//! kept current: only VACUUM, ANALYZE and CREATE INDEX write them, each by its
//! own rule, so after a load they still say what they said before it, and a
//! student sees `reltuples = -1` ("never measured") on a table of a million
//! rows until one of those runs. The rules here are PostgreSQL 15's
//! (`index_update_stats` in index.c, `vac_estimate_reltuples` in vacuum.c,
//! `heap_vacuum_rel` in vacuumlazy.c, `do_analyze_rel` in analyze.c).

/// One relation's row of pg_class, the part IndexLab keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RelStats {
    pub pages: u32,
    /// A float4 in pg_class; -1 means never measured (PostgreSQL 14 on).
    pub tuples: f32,
    pub all_visible: u32,
}

impl RelStats {
    /// A new table (and a table or index TRUNCATE gave a new file): empty
    /// until measured.
    pub const NEW: RelStats = RelStats {
        pages: 0,
        tuples: -1.0,
        all_visible: 0,
    };

    /// A new index before its build: zeros (`RelationBuildLocalRelation`
    /// zero-fills it), so even an empty build writes its metapage and 0 tuples.
    pub const NEW_INDEX: RelStats = RelStats {
        pages: 0,
        tuples: 0.0,
        all_visible: 0,
    };

    /// `index_update_stats` after an index build counted `tuples`. A build
    /// over an empty relation never measured leaves it unmeasured, so a
    /// table's primary key made by CREATE TABLE does not make the table look
    /// vacuumed.
    pub fn after_index_build(&mut self, tuples: u64, pages: u32, all_visible: u32) {
        if tuples == 0 && self.tuples < 0.0 {
            return;
        }
        *self = RelStats {
            pages,
            tuples: tuples as f32,
            all_visible,
        };
    }

    /// `vac_estimate_reltuples`: VACUUM counted `scanned_tuples` live tuples on
    /// `scanned_pages` of `total_pages`; the pages it skipped (all-visible)
    /// are assumed as dense as the old figures said.
    pub fn vacuum_estimate(
        &self,
        total_pages: u32,
        scanned_pages: u32,
        scanned_tuples: u64,
    ) -> f64 {
        let (old_pages, old_tuples) = (self.pages, f64::from(self.tuples));
        let scanned = scanned_tuples as f64;
        if scanned_pages >= total_pages {
            return scanned;
        }
        // Few pages rescanned of a table whose size did not change: keep the
        // old figure rather than drift from a small sample.
        if old_pages == total_pages && f64::from(scanned_pages) < f64::from(total_pages) * 0.02 {
            return old_tuples;
        }
        if scanned_pages == 0 {
            return old_tuples;
        }
        if old_tuples < 0.0 || old_pages == 0 {
            return (scanned / f64::from(scanned_pages) * f64::from(total_pages) + 0.5).floor();
        }
        let old_density = old_tuples / f64::from(old_pages);
        let unscanned = f64::from(total_pages) - f64::from(scanned_pages);
        (old_density * unscanned + scanned + 0.5).floor()
    }
}

#[cfg(test)]
mod tests {
    use super::RelStats;

    #[test]
    fn an_empty_build_leaves_a_new_relation_unmeasured() {
        let mut s = RelStats::NEW;
        s.after_index_build(0, 0, 0);
        assert_eq!(s, RelStats::NEW);
        s.after_index_build(10, 1, 0);
        assert_eq!((s.pages, s.tuples), (1, 10.0));
        // Once measured, an empty build writes its zeros.
        s.after_index_build(0, 0, 0);
        assert_eq!((s.pages, s.tuples), (0, 0.0));
    }

    #[test]
    fn vacuum_scales_what_it_scanned_by_the_old_density() {
        let old = RelStats {
            pages: 100,
            tuples: 10_000.0,
            all_visible: 90,
        };
        // The whole table scanned: the count as it is.
        assert_eq!(old.vacuum_estimate(100, 100, 9_000), 9_000.0);
        // 1 page of the same 100: under 2 %, the old figure stays.
        assert_eq!(old.vacuum_estimate(100, 1, 50), 10_000.0);
        // 10 pages of 110 scanned: 100 unscanned at the old 100 per page.
        assert_eq!(old.vacuum_estimate(110, 10, 700), 10_700.0);
        // Never measured: what was scanned, scaled to the table.
        assert_eq!(RelStats::NEW.vacuum_estimate(10, 5, 101), 202.0);
    }
}
