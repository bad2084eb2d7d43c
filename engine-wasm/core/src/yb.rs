//! The YugabyteDB profile: DocDB over the LSM.
//!
//! A table is split into tablets (hash-sharded by default, or one range tablet
//! when its key is ASC/DESC), each an [`crate::lsm::Lsm`] led by a tablet
//! server whose block cache its reads use. Rows are documents keyed by the
//! primary key (or a generated ybctid) plus a hybrid time; secondary indexes are
//! relations of their own. Scans are read requests of at most
//! `yb_fetch_row_limit` rows.
//!
//! - [`doc_key`]: key layout; `catalog`, `tablet`: relations and their tablets;
//! - `packing`: DocDB values (packed rows, tombstones); `row`: SQL rows from
//!   documents; `write`: INSERT/UPDATE/DELETE;
//! - `request`: one read request; `scan`: plans into requests; `explain`;
//! - `network`: requests as rounds of RPCs on the simulated network;
//! - `engine`, `ddl`, `stats`, `query_engine`: the profile's façade.

mod alter;
mod catalog;
mod ddl;
mod describe;
pub mod doc_key;
mod engine;
mod explain;
mod network;
mod packing;
mod provisional;
mod pushdown;
mod query_engine;
mod request;
mod row;
mod scan;
mod skip_scan;
mod snapshot;
mod stats;
mod tablet;
mod write;

pub use engine::YbEngine;
pub use tablet::Tablet;
