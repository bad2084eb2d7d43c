//! The Bitmap Heap Scan on the PostgreSQL profile, in two phases as
//! PostgreSQL runs it (`nodeBitmapIndexscan.c`, `nodeBitmapHeapscan.c`):
//!
//! 1. **Bitmap Index Scan**: the index is read for every entry the
//!    condition finds, and each entry's heap address is marked in a bitmap
//!    (`btgetbitmap`); no heap page is touched yet.
//! 2. **Bitmap Heap Scan**: the marked pages are read once each, in page
//!    order, and every marked row on a page is checked there.
//!
//! So no heap page is read twice, however scattered the rows, and the pages
//! come in file order. A BitmapAnd builds one bitmap per index, in turn, and
//! keeps only the rows every one marks (`MultiExecBitmapAnd`); once the
//! bitmap so far is empty, the indexes after it are not read at all. A
//! BitmapOr builds one per arm of an `OR` and keeps the rows any of them
//! marks (`MultiExecBitmapOr`). Every page here is an exact one (`Heap Blocks:
//! exact=`): IndexLab does not model a bitmap grown past `work_mem` into
//! lossy pages.

use super::engine::PgEngine;
use super::held_page::HeldPage;
use super::key_ranges::EntryChecks;
use super::scan::{as_ref, ByteRange, ScanState};
use super::tid::Tid;
use crate::btree::Direction;
use crate::buffer_pool::{BufferStats, Fork};
use crate::exec::plan_phase::{self, Phase};
use crate::sql::error::SqlError;
use crate::trace::Event;

/// What the two phases did, for EXPLAIN's nodes.
#[derive(Debug, Clone, Default)]
pub struct BitmapFigures {
    /// Each Bitmap Index Scan's (one per index of a BitmapAnd), or None for
    /// one not run because the bitmap was already empty.
    pub indexes: Vec<Option<IndexFigures>>,
    /// Heap pages the second phase read (`Heap Blocks: exact=`).
    pub pages: u64,
    /// Virtual time when the bitmap was complete, µs.
    pub index_done_us: f64,
}

/// One Bitmap Index Scan's figures.
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexFigures {
    /// The index pages it read.
    pub buffers: BufferStats,
    /// Entries it marked (its rows).
    pub entries: u64,
    /// Virtual time when its bitmap was complete, µs.
    pub done_us: f64,
}

impl PgEngine {
    /// Runs both phases over the `reads` (index, its ranges) ANDed (ORed
    /// when `or`),
    /// offering each visible row to `st`; adds every buffer access to
    /// `buffers`.
    pub(super) fn bitmap_scan(
        &mut self,
        reads: &[(usize, Vec<ByteRange>, EntryChecks)],
        or: bool,
        st: &mut ScanState,
        buffers: &mut BufferStats,
    ) -> Result<BitmapFigures, SqlError> {
        let mut tids: Option<Vec<Tid>> = None;
        let mut indexes = Vec::new();
        for (index, ranges, checks) in reads {
            if !or && tids.as_ref().is_some_and(Vec::is_empty) {
                indexes.push(None);
                continue;
            }
            let (marked, index_buffers) = self.build_bitmap(*index, ranges, checks)?;
            buffers.add(&index_buffers);
            indexes.push(Some(IndexFigures {
                buffers: index_buffers,
                entries: marked.len() as u64,
                done_us: self.io.clock.now_us(),
            }));
            tids = Some(match tids {
                None => marked,
                Some(so_far) if or => union(&so_far, &marked),
                Some(so_far) => intersect(&so_far, &marked),
            });
        }
        let tids = tids.unwrap_or_default();
        let index_done_us = self.io.clock.now_us();
        let table = self.catalog.index(reads[0].0).table;
        let pages = tids
            .iter()
            .map(|t| t.page)
            .fold((0u64, None), |(n, last), p| {
                (n + u64::from(last != Some(p)), Some(p))
            })
            .0;
        self.record_bitmap(reads, &indexes, tids.len() as u64, pages, or);
        let kept_before = st.rows_kept();
        let heap_buffers = self.read_marked_pages(table, &tids, st)?;
        buffers.add(&heap_buffers);
        let name = self.catalog.table(table).name.clone();
        plan_phase::record(
            self,
            Phase::of("Bitmap Heap Scan", "heap", &name),
            (tids.len() as u64, st.rows_kept() - kept_before),
            format!("Heap Blocks: exact={pages}"),
        );
        Ok(BitmapFigures {
            indexes,
            pages,
            index_done_us,
        })
    }

