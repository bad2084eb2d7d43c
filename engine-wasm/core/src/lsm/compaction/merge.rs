//! The k-way merge behind flush-free compaction: one source per sorted run (an
//! L0 file, or all the input files of one deeper level, read in key order), a
//! binary min-heap over the sources' current internal keys.
//!
//! Compaction reads do not go through the block cache (RocksDB compactions read
//! with `fill_cache = false` and their bytes are counted as compaction reads), so
//! sources walk the SST arrays directly.

use std::cmp::Ordering;

use crate::lsm::sst::Sst;
use crate::lsm::types::cmp_internal;

/// A sorted run: files in key order, a position in the current file.
pub(crate) struct Run<'a> {
    files: Vec<&'a Sst>,
    file: usize,
    entry: u32,
}

impl<'a> Run<'a> {
    /// The run's files, in key order.
    pub(crate) fn files(&self) -> &[&'a Sst] {
        &self.files
    }

    pub(crate) fn new(files: Vec<&'a Sst>) -> Self {
        Run {
            files,
            file: 0,
            entry: 0,
        }
    }

    #[inline]
    fn valid(&self) -> bool {
        self.file < self.files.len()
    }

    #[inline]
    fn key(&self) -> (&'a [u8], u64) {
        let f = self.files[self.file];
        (f.user_key(self.entry), f.trailer(self.entry))
    }

    #[inline]
    fn value(&self) -> &'a [u8] {
        self.files[self.file].value(self.entry)
    }

    #[inline]
    fn advance(&mut self) {
        self.entry += 1;
        if self.entry as usize >= self.files[self.file].len() {
            self.file += 1;
            self.entry = 0;
        }
    }
}

/// Min-heap of runs by current internal key.
pub(crate) struct MergeHeap<'a> {
    runs: Vec<Run<'a>>,
    heap: Vec<usize>,
}

impl<'a> MergeHeap<'a> {
    pub(crate) fn new(runs: Vec<Run<'a>>) -> Self {
        let heap: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].valid()).collect();
        let mut h = MergeHeap { runs, heap };
        for i in (0..h.heap.len() / 2).rev() {
            h.sift_down(i);
        }
        h
    }

    #[inline]
    fn less(&self, a: usize, b: usize) -> bool {
        let (ka, ta) = self.runs[self.heap[a]].key();
        let (kb, tb) = self.runs[self.heap[b]].key();
        cmp_internal(ka, ta, kb, tb) == Ordering::Less
    }

    fn sift_down(&mut self, mut i: usize) {
        let n = self.heap.len();
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < n && self.less(l, m) {
                m = l;
            }
            if r < n && self.less(r, m) {
                m = r;
            }
            if m == i {
                return;
            }
            self.heap.swap(i, m);
            i = m;
        }
    }

    /// The smallest entry: user key, trailer, value.
    #[inline]
    pub(crate) fn peek(&self) -> Option<(&'a [u8], u64, &'a [u8])> {
        let &top = self.heap.first()?;
        let run = &self.runs[top];
        let (k, t) = run.key();
        Some((k, t, run.value()))
    }

    /// Moves past the smallest entry.
    #[inline]
    pub(crate) fn advance(&mut self) {
        let Some(&top) = self.heap.first() else {
            return;
        };
        self.runs[top].advance();
        if !self.runs[top].valid() {
            let last = self.heap.len() - 1;
            self.heap.swap(0, last);
            self.heap.pop();
        }
        if self.heap.len() > 1 {
            self.sift_down(0);
        }
    }
}
