//! pageinspect's B-tree functions (`bt_metap`, `bt_page_stats`,
//! `bt_page_items`) and pgstattuple's `pgstatindex`, as PostgreSQL 15 answers
//! them (contrib/pageinspect/btreefuncs.c, contrib/pgstattuple/pgstatindex.c),
//! read from the model's pages: block numbers, line pointers, sizes, free space
//! and sibling links are the tree's own, and each item's `data` is the tuple
//! `index_form_tuple` would have written ([`index_tuple`]).
//!
//! LP_DEAD hints are the tree's own: index scans and uniqueness checks set
//! them on entries of rows dead to all (`pg/scan.rs`, `pg/dml.rs`).
//!
//! Pivots (high keys and downlinks) are suffix-truncated as PostgreSQL 12+
//! truncates them (`_bt_truncate`, modelled in `btree/truncate.rs`): INCLUDE
//! columns dropped, key columns kept up to the first that tells the two sides
//! of the split apart, and a heap TID appended when none does.
//!
//! Where PostgreSQL's page would hold something the model does not make —
//! posting lists of duplicates, deleted pages, a leaf cleared of its LP_DEAD
//! entries instead of split — the functions refuse by name instead of showing
//! a page PostgreSQL would not have.

mod index_tuple;

use crate::btree::truncate::HEAP_TID_BYTES;
use crate::btree::{decode_key, decode_prefix, ItemKind, ItemView, PageView};
use crate::exec::catalog_relation::CatalogRelation;
use crate::exec::Row;
use crate::pg::catalog::Index;
use crate::pg::tid::Tid;
use crate::pg::PgEngine;
use crate::profile::StatementError;
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::inspect::InspectFunc;
use crate::storage::PageNo;
use crate::value::{SqlType, Value};
use index_tuple::TupleImage;

/// BTREE_MAGIC and BTREE_VERSION of a PostgreSQL 12+ index (nbtree.h).
const BTREE_MAGIC: i64 = 0x053162;
const BTREE_VERSION: i64 = 4;
/// btpo_flags bits (nbtree.h).
const BTP_LEAF: i64 = 1 << 0;
const BTP_ROOT: i64 = 1 << 1;
const BTP_HAS_GARBAGE: i64 = 1 << 6;
/// The t_tid offset bit of a pivot that keeps a heap TID (nbtree.h).
const BT_PIVOT_HEAP_TID_ATTR: u64 = 0x1000;
/// MaxBlockNumber (block.h).
const MAX_BLOCK_NUMBER: i64 = 0xFFFF_FFFE;

impl PgEngine {
    /// Runs one of the functions by name (`block` for the page functions;
    /// `bt_page_items_bytea` is `bt_page_items(get_raw_page(index, block))`):
    /// how the tests call them, and a single entry for the SQL layer.
    pub fn inspect_btree(
        &self,
        func: &str,
        index: &str,
        block: Option<i64>,
    ) -> Result<CatalogRelation, SqlError> {
        match (func, block) {
            ("bt_metap", None) => bt_metap(self, index),
            ("pgstatindex", None) => pgstatindex(self, index),
            ("bt_page_stats", Some(b)) => bt_page_stats(self, index, b),
            ("bt_page_items", Some(b)) => bt_page_items(self, index, b),
            ("bt_page_items_bytea", Some(b)) => bt_page_items_bytea(self, index, b),
            _ => Err(SqlError::new(
                ErrorKind::Semantic,
                format!("function {func} does not exist"),
            )),
        }
    }
}

/// `select * from bt_metap('idx')`: the metapage.
pub(crate) fn bt_metap(engine: &PgEngine, index: &str) -> Result<CatalogRelation, SqlError> {
    let ix = find_index(engine, index, "")?;
    refuse_unmodelled_tree(ix)?;
    let (root, level) = root_and_level(ix);
    let row = vec![
        Value::Int(BTREE_MAGIC),
        Value::Int(BTREE_VERSION),
        Value::Int(root),
        Value::Int(level),
        // The fast root is the root: only page deletion can leave a lone
        // page above it, and the model deletes no pages.
        Value::Int(root),
        Value::Int(level),
        // No page was ever deleted; PostgreSQL 14+ always writes -1 here.
        Value::Int(0),
        Value::Float(-1.0),
        Value::Bool(super::super::dedup_notice::all_equal_image(ix)),
    ];
    Ok(relation(InspectFunc::BtMetap, vec![row]))
}

