//! The storage-inspection functions of PostgreSQL's contrib extensions that
//! experiments call in FROM: pageinspect's `heap_page_items(get_raw_page('t',
//! 0))`, `bt_metap('t_pkey')`, `bt_page_stats`, `bt_page_items` and
//! pgstattuple's `pgstatindex`. Each returns rows describing one page (or one
//! index) as PostgreSQL has it on disk; the profile builds them from its own
//! pages ([`crate::exec::QueryEngine::inspect`]).
//!
//! `get_raw_page()` returns an 8 KiB `bytea` image of a page. IndexLab keeps
//! pages as structures, not bytes, so it answers `get_raw_page(rel, blk)`
//! only as the argument of a function that decodes the page: the pair is
//! read as "this page of this relation".

use super::ast::Expr;
use super::error::{unsupported, ErrorKind, SqlError};
use crate::value::SqlType;

/// A storage-inspection function IndexLab answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InspectFunc {
    /// pageinspect `heap_page_items(page bytea)`: a heap page's line pointers
    /// and tuple headers.
    HeapPageItems,
    /// pageinspect `bt_metap(relname)`: a B-tree's metapage.
    BtMetap,
    /// pageinspect `bt_page_stats(relname, blkno)`: one B-tree page's summary.
    BtPageStats,
    /// pageinspect `bt_page_items(relname, blkno)` or `(page bytea)`: the
    /// index tuples of one B-tree page.
    BtPageItems,
    /// pgstattuple `pgstatindex(relname)`: a B-tree's levels, pages and density.
    PgStatIndex,
}

use InspectFunc::*;

/// How a function names its page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// `(get_raw_page(rel, blk))` only.
    RawPage,
    /// `(rel, blk)` or `(get_raw_page(rel, blk))`.
    RelationBlockOrPage,
    /// `(rel, blk)` only.
    RelationBlock,
    /// `(rel)`.
    Relation,
}

impl InspectFunc {
    pub fn from_name(name: &str) -> Option<InspectFunc> {
        Some(match name {
            "heap_page_items" => HeapPageItems,
            "bt_metap" => BtMetap,
            "bt_page_stats" => BtPageStats,
            "bt_page_items" => BtPageItems,
            "pgstatindex" => PgStatIndex,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            HeapPageItems => "heap_page_items",
            BtMetap => "bt_metap",
            BtPageStats => "bt_page_stats",
            BtPageItems => "bt_page_items",
            PgStatIndex => "pgstatindex",
        }
    }

    /// The extension a script must have created first.
    pub fn extension(self) -> &'static str {
        match self {
            PgStatIndex => "pgstattuple",
            _ => "pageinspect",
        }
    }

    fn takes(self) -> Takes {
        match self {
            HeapPageItems => Takes::RawPage,
            BtPageItems => Takes::RelationBlockOrPage,
            BtPageStats => Takes::RelationBlock,
            BtMetap | PgStatIndex => Takes::Relation,
        }
    }

    /// The function's result columns, as PostgreSQL 15's extension declares
    /// them (`xid` columns are shown as bigint, as IndexLab's `xmin` is).
    pub fn columns(self) -> &'static [(&'static str, SqlType)] {
        use SqlType::*;
        match self {
            HeapPageItems => &[
                ("lp", Int2),
                ("lp_off", Int2),
                ("lp_flags", Int2),
                ("lp_len", Int2),
                ("t_xmin", Int8),
                ("t_xmax", Int8),
                ("t_field3", Int4),
                ("t_ctid", Tid),
                ("t_infomask2", Int4),
                ("t_infomask", Int4),
                ("t_hoff", Int2),
                ("t_bits", Text),
                ("t_oid", Int8),
                ("t_data", Bytea),
            ],
            BtMetap => &[
                ("magic", Int4),
                ("version", Int4),
                ("root", Int8),
                ("level", Int8),
                ("fastroot", Int8),
                ("fastlevel", Int8),
                ("last_cleanup_num_delpages", Int8),
                ("last_cleanup_num_tuples", Float8),
                ("allequalimage", Bool),
            ],
            BtPageStats => &[
                ("blkno", Int8),
                ("type", Text),
                ("live_items", Int4),
                ("dead_items", Int4),
                ("avg_item_size", Int4),
                ("page_size", Int4),
                ("free_size", Int4),
                ("btpo_prev", Int8),
                ("btpo_next", Int8),
                ("btpo_level", Int8),
                ("btpo_flags", Int4),
            ],
            BtPageItems => &[
                ("itemoffset", Int2),
                ("ctid", Tid),
                ("itemlen", Int2),
                ("nulls", Bool),
                ("vars", Bool),
                ("data", Text),
                ("dead", Bool),
                ("htid", Tid),
                ("tids", Text),
            ],
            PgStatIndex => &[
                ("version", Int4),
                ("tree_level", Int4),
                ("index_size", Int8),
                ("root_block_no", Int8),
                ("internal_pages", Int8),
                ("leaf_pages", Int8),
                ("empty_pages", Int8),
                ("deleted_pages", Int8),
                ("avg_leaf_density", Float8),
                ("leaf_fragmentation", Float8),
            ],
        }
    }
}

