//! The PostgreSQL profile's catalog: tables (a heap each) and their B+tree indexes.

use super::heap::Heap;
use super::relation_stats::RelStats;
use crate::btree::{decode_prefix, encode_key_into, index_tuple_size, BTree, KeyColumn, SortOrder};
use crate::buffer_pool::RelId;
use crate::exec::index_expression::{IndexExpression, PlannerNumbers, FIRST_EXPRESSION};
use crate::exec::index_predicate::IndexPredicate;
use crate::profile::StatementError;
use crate::sql::ast::{ColumnDef, Deferrable, Order};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::plan::{IndexInfo, TableInfo};
use crate::value::{SqlType, Value};

pub use crate::exec::Row;

pub struct Table {
    pub name: String,
    pub rel: RelId,
    pub columns: Vec<ColumnDef>,
    pub types: Vec<SqlType>,
    pub heap: Heap<Row>,
    /// Next value of each serial column's sequence.
    pub sequences: Vec<Option<i64>>,
    /// Positions in `Catalog::indexes`.
    pub indexes: Vec<usize>,
    /// The VM fork exists once VACUUM has run (before that, an index-only scan finds
    /// no VM page to read and counts no buffer for it, as PostgreSQL does).
    pub vm_exists: bool,
    /// Blocks of the free space map fork ([`super::free_space_fork`]).
    pub fsm_blocks: u32,
    /// Its row of pg_class, as VACUUM, ANALYZE and CREATE INDEX left it.
    pub stats: RelStats,
    /// `relhasindex`: set by CREATE INDEX, cleared only by VACUUM or ANALYZE
    /// once the table has no index left.
    pub has_index: bool,
    /// What `pg_stat_user_tables` shows of it ([`super::pgstat`]).
    pub activity: super::pgstat::TableActivity,
    /// What the last ANALYZE learnt of each column (`pg_statistic`); empty
    /// before one.
    pub column_stats: Vec<super::column_stats::ColumnStats>,
    /// The columns ALTER TABLE dropped: each one's place among the tuple's
    /// attributes (0-based attnum) and type. PostgreSQL keeps a dropped
    /// attribute in the tuple layout: a tuple written later holds a NULL for
    /// it, so it always carries a null bitmap that counts it.
    pub dropped: Vec<(usize, SqlType)>,
    /// The values dropped columns held in the tuples written before the
    /// drop, by (tid, xmin) of the tuple, each with its attnum: they are
    /// still in those tuples' bytes, which pageinspect shows. A rewrite
    /// (VACUUM FULL, CLUSTER, TRUNCATE) writes NULLs instead and clears it.
    pub dropped_values: std::collections::HashMap<(u64, u32), Vec<(usize, Value)>>,
}

impl Table {
    /// The types to size a tuple of a live row by: the live columns', then
    /// the dropped ones' (always NULL, so neither their place nor their type
    /// changes the data bytes; they count in the null bitmap).
    pub fn size_types(&self) -> Vec<SqlType> {
        let dropped = self.dropped.iter().map(|(_, ty)| *ty);
        self.types.iter().copied().chain(dropped).collect()
    }

    /// The attributes a tuple written now has (`t_infomask2`'s count).
    pub fn natts(&self) -> u16 {
        (self.types.len() + self.dropped.len()) as u16
    }

    /// The row of the tuple at `tid` written by `xmin` as its attributes in
    /// attnum order: at each dropped attribute's place, the value it held
    /// when the column was dropped, else NULL.
    pub fn physical_row(&self, row: &[Value], tid: u64, xmin: u32) -> (Vec<Value>, Vec<SqlType>) {
        let kept = self.dropped_values.get(&(tid, xmin));
        let dropped_value = |attnum: usize| {
            kept.and_then(|k| k.iter().find(|(a, _)| *a == attnum))
                .map_or(Value::Null, |(_, v)| v.clone())
        };
        let mut live = row.iter().zip(&self.types);
        let mut values = Vec::with_capacity(usize::from(self.natts()));
        let mut types = Vec::with_capacity(values.capacity());
        for attnum in 0..usize::from(self.natts()) {
            let (v, ty) = match self.dropped.iter().find(|(a, _)| *a == attnum) {
                Some((_, ty)) => (dropped_value(attnum), *ty),
                None => match live.next() {
                    Some((v, ty)) => (v.clone(), *ty),
                    None => break,
                },
            };
            values.push(v);
            types.push(ty);
        }
        (values, types)
    }

