//! Scans on the yb profile: the planner's access path turned into read
//! requests on tablets, rows decoded from DocDB entries, and the EXPLAIN node
//! with YugabyteDB's storage lines.

use super::catalog::KeySpec;
use super::doc_key::{doc_key, GROUP_END};
use super::engine::YbEngine;
use super::pushdown::{FilterRows, StorageFilter};
use super::request::{DocRow, TabletRead};
use super::row::{decode_table_row, index_row};
use super::skip_scan::Skip;
use super::stats::RelStats;
use crate::btree::{encode_key, numeric_key, without_nulls, KeyColumn, SortOrder};
use crate::exec::engine::GroupStop;
use crate::exec::{Executor, QueryEngine, Row, ScanOutput};
use crate::net::{rounds, Call};
use crate::sql::ast::Expr;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{accepts, bind, coerce, eval, Bound as BoundExpr, Scope};
use crate::sql::plan::{AccessPath, KeyCond, ScanDirection, ScanPlan};
use crate::value::Value;
use std::collections::VecDeque;
use std::ops::Bound;

/// A range's lower bound as bytes, to put ranges in key order.
fn bound_bytes(b: &Bound<Vec<u8>>) -> &[u8] {
    match b {
        Bound::Included(s) | Bound::Excluded(s) => s,
        Bound::Unbounded => &[],
    }
}

/// Whether a condition lists values (an IN list, alone or in a composite
/// key's prefix): each value is then one operation of the read requests,
/// as pggate sends a list's values.
fn lists_values(cond: Option<&KeyCond>) -> bool {
    match cond {
        Some(KeyCond::Points(_)) => true,
        Some(KeyCond::Columns(conds)) => conds.iter().any(|c| matches!(c, KeyCond::Points(_))),
        _ => false,
    }
}

fn exec_error(e: impl std::fmt::Display) -> SqlError {
    SqlError::new(ErrorKind::Execution, e.to_string())
}

/// A condition's bound as a key bound, its value's bytes by `bytes`; None
/// when the value is NULL (the range then holds nothing).
fn key_bound(
    b: &Bound<Expr>,
    bytes: &mut impl FnMut(&Expr) -> Result<Option<Vec<u8>>, SqlError>,
) -> Result<Option<Bound<Vec<u8>>>, SqlError> {
    Ok(match b {
        Bound::Included(e) => bytes(e)?.map(Bound::Included),
        Bound::Excluded(e) => bytes(e)?.map(Bound::Excluded),
        Bound::Unbounded => Some(Bound::Unbounded),
    })
}

/// The bytes of a pushed-down aggregate's answer: a few partial values.
const PARTIAL_ROW_BYTES: u64 = 32;

/// Tablets, lower and upper document-key bounds, and whether it is one document.
type KeyRange = (Vec<usize>, Bound<Vec<u8>>, Bound<Vec<u8>>, bool);

/// What is being read: the table itself (seq scan or primary key) or an index.
#[derive(Clone, Copy, PartialEq)]
enum Source {
    Table,
    Index(usize),
}

/// Where a scan's requests go and what becomes of their rows: the relation
/// read (its metrics id), table or index, the table, and whether index rows
/// send table lookups (an Index Scan) or are the result (Index Only).
#[derive(Clone, Copy)]
struct Reader {
    rel: usize,
    source: Source,
    table: usize,
    fetch_base: bool,
}

/// What a scan gathered: rows, filter counts, and each relation's counters.
pub(super) struct Collected {
    /// The conditions PostgreSQL's side checks (`Filter`).
    filter: Vec<BoundExpr>,
    /// The conditions DocDB checks on the table's rows (`Storage Filter`)
    /// and on a secondary index's entries (an Index Scan's `Storage Index
    /// Filter`, an Index Only Scan's `Storage Filter`).
    table_filter: Option<StorageFilter>,
    index_filter: Option<StorageFilter>,
    /// DocDB computes the aggregates: each request answers with one
    /// partial row, and PostgreSQL's side only combines them.
    pub partial: bool,
    /// Requests that answered with a partial row.
    pub partial_rows: u64,
    limit: Option<u64>,
    /// Where a GroupAggregate under a LIMIT stops pulling rows.
    stop: Option<GroupProgress>,
    pub rows: Vec<(u64, Row)>,
    pub removed: u64,
    pub first_us: Option<f64>,
    pub table: RelStats,
    pub index: RelStats,
}

/// How far a read in group order has gone towards its [`GroupStop`].
struct GroupProgress {
    stop: GroupStop,
    last_key: Option<Vec<crate::value::Value>>,
    begun: u64,
    done: bool,
}

