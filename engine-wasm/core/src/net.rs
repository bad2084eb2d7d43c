//! The simulated network between the query layer and the tablet servers
//! (DESIGN §2.3).
//!
//! YugabyteDB's query layer (YSQL, PostgreSQL's executor) does not read storage
//! itself: it buffers read and write *operations* and sends them to the tablet
//! servers leading the tablets they touch. Operations for several tablets go out
//! together, one RPC per tablet, in parallel; the query layer waits for every
//! answer before it goes on. That round is what YugabyteDB counts as one read
//! request. So the cost of a distributed plan is mostly the number of rounds
//! times the round trip, which is what article 001 measures.
//!
//! - [`node`]: who talks (the query node, tablet servers);
//! - [`round`]: the pure rule that cuts a list of operations into rounds of at
//!   most `ysql_request_limit` operations, grouped per tablet;
//! - [`rpc`]: one round on the virtual clock: messages with sizes, send and
//!   arrival times, and the `rpc_count` / `rpc_bytes` counters.

pub mod node;
pub mod round;
pub mod rpc;

pub use node::Node;
pub use round::{rounds, Round};
pub use rpc::{Call, Message, MessageKind, Network, RoundTiming};
