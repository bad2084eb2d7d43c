//! A group of writes applied together (RocksDB's `WriteBatch`): consecutive
//! sequence numbers in the order given, all in one memtable.
//!
//! The tree inserts a batch's entries in key order. Each insert then starts its
//! search where the previous one ended (RocksDB's splice), a few entries away
//! instead of a full search: random keys written in batches — what
//! YugabyteDB's per-tablet write RPCs carry — are placed with a few comparisons.

use super::types::ValueKind;

#[derive(Debug, Clone, Copy)]
pub(crate) struct BatchOp {
    pub(crate) kind: ValueKind,
    offset: usize,
    key_len: usize,
    value_len: usize,
}

/// Writes to apply together; keys and values are copied into one buffer.
#[derive(Debug, Clone, Default)]
pub struct WriteBatch {
    data: Vec<u8>,
    ops: Vec<BatchOp>,
}

impl WriteBatch {
    pub fn new() -> Self {
        WriteBatch::default()
    }

    pub fn put(&mut self, key: &[u8], value: &[u8]) {
        self.push(ValueKind::Put, key, value);
    }

    pub fn delete(&mut self, key: &[u8]) {
        self.push(ValueKind::Delete, key, &[]);
    }

    fn push(&mut self, kind: ValueKind, key: &[u8], value: &[u8]) {
        self.ops.push(BatchOp {
            kind,
            offset: self.data.len(),
            key_len: key.len(),
            value_len: value.len(),
        });
        self.data.extend_from_slice(key);
        self.data.extend_from_slice(value);
    }

    pub fn len(&self) -> usize {
        self.ops.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Empties the batch, keeping its buffers for reuse.
    pub fn clear(&mut self) {
        self.data.clear();
        self.ops.clear();
    }

    pub(crate) fn op(&self, i: usize) -> (ValueKind, &[u8], &[u8]) {
        let op = self.ops[i];
        let key = &self.data[op.offset..op.offset + op.key_len];
        let value = &self.data[op.offset + op.key_len..op.offset + op.key_len + op.value_len];
        (op.kind, key, value)
    }

    /// Entry indices in internal-key order: key ascending, and for a key written
    /// twice, the later write (higher sequence number) first. `scratch` is reused.
    pub(crate) fn sorted_order(&self, scratch: &mut Vec<(u64, u32)>) {
        scratch.clear();
        scratch.extend((0..self.ops.len()).map(|i| {
            let key = self.op(i).1;
            let mut b = [0u8; 8];
            let n = key.len().min(8);
            b[..n].copy_from_slice(&key[..n]);
            (u64::from_be_bytes(b), i as u32)
        }));
        scratch.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| self.op(a.1 as usize).1.cmp(self.op(b.1 as usize).1))
                .then(b.1.cmp(&a.1))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_key_then_newest_first() {
        let mut b = WriteBatch::new();
        b.put(b"b", b"1");
        b.put(b"a", b"2");
        b.delete(b"b");
        b.put(b"a-long-key-past-eight", b"3");
        let mut order = Vec::new();
        b.sorted_order(&mut order);
        let keys: Vec<(&[u8], usize)> = order
            .iter()
            .map(|&(_, i)| (b.op(i as usize).1, i as usize))
            .collect();
        assert_eq!(
            keys,
            vec![
                (&b"a"[..], 1),
                (&b"a-long-key-past-eight"[..], 3),
                (&b"b"[..], 2),
                (&b"b"[..], 0)
            ]
        );
        assert_eq!(b.op(2), (ValueKind::Delete, &b"b"[..], &b""[..]));
        b.clear();
        assert!(b.is_empty());
    }
}
