//! The yb profile's catalog: tables and secondary indexes, each a DocDB relation
//! stored in its own tablets.

use super::doc_key::{doc_key, key_hash, push_escaped};
use super::packing::{Packing, PACKED};
use crate::btree::KeyColumn;
use crate::exec::index_expression::{IndexExpression, PlannerNumbers, FIRST_EXPRESSION};
use crate::exec::index_predicate::IndexPredicate;
use crate::pg::key_column;
use crate::profile::StatementError;
use crate::sql::ast::{ColumnDef, Order};
use crate::sql::error::SqlError;
use crate::sql::plan::{IndexInfo, TableInfo};
use crate::value::{SqlType, Value};
use std::borrow::Borrow;
use std::ops::Bound;

/// How a relation's rows become document keys.
#[derive(Debug, Clone)]
pub struct KeySpec {
    /// Key columns (positions in the relation's row) hashed for sharding.
    pub hash: Vec<usize>,
    /// Key columns ordered within a tablet.
    pub range: Vec<usize>,
    pub hash_columns: Vec<KeyColumn>,
    pub range_columns: Vec<KeyColumn>,
}

/// Some of a row's values, borrowed (keys have a few columns: no allocation).
type Picked<'r> = smallvec::SmallVec<[&'r Value; 4]>;

/// `row`'s values at `cols`. Pushed one by one: a few columns, six picks a
/// row written with an index, and `collect`'s general path costs more than
/// the picking.
fn pick<'r, V: Borrow<Value>>(row: &'r [V], cols: impl Iterator<Item = usize>) -> Picked<'r> {
    let mut picked = Picked::new();
    for c in cols {
        picked.push(row[c].borrow());
    }
    picked
}

impl KeySpec {
    pub fn new(types: &[SqlType], key: &[(usize, Order, bool)]) -> KeySpec {
        let (hash, range): (Vec<_>, Vec<_>) = key.iter().partition(|(_, _, h)| *h);
        KeySpec {
            hash_columns: hash
                .iter()
                .map(|(c, o, _)| key_column(types[*c], *o))
                .collect(),
            range_columns: range
                .iter()
                .map(|(c, o, _)| key_column(types[*c], *o))
                .collect(),
            hash: hash.iter().map(|(c, _, _)| *c).collect(),
            range: range.iter().map(|(c, _, _)| *c).collect(),
        }
    }

    pub fn is_hash(&self) -> bool {
        !self.hash.is_empty()
    }

    /// The document key of `row` (values picked by position).
    pub fn encode<V: Borrow<Value>>(&self, row: &[V], out: &mut Vec<u8>) -> Result<(), SqlError> {
        doc_key(
            &pick(row, self.hash.iter().copied()),
            &self.hash_columns,
            &pick(row, self.range.iter().copied()),
            &self.range_columns,
            out,
        )?;
        Ok(())
    }
}

/// A relation's tablets: positions in the engine's tablet list, each owning a
/// slice of the 16-bit hash space (hash sharding) or of the key range (range
/// sharding, cut by `SPLIT AT VALUES`).
#[derive(Debug, Clone, Default)]
pub struct Tablets {
    pub ids: Vec<usize>,
    /// Range sharding: where each tablet after the first begins, as encoded
    /// key prefixes in ascending byte order (empty: one tablet, or hash).
    pub bounds: Vec<Vec<u8>>,
}

/// Which of `n` hash tablets holds hash `h`. YugabyteDB cuts the 65 536
/// hashes as `PartitionSchema::CreateHashPartitions` does: tablet i starts at
/// `i * 65536 / n` (integer division), so the cuts of 3 tablets are 0x5555
/// and 0xaaaa.
pub fn hash_tablet(h: u16, n: usize) -> usize {
    let start = |i: usize| i * 65536 / n;
    let mut i = (usize::from(h) * n) >> 16;
    while i + 1 < n && start(i + 1) <= usize::from(h) {
        i += 1;
    }
    i
}

