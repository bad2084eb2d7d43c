//! Read requests to one tablet, as DocDB serves them.
//!
//! A request opens an iterator and seeks once. Going forward it reads a row,
//! then steps (`next`) to the next document — over older versions too. It reads
//! up to `yb_fetch_row_limit` + 1 rows: the extra one is not returned but becomes
//! the paging key, where the next request seeks again (article 000: 1024 rows
//! scanned and 1025 nexts per request). Going backward, DocDB seeks to the
//! current document's first entry, steps back (`prev`) onto the previous
//! document's last entry, and seeks to that document's first entry (its newest
//! version): two seeks a row (article 003). Without packed rows, reading a row
//! steps through its column entries until the document key changes.

use super::doc_key::{after_doc, doc_key_of, subkey_of, written_after};
use super::engine::YbEngine;
use super::packing::{is_tombstone, live_row};
use super::pushdown::StorageFilter;
use super::skip_scan::{Place, Skip};
use super::stats::RelStats;
use crate::lsm::{DbIter, IterOp, Position, ReadEvent, ReadOptions};
use crate::sql::error::SqlError;
use crate::trace::{Event, KeyComparisons};
use std::ops::Bound;

/// A row as read: its document key and its newest entries (subkey, value).
pub struct DocRow {
    pub doc: Vec<u8>,
    pub entries: Vec<(Vec<u8>, Vec<u8>)>,
}

impl DocRow {
    /// Bytes the row takes in a response.
    pub fn bytes(&self) -> u64 {
        let entries: usize = self.entries.iter().map(|(k, v)| k.len() + v.len()).sum();
        (self.doc.len() + entries) as u64
    }
}

/// One read request's rows, where the next request starts (None: the
/// tablet's range is done), and its counters.
pub(super) type RequestOutcome = (Vec<DocRow>, Option<Vec<u8>>, RelStats);

/// What to read from one tablet.
#[derive(Debug, Clone)]
pub struct TabletRead {
    pub tablet: usize,
    /// Document-key byte bounds (prefixes).
    pub lower: Bound<Vec<u8>>,
    pub upper: Bound<Vec<u8>>,
    pub backward: bool,
    /// The range is one document (a full primary key): stop after it.
    pub point: bool,
    /// A condition on the key's second column to skip by (a skip scan).
    pub skip: Option<Skip>,
}

impl TabletRead {
    /// Bytes of the operation in a request: its bounds (a key or two) and
    /// a few bytes of flags.
    pub fn request_bytes(&self) -> u64 {
        let len = |b: &Bound<Vec<u8>>| match b {
            Bound::Included(k) | Bound::Excluded(k) => k.len() as u64,
            Bound::Unbounded => 0,
        };
        let bounds = if self.point {
            len(&self.lower)
        } else {
            len(&self.lower) + len(&self.upper)
        };
        8 + bounds
    }
}

fn below_upper(key: &[u8], upper: &Bound<Vec<u8>>) -> bool {
    match upper {
        Bound::Unbounded => true,
        Bound::Included(p) => key <= p.as_slice() || key.starts_with(p),
        Bound::Excluded(p) => key < p.as_slice(),
    }
}

fn above_lower(key: &[u8], lower: &Bound<Vec<u8>>) -> bool {
    match lower {
        Bound::Unbounded => true,
        Bound::Included(p) => key >= p.as_slice(),
        Bound::Excluded(p) => key > p.as_slice() && !key.starts_with(p),
    }
}

fn in_range(key: &[u8], r: &TabletRead) -> bool {
    above_lower(key, &r.lower) && below_upper(key, &r.upper)
}

/// One request's cursor state.
/// (A step off the end of the data is not counted: the LSM's `next` follows
/// YugabyteDB's `DBIter` there, which matches article 003's 999 nexts.)
struct Cursor<'a> {
    it: DbIter<'a>,
}

