//! IndexLab's storage engines.
//!
//! Pure Rust: nothing here knows about wasm or JavaScript, so the same code runs
//! natively (the CLI, the tests, the benchmarks) and in the browser (through the
//! thin `indexlab-wasm` crate). Everything is deterministic: randomness comes from
//! [`rng::Rng`] with an explicit seed.

pub mod btree;
pub mod buffer_pool;
pub mod clock;
pub mod exec;
mod key_order;
pub mod lsm;
pub mod metrics;
pub mod net;
pub mod partition_hash;
pub mod pg;
pub mod profile;
pub mod report_json;
pub mod rng;
pub mod scenario;
pub mod selftest;
pub mod settings;
pub mod sort;
pub mod sql;
pub mod storage;
pub mod sweep;
pub mod trace;
pub mod traced;
pub mod value;
pub mod yb;

/// The engine's version, as the CLI and the web page both report it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