impl Tablets {
    /// The tablet holding document key `doc`: by its hash (hash ranges split
    /// evenly), or by the range its key falls in.
    pub fn for_key(&self, doc: &[u8]) -> usize {
        if !self.bounds.is_empty() {
            return self.ids[self.bounds.partition_point(|b| b.as_slice() <= doc)];
        }
        self.ids[hash_tablet(key_hash(doc), self.ids.len())]
    }

    /// The tablets a scan of keys from `lower` to `upper` reads, in key
    /// order: every tablet unless the relation is cut into key ranges.
    pub fn overlapping(&self, lower: &Bound<Vec<u8>>, upper: &Bound<Vec<u8>>) -> Vec<usize> {
        if self.bounds.is_empty() {
            return self.ids.clone();
        }
        let first = match lower {
            Bound::Included(k) | Bound::Excluded(k) => self.bounds.partition_point(|b| b <= k),
            Bound::Unbounded => 0,
        };
        let last = match upper {
            // A tablet starting at the upper bound itself holds keys that
            // extend it (a prefix bound includes them).
            Bound::Included(k) | Bound::Excluded(k) => self
                .bounds
                .partition_point(|b| b.as_slice() <= upper_limit(k).as_slice()),
            Bound::Unbounded => self.bounds.len(),
        };
        self.ids[first..=last.max(first)].to_vec()
    }
}

/// The smallest key above every key that starts with `k`, for routing an
/// upper bound that is a prefix (a range on the first of several columns).
fn upper_limit(k: &[u8]) -> Vec<u8> {
    let mut out = k.to_vec();
    out.push(0xFF);
    out
}

pub struct YbTable {
    pub name: String,
    pub columns: Vec<ColumnDef>,
    pub types: Vec<SqlType>,
    /// The primary key, or none: rows are then keyed by a generated ybctid.
    pub key: Option<KeySpec>,
    /// The primary key constraint's name (`<table>_pkey` unless written).
    pub pk_name: String,
    pub sequences: Vec<Option<i64>>,
    pub indexes: Vec<usize>,
    pub tablets: Tablets,
    /// Metrics id of the table.
    pub rel: usize,
    /// Rows ever keyed by a generated ybctid (its source of uniqueness).
    pub next_ybctid: u64,
    /// Which columns the row's value stores at each schema version (fixed
    /// once the key is known, a new version at each ADD or DROP COLUMN);
    /// the last is the one rows are written with.
    pub packings: Vec<std::rc::Rc<Packing>>,
    /// Each live column's DocDB column id: the subkey of its own entry when
    /// rows are not packed. Ids are never reused.
    pub column_ids: Vec<u8>,
    /// The id the next column ADD COLUMN adds gets.
    pub next_column_id: u8,
    /// What each column reads in a row written before ADD COLUMN added it:
    /// the default it was added with (NULL for the others).
    pub missing: Vec<Value>,
    /// The rows the last ANALYZE counted (`pg_class.reltuples`), None before.
    pub reltuples: Option<f64>,
}

impl YbTable {
    /// The table as INSERT and UPDATE check rows against it.
    pub fn shape(&self) -> crate::exec::row::TableShape<'_> {
        crate::exec::row::TableShape {
            name: &self.name,
            columns: &self.columns,
            types: &self.types,
        }
    }

    /// How the table's rows are stored in values now: every column outside
    /// the key, at a new schema version.
    pub fn value_packing(&self) -> Packing {
        let keyed: Vec<usize> = self
            .key
            .as_ref()
            .map(|k| k.hash.iter().chain(&k.range).copied().collect())
            .unwrap_or_default();
        Packing::new(&self.types, &keyed, self.packings.len() as u8)
    }

    /// The packing rows are written with now.
    pub fn packing(&self) -> &std::rc::Rc<Packing> {
        self.packings
            .last()
            .expect("a table has a packing once created")
    }

    /// The packing a packed value was written with (its schema version).
    pub fn packing_of(&self, value: &[u8]) -> &Packing {
        let v = super::packing::version(value);
        self.packings.get(v).unwrap_or_else(|| self.packing())
    }

    /// The live column whose DocDB column id is `id` (none: dropped).
    pub fn column_of_id(&self, id: u8) -> Option<usize> {
        self.column_ids.iter().position(|&c| c == id)
    }
}