impl Cursor<'_> {
    fn next(&mut self) -> bool {
        self.it.next()
    }

    /// Reads the document under the cursor. A packed row (an entry without
    /// subkey) is the whole row; otherwise the row's column entries are read
    /// on until the document key changes. A document tombstone hides only the
    /// entries written before it: a row deleted and inserted again as column
    /// entries is live (the tombstone then stays first, marking what it hides).
    /// Returns whether the cursor already stepped past the document.
    fn read_doc(&mut self) -> (DocRow, bool) {
        let doc = doc_key_of(self.it.key()).to_vec();
        let mut entries: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let mut deleted_at: Option<Vec<u8>> = None;
        loop {
            let key = self.it.key();
            let sub = subkey_of(key);
            let first = entries.is_empty() && deleted_at.is_none();
            if first && sub.is_empty() && is_tombstone(self.it.value()) {
                deleted_at = Some(key.to_vec());
            } else if first && sub.is_empty() {
                entries.push((Vec::new(), self.it.value().to_vec()));
                return (DocRow { doc, entries }, false);
            } else {
                let hidden = deleted_at
                    .as_deref()
                    .is_some_and(|t| !written_after(key, t));
                if !hidden && !sub.is_empty() && !entries.iter().any(|(s, _)| s == sub) {
                    entries.push((sub.to_vec(), self.it.value().to_vec()));
                }
            }
            if !self.next() || doc_key_of(self.it.key()) != doc.as_slice() {
                if entries.is_empty() {
                    // Deleted, and nothing written since: the tombstone is the row.
                    entries.push((Vec::new(), vec![super::packing::TOMBSTONE]));
                }
                return (DocRow { doc, entries }, true);
            }
        }
    }

    /// Steps forward past document `doc` (older versions included).
    fn skip_doc(&mut self, doc: &[u8]) -> bool {
        while self.it.valid() && doc_key_of(self.it.key()) == doc {
            if !self.next() {
                return false;
            }
        }
        self.it.valid()
    }

    /// Moves to the newest entry of the document before `doc` (seek, prev, seek).
    fn prev_doc(&mut self, target: Option<&[u8]>) -> bool {
        let landed = match target {
            Some(t) => self.it.seek(t),
            None => self.it.seek_to_last(),
        };
        let ok = if landed && target.is_some() {
            self.it.prev()
        } else {
            landed
        };
        let ok = ok || (target.is_some() && !landed && self.it.seek_to_last());
        if !ok {
            return false;
        }
        let doc = doc_key_of(self.it.key()).to_vec();
        self.it.seek(&doc)
    }
}