impl GroupProgress {
    /// Whether `row` is still wanted: rows of the groups the LIMIT needs,
    /// and (a GroupAggregate) the next group's first row, which tells it
    /// the last group ended.
    fn wants(&mut self, row: &Row) -> bool {
        let key: Vec<crate::value::Value> = self.stop.key.iter().map(|&c| row[c].clone()).collect();
        if self.last_key.as_ref() != Some(&key) {
            self.begun += 1;
            self.last_key = Some(key);
        }
        if self.begun > self.stop.groups {
            self.done = true;
            return self.stop.reads_next;
        }
        true
    }
}

impl Collected {
    fn full(&self) -> bool {
        self.limit.is_some_and(|l| self.rows.len() as u64 >= l)
            || self.stop.as_ref().is_some_and(|s| s.done)
    }

    /// The LIMIT (with its OFFSET), when it can travel with the read request:
    /// only when no condition checked after DocDB returns the rows could
    /// drop some, on PostgreSQL's side or, for an Index Scan (`fetches`), on
    /// the table's rows read after the index.
    fn pushed_limit(&self, fetches: bool) -> Option<u64> {
        if !self.filter.is_empty() || (fetches && self.table_filter.is_some()) {
            return None;
        }
        self.limit
    }

    /// The storage filter of the rows `source` reads.
    fn storage(&self, source: Source) -> Option<&StorageFilter> {
        match source {
            Source::Table => self.table_filter.as_ref(),
            Source::Index(_) => self.index_filter.as_ref(),
        }
    }
}

impl YbEngine {
    /// One read request to one tablet, as a round on the network.
    fn send_request(
        &mut self,
        rel: usize,
        read: &TabletRead,
        rows: &[DocRow],
        s: &RelStats,
        partial: bool,
    ) {
        // A pushed-down aggregate answers with one row of partial results.
        let (rows, response_bytes) = match (partial, rows.is_empty()) {
            (true, true) => (0, 0),
            (true, false) => (1, PARTIAL_ROW_BYTES),
            (false, _) => (rows.len() as u64, rows.iter().map(DocRow::bytes).sum()),
        };
        let call = Call {
            write: false,
            leader: self.leader(read.tablet),
            tablet: read.tablet as u32,
            ops: 1,
            request_bytes: read.request_bytes(),
            rows,
            response_bytes,
            server_us: self.request_server_us(1, s),
        };
        self.send_round(&[(rel, call)]);
    }

    /// A read request's time on its tablet server: the RPC's handling of
    /// `ops` operations, the LSM's reads, and each row a storage filter
    /// checked (the per-row work PostgreSQL's side would otherwise do).
    fn request_server_us(&self, ops: usize, s: &RelStats) -> f64 {
        self.rpc_server_us(ops)
            + self.read_time_us(&s.read)
            + s.rows_filtered as f64 * self.cost.cpu_row_us
    }

    /// The row locator of document `doc`: its place in `scan_keys` when an
    /// UPDATE or DELETE is collecting them.
    fn locator(&mut self, doc: &[u8]) -> u64 {
        match &mut self.scan_keys {
            Some(keys) => {
                keys.push(doc.to_vec());
                keys.len() as u64 - 1
            }
            None => 0,
        }
    }

    /// The rows an UPDATE or DELETE changes, with their document keys.
    pub(super) fn rows_for_change(
        &mut self,
        table: usize,
        filter: Option<&Expr>,
    ) -> Result<Vec<(Vec<u8>, Row)>, SqlError> {
        self.scan_keys = Some(Vec::new());
        let rows = self.scan_for_change(table, filter);
        let keys = self.scan_keys.take().unwrap_or_default();
        Ok(rows?
            .into_iter()
            .map(|(loc, row)| (keys[loc as usize].clone(), row))
            .collect())
    }

    fn offer(&mut self, st: &mut Collected, locator: u64, row: Row) -> Result<(), SqlError> {
        // A row a pushed-down aggregate folded in DocDB costs its CPU there.
        if !st.partial {
            self.clock.advance_us(self.cost.cpu_row_us);
        }
        self.rows_examined += 1;
        for f in &st.filter {
            if !accepts(f, &row, &mut self.env())? {
                st.removed += 1;
                return Ok(());
            }
        }
        let limit_reached = st.limit.is_some_and(|l| st.rows.len() as u64 >= l);
        let wanted = match &mut st.stop {
            Some(progress) if !progress.done => progress.wants(&row),
            Some(_) => false,
            None => true,
        };
        if wanted && !limit_reached {
            st.first_us.get_or_insert(self.clock.now_us());
            st.rows.push((locator, row));
        }
        Ok(())
    }

    /// A table row from its document.
    fn table_row(&self, table: usize, d: &DocRow) -> Result<Row, SqlError> {
        decode_table_row(self.catalog.table(table), d)
    }

