//! Executes a planned scan on the PostgreSQL profile: Seq Scan, Index Scan (either
//! direction) and Index Only Scan, counting buffers as PostgreSQL does (the
//! Bitmap Heap Scan is in [`super::bitmap_scan`]).
//!
//! An index scan keeps its current heap page pinned ([`HeldPage`]), so consecutive
//! entries pointing at the same page count one buffer access; an index-only scan
//! asks the visibility map first and visits the heap only for pages that are not
//! all-visible (`Heap Fetches`).

use super::engine::PgEngine;
use super::held_page::HeldPage;
use super::tid::Tid;
use crate::btree::Direction;
use crate::buffer_pool::{BufferStats, Fork};
use crate::exec::engine::GroupStop;
use crate::exec::QueryEngine;
use crate::exec::{Row, ScanOutput};
use crate::sql::error::SqlError;
use crate::sql::eval::{accepts, bind, Bound as BoundExpr};
use crate::sql::plan::{AccessPath, ScanDirection, ScanPlan};
use crate::storage::PageNo;
use crate::trace::Event;
use crate::value::Value;
use std::ops::Bound;

/// A byte range of the index to read, in scan order.
pub(super) type ByteRange = (Bound<Vec<u8>>, Bound<Vec<u8>>);

pub(super) fn as_ref(b: &Bound<Vec<u8>>) -> Bound<&[u8]> {
    match b {
        Bound::Included(v) => Bound::Included(v.as_slice()),
        Bound::Excluded(v) => Bound::Excluded(v.as_slice()),
        Bound::Unbounded => Bound::Unbounded,
    }
}

pub(super) struct ScanState {
    filter: Vec<BoundExpr>,
    /// The table scanned.
    table: usize,
    /// Append each row's system columns (the query names one).
    system: bool,
    limit: Option<u64>,
    /// A GroupAggregate's LIMIT in groups, and the groups begun so far.
    groups: Option<(GroupStop, u64)>,
    rows: Vec<(u64, Row)>,
    removed: u64,
    first_us: Option<f64>,
}

impl ScanState {
    /// The rows kept so far (visible, past the filter).
    pub(super) fn rows_kept(&self) -> u64 {
        self.rows.len() as u64
    }
}

/// A row's group key values, for a scan that stops at a group.
fn stop_key(st: &ScanState, row: &Row) -> Vec<Value> {
    st.groups.as_ref().map_or_else(Vec::new, |(stop, _)| {
        stop.key.iter().map(|&c| row[c].clone()).collect()
    })
}

impl PgEngine {
    /// Offers a row to the scan: filter, count, keep. False once the limit is met.
    pub(super) fn offer(
        &mut self,
        st: &mut ScanState,
        tid: u64,
        row: &Row,
    ) -> Result<bool, SqlError> {
        if st.system {
            let mut with_system = row.clone();
            with_system.extend(self.system_values(st.table, tid));
            return self.offer_row(st, tid, &with_system);
        }
        self.offer_row(st, tid, row)
    }

    fn offer_row(&mut self, st: &mut ScanState, tid: u64, row: &Row) -> Result<bool, SqlError> {
        self.io.clock.advance_us(self.io.cost.cpu_row_us);
        self.rows_examined += 1;
        for f in &st.filter {
            let mut env = self.env();
            if !accepts(f, row, &mut env)? {
                st.removed += 1;
                return Ok(true);
            }
        }
        st.first_us.get_or_insert(self.io.clock.now_us());
        let begins_group = st.groups.is_some()
            && st
                .rows
                .last()
                .is_none_or(|(_, last)| stop_key(st, last) != stop_key(st, row));
        st.rows.push((tid, row.clone()));
        if let (true, Some((stop, begun))) = (begins_group, &mut st.groups) {
            *begun += 1;
            if *begun >= stop.groups + u64::from(stop.reads_next) {
                return Ok(false);
            }
        }
        Ok(st.limit.is_none_or(|l| (st.rows.len() as u64) < l))
    }

    /// The system columns of the row version at `tid`: `ctid`, `xmin`, `xmax`.
    pub(super) fn system_values(&self, table: usize, tid: u64) -> [crate::value::Value; 3] {
        use crate::value::Value;
        let heap = &self.catalog.table(table).heap;
        let (xmin, xmax) = heap.xids(Tid::from_u64(tid)).unwrap_or_default();
        [
            Value::Tid(tid),
            Value::Int(i64::from(xmin)),
            Value::Int(i64::from(xmax)),
        ]
    }

    /// Runs `plan` on `table`, stopping after `limit` accepted rows when given.
    pub(super) fn scan(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        limit: Option<u64>,
    ) -> Result<ScanOutput, SqlError> {
        self.scan_stopping(table, plan, limit, None)
    }