pub struct YbIndex {
    pub name: String,
    pub table: usize,
    /// Key columns as positions in the table, with order and hashing.
    pub key: Vec<(usize, Order, bool)>,
    pub include: Vec<usize>,
    pub unique: bool,
    /// Built for a UNIQUE constraint: DROP INDEX refuses it.
    pub constraint: bool,
    /// The index row's key: its key columns (positions 0..n of the index row).
    pub spec: KeySpec,
    /// How INCLUDE columns are encoded in the value.
    pub include_columns: Vec<KeyColumn>,
    pub tablets: Tablets,
    pub rel: usize,
    /// A partial index's WHERE: only the rows it holds for have entries.
    pub predicate: Option<IndexPredicate>,
    /// The expressions among its keys: key position `FIRST_EXPRESSION + k`
    /// is the k-th.
    pub expressions: Vec<IndexExpression>,
}

impl YbIndex {
    /// The key value at position `c` for a table row: a column's, or an
    /// expression's computed from the row.
    pub fn value_at(&self, row: &[Value], c: usize) -> Result<Value, SqlError> {
        match c.checked_sub(FIRST_EXPRESSION) {
            Some(k) => self.expressions[k].value(row),
            None => Ok(row[c].clone()),
        }
    }

    /// The index entry of a table row whose document key is `base`: the RocksDB
    /// document key (with the base key embedded where entries could collide) and
    /// the value's payload (the base key for a unique index).
    /// Both are written into the buffers given (cleared first).
    pub fn entry(
        &self,
        row: &[Value],
        base: &[u8],
        key: &mut Vec<u8>,
        payload: &mut Vec<u8>,
    ) -> Result<(), SqlError> {
        let computed: Vec<Value>;
        let values = if self.expressions.is_empty() {
            pick(row, self.key.iter().map(|(c, _, _)| *c))
        } else {
            computed = self
                .key
                .iter()
                .map(|(c, _, _)| self.value_at(row, *c))
                .collect::<Result<_, _>>()?;
            pick(&computed, 0..computed.len())
        };
        self.spec.encode(&values, key)?;
        // A packed index row: its INCLUDE columns, then the base key if unique.
        payload.clear();
        payload.extend_from_slice(&[PACKED, 0]);
        let included = pick(row, self.include.iter().copied());
        crate::btree::encode_key_into(&included, &self.include_columns, payload)?;
        if self.unique {
            push_escaped(payload, base);
        }
        // Entries must stay distinct: those of a non-unique index, and those of
        // a unique one whose key has a NULL (NULLs are never equal; YugabyteDB's
        // `ybuniqueidxkeysuffix`), carry the base key in the document key.
        if !self.unique || values.iter().any(|v| v.is_null()) {
            // The group end stays last: the base key goes in front of it.
            key.pop();
            push_escaped(key, base);
            key.push(super::doc_key::GROUP_END);
        }
        Ok(())
    }
}

#[derive(Default)]
pub struct YbCatalog {
    pub tables: Vec<Option<YbTable>>,
    pub indexes: Vec<Option<YbIndex>>,
    /// CREATE EXTENSION's names.
    pub extensions: Vec<String>,
    /// CREATE STATISTICS's objects.
    pub statistics: crate::exec::statistics_objects::StatisticsObjects,
    /// CREATE SEQUENCE's sequences.
    pub sequences: crate::exec::sequences::Sequences,
    /// CREATE SCHEMA's schemas and the session's `search_path`.
    pub schemas: crate::exec::schemas::Schemas,
}

impl YbCatalog {
    /// The table `name` means: qualified, or the first on `search_path`.
    pub fn table_id(&self, name: &str) -> Result<usize, SqlError> {
        let found = self.schemas.find(&self.tables, name, |t| &t.name);
        found.ok_or_else(|| {
            if let Some(e) = crate::sql::error::system_catalog(name) {
                return e;
            }
            StatementError::UndefinedTable {
                name: name.to_string(),
            }
            .into()
        })
    }