/// `select * from bt_page_stats('idx', blkno)`: one page's counts.
pub(crate) fn bt_page_stats(
    engine: &PgEngine,
    index: &str,
    block: i64,
) -> Result<CatalogRelation, SqlError> {
    let ix = find_index(engine, index, "")?;
    let page = checked_page(ix, block)?;
    let n = page.items.len() as i64;
    let dead = page.items.iter().filter(|i| i.dead).count() as i64;
    let bytes: i64 = page.items.iter().map(|i| i.size as i64).sum();
    let row = vec![
        Value::Int(block),
        Value::text(page_type(&page)),
        Value::Int(n - dead),
        Value::Int(dead),
        Value::Int(if n > 0 { bytes / n } else { 0 }),
        Value::Int(page.page_size as i64),
        Value::Int(page.free_space() as i64),
        Value::Int(page.prev.unwrap_or(0) as i64),
        Value::Int(page.next.unwrap_or(0) as i64),
        Value::Int(page.level as i64),
        Value::Int(flags(&page)),
    ];
    Ok(relation(InspectFunc::BtPageStats, vec![row]))
}

/// `select * from bt_page_items('idx', blkno)`: one row per line pointer.
pub(crate) fn bt_page_items(
    engine: &PgEngine,
    index: &str,
    block: i64,
) -> Result<CatalogRelation, SqlError> {
    let ix = find_index(engine, index, "")?;
    let page = checked_page(ix, block)?;
    items(engine, ix, &page)
}

/// `select * from bt_page_items(get_raw_page('rel', blkno))`: get_raw_page's
/// checks, which take any relation and word the range error their own way,
/// then bt_page_items_bytea's, which sees only the page.
pub(crate) fn bt_page_items_bytea(
    engine: &PgEngine,
    relation: &str,
    block: i64,
) -> Result<CatalogRelation, SqlError> {
    let error = |m: String| SqlError::new(ErrorKind::Execution, m);
    if !(0..=MAX_BLOCK_NUMBER).contains(&block) {
        return Err(error("invalid block number".into()));
    }
    let name = relation_name(relation);
    let index = engine
        .catalog
        .index_named(&name)
        .map(|i| engine.catalog.index(i));
    let blocks = match (index, engine.catalog.table_id(&name)) {
        (Some(ix), _) => blocks(ix) as i64,
        (None, Ok(t)) => engine.catalog.table(t).heap.page_count() as i64,
        (None, Err(e)) => return Err(e),
    };
    if block >= blocks {
        return Err(error(format!(
            "block number {block} is out of range for relation \"{name}\""
        )));
    }
    let Some(ix) = index else {
        // A heap page has no B-tree special space.
        return Err(error("input page is not a valid btree page".into()));
    };
    if block == 0 {
        return Err(error("block is a meta page".into()));
    }
    let page = checked_page(ix, block)?;
    items(engine, ix, &page)
}

fn items(engine: &PgEngine, ix: &Index, page: &PageView) -> Result<CatalogRelation, SqlError> {
    let rows = page
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| item_row(engine, ix, page, i, item))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(relation(InspectFunc::BtPageItems, rows))
}