    /// The visible rows of `table` that `filter` keeps, in heap order,
    /// without a buffer access or a counter ([`QueryEngine::peek_rows`]).
    pub(super) fn peek(
        &mut self,
        table: usize,
        filter: &[crate::sql::ast::Expr],
    ) -> Result<Vec<Row>, SqlError> {
        let scope = self.table_scope(table);
        let filter = filter
            .iter()
            .map(|f| bind(f, &scope))
            .collect::<Result<Vec<_>, _>>()?;
        let running = self.xact.current();
        let heap = &self.catalog.table(table).heap;
        let rows: Vec<Row> = heap
            .scan_checking(&mut crate::storage::NoAccounting, running)
            .map(|(_, row)| row.clone())
            .collect();
        let mut kept = Vec::new();
        'rows: for row in rows {
            for f in &filter {
                if !accepts(f, &row, &mut self.env())? {
                    continue 'rows;
                }
            }
            kept.push(row);
        }
        Ok(kept)
    }

    /// Runs `plan` on `table` until a row begins the group after `stop`'s.
    pub(super) fn scan_until_group(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        stop: &GroupStop,
    ) -> Result<ScanOutput, SqlError> {
        self.scan_stopping(table, plan, None, Some(stop.clone()))
    }

    fn scan_stopping(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        limit: Option<u64>,
        groups: Option<GroupStop>,
    ) -> Result<ScanOutput, SqlError> {
        let scope = self.scan_scope(table, plan);
        let filter = plan
            .filter
            .iter()
            .map(|f| bind(f, &scope))
            .collect::<Result<Vec<_>, _>>()?;
        let mut st = ScanState {
            filter,
            table,
            system: plan.system_columns,
            limit,
            groups: groups.map(|g| (g, 0)),
            rows: Vec::new(),
            removed: 0,
            first_us: None,
        };
        let start = self.io.clock.now_us();
        let mut buffers = BufferStats::default();
        let mut heap_fetches = None;
        let mut bitmap = None;
        if limit != Some(0) {
            match &plan.access {
                AccessPath::Seq => self.seq_scan(table, &mut st, &mut buffers)?,
                AccessPath::Index {
                    index,
                    direction,
                    only,
                    cond,
                    ..
                } => {
                    let ix = self.catalog.table(table).indexes[*index];
                    let ranges = self.byte_ranges(ix, cond.as_ref(), *direction)?;
                    let checks = self.entry_checks(ix, cond.as_ref())?;
                    let read = IndexRead {
                        index: ix,
                        ranges: &ranges,
                        checks: &checks,
                        dir: *direction,
                        only: *only,
                    };
                    let fetches = self.index_scan(&read, &mut st, &mut buffers)?;
                    heap_fetches = only.then_some(fetches);
                    if *only {
                        // EXPLAIN's Heap Fetches, also as a counter (DESIGN §2 Metrics).
                        self.metrics.add("heap_fetches", fetches as f64);
                    }
                }
                AccessPath::Bitmap {
                    index,
                    cond,
                    and,
                    or,
                    ..
                } => {
                    let arms = std::iter::once((*index, cond))
                        .chain(and.iter().map(|a| (a.index, &a.cond)));
                    let mut reads = Vec::new();
                    for (index, cond) in arms {
                        let ix = self.catalog.table(table).indexes[index];
                        let ranges = self.byte_ranges(ix, cond.as_ref(), ScanDirection::Forward)?;
                        let checks = self.entry_checks(ix, cond.as_ref())?;
                        reads.push((ix, ranges, checks));
                    }
                    bitmap = Some(self.bitmap_scan(&reads, *or, &mut st, &mut buffers)?);
                }
            }
        }
        let counts = (st.rows.len() as u64, st.removed, st.first_us);
        let figures = super::explain::ScanFigures {
            buffers,
            heap_fetches,
            bitmap,
        };
        let node = self.scan_node(table, plan, counts, start, figures);
        Ok(ScanOutput {
            rows: st.rows,
            node,
        })
    }

    /// Every live row of the table, in page order, each page counted once.
    pub(super) fn heap_rows(
        &mut self,
        table: usize,
    ) -> Result<(Vec<(u64, Row)>, BufferStats), SqlError> {
        let (mut rows, mut stats) = (Vec::new(), BufferStats::default());
        for page in 0..self.catalog.table(table).heap.page_count() {
            let (on_page, page_stats) = self.heap_page(table, page)?;
            rows.extend(on_page);
            stats.add(&page_stats);
        }
        Ok((rows, stats))
    }

    /// One page of `table`'s live rows, read once (a sequential scan's step).
    fn heap_page(
        &mut self,
        table: usize,
        page: u32,
    ) -> Result<(Vec<(u64, Row)>, BufferStats), SqlError> {
        let t = self.catalog.table(table);
        let rel = t.rel;
        let running = self.xact.current();
        let (rows, stats) = self.io.rel(rel, Fork::Main, |io| {
            t.heap
                .page_checking(page, io, running)
                .into_iter()
                .map(|(tid, row)| (tid.to_u64(), row.clone()))
                .collect::<Vec<_>>()
        })?;
        self.count(rel, &stats);
        Ok((rows, stats))
    }

    /// `heap_page_prune_opt` on page `page` of `table`, as a scan reading it
    /// does first ([`super::heap::Heap::prune_opt`]): the page is dirtied and
    /// the pruning logged.
    pub(super) fn prune_opt(&mut self, table: usize, page: u32) -> Result<(), SqlError> {
        let running = self.xact.current();
        let t = self.catalog.table_mut(table);
        let (rel, heap) = (t.rel, &mut t.heap);
        let (pruned, stats) = self
            .io
            .rel(rel, Fork::Main, |io| heap.prune_opt(page, running, io))?;
        if pruned {
            self.count(rel, &stats);
            self.log_heap(table, page, 8);
        }
        Ok(())
    }

    /// Every page of `table` pruned as a sequential scan prunes them.
    pub(super) fn prune_all_opt(&mut self, table: usize) -> Result<(), SqlError> {
        for page in 0..self.catalog.table(table).heap.page_count() {
            self.prune_opt(table, page)?;
        }
        Ok(())
    }

    fn seq_scan(
        &mut self,
        table: usize,
        st: &mut ScanState,
        buffers: &mut BufferStats,
    ) -> Result<(), SqlError> {
        // The pages the table had when the scan began (`rs_nblocks`), in
        // order, each pruned as it is read. A LIMIT met stops the scan at the
        // page it was met on, as PostgreSQL's Limit stops pulling rows.
        let end = self.catalog.table(table).heap.page_count();
        let mut returned = 0;
        'pages: for page in 0..end {
            self.prune_opt(table, page)?;
            let (rows, stats) = self.heap_page(table, page)?;
            buffers.add(&stats);
            for (tid, row) in rows {
                returned += 1;
                if !self.offer(st, tid, &row)? {
                    break 'pages;
                }
            }
        }
        let pending = &mut self.catalog.table_mut(table).activity.pending;
        pending.seq_scan += 1;
        pending.seq_tup_read += returned;
        Ok(())
    }

    fn index_scan(
        &mut self,
        read: &IndexRead,
        st: &mut ScanState,
        buffers: &mut BufferStats,
    ) -> Result<u64, SqlError> {
        let IndexRead {
            index,
            ranges,
            checks,
            dir,
            only,
        } = *read;
        let ix = self.catalog.index(index);
        let (irel, iname, table) = (ix.rel, self.io.names[ix.rel as usize].clone(), ix.table);
        let t = self.catalog.table(table);
        let (hrel, vm_exists) = (t.rel, t.vm_exists);
        let direction = match dir {
            ScanDirection::Forward => Direction::Forward,
            ScanDirection::Backward => Direction::Backward,
        };
        let (mut held_heap, mut held_vm) = (HeldPage::new(), HeldPage::new());
        // A nested loop's inner index-only scan keeps its visibility-map page
        // pinned from one loop to the next (ExecReScanIndexOnlyScan leaves
        // ioss_VMBuffer alone), so only the first loop reads it.
        if let Some((rel, page)) = self.rescan_vm.as_ref().and_then(|k| *k) {
            if rel == hrel {
                held_vm.hold(page);
            }
        }
        let (mut idx_stats, mut heap_stats) = (BufferStats::default(), BufferStats::default());
        let mut fetches = 0u64;
        let mut last_leaf = None;
        let mut counts = super::pgstat::IndexCounters::default();
        let mut last_pruned = None;
        // Entries of the current leaf whose rows were found dead to all, to
        // mark LP_DEAD when the scan leaves the leaf (_bt_killitems), and the
        // leaf's version when it was read.
        let (mut kills, mut read_at) = (Vec::new(), None);
        'ranges: for (lo, hi) in ranges {
            counts.idx_scan += 1;
            let tree = &self.catalog.index(index).tree;
            let (mut cursor, stats) = self.io.rel(irel, Fork::Main, |io| {
                tree.seek(as_ref(lo), as_ref(hi), direction, io)
            })?;
            if !only {
                cursor.drop_pins();
            }
            idx_stats.add(&stats);
            // The leaf the descent landed on: the range's first leaf step is
            // that descent unless the range starts on the next leaf.
            let mut landed = cursor.page();
            loop {
                let tree = &self.catalog.index(index).tree;
                let (next, stats) = self.io.rel(irel, Fork::Main, |io| {
                    cursor
                        .next(tree, io)
                        .map(|e| (e.payload, checks.pass(e.key)))
                })?;
                idx_stats.add(&stats);
                let Some((payload, passed)) = next else { break };
                counts.idx_tup_read += 1;
                if cursor.page() != last_leaf {
                    self.kill_entries(index, last_leaf, &mut kills, read_at, only);
                    read_at = cursor
                        .page()
                        .and_then(|p| self.catalog.index(index).tree.page_version(p));
                    last_leaf = cursor.page();
                    if let Some(page) = last_leaf {
                        let descended = landed.take() == Some(page);
                        self.io.trace.detail(|| Event::CursorStep {
                            relation: iname.clone(),
                            page,
                            backward: dir == ScanDirection::Backward,
                            descended,
                        });
                    }
                }
                // An entry failing a condition checked in the index is
                // passed over: no heap visit.
                if !passed? {
                    continue;
                }
                let tid = Tid::from_u64(payload);
                if !only && last_pruned != Some(tid.page) {
                    // A heap fetch from a new page prunes it first.
                    last_pruned = Some(tid.page);
                    self.prune_opt(table, tid.page)?;
                }
                let heap = &self.catalog.table(table).heap;
                let visible = only && vm_exists && {
                    let vm = heap.visibility_map();
                    let (v, stats) = self
                        .io
                        .rel(hrel, Fork::Vm, |io| vm.check(tid.page, &mut held_vm, io))?;
                    heap_stats.add(&stats);
                    v
                };
                // The row's own tid, not the entry's: after HOT updates the entry
                // names the chain's root, and UPDATE/DELETE act on the live member.
                let found = if visible {
                    heap.resolve(tid).map(|(t, r)| (t, r.clone()))
                } else {
                    fetches += 1;
                    let heap_name = self.io.names[hrel as usize].clone();
                    self.io.trace.detail(|| Event::HeapFetch {
                        relation: heap_name,
                        page: tid.page,
                        index_only: only,
                        bitmap: false,
                    });
                    let running = self.xact.current();
                    let (r, stats) = self.io.rel(hrel, Fork::Main, |io| {
                        let r = heap
                            .fetch(tid, &mut held_heap, io)
                            .map(|(t, r)| (t, r.clone()));
                        heap.check_chain(tid, running);
                        r
                    })?;
                    heap_stats.add(&stats);
                    counts.idx_tup_fetch += r.is_some() as i64;
                    if r.is_none() && heap.dead_to_all(tid, self.xact.current()) {
                        kills.push(payload);
                    }
                    r
                };
                if let Some((live, row)) = found {
                    if !self.offer(st, live.to_u64(), &row)? {
                        break 'ranges;
                    }
                }
            }
        }
        self.kill_entries(index, last_leaf, &mut kills, read_at, only);
        if let (Some(kept), Some(page)) = (self.rescan_vm.as_mut(), held_vm.page()) {
            *kept = Some((hrel, page));
        }
        let pending = &mut self.catalog.index_mut(index).activity.pending;
        pending.idx_scan += counts.idx_scan;
        pending.idx_tup_read += counts.idx_tup_read;
        pending.idx_tup_fetch += counts.idx_tup_fetch;
        self.count(irel, &idx_stats);
        self.count(hrel, &heap_stats);
        buffers.add(&idx_stats);
        buffers.add(&heap_stats);
        Ok(fetches)
    }
}

impl PgEngine {
    /// Sets the LP_DEAD hint on `leaf`'s entries in `kills` (emptied). A
    /// plain index scan has dropped its pin and marks only a leaf unchanged
    /// since `read_at`; an index-only scan holds its pin and marks anyway.
    fn kill_entries(
        &mut self,
        index: usize,
        leaf: Option<PageNo>,
        kills: &mut Vec<u64>,
        read_at: Option<u32>,
        pinned: bool,
    ) {
        let (Some(leaf), false) = (leaf, kills.is_empty()) else {
            return;
        };
        let tree = &mut self.catalog.index_mut(index).tree;
        for payload in kills.drain(..) {
            tree.kill(leaf, payload, if pinned { None } else { read_at });
        }
    }
}

/// What an index scan reads: the byte ranges of its bound, the conditions
/// checked on each entry, the direction, and whether it is index-only.
#[derive(Clone, Copy)]
pub(super) struct IndexRead<'a> {
    pub index: usize,
    pub ranges: &'a [ByteRange],
    pub checks: &'a super::key_ranges::EntryChecks,
    pub dir: ScanDirection,
    pub only: bool,
}