    /// The byte ranges of `spec`'s documents a first-column condition selects,
    /// each with its tablet(s), in scan order.
    fn ranges(
        &mut self,
        spec: &KeySpec,
        unique: bool,
        tablets: &super::catalog::Tablets,
        cond: Option<&KeyCond>,
        backward: bool,
    ) -> Result<Vec<KeyRange>, SqlError> {
        let col: KeyColumn = spec
            .hash_columns
            .first()
            .or(spec.range_columns.first())
            .copied()
            .ok_or_else(|| exec_error("a key without columns"))?;
        // A condition's value as a key prefix, or None for NULL (`x = NULL`,
        // `x < NULL` find nothing).
        let mut prefix = |e: &Expr| -> Result<Option<Vec<u8>>, SqlError> {
            let Some(v) = self.key_value(e, col)? else {
                return Ok(None);
            };
            if spec.is_hash() {
                let mut k = Vec::new();
                doc_key(&[v], &spec.hash_columns[..1], &[], &[], &mut k)?;
                k.pop(); // the range group's end: the prefix covers every range value
                Ok(Some(k))
            } else {
                let bytes = encode_key(std::slice::from_ref(&v), &[col])?;
                Ok(Some(numeric_key::bound_bytes(&v, col.ty, bytes)))
            }
        };
        // An equality on the one key column names one document only when the key
        // is unique: a non-unique index appends the row's key to each entry's
        // document key, so many documents share the value.
        let full_key = unique && spec.hash.len() + spec.range.len() == 1;
        let every = tablets.ids.clone();
        let tablet_of = |p: &[u8]| -> Vec<usize> { vec![tablets.for_key(p)] };
        let mut out = match cond {
            None => vec![(every.clone(), Bound::Unbounded, Bound::Unbounded, false)],
            Some(KeyCond::Points(list)) => {
                let mut keys = Vec::new();
                for e in list {
                    keys.extend(prefix(e)?);
                }
                keys.sort();
                keys.dedup();
                keys.into_iter()
                    .map(|k| {
                        (
                            tablet_of(&k),
                            Bound::Included(k.clone()),
                            Bound::Included(k),
                            full_key,
                        )
                    })
                    .collect()
            }
            Some(c @ KeyCond::Range { lower, upper }) => {
                let (Some(lo), Some(hi)) = (
                    key_bound(lower, &mut prefix)?,
                    key_bound(upper, &mut prefix)?,
                ) else {
                    return Ok(Vec::new());
                };
                let (lo, hi) = match col.order {
                    SortOrder::Desc if !spec.is_hash() => (hi, lo),
                    _ => (lo, hi),
                };
                let (lo, hi) = if spec.is_hash() {
                    (lo, hi)
                } else {
                    without_nulls(col, (lo, hi))
                };
                let which = match (&lo, spec.is_hash()) {
                    (Bound::Included(p), true) => tablet_of(p),
                    // Range tablets: only those whose keys the range meets.
                    _ => tablets.overlapping(&lo, &hi),
                };
                vec![(which, lo, hi, full_key && c.is_equality())]
            }
            Some(KeyCond::HashKey(values)) => {
                // Every hash column's value: the hash, then the columns.
                let mut key = Vec::with_capacity(values.len());
                for (e, col) in values.iter().zip(&spec.hash_columns) {
                    match self.key_value(e, *col)? {
                        Some(v) => key.push(v),
                        None => return Ok(Vec::new()),
                    }
                }
                let mut k = Vec::new();
                doc_key(&key, &spec.hash_columns, &[], &[], &mut k)?;
                k.pop(); // the range group's end: the prefix covers every range value
                let one = unique && spec.range.is_empty();
                vec![(
                    tablet_of(&k),
                    Bound::Included(k.clone()),
                    Bound::Included(k),
                    one,
                )]
            }
            Some(KeyCond::HashCode { lower, upper }) => {
                let Some((lo, hi)) = self.hash_range(lower, upper)? else {
                    return Ok(Vec::new());
                };
                // Every document whose key starts with a hash from lo to hi,
                // in the tablets holding those hashes.
                let n = tablets.ids.len();
                let which = tablets.ids
                    [super::catalog::hash_tablet(lo, n)..=super::catalog::hash_tablet(hi, n)]
                    .to_vec();
                let prefix = |h: u16| {
                    let [a, b] = h.to_be_bytes();
                    vec![super::doc_key::HASH_MARKER, a, b]
                };
                vec![(
                    which,
                    Bound::Included(prefix(lo)),
                    Bound::Included(prefix(hi)),
                    false,
                )]
            }
            Some(KeyCond::Columns(conds)) => self.prefix_range(spec, unique, tablets, conds)?,
            // A skip scan reads the bound's range (see `skip_of`).
            Some(KeyCond::Checked { bound, .. }) if !spec.is_hash() => {
                return self.ranges(spec, unique, tablets, bound.as_deref(), backward);
            }
            // The planner finds NULLs by the index on pg only.
            Some(KeyCond::Checked { .. } | KeyCond::IsNull) => {
                return Err(crate::sql::error::unsupported(
                    "a check on a composite index's later columns on yb",
                ))
            }
        };
        if backward {
            // Backward across range tablets too: the last one first.
            out.reverse();
            for (which, ..) in &mut out {
                which.reverse();
            }
        }
        let _ = GROUP_END;
        Ok(out)
    }

