//! The yb profile on the simulated network: every read or write request is a
//! round of RPCs from the query node to the tablet servers leading the tablets
//! it touches ([`crate::net`]). The round's time goes on the virtual clock, its
//! messages into the trace, and `rpc_count` / `rpc_bytes` onto the relations.

use super::engine::YbEngine;
use crate::clock::CostModel;
use crate::lsm::ReadStats;
use crate::net::{Call, Network};
use crate::trace::Event;

impl YbEngine {
    /// The network the settings describe.
    pub(super) fn network(&self) -> Network {
        let s = &self.settings;
        Network {
            rtt_us: s.network_nanos() as f64 / 1000.0,
            tservers: s.tablet_servers().max(1) as u32,
            replication_factor: self.write_settings.replicas as u32,
        }
    }

    /// `ysql_request_limit`: most operations one request carries.
    pub(super) fn request_limit(&self) -> usize {
        self.settings.ysql_request_limit().max(1) as usize
    }

    /// Server time of an RPC carrying `ops` operations, before its reads.
    pub(super) fn rpc_server_us(&self, ops: usize) -> f64 {
        self.cost.request_overhead_us + ops as f64 * self.cost.request_op_us
    }

    /// Virtual time of block reads: cache hits, device reads, key comparisons.
    pub(super) fn read_time_us(&self, s: &ReadStats) -> f64 {
        read_time_us(&self.cost, s)
    }

    /// Sends one round: `calls`, each on behalf of relation `rel`. Advances the
    /// clock to the last response and counts the RPCs on their relations.
    pub(super) fn send_round(&mut self, calls: &[(usize, Call)]) {
        let timing = self
            .network()
            .round(self.clock.now_us(), calls.iter().map(|(_, c)| c));
        for m in &timing.messages {
            let rel = calls
                .iter()
                .find(|(_, c)| c.tablet == m.tablet)
                .map_or(0, |(r, _)| *r);
            let s = self.rel_stats(rel);
            s.rpc_bytes += m.bytes;
            if matches!(
                m.kind,
                crate::net::MessageKind::ReadRequest
                    | crate::net::MessageKind::WriteRequest
                    | crate::net::MessageKind::Replicate
            ) {
                s.rpc_count += 1;
            }
            self.trace.detail(|| Event::Rpc {
                kind: m.kind.name(),
                from: m.from.to_string(),
                to: m.to.to_string(),
                tablet: m.tablet,
                ops: m.ops,
                rows: m.rows,
                bytes: m.bytes,
                send_us: m.send_us,
                arrive_us: m.arrive_us,
            });
        }
        let wait = timing.end_us - self.clock.now_us();
        self.clock.advance_us(wait);
    }

    /// The tablet server leading tablet `tablet`, as the network numbers it.
    pub(super) fn leader(&self, tablet: usize) -> u32 {
        self.tablets[tablet].tserver as u32
    }
}

/// [`YbEngine::read_time_us`] under cost model `cost`: the blocks read and the
/// key comparisons made, so a seek (a search of every source) costs what it
/// did and a next (one step, one comparison) much less.
pub(super) fn read_time_us(cost: &CostModel, s: &ReadStats) -> f64 {
    let c = &s.cache;
    c.hits() as f64 * cost.cache_hit_us
        + (c.misses() + c.bypass_reads) as f64 * cost.device_read_us
        + s.key_comparisons.total() as f64 * cost.cpu_compare_us
}