    /// The attnum (0-based) of live column `position`.
    pub fn attnum(&self, position: usize) -> usize {
        (0..)
            .filter(|a| !self.dropped.iter().any(|(d, _)| d == a))
            .nth(position)
            .expect("an attnum for every live column")
    }

    /// The sequences of its serial columns, as PostgreSQL names them
    /// (`table_column_seq`).
    pub fn sequence_names(&self) -> impl Iterator<Item = String> + '_ {
        self.columns
            .iter()
            .filter(|c| c.serial)
            .map(|c| format!("{}_{}_seq", self.name, c.name))
    }

    /// The table as INSERT and UPDATE check rows against it.
    pub fn shape(&self) -> crate::exec::row::TableShape<'_> {
        crate::exec::row::TableShape {
            name: &self.name,
            columns: &self.columns,
            types: &self.types,
        }
    }
}

pub struct Index {
    pub name: String,
    pub rel: RelId,
    pub table: usize,
    /// Key columns (positions in the table) with their order.
    pub key: Vec<(usize, Order)>,
    pub include: Vec<usize>,
    pub key_columns: Vec<KeyColumn>,
    /// Types of the stored columns (key, then INCLUDE).
    pub stored_types: Vec<SqlType>,
    pub unique: bool,
    /// Built for a PRIMARY KEY or UNIQUE constraint: DROP INDEX refuses it.
    pub constraint: bool,
    /// Built for the PRIMARY KEY.
    pub primary: bool,
    /// The largest key ever inserted (never lowered: deletes leave it an upper bound).
    pub max_key: Option<Vec<u8>>,
    pub tree: BTree,
    /// Its row of pg_class.
    pub stats: RelStats,
    /// A partial index's WHERE: only the rows it holds for have entries.
    pub predicate: Option<IndexPredicate>,
    /// The expressions among its keys: key position `FIRST_EXPRESSION + k`
    /// is the k-th.
    pub expressions: Vec<IndexExpression>,
    /// What `pg_stat_user_indexes` shows of it ([`super::pgstat`]).
    pub activity: super::pgstat::IndexActivity,
    /// The index CLUSTER last ordered its table by (`indisclustered`).
    pub clustered: bool,
    /// The INCLUDE values its leaf entries store, by the heap TID each
    /// names. An index tuple keeps them after page pruning has freed the
    /// row they were copied from, and pageinspect still shows them.
    pub included: std::collections::HashMap<u64, Vec<Value>>,
    /// A DEFERRABLE constraint's index: an equal key is let in and checked
    /// again later ([`super::deferred_unique`]).
    pub deferrable: Option<Deferrable>,
    /// Whether the notice that PostgreSQL would have deduplicated it was
    /// given ([`super::dedup_notice`]).
    pub dedup_noticed: bool,
    /// What the last ANALYZE learnt of each of its expressions, as
    /// PostgreSQL keeps an expression index's statistics (empty before).
    pub expression_stats: Vec<super::column_stats::ColumnStats>,
}

impl Index {
    /// Blocks of the index's file: PostgreSQL builds an empty B-tree as its
    /// metapage alone and adds the root at the first insert.
    pub fn pages(&self) -> u32 {
        if self.max_key.is_none() {
            1
        } else {
            self.tree.page_count()
        }
    }

    /// A key of this index as text, as a student reads it: `(5000)`,
    /// `(2026-…, 17)`. A separator may carry fewer columns (or a heap TID
    /// after them): the columns that decode are shown.
    pub fn key_text(&self, key: &[u8]) -> String {
        for n in (1..=self.key_columns.len()).rev() {
            if let Ok((values, _)) = decode_prefix(key, &self.key_columns[..n]) {
                let cells: Vec<String> = values.iter().map(|v| v.pg_text()).collect();
                return format!("({})", cells.join(", "));
            }
        }
        "(…)".to_string()
    }