/// `select * from pgstatindex('idx')`: every page but the metapage, counted.
pub(crate) fn pgstatindex(engine: &PgEngine, index: &str) -> Result<CatalogRelation, SqlError> {
    let ix = find_index(engine, index, "relation ")?;
    refuse_unmodelled_tree(ix)?;
    let (root, level) = root_and_level(ix);
    let (mut internal, mut leaves, mut fragments) = (0i64, 0i64, 0i64);
    let (mut max_avail, mut free) = (0u64, 0u64);
    for no in 1..blocks(ix) {
        let page = ix
            .tree
            .page_view(no)
            .expect("blocks past the metapage are pages");
        if page.level > 0 {
            internal += 1;
            continue;
        }
        leaves += 1;
        max_avail += page.usable as u64;
        free += page.free_space() as u64;
        // A right sibling on an earlier block counts as fragmentation.
        fragments += page.next.is_some_and(|next| next < no) as i64;
    }
    let density = percent(max_avail > 0, || {
        100.0 - free as f64 / max_avail as f64 * 100.0
    });
    let fragmentation = percent(leaves > 0, || fragments as f64 / leaves as f64 * 100.0);
    let row = vec![
        Value::Int(BTREE_VERSION),
        Value::Int(level),
        Value::Int(blocks(ix) as i64 * ix.tree.config().page_size as i64),
        Value::Int(root),
        Value::Int(internal),
        Value::Int(leaves),
        // Half-dead and deleted pages: the model deletes no pages.
        Value::Int(0),
        Value::Int(0),
        density,
        fragmentation,
    ];
    Ok(relation(InspectFunc::PgStatIndex, vec![row]))
}

/// pgstatindex prints its percentages with `%.2f` (NaN when nothing is
/// counted), and the float8 column reads that text back.
fn percent(defined: bool, value: impl Fn() -> f64) -> Value {
    if !defined {
        return Value::Float(f64::NAN);
    }
    Value::Float(format!("{:.2}", value()).parse().unwrap_or(f64::NAN))
}

/// `rows` as `func`'s result, with the columns the extension declares
/// ([`InspectFunc::columns`]).
fn relation(func: InspectFunc, rows: Vec<Vec<Value>>) -> CatalogRelation {
    super::relation_rows(func, rows.into_iter().map(Row::from_vec).collect())
}

/// The index a function's text argument names (textToQualifiedNameList:
/// unquoted names fold to lower case; `public.` may qualify them). Another
/// relation of that name is "not a btree index", worded as each extension
/// words it (`prefix` is pgstattuple's `relation `).
fn find_index<'e>(engine: &'e PgEngine, text: &str, prefix: &str) -> Result<&'e Index, SqlError> {
    let name = relation_name(text);
    if let Some(e) = crate::sql::error::system_catalog(&name) {
        return Err(e);
    }
    let catalog = &engine.catalog;
    if let Some(ix) = catalog.index_named(&name).map(|i| catalog.index(i)) {
        return Ok(ix);
    }
    if catalog.name_taken(&name) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("{prefix}\"{name}\" is not a btree index"),
        ));
    }
    Err(StatementError::UndefinedTable { name }.into())
}

use crate::exec::inspect::relation_name;

/// Blocks of the index file: an index nothing was ever inserted into is its
/// metapage alone (PostgreSQL makes the root at the first insert).
fn blocks(ix: &Index) -> PageNo {
    ix.pages()
}

/// The metapage's root and its level (0, 0 while there is no root).
fn root_and_level(ix: &Index) -> (i64, i64) {
    if blocks(ix) <= 1 {
        return (0, 0);
    }
    (ix.tree.root() as i64, ix.tree.height() as i64 - 1)
}

/// The page `block` of the index, after PostgreSQL's argument checks (in its
/// order) and the model's refusals.
fn checked_page<'e>(ix: &'e Index, block: i64) -> Result<PageView<'e>, SqlError> {
    let error = |m: &str| SqlError::new(ErrorKind::Execution, m);
    if !(0..=MAX_BLOCK_NUMBER).contains(&block) {
        return Err(error("invalid block number"));
    }
    if block == 0 {
        return Err(error("block 0 is a meta page"));
    }
    if block >= blocks(ix) as i64 {
        return Err(error("block number out of range"));
    }
    refuse_unmodelled_tree(ix)?;
    Ok(ix
        .tree
        .page_view(block as PageNo)
        .expect("blocks past the metapage are pages"))
}

/// 'l' for a leaf (the root too, while it is one), 'r' for an internal root,
/// 'i' for other internal pages (GetBTPageStatistics).
fn page_type(page: &PageView) -> &'static str {
    match (page.level, page.is_root) {
        (0, _) => "l",
        (_, true) => "r",
        _ => "i",
    }
}

