//! A mutation fuzzer over IndexLab scripts (DESIGN §7: "no panic, no hang, and
//! no error without its position"), on stable Rust.
//!
//! [`corpus`] gives seed scripts, [`mutate`] breaks them, [`runner`] runs one on
//! both profiles under `catch_unwind` and a watchdog and checks every error's
//! position, [`shrink`] minimizes what fails, [`findings`] writes it out and
//! [`campaign`] ties them together. The `fuzz` binary (`npm run fuzz`) runs a
//! long campaign under a supervisor process that also survives crashes no
//! `catch_unwind` can catch (a stack overflow aborts); `tests/bounded.rs` runs a
//! short one in `cargo test`.

pub mod campaign;
pub mod corpus;
pub mod findings;
pub mod mutate;
pub mod runner;
pub mod shrink;
pub mod tokens;