    /// The key range holding the entries equal in value to `key`, and, when
    /// that range may hold others, the key's values to compare them with:
    /// a `numeric` column without a typmod keeps each value's scale in its
    /// bytes ([`crate::btree::numeric_key::equal_value_range`]).
    pub fn equal_range(&self, key: &[u8]) -> (Vec<u8>, Vec<u8>, Option<Vec<Value>>) {
        let unscaled = self
            .key_columns
            .iter()
            .any(|c| c.ty == SqlType::Numeric(None));
        let values = unscaled
            .then(|| crate::btree::decode_key(key, &self.key_columns).ok())
            .flatten();
        let range = values
            .as_ref()
            .and_then(|v| crate::btree::numeric_key::equal_value_range(v, &self.key_columns).ok());
        match range {
            Some((lo, hi)) => (lo, hi, values),
            None => (key.to_vec(), key.to_vec(), None),
        }
    }

    /// Whether the entry key `entry` holds the values `probe` (numeric
    /// equality: `2.5` is `2.50`).
    pub fn holds_values(&self, entry: &[u8], probe: &[Value]) -> bool {
        match crate::btree::decode_key(entry, &self.key_columns) {
            Ok(values) => values
                .iter()
                .zip(probe)
                .all(|(a, b)| crate::sql::eval::compare(a, b) == Some(std::cmp::Ordering::Equal)),
            Err(_) => false,
        }
    }

    /// The index key of a heap row, as ordered bytes, and the on-page tuple size.
    pub fn entry_of(&self, row: &[Value], buf: &mut Vec<u8>) -> Result<u16, SqlError> {
        buf.clear();
        if !self.expressions.is_empty() {
            // Computed keys: the values are made here, not borrowed.
            let values = self
                .stored_columns()
                .map(|c| self.value_at(row, c))
                .collect::<Result<Vec<_>, _>>()?;
            let refs: Vec<&Value> = values.iter().collect();
            return self.encode(&refs, buf);
        }
        // The stored columns by reference, on the stack for any realistic index:
        // this runs once per row and index, so it must not allocate.
        const NULL: Value = Value::Null;
        let n = self.key.len() + self.include.len();
        let mut small = [&NULL; 16];
        let heap_refs: Vec<&Value>;
        let values: &[&Value] = if n <= small.len() {
            for (slot, c) in small.iter_mut().zip(self.stored_columns()) {
                *slot = &row[c];
            }
            &small[..n]
        } else {
            heap_refs = self.stored_columns().map(|c| &row[c]).collect();
            &heap_refs
        };
        self.encode(values, buf)
    }

    /// The stored value at key or INCLUDE position `c` for a heap row: a
    /// column's, or an expression's computed from the row.
    pub fn value_at(&self, row: &[Value], c: usize) -> Result<Value, SqlError> {
        match c.checked_sub(FIRST_EXPRESSION) {
            Some(k) => self.expressions[k].value(row),
            None => Ok(row[c].clone()),
        }
    }

    /// The table columns behind stored position `c` (an expression's
    /// inputs).
    pub fn columns_at(&self, c: usize) -> Vec<usize> {
        match c.checked_sub(FIRST_EXPRESSION) {
            Some(k) => self.expressions[k].columns(),
            None => vec![c],
        }
    }

    fn encode(&self, values: &[&Value], buf: &mut Vec<u8>) -> Result<u16, SqlError> {
        let nkey = self.key.len();
        encode_key_into(&values[..nkey], &self.key_columns, buf)?;
        let size = index_tuple_size(values, &self.stored_types)?;
        u16::try_from(size).map_err(|_| {
            SqlError::new(
                ErrorKind::Execution,
                format!("index row size {size} is too large"),
            )
        })
    }

    /// Key columns then INCLUDE columns: what an index tuple stores.
    pub fn stored_columns(&self) -> impl Iterator<Item = usize> + '_ {
        self.key
            .iter()
            .map(|(c, _)| *c)
            .chain(self.include.iter().copied())
    }
}