    /// The index `name` means: qualified, or the first on `search_path`.
    pub fn index_named(&self, name: &str) -> Option<usize> {
        self.schemas.find(&self.indexes, name, |i| &i.name)
    }

    pub fn table(&self, id: usize) -> &YbTable {
        self.tables[id]
            .as_ref()
            .expect("table ids come from table_id")
    }

    pub fn table_mut(&mut self, id: usize) -> &mut YbTable {
        self.tables[id]
            .as_mut()
            .expect("table ids come from table_id")
    }

    pub fn index(&self, id: usize) -> &YbIndex {
        self.indexes[id]
            .as_ref()
            .expect("index ids come from the table")
    }

    pub fn name_taken(&self, name: &str) -> bool {
        self.tables.iter().flatten().any(|t| t.name == name)
            || self.indexes.iter().flatten().any(|i| i.name == name)
            || self.sequences.exists(name)
    }

    pub fn planner_info(&self, id: usize) -> TableInfo {
        let t = self.table(id);
        let pk = t.key.as_ref().map(|k| IndexInfo {
            name: t.pk_name.clone(),
            key: k
                .hash
                .iter()
                .chain(&k.range)
                .map(|&c| (c, Order::Asc))
                .collect(),
            include: (0..t.columns.len()).collect(),
            hash: k.is_hash(),
            hash_columns: k.hash.len(),
            unique: true,
            predicate: Vec::new(),
        });
        let pk = pk.map(|mut p| {
            // Key order as declared (DESC columns scan forward in DESC order).
            let orders = k_orders(t);
            for (i, o) in orders.into_iter().enumerate() {
                p.key[i].1 = o;
            }
            p
        });
        let mut numbers = PlannerNumbers::new(t.columns.len());
        let mut number = |ix: &YbIndex, c: usize| numbers.number(&ix.expressions, c);
        let indexes = pk
            .into_iter()
            .chain(t.indexes.iter().map(|&i| {
                let ix = self.index(i);
                IndexInfo {
                    name: ix.name.clone(),
                    key: ix
                        .key
                        .iter()
                        .map(|(c, o, _)| (number(ix, *c), *o))
                        .collect(),
                    include: ix.include.clone(),
                    hash: ix.key.first().is_some_and(|k| k.2),
                    hash_columns: ix.key.iter().take_while(|k| k.2).count(),
                    unique: ix.unique,
                    predicate: ix
                        .predicate
                        .as_ref()
                        .map(|p| p.conjuncts())
                        .unwrap_or_default(),
                }
            }))
            .collect();
        TableInfo {
            stats: None,
            reltuples: t.reltuples,
            // The name queries give it: without its schema.
            name: crate::exec::schemas::bare(&t.name).to_string(),
            columns: t.columns.iter().map(|c| (c.name.clone(), c.ty)).collect(),
            indexes,
            // Named so a query that asks for it is refused by name: YugabyteDB's
            // rows live in DocDB, not at heap addresses (see run_scan).
            system: TableInfo::system_columns(),
            expressions: numbers.expressions,
        }
    }
}

fn k_orders(t: &YbTable) -> Vec<Order> {
    let Some(k) = &t.key else { return Vec::new() };
    k.hash_columns
        .iter()
        .chain(&k.range_columns)
        .map(|c| match c.order {
            crate::btree::SortOrder::Asc => Order::Asc,
            crate::btree::SortOrder::Desc => Order::Desc,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::hash_tablet;

    /// Tablet i of n starts at i * 65536 / n, as YugabyteDB cuts them.
    #[test]
    fn hash_tablets_are_cut_as_yugabytedb_cuts_them() {
        assert_eq!(hash_tablet(0x5554, 3), 0);
        assert_eq!(hash_tablet(0x5555, 3), 1);
        assert_eq!(hash_tablet(0xaaa9, 3), 1);
        assert_eq!(hash_tablet(0xaaaa, 3), 2);
        assert_eq!(hash_tablet(0xffff, 3), 2);
        assert_eq!(hash_tablet(0xffff, 1), 0);
        assert_eq!(hash_tablet(0x7fff, 2), 0);
        assert_eq!(hash_tablet(0x8000, 2), 1);
    }
}