    /// The byte ranges of conditions on a composite key's first columns:
    /// one value (or an IN list's values) for each but the last, any range
    /// or list on the last (the planner extends a key only after
    /// equalities). DocDB seeks straight to each prefix the values make, so
    /// the later columns narrow the read instead of filtering the rows it
    /// returns; an IN list gives one range per combination of values, in
    /// key order (YugabyteDB's hybrid scan over the options).
    fn prefix_range(
        &mut self,
        spec: &KeySpec,
        unique: bool,
        tablets: &super::catalog::Tablets,
        conds: &[KeyCond],
    ) -> Result<Vec<KeyRange>, SqlError> {
        let columns: Vec<KeyColumn> = spec
            .hash_columns
            .iter()
            .chain(&spec.range_columns)
            .copied()
            .collect();
        let (last, leading) = conds.split_last().expect("a composite condition");
        // Every combination of the leading columns' values.
        let mut combinations: Vec<Vec<Value>> = vec![Vec::new()];
        for (c, col) in leading.iter().zip(&columns) {
            let options = match c {
                KeyCond::Range {
                    lower: Bound::Included(e),
                    ..
                } => std::slice::from_ref(e),
                KeyCond::Points(list) => list.as_slice(),
                _ => {
                    return Err(exec_error(
                        "a composite key's leading condition is not one value or a list",
                    ))
                }
            };
            let mut values = Vec::with_capacity(options.len());
            for e in options {
                // `x = NULL` finds nothing; a list's NULL is skipped.
                values.extend(self.key_value(e, *col)?);
            }
            values.sort_by(|a, b| {
                crate::sql::eval::compare(a, b).unwrap_or(std::cmp::Ordering::Equal)
            });
            values.dedup();
            combinations = combinations
                .into_iter()
                .flat_map(|prefix| {
                    values.iter().map(move |v| {
                        let mut next = prefix.clone();
                        next.push(v.clone());
                        next
                    })
                })
                .collect();
        }
        let col = *columns
            .get(leading.len())
            .ok_or_else(|| exec_error("a condition past the key's columns"))?;
        // The last column's bounds, as key bytes after the prefix.
        let mut value = |e: &Expr| -> Result<Option<Vec<u8>>, SqlError> {
            let Some(v) = self.key_value(e, col)? else {
                return Ok(None);
            };
            let encoded = encode_key(std::slice::from_ref(&v), &[col]).map_err(exec_error)?;
            Ok(Some(numeric_key::bound_bytes(&v, col.ty, encoded)))
        };
        let mut bounds = Vec::new();
        match last {
            KeyCond::Range { lower, upper } => {
                let (Some(lo), Some(hi)) =
                    (key_bound(lower, &mut value)?, key_bound(upper, &mut value)?)
                else {
                    return Ok(Vec::new());
                };
                let (lo, hi) = match col.order {
                    SortOrder::Desc => (hi, lo),
                    SortOrder::Asc => (lo, hi),
                };
                bounds.push(without_nulls(col, (lo, hi)));
            }
            KeyCond::Points(list) => {
                for e in list {
                    if let Some(k) = value(e)? {
                        bounds.push((Bound::Included(k.clone()), Bound::Included(k)));
                    }
                }
            }
            _ => {
                return Err(exec_error(
                    "a composite key's last condition is not a range or a list",
                ))
            }
        }
        let one = unique && conds.len() == spec.hash.len() + spec.range.len() && last.is_equality();
        let mut out = Vec::new();
        for values in &combinations {
            let h = spec.hash_columns.len().min(values.len());
            let mut prefix = Vec::new();
            doc_key(
                &values[..h],
                &spec.hash_columns[..h],
                &values[h..],
                &spec.range_columns[..values.len() - h],
                &mut prefix,
            )
            .map_err(exec_error)?;
            prefix.pop(); // the group's end: later columns follow the prefix
            let after = |b: &Bound<Vec<u8>>| match b {
                Bound::Included(s) => Bound::Included([prefix.as_slice(), s].concat()),
                Bound::Excluded(s) => Bound::Excluded([prefix.as_slice(), s].concat()),
                Bound::Unbounded => Bound::Included(prefix.clone()),
            };
            for (lo, hi) in &bounds {
                let (lo, hi) = (after(lo), after(hi));
                let which = if spec.is_hash() {
                    vec![tablets.for_key(&prefix)]
                } else {
                    tablets.overlapping(&lo, &hi)
                };
                out.push((which, lo, hi, one));
            }
        }
        // In key order (a hash key's: by hash), each range once.
        out.sort_by(|a, b| bound_bytes(&a.1).cmp(bound_bytes(&b.1)));
        out.dedup_by(|a, b| a.1 == b.1 && a.2 == b.2);
        Ok(out)
    }