#[derive(Default)]
pub struct Catalog {
    pub tables: Vec<Option<Table>>,
    pub indexes: Vec<Option<Index>>,
    /// CREATE EXTENSION's names.
    pub extensions: Vec<String>,
    /// CREATE STATISTICS's objects.
    pub statistics: crate::exec::statistics_objects::StatisticsObjects,
    /// CREATE SEQUENCE's sequences.
    pub sequences: crate::exec::sequences::Sequences,
    /// CREATE SCHEMA's schemas and the session's `search_path`.
    pub schemas: crate::exec::schemas::Schemas,
}

pub fn key_column(ty: SqlType, order: Order) -> KeyColumn {
    KeyColumn {
        ty,
        order: match order {
            Order::Asc => SortOrder::Asc,
            Order::Desc => SortOrder::Desc,
        },
    }
}

impl Catalog {
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

    pub fn table(&self, id: usize) -> &Table {
        self.tables[id]
            .as_ref()
            .expect("table ids come from table_id")
    }

    pub fn table_mut(&mut self, id: usize) -> &mut Table {
        self.tables[id]
            .as_mut()
            .expect("table ids come from table_id")
    }

    pub fn index(&self, id: usize) -> &Index {
        self.indexes[id]
            .as_ref()
            .expect("index ids come from the table")
    }

    /// The index `id`, unless it was dropped.
    pub fn index_opt(&self, id: usize) -> Option<&Index> {
        self.indexes.get(id).and_then(Option::as_ref)
    }

    pub fn index_mut(&mut self, id: usize) -> &mut Index {
        self.indexes[id]
            .as_mut()
            .expect("index ids come from the table")
    }

    /// The index `name` means: qualified, or the first on `search_path`.
    pub fn index_named(&self, name: &str) -> Option<usize> {
        self.schemas.find(&self.indexes, name, |i| &i.name)
    }

    /// True when a table, index or sequence already has this name (they
    /// share a namespace).
    pub fn name_taken(&self, name: &str) -> bool {
        self.tables.iter().flatten().any(|t| t.name == name)
            || self.indexes.iter().flatten().any(|i| i.name == name)
            || self.is_sequence(name)
    }

    /// Whether `name` is a sequence: a serial column's, or one CREATE
    /// SEQUENCE made.
    pub fn is_sequence(&self, name: &str) -> bool {
        self.sequences.exists(name)
            || self
                .tables
                .iter()
                .flatten()
                .any(|t| t.sequence_names().any(|s| s == name))
    }

    /// PostgreSQL's default index name: `table_col1_col2_idx`, then `…_idx1`, ….
    pub fn default_index_name(&self, table: &str, cols: &[String], suffix: &str) -> String {
        crate::exec::relation_name::choose_relation_name(table, cols, suffix, |n| {
            self.name_taken(n)
        })
    }

    /// What the planner needs to know about table `id`.
    pub fn planner_info(&self, id: usize) -> TableInfo {
        let t = self.table(id);
        let mut numbers = PlannerNumbers::new(t.columns.len());
        let mut number = |ix: &Index, c: usize| numbers.number(&ix.expressions, c);
        let indexes = t
            .indexes
            .iter()
            .map(|&i| {
                let ix = self.index(i);
                IndexInfo {
                    name: ix.name.clone(),
                    key: ix.key.iter().map(|&(c, o)| (number(ix, c), o)).collect(),
                    include: ix.include.clone(),
                    hash: false,
                    hash_columns: 0,
                    unique: ix.unique,
                    predicate: ix
                        .predicate
                        .as_ref()
                        .map(|p| p.conjuncts())
                        .unwrap_or_default(),
                }
            })
            .collect();
        TableInfo {
            stats: None,
            reltuples: None,
            // The name queries give it: without its schema.
            name: crate::exec::schemas::bare(&t.name).to_string(),
            columns: t.columns.iter().map(|c| (c.name.clone(), c.ty)).collect(),
            indexes,
            system: TableInfo::system_columns(),
            expressions: numbers.expressions,
        }
    }
}