fn flags(page: &PageView) -> i64 {
    let set = |on: bool, bit: i64| if on { bit } else { 0 };
    set(page.level == 0, BTP_LEAF)
        | set(page.is_root, BTP_ROOT)
        | set(page.has_garbage, BTP_HAS_GARBAGE)
}

/// What PostgreSQL's pages would hold that the model's cannot show; checked
/// over the whole tree because each changes where pages split.
fn refuse_unmodelled_tree(ix: &Index) -> Result<(), SqlError> {
    let leaves = ix.tree.leaf_chain();
    if ix.tree.skipped_dead_deletion() {
        return Err(unsupported(
            "deleting LP_DEAD entries from a full leaf (PostgreSQL removes the entries \
             index scans killed before it splits a page; IndexLab split it)",
        ));
    }
    if leaves.len() <= 1 || blocks(ix) <= 1 {
        return Ok(());
    }
    let mut last: Option<&[u8]> = None;
    for &no in &leaves {
        let page = ix.tree.page_view(no).expect("leaves are pages");
        let entries = page.items.iter().filter(|i| i.kind == ItemKind::Leaf);
        let mut empty = true;
        for item in entries {
            // Without deduplication (types without equalimage, INCLUDE
            // columns) equal keys are kept apart by heap TIDs in pivots,
            // which the model makes.
            if last == Some(item.key) && super::super::dedup_notice::all_equal_image(ix) {
                return Err(duplicates_refused(ix));
            }
            last = Some(item.key);
            empty = false;
        }
        if empty && page.next.is_some() {
            return Err(unsupported(
                "VACUUM's deletion of emptied B-tree pages (a leaf page here has no entries left)",
            ));
        }
    }
    Ok(())
}

/// Equal keys in a tree of several leaves of an index whose types allow
/// deduplication: PostgreSQL would have merged them into posting lists when
/// a page filled.
fn duplicates_refused(_ix: &Index) -> SqlError {
    unsupported(
        "B-tree deduplication (PostgreSQL merges duplicate keys into posting list tuples \
         when a leaf page fills)",
    )
}

/// One `bt_page_items` row.
fn item_row(
    engine: &PgEngine,
    ix: &Index,
    page: &PageView,
    i: usize,
    item: &ItemView,
) -> Result<Vec<Value>, SqlError> {
    let image = tuple_image(engine, ix, item)?;
    if image.size != item.size as usize {
        return Err(unsupported(format!(
            "an index tuple of {} bytes where the model's page holds {} (item {})",
            image.size,
            item.size,
            i + 1
        )));
    }
    let heap_tid = Value::Tid(item.payload);
    let (ctid, dead, htid) = match item.kind {
        ItemKind::Leaf => (heap_tid.clone(), Value::Bool(item.dead), heap_tid),
        // A pivot's TID holds its downlink (or, in a leaf's high key, the
        // block of the heap TID it was copied from) and its number of key
        // attributes; pivots never carry LP_DEAD. The heap TID column shows
        // the one a pivot keeps (BTreeTupleGetHeapTID), if any.
        _ => (
            pivot_tid(ix, page, item),
            Value::Null,
            pivot_heap_tid(ix, item).map_or(Value::Null, Value::Tid),
        ),
    };
    Ok(vec![
        Value::Int(i as i64 + 1),
        ctid,
        Value::Int(item.size as i64),
        Value::Bool(image.has_nulls),
        Value::Bool(image.has_varwidth),
        Value::text(image.hex()),
        dead,
        htid,
        Value::Null,
    ])
}