/// The arguments of a call: which relation, and which block of it.
#[derive(Debug, Clone, PartialEq)]
pub struct InspectArgs {
    pub relation: Expr,
    pub block: Option<Expr>,
    /// Written as `get_raw_page(relation, block)`, whose checks and errors
    /// come first.
    pub raw_page: bool,
}

impl InspectArgs {
    pub fn map(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> InspectArgs {
        InspectArgs {
            relation: self.relation.map(&mut *f),
            block: self.block.as_ref().map(|b| b.map(&mut *f)),
            raw_page: self.raw_page,
        }
    }
}

/// A `get_raw_page(…)` call, its arguments converted: `(rel, blk)` or
/// `(rel, fork, blk)` with the main fork.
pub struct RawPage(pub Vec<Expr>);

/// Reads `func`'s arguments. `raw_page` is the first argument when it was a
/// `get_raw_page(…)` call (already converted), `args` the plain ones.
pub fn arguments(
    func: InspectFunc,
    raw_page: Option<RawPage>,
    mut args: Vec<Expr>,
) -> Result<InspectArgs, SqlError> {
    let name = func.name();
    let wrong = |expected: &str| {
        SqlError::new(
            ErrorKind::Semantic,
            format!("function {name}() takes {expected}"),
        )
        .near(name)
    };
    match (func.takes(), raw_page) {
        (Takes::RawPage | Takes::RelationBlockOrPage, Some(RawPage(page))) => {
            if !args.is_empty() {
                return Err(wrong("one argument, a page"));
            }
            page_of(page)
        }
        (Takes::RawPage, None) => Err(wrong("a page: get_raw_page(relation, block)")),
        (Takes::RelationBlock | Takes::RelationBlockOrPage, None) if args.len() == 2 => {
            let block = args.pop();
            Ok(InspectArgs {
                relation: args.remove(0),
                block,
                raw_page: false,
            })
        }
        (Takes::Relation, None) if args.len() == 1 => Ok(InspectArgs {
            relation: args.remove(0),
            block: None,
            raw_page: false,
        }),
        (Takes::Relation, _) => Err(wrong("one argument, a relation name")),
        _ => Err(wrong("(relation name, block number)")),
    }
}

/// `get_raw_page(rel, blk)` or `get_raw_page(rel, 'main', blk)`.
fn page_of(mut page: Vec<Expr>) -> Result<InspectArgs, SqlError> {
    if page.len() == 3 {
        let fork = page.remove(1);
        if !matches!(&fork, Expr::Literal(crate::value::Value::Text(f)) if f.as_str() == "main") {
            return Err(unsupported(
                "get_raw_page() of a fork other than 'main' (the free space map and \
                 visibility map are shown by the views, not as raw pages)",
            )
            .near("get_raw_page"));
        }
    }
    if page.len() != 2 {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            "function get_raw_page() takes (relation name, [fork,] block number)",
        )
        .near("get_raw_page"));
    }
    let block = page.pop();
    Ok(InspectArgs {
        relation: page.remove(0),
        block,
        raw_page: true,
    })
}

/// `get_raw_page()` anywhere but as the page of a function above.
pub fn raw_page_elsewhere() -> SqlError {
    unsupported(
        "get_raw_page() except as the page handed to heap_page_items() or bt_page_items() \
         (IndexLab keeps pages as structures, not as 8 KiB images)",
    )
    .near("get_raw_page")
}