impl YbEngine {
    /// Runs one read request; returns the rows (live ones, that pass the
    /// storage `filter` if any), whether the tablet has more (and where the
    /// next request starts), and the request's counters. A request pages
    /// after `limit` rows returned, however many it scanned to find them.
    pub(super) fn read_request(
        &mut self,
        rel: usize,
        r: &TabletRead,
        start: Option<&[u8]>,
        limit: u64,
        filter: Option<&StorageFilter>,
    ) -> Result<RequestOutcome, SqlError> {
        let bypass = self.settings.yb_scan_cache_bypass_blocks();
        let opts = ReadOptions {
            bypass_cache_after_data_blocks: Some(bypass.max(0) as u64),
            // The iterator's steps, for the scan view, while the trace keeps them.
            record_events: self.trace.recording_detail(),
            ..ReadOptions::default()
        };
        let t = &self.tablets[r.tablet];
        let mut c = Cursor {
            it: t.lsm.iter(&mut self.caches[t.tserver], &opts),
        };
        let (mut rows, mut consumed, mut paging) = (Vec::new(), 0u64, None);
        // Rows counted toward the limit (every document read, without a
        // filter), and live rows scanned.
        let (mut counted, mut scanned) = (0u64, 0u64);
        let mut valid = if r.backward {
            let target = match (start, &r.upper) {
                (Some(s), _) => Some(after_doc(s)),
                (None, Bound::Unbounded) => None,
                (None, Bound::Included(p)) => Some(after_doc(p)),
                (None, Bound::Excluded(p)) => Some(p.clone()),
            };
            c.prev_doc(target.as_deref())
        } else {
            let target = match (start, &r.lower) {
                (Some(s), _) => s.to_vec(),
                (None, Bound::Unbounded) => Vec::new(),
                (None, Bound::Included(p)) => p.clone(),
                (None, Bound::Excluded(p)) => after_doc(p),
            };
            c.it.seek(&target)
        };
        while valid && in_range(c.it.key(), r) {
            // A skip scan seeks over the documents its condition rules out
            // (going backward it steps over them).
            if let Some(skip) = &r.skip {
                let doc = doc_key_of(c.it.key()).to_vec();
                if let Place::SeekTo(target) = skip.place(&doc) {
                    valid = match (r.backward, target) {
                        (true, _) => c.prev_doc(Some(&doc)),
                        (false, Some(t)) => c.it.seek(&t),
                        (false, None) => false,
                    };
                    continue;
                }
            }
            let (row, stepped) = c.read_doc();
            consumed += 1;
            let doc = row.doc.clone();
            let page_here = limit > 0 && counted == limit;
            let live = row.entries.first().is_some_and(|(_, v)| live_row(v));
            if !page_here {
                scanned += u64::from(live);
                let kept = match filter {
                    Some(f) if live => f.keeps(&self.catalog, &mut self.rng, &row)?,
                    _ => live,
                };
                counted += u64::from(kept || filter.is_none());
                if kept {
                    rows.push(row);
                }
            }
            if r.point {
                break;
            }
            valid = if r.backward {
                // The paging row is re-read by the next request: no step back.
                !page_here && c.prev_doc(Some(&doc))
            } else if stepped {
                c.it.valid()
            } else {
                c.skip_doc(&doc)
            };
            if page_here {
                paging = Some(doc);
                break;
            }
        }
        // Rows the storage filter dropped never reach the scan's own count
        // (`max_rows` still counts them: they were read).
        self.rows_examined += scanned - rows.len() as u64;
        let read = *c.it.stats();
        let steps = c.it.take_events();
        // The iterator borrows the cache: done with it before `self` is used.
        drop(c);
        self.trace_steps(rel, r.tablet, steps);
        self.count_reads(r.tablet, &read);
        let stats = RelStats {
            read,
            read_requests: 1,
            rows_scanned: scanned,
            rows_filtered: if filter.is_some() { scanned } else { 0 },
            keys_found: consumed,
            ..RelStats::default()
        };
        Ok((rows, paging, stats))
    }
}

impl YbEngine {
    /// The iterator's calls of one read request, as trace events: each with
    /// the blocks read since the call before.
    fn trace_steps(&mut self, rel: usize, tablet: usize, steps: Vec<ReadEvent>) {
        let mut blocks_read = 0u32;
        for step in steps {
            match step {
                ReadEvent::Block { .. } => blocks_read += 1,
                ReadEvent::Iter {
                    op,
                    key,
                    position,
                    comparisons,
                    ..
                } => {
                    let (sst, level, block) = match position {
                        Some(Position::Sst { sst, level, block }) => {
                            (Some(sst), Some(level), Some(block))
                        }
                        _ => (None, None, None),
                    };
                    let relation = self.names[rel].clone();
                    self.trace.detail(|| Event::IterStep {
                        relation,
                        tablet: tablet as u32,
                        op: op_name(op),
                        found: key.is_some(),
                        sst,
                        level,
                        block,
                        comparisons: KeyComparisons {
                            memtable: comparisons.memtable,
                            files: comparisons.files,
                            index: comparisons.index,
                            restarts: comparisons.restarts,
                            keys: comparisons.keys,
                            merge: comparisons.merge,
                            versions: comparisons.versions,
                        },
                        blocks_read,
                    });
                    blocks_read = 0;
                }
                ReadEvent::Bloom { .. } => {}
            }
        }
    }
}

/// An iterator call as the trace names it.
fn op_name(op: IterOp) -> &'static str {
    match op {
        IterOp::Seek => "seek",
        IterOp::SeekForPrev => "seek_for_prev",
        IterOp::SeekToFirst => "seek_to_first",
        IterOp::SeekToLast => "seek_to_last",
        IterOp::Next => "next",
        IterOp::Prev => "prev",
        IterOp::Get => "get",
    }
}