    /// Records the bitmap's phase: the indexes read, the addresses they
    /// marked and the pages those lie on.
    fn record_bitmap(
        &mut self,
        reads: &[(usize, Vec<ByteRange>, EntryChecks)],
        indexes: &[Option<IndexFigures>],
        addresses: u64,
        pages: u64,
        or: bool,
    ) {
        let names: Vec<String> = reads
            .iter()
            .map(|(i, ..)| self.catalog.index(*i).name.clone())
            .collect();
        let joined = names.join(if or { " OR " } else { " AND " });
        let entries = indexes.iter().flatten().map(|f| f.entries).sum();
        let detail = format!("{addresses} row addresses on {pages} pages, sorted by page");
        let phase = Phase::of("Bitmap Heap Scan", "bitmap", &joined);
        plan_phase::record(self, phase, (entries, addresses), detail);
    }

    /// Phase 1: every heap address the ranges' entries name, in page order.
    fn build_bitmap(
        &mut self,
        index: usize,
        ranges: &[ByteRange],
        checks: &EntryChecks,
    ) -> Result<(Vec<Tid>, BufferStats), SqlError> {
        let irel = self.catalog.index(index).rel;
        let iname = self.io.names[irel as usize].clone();
        let mut stats_total = BufferStats::default();
        let mut tids = Vec::new();
        let mut last_leaf = None;
        let mut counts = super::pgstat::IndexCounters::default();
        for (lo, hi) in ranges {
            counts.idx_scan += 1;
            let tree = &self.catalog.index(index).tree;
            let (mut cursor, stats) = self.io.rel(irel, Fork::Main, |io| {
                tree.seek(as_ref(lo), as_ref(hi), Direction::Forward, io)
            })?;
            cursor.drop_pins();
            stats_total.add(&stats);
            let mut landed = cursor.page();
            loop {
                let tree = &self.catalog.index(index).tree;
                let (next, stats) = self.io.rel(irel, Fork::Main, |io| {
                    cursor
                        .next(tree, io)
                        .map(|e| (e.payload, checks.pass(e.key)))
                })?;
                stats_total.add(&stats);
                let Some((payload, passed)) = next else { break };
                counts.idx_tup_read += 1;
                if cursor.page() != last_leaf {
                    last_leaf = cursor.page();
                    if let Some(page) = last_leaf {
                        let descended = landed.take() == Some(page);
                        self.io.trace.detail(|| Event::CursorStep {
                            relation: iname.clone(),
                            page,
                            backward: false,
                            descended,
                        });
                    }
                }
                if passed? {
                    tids.push(Tid::from_u64(payload));
                }
            }
        }
        let pending = &mut self.catalog.index_mut(index).activity.pending;
        pending.idx_scan += counts.idx_scan;
        pending.idx_tup_read += counts.idx_tup_read;
        self.count(irel, &stats_total);
        tids.sort_by_key(|t| t.to_u64());
        tids.dedup();
        Ok((tids, stats_total))
    }

    /// Phase 2: each marked page read once (pruned first, as any heap
    /// read does), each marked row on it followed along its HOT chain to
    /// the version this transaction sees.
    fn read_marked_pages(
        &mut self,
        table: usize,
        tids: &[Tid],
        st: &mut ScanState,
    ) -> Result<BufferStats, SqlError> {
        let hrel = self.catalog.table(table).rel;
        let heap_name = self.io.names[hrel as usize].clone();
        let mut held = HeldPage::new();
        let mut stats_total = BufferStats::default();
        let mut last_page = None;
        for &tid in tids {
            if last_page != Some(tid.page) {
                last_page = Some(tid.page);
                self.prune_opt(table, tid.page)?;
            }
            self.io.trace.detail(|| Event::HeapFetch {
                relation: heap_name.clone(),
                page: tid.page,
                index_only: false,
                bitmap: true,
            });
            let running = self.xact.current();
            let heap = &self.catalog.table(table).heap;
            let (found, stats) = self.io.rel(hrel, Fork::Main, |io| {
                let r = heap.fetch(tid, &mut held, io).map(|(t, r)| (t, r.clone()));
                heap.check_chain(tid, running);
                r
            })?;
            stats_total.add(&stats);
            if let Some((live, row)) = found {
                if !self.offer(st, live.to_u64(), &row)? {
                    break;
                }
            }
        }
        self.count(hrel, &stats_total);
        Ok(stats_total)
    }
}

/// The addresses in both sorted lists, in order.
/// The addresses in either list (both in address order), each once.
fn union(a: &[Tid], b: &[Tid]) -> Vec<Tid> {
    let mut out: Vec<Tid> = a.iter().chain(b).copied().collect();
    out.sort_by_key(|t| t.to_u64());
    out.dedup_by_key(|t| t.to_u64());
    out
}

fn intersect(a: &[Tid], b: &[Tid]) -> Vec<Tid> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].to_u64().cmp(&b[j].to_u64()) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                (i, j) = (i + 1, j + 1);
            }
        }
    }
    out
}