/// The tuple an item is: a leaf entry stores the row's key and INCLUDE
/// values (read from the row version it names, live or dead: a HOT chain
/// shares them; from its key once pruning freed the row); a pivot stores the
/// key columns only; minus infinity stores nothing.
fn tuple_image(engine: &PgEngine, ix: &Index, item: &ItemView) -> Result<TupleImage, SqlError> {
    let key_types: Vec<SqlType> = ix.key_columns.iter().map(|c| c.ty).collect();
    match item.kind {
        ItemKind::MinusInfinity => index_tuple::form(&[], &[]),
        ItemKind::HighKey | ItemKind::Pivot => {
            let values = pivot_values(ix, item.key)?;
            let mut image = index_tuple::form(&values, &key_types[..values.len()])?;
            if pivot_heap_tid(ix, item).is_some() {
                // BTreeTupleSetHeapTID: 8 more bytes for the TID, which
                // bt_page_items leaves out of `data` (it shows it as htid).
                image.size += HEAP_TID_BYTES as usize;
            }
            Ok(image)
        }
        ItemKind::Leaf => {
            let heap = &engine.catalog.table(ix.table).heap;
            let values = match heap.indexed_row(Tid::from_u64(item.payload)) {
                Some(row) => ix
                    .stored_columns()
                    .map(|c| ix.value_at(row, c))
                    .collect::<Result<Vec<_>, _>>()?,
                None if ix.include.is_empty() => decode_key(item.key, &ix.key_columns)?,
                None => {
                    let mut values = decode_key(item.key, &ix.key_columns)?;
                    match ix.included.get(&item.payload) {
                        Some(kept) => values.extend(kept.iter().cloned()),
                        None => {
                            return Err(unsupported(
                                "the INCLUDE values of an index entry whose row is gone",
                            ))
                        }
                    }
                    values
                }
            };
            index_tuple::form(&values, &ix.stored_types)
        }
    }
}

/// The key attributes a pivot keeps, decoded (as many as its key bytes hold).
fn pivot_values(ix: &Index, key: &[u8]) -> Result<Vec<Value>, SqlError> {
    for n in (1..=ix.key_columns.len()).rev() {
        if let Ok((values, used)) = decode_prefix(key, &ix.key_columns[..n]) {
            if used == key.len() {
                return Ok(values);
            }
        }
    }
    Ok(decode_key(key, &[])?)
}

/// The heap TID a pivot keeps: the tree stores the last left item's TID + 1
/// (see `btree/truncate.rs`), 0 when the TID was truncated away.
fn pivot_heap_tid(ix: &Index, item: &ItemView) -> Option<u64> {
    let kept = matches!(item.kind, ItemKind::HighKey | ItemKind::Pivot)
        && item.payload != 0
        && pivot_natts(ix, item) == ix.key_columns.len() as u64;
    kept.then(|| item.payload - 1)
}

/// How many key attributes a pivot keeps.
fn pivot_natts(ix: &Index, item: &ItemView) -> u64 {
    match item.kind {
        ItemKind::MinusInfinity => 0,
        _ => pivot_values(ix, item.key).map_or(0, |v| v.len() as u64),
    }
}

/// The TID field of a pivot tuple (BTreeTupleSetNAtts, BTreeTupleSetDownLink):
/// the block it points at, and as offset its number of key attributes (0
/// for minus infinity), with BT_PIVOT_HEAP_TID_ATTR when it keeps a heap TID. A leaf's high key keeps the heap block of the first
/// entry that moved right; an internal page's high key is that first right
/// item itself, whose downlink stays the right sibling's leftmost child.
fn pivot_tid(ix: &Index, page: &PageView, item: &ItemView) -> Value {
    let natts = pivot_natts(ix, item)
        | if pivot_heap_tid(ix, item).is_some() {
            BT_PIVOT_HEAP_TID_ATTR
        } else {
            0
        };
    let (block, natts) = match (item.kind, item.downlink) {
        (ItemKind::MinusInfinity, Some(child)) => (child, 0),
        (_, Some(child)) => (child, natts),
        _ if page.level == 0 => (Tid::from_u64(item.origin).page, natts),
        _ => {
            let right = page.next.and_then(|n| ix.tree.page_view(n));
            let leftmost = right.and_then(|r| {
                r.items.iter().find_map(|i| {
                    (i.kind == ItemKind::MinusInfinity)
                        .then_some(i.downlink)
                        .flatten()
                })
            });
            (leftmost.unwrap_or(0), natts)
        }
    };
    Value::Tid(((block as u64) << 16) | natts)
}