    /// The skip a check on a range key's second column makes (the planner
    /// makes no other on yb); its bounds as key bytes, NULLs left out. None
    /// when a bound is NULL: no row passes.
    fn skip_of(
        &mut self,
        spec: &KeySpec,
        checks: &[(usize, KeyCond)],
    ) -> Result<Option<Skip>, SqlError> {
        let [(1, KeyCond::Range { lower, upper })] = checks else {
            return Err(exec_error(
                "a check other than one range on the key's second column",
            ));
        };
        let (Some(&first), Some(&col)) = (spec.range_columns.first(), spec.range_columns.get(1))
        else {
            return Err(exec_error(
                "a skip scan on a key of fewer than two range columns",
            ));
        };
        let mut value = |e: &Expr| -> Result<Option<Vec<u8>>, SqlError> {
            let Some(v) = self.key_value(e, col)? else {
                return Ok(None);
            };
            let encoded = encode_key(std::slice::from_ref(&v), &[col]).map_err(exec_error)?;
            Ok(Some(numeric_key::bound_bytes(&v, col.ty, encoded)))
        };
        let (Some(lo), Some(hi)) = (key_bound(lower, &mut value)?, key_bound(upper, &mut value)?)
        else {
            // A bound of NULL: no row passes.
            return Ok(None);
        };
        let (lo, hi) = match col.order {
            SortOrder::Desc => (hi, lo),
            SortOrder::Asc => (lo, hi),
        };
        let (lower, upper) = without_nulls(col, (lo, hi));
        Ok(Some(Skip {
            first,
            lower,
            upper,
        }))
    }

    /// A condition's value for key column `col`, or None for NULL. A bound
    /// is compared, not stored: no typmod rounds it; a quoted literal is
    /// read as the column's type (`id < '10'`).
    fn key_value(&mut self, e: &Expr, col: KeyColumn) -> Result<Option<Value>, SqlError> {
        let b = bind(e, &Scope::default())?;
        let v = match crate::sql::eval::quoted_as(e, col.ty.without_typmod()) {
            Some(v) => v?,
            None => coerce(eval(&b, &[], &mut self.env())?, col.ty.without_typmod())?,
        };
        if v.is_null() {
            return Ok(None);
        }
        Ok(Some(numeric_key::bound_value(v, col.ty)))
    }

    /// The hashes from lo to hi (inclusive) a `yb_hash_code()` condition's
    /// bounds select, or None when it selects none (a bound beyond the 16-bit
    /// hash space, a NULL).
    fn hash_range(
        &mut self,
        lower: &Bound<Expr>,
        upper: &Bound<Expr>,
    ) -> Result<Option<(u16, u16)>, SqlError> {
        let scope = Scope::default();
        let mut value = |e: &Expr| -> Result<Option<i64>, SqlError> {
            let b = bind(e, &scope)?;
            match coerce(eval(&b, &[], &mut self.env())?, crate::value::SqlType::Int8)? {
                Value::Int(n) => Ok(Some(n)),
                _ => Ok(None),
            }
        };
        let lo = match lower {
            Bound::Included(e) => value(e)?,
            Bound::Excluded(e) => value(e)?.map(|n| n.saturating_add(1)),
            Bound::Unbounded => Some(0),
        };
        let hi = match upper {
            Bound::Included(e) => value(e)?,
            Bound::Excluded(e) => value(e)?.map(|n| n.saturating_sub(1)),
            Bound::Unbounded => Some(i64::from(u16::MAX)),
        };
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Ok(None);
        };
        let (lo, hi) = (lo.max(0), hi.min(i64::from(u16::MAX)));
        if lo > hi {
            return Ok(None);
        }
        Ok(Some((lo as u16, hi as u16)))
    }

    /// Reads every request of one tablet range, handing rows to `sink` request by
    /// request until it is full.
    fn read_range(
        &mut self,
        read: &TabletRead,
        to: Reader,
        st: &mut Collected,
    ) -> Result<(), SqlError> {
        // A LIMIT below the page size becomes the request's row limit; a
        // larger one leaves every request a full page, the last one too
        // (`SetRequestPrefetchLimit` in pggate's `pg_doc_op.cc`).
        let limit = match (st.pushed_limit(to.fetch_base), self.fetch_row_limit()) {
            // An aggregate request counts no rows fetched: it reads its
            // tablet's range to the end (`is_aggregate` in DocDB).
            _ if st.partial => 0,
            (Some(rows), page) if page == 0 || rows <= page => rows,
            (_, page) => page,
        };
        let mut start: Option<Vec<u8>> = None;
        loop {
            let (rows, paging, mut stats) =
                self.read_request(to.rel, read, start.as_deref(), limit, st.storage(to.source))?;
            if st.partial {
                // DocDB folded every row it read into the partial row.
                stats.rows_filtered = stats.rows_scanned;
                st.partial_rows += u64::from(!rows.is_empty());
            }
            self.send_request(to.rel, read, &rows, &stats, st.partial);
            self.trace_request(to.rel, read.tablet, &stats);
            match to.source {
                Source::Table => st.table.add(&stats),
                Source::Index(_) => st.index.add(&stats),
            }
            let bases = self.take_rows(&rows, to, st)?;
            if !bases.is_empty() {
                self.fetch_rows(to.table, &bases, st)?;
            }
            match paging {
                Some(p) if !st.full() => start = Some(p),
                _ => return Ok(()),
            }
        }
    }

    fn trace_request(&mut self, rel: usize, tablet: usize, stats: &RelStats) {
        self.trace.detail(|| crate::trace::Event::ReadRequest {
            relation: self.names[rel].clone(),
            tablet: tablet as u32,
            seeks: stats.read.number_db_seek,
            nexts: stats.read.number_db_next,
            prevs: stats.read.number_db_prev,
            rows: stats.rows_scanned,
            cache_hits: stats.read.cache.hits(),
            cache_misses: stats.read.cache.misses(),
        });
        self.note_cache(self.tablets[tablet].tserver);
    }

    /// Hands a request's rows to the scan; for an index scan that must fetch
    /// table rows, returns their keys instead.
    fn take_rows(
        &mut self,
        rows: &[DocRow],
        to: Reader,
        st: &mut Collected,
    ) -> Result<Vec<Vec<u8>>, SqlError> {
        let Reader {
            source,
            table,
            fetch_base,
            ..
        } = to;
        let mut bases = Vec::new();
        for d in rows {
            match source {
                Source::Table => {
                    let row = self.table_row(table, d)?;
                    let loc = self.locator(&d.doc);
                    self.offer(st, loc, row)?;
                }
                Source::Index(i) => {
                    let width = self.catalog.table(table).columns.len();
                    let (row, base) =
                        index_row(self.catalog.index(i), width, &d.doc, &d.entries[0].1)?;
                    if fetch_base {
                        bases.push(base);
                    } else {
                        let loc = self.locator(&base);
                        self.offer(st, loc, row)?;
                    }
                }
            }
        }
        Ok(bases)
    }

    /// Reads many ranges (one operation each: the values of an `= ANY`, the
    /// table rows an index scan found) in rounds of at most
    /// `ysql_request_limit` operations, each round one read request sent to its
    /// tablets in parallel. An operation with more rows than one request
    /// fetches goes on in the next round.
    fn read_points(
        &mut self,
        reads: Vec<TabletRead>,
        to: Reader,
        st: &mut Collected,
    ) -> Result<(), SqlError> {
        let limit = self.fetch_row_limit();
        let per_round = self.request_limit();
        let mut pending: VecDeque<(TabletRead, Option<Vec<u8>>)> =
            reads.into_iter().map(|r| (r, None)).collect();
        while !pending.is_empty() && !st.full() {
            let n = pending.len().min(per_round);
            let batch: Vec<_> = pending.drain(..n).collect();
            let tablets: Vec<usize> = batch.iter().map(|(r, _)| r.tablet).collect();
            let round = rounds(&tablets, per_round).swap_remove(0);
            let mut outs = Vec::with_capacity(n);
            let mut total = RelStats::default();
            for (read, start) in &batch {
                let out = self.read_request(
                    to.rel,
                    read,
                    start.as_deref(),
                    limit,
                    st.storage(to.source),
                )?;
                total.add(&out.2);
                outs.push(out);
            }
            let mut calls = Vec::with_capacity(round.per_tablet.len());
            for (tablet, ops) in &round.per_tablet {
                let mut per = RelStats::default();
                let (mut rows, mut bytes, mut req) = (0u64, 0u64, 0u64);
                for &i in ops {
                    per.add(&outs[i].2);
                    rows += outs[i].0.len() as u64;
                    bytes += outs[i].0.iter().map(DocRow::bytes).sum::<u64>();
                    req += batch[i].0.request_bytes();
                }
                per.read_requests = 1;
                self.trace_request(to.rel, *tablet, &per);
                let server_us = self.request_server_us(ops.len(), &per);
                let call = Call {
                    write: false,
                    leader: self.leader(*tablet),
                    tablet: *tablet as u32,
                    ops: ops.len() as u32,
                    request_bytes: req,
                    rows,
                    response_bytes: bytes,
                    server_us,
                };
                calls.push((to.rel, call));
            }
            self.send_round(&calls);
            // One round, one read request, however many tablets it reached.
            total.read_requests = 1;
            match to.source {
                Source::Table => st.table.add(&total),
                Source::Index(_) => st.index.add(&total),
            }
            let mut more = Vec::new();
            let mut bases = Vec::new();
            for ((read, _), (rows, paging, _)) in batch.into_iter().zip(outs) {
                bases.extend(self.take_rows(&rows, to, st)?);
                if let Some(p) = paging {
                    more.push((read, Some(p)));
                }
            }
            if !bases.is_empty() {
                self.fetch_rows(to.table, &bases, st)?;
            }
            // Unfinished operations go first, so rows keep the scan's order.
            for m in more.into_iter().rev() {
                pending.push_front(m);
            }
        }
        Ok(())
    }

    /// Most rows a read request fetches (0: no limit): the session's
    /// `yb_fetch_row_limit`, whose default is the tablet servers'
    /// `ysql_prefetch_limit` flag (as in YugabyteDB, where the flag came first).
    fn fetch_row_limit(&self) -> u64 {
        let s = &self.settings;
        let session = s.yb_fetch_row_limit();
        let set = crate::settings::Settings::definition("yb_fetch_row_limit")
            .is_ok_and(|d| d.kind.default_value() != crate::settings::Value::Int(session));
        let rows = if set {
            session
        } else {
            s.ysql_prefetch_limit()
        };
        rows.max(0) as u64
    }

    /// An index scan's table lookups: one point read per row found, sent in
    /// rounds like any list of operations.
    fn fetch_rows(
        &mut self,
        table: usize,
        bases: &[Vec<u8>],
        st: &mut Collected,
    ) -> Result<(), SqlError> {
        let t = self.catalog.table(table);
        let reads = bases
            .iter()
            .map(|base| TabletRead {
                tablet: t.tablets.for_key(base),
                lower: Bound::Included(base.clone()),
                upper: Bound::Included(base.clone()),
                backward: false,
                point: true,
                skip: None,
            })
            .collect();
        let rel = t.rel;
        let to = Reader {
            rel,
            source: Source::Table,
            table,
            fetch_base: false,
        };
        self.read_points(reads, to, st)
    }

    pub(super) fn scan(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        limit: Option<u64>,
    ) -> Result<ScanOutput, SqlError> {
        self.scan_until(table, plan, limit, None)
    }

    /// [`Self::scan`], stopping once a GroupAggregate under a LIMIT has
    /// the groups it needs (`stop`): the rows after are never pulled, so
    /// no read request is sent for them.
    pub(super) fn scan_until(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        limit: Option<u64>,
        stop: Option<&GroupStop>,
    ) -> Result<ScanOutput, SqlError> {
        let scope = self.table_scope(table);
        let split = self.storage_split(table, plan);
        let bound = |parts: &[Expr]| -> Result<Vec<BoundExpr>, SqlError> {
            parts.iter().map(|f| bind(f, &scope)).collect()
        };
        let filter = bound(&split.local)?;
        let source = self.source_of(table, plan);
        let width = self.catalog.table(table).columns.len();
        let storage = |conds: Vec<BoundExpr>, rows| {
            (!conds.is_empty()).then(|| StorageFilter {
                conds,
                rows,
                statement_start_us: self.statement_start_us,
                clock_us: self.clock.timestamp(),
            })
        };
        let index_filter = match source {
            Source::Index(i) => storage(bound(&split.index)?, FilterRows::Index(i, width)),
            Source::Table => None,
        };
        let table_filter = storage(bound(&split.table)?, FilterRows::Table(table));
        // The aggregates go to DocDB when nothing is left for PostgreSQL's
        // side to check, and the scan reads the rows itself (the table, or
        // an index holding every column: not a lookup per index entry).
        let offered = std::mem::take(&mut self.aggregate_offered);
        // (A LIMIT 0 is EXPLAIN planning the scan without running it.)
        let partial = offered
            && filter.is_empty()
            && limit.is_none_or(|l| l == 0)
            && !matches!(
                &plan.access,
                AccessPath::Index { cond, .. } if lists_values(cond.as_ref())
            )
            && match (&plan.access, source) {
                (_, Source::Table) => true,
                (AccessPath::Index { only, .. }, Source::Index(_)) => *only,
                _ => false,
            };
        let mut st = Collected {
            filter,
            table_filter,
            index_filter,
            partial,
            partial_rows: 0,
            limit,
            stop: stop.map(|stop| GroupProgress {
                stop: stop.clone(),
                last_key: None,
                begun: 0,
                done: false,
            }),
            rows: Vec::new(),
            removed: 0,
            first_us: None,
            table: RelStats::default(),
            index: RelStats::default(),
        };
        let start = self.clock.now_us();
        if limit != Some(0) {
            self.scan_into(table, plan, &mut st)?;
        }
        let t = self.catalog.table(table);
        let (trel, irel) = (t.rel, self.index_rel(table, plan));
        let (ts, is) = (st.table.clone(), st.index.clone());
        self.rel_stats(trel).add(&ts);
        if let Some(r) = irel {
            self.rel_stats(r).add(&is);
        }
        let node = self.scan_node(table, plan, &st, &split, start);
        Ok(ScanOutput {
            rows: st.rows,
            node,
        })
    }

    /// The metrics id of the secondary index a plan reads, if any.
    fn index_rel(&self, table: usize, plan: &ScanPlan) -> Option<usize> {
        match self.source_of(table, plan) {
            Source::Index(i) => Some(self.catalog.index(i).rel),
            Source::Table => None,
        }
    }

    fn source_of(&self, table: usize, plan: &ScanPlan) -> Source {
        let t = self.catalog.table(table);
        match &plan.access {
            AccessPath::Seq => Source::Table,
            AccessPath::Index { index, .. } | AccessPath::Bitmap { index, .. } => {
                // The planner lists the primary key first when there is one.
                let secondary = if t.key.is_some() {
                    index.checked_sub(1)
                } else {
                    Some(*index)
                };
                match secondary {
                    Some(i) => Source::Index(t.indexes[i]),
                    None => Source::Table,
                }
            }
        }
    }

    fn scan_into(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        st: &mut Collected,
    ) -> Result<(), SqlError> {
        let source = self.source_of(table, plan);
        let (cond, backward, only) = match &plan.access {
            AccessPath::Seq => (None, false, true),
            AccessPath::Index {
                cond,
                direction,
                only,
                ..
            } => (cond.clone(), *direction == ScanDirection::Backward, *only),
            // The yb planner chooses by rules and never makes one; read as
            // an index scan, it would find the same rows.
            AccessPath::Bitmap { cond, .. } => (cond.clone(), false, false),
        };
        let (spec, unique, tablets, rel) = match source {
            Source::Table => {
                let t = self.catalog.table(table);
                let spec = t.key.clone();
                (spec, true, t.tablets.clone(), t.rel)
            }
            Source::Index(i) => {
                let ix = self.catalog.index(i);
                (Some(ix.spec.clone()), ix.unique, ix.tablets.clone(), ix.rel)
            }
        };
        let to = Reader {
            rel,
            source,
            table,
            fetch_base: !only,
        };
        let ranges = match (&spec, &plan.access) {
            (Some(spec), AccessPath::Index { .. }) => {
                self.ranges(spec, unique, &tablets, cond.as_ref(), backward)?
            }
            _ => vec![(tablets.ids, Bound::Unbounded, Bound::Unbounded, false)],
        };
        if lists_values(cond.as_ref()) {
            let reads = ranges
                .into_iter()
                .flat_map(|(tablets, lower, upper, point)| {
                    tablets.into_iter().map(move |tablet| TabletRead {
                        tablet,
                        lower: lower.clone(),
                        upper: upper.clone(),
                        backward,
                        point,
                        skip: None,
                    })
                })
                .collect();
            return self.read_points(reads, to, st);
        }
        let skip = match (&spec, &cond) {
            (Some(spec), Some(KeyCond::Checked { checks, .. })) => {
                match self.skip_of(spec, checks)? {
                    Some(skip) => Some(skip),
                    None => return Ok(()),
                }
            }
            _ => None,
        };
        for (tablets, lower, upper, point) in ranges {
            for tablet in tablets {
                let read = TabletRead {
                    tablet,
                    lower: lower.clone(),
                    upper: upper.clone(),
                    backward,
                    point,
                    skip: skip.clone(),
                };
                self.read_range(&read, to, st)?;
                if st.full() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}
