//! One round of RPCs on the virtual clock.
//!
//! Every RPC is two messages: the request, sent when the round starts and
//! arriving half a round trip later, and the response, sent when the server has
//! done its work and arriving half a round trip after that. With a replication
//! factor above 1 a write's leader also replicates to its followers and answers
//! once a majority has it. The round ends when the last response arrives: the
//! tablets work in parallel, so a round costs its slowest RPC, not their sum.

use super::node::{followers, Node};

/// What a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    ReadRequest,
    ReadResponse,
    WriteRequest,
    WriteResponse,
    /// Leader to follower (Raft append) and the follower's acknowledgement.
    Replicate,
    ReplicateAck,
}

impl MessageKind {
    pub fn name(self) -> &'static str {
        match self {
            MessageKind::ReadRequest => "read",
            MessageKind::ReadResponse => "read response",
            MessageKind::WriteRequest => "write",
            MessageKind::WriteResponse => "write response",
            MessageKind::Replicate => "replicate",
            MessageKind::ReplicateAck => "replicate ack",
        }
    }
}

/// One message on the wire.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub kind: MessageKind,
    pub from: Node,
    pub to: Node,
    pub tablet: u32,
    pub ops: u32,
    pub rows: u64,
    pub bytes: u64,
    pub send_us: f64,
    pub arrive_us: f64,
}

/// One RPC of a round, as its sender knows it: where it goes, what it carries,
/// how long the server works on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub write: bool,
    /// The tablet server leading the tablet.
    pub leader: u32,
    pub tablet: u32,
    pub ops: u32,
    pub request_bytes: u64,
    pub rows: u64,
    pub response_bytes: u64,
    pub server_us: f64,
}

/// When a round ended, and what crossed the network.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RoundTiming {
    pub end_us: f64,
    pub messages: Vec<Message>,
    /// RPCs sent (one per tablet, plus one per follower a write replicates to).
    pub rpc_count: u64,
    /// Bytes of every message, both ways.
    pub rpc_bytes: u64,
}

/// The network: a round-trip time between any two nodes, the cluster's size
/// and replication factor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Network {
    pub rtt_us: f64,
    pub tservers: u32,
    pub replication_factor: u32,
}

/// Bytes of an RPC's envelope (header, tablet id, hybrid time, status).
pub const RPC_HEADER_BYTES: u64 = 64;

impl Network {
    /// Times `calls`, all sent at `start_us`.
    pub fn round<'a>(
        &self,
        start_us: f64,
        calls: impl IntoIterator<Item = &'a Call>,
    ) -> RoundTiming {
        let half = self.rtt_us / 2.0;
        let mut t = RoundTiming {
            end_us: start_us,
            ..RoundTiming::default()
        };
        for c in calls {
            let server = Node::TServer(c.leader);
            let (req, resp) = if c.write {
                (MessageKind::WriteRequest, MessageKind::WriteResponse)
            } else {
                (MessageKind::ReadRequest, MessageKind::ReadResponse)
            };
            let arrive = start_us + half;
            t.push(Message {
                kind: req,
                from: Node::Query,
                to: server,
                tablet: c.tablet,
                ops: c.ops,
                rows: 0,
                bytes: RPC_HEADER_BYTES + c.request_bytes,
                send_us: start_us,
                arrive_us: arrive,
            });
            let mut done = arrive + c.server_us;
            if c.write {
                done = self.replicate(c, arrive, done, &mut t);
            }
            t.push(Message {
                kind: resp,
                from: server,
                to: Node::Query,
                tablet: c.tablet,
                ops: c.ops,
                rows: c.rows,
                bytes: RPC_HEADER_BYTES + c.response_bytes,
                send_us: done,
                arrive_us: done + half,
            });
            t.rpc_count += 1;
            t.end_us = t.end_us.max(done + half);
        }
        t
    }

    /// Raft: the leader appends to its followers while it applies the write, and
    /// answers once a majority (itself included) has it. Returns when it answers.
    fn replicate(&self, c: &Call, arrive: f64, applied: f64, t: &mut RoundTiming) -> f64 {
        let half = self.rtt_us / 2.0;
        let mut acks = Vec::new();
        for f in followers(c.leader, self.replication_factor, self.tservers) {
            let to = Node::TServer(f);
            let at = arrive + half;
            t.push(Message {
                kind: MessageKind::Replicate,
                from: Node::TServer(c.leader),
                to,
                tablet: c.tablet,
                ops: c.ops,
                rows: 0,
                bytes: RPC_HEADER_BYTES + c.request_bytes,
                send_us: arrive,
                arrive_us: at,
            });
            let ack = at + c.server_us;
            t.push(Message {
                kind: MessageKind::ReplicateAck,
                from: to,
                to: Node::TServer(c.leader),
                tablet: c.tablet,
                ops: c.ops,
                rows: 0,
                bytes: RPC_HEADER_BYTES,
                send_us: ack,
                arrive_us: ack + half,
            });
            t.rpc_count += 1;
            acks.push(ack + half);
        }
        acks.sort_by(f64::total_cmp);
        // A majority of rf replicas: the leader and (rf / 2) followers.
        let needed = acks.len().div_ceil(2);
        match needed.checked_sub(1).and_then(|i| acks.get(i)) {
            Some(&majority) => applied.max(majority),
            None => applied,
        }
    }
}

impl RoundTiming {
    fn push(&mut self, m: Message) {
        self.rpc_bytes += m.bytes;
        self.messages.push(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(leader: u32, server_us: f64) -> Call {
        Call {
            write: false,
            leader,
            tablet: leader,
            ops: 1,
            request_bytes: 10,
            rows: 1,
            response_bytes: 20,
            server_us,
        }
    }

    #[test]
    fn a_round_costs_its_slowest_rpc_plus_one_round_trip() {
        let net = Network {
            rtt_us: 800.0,
            tservers: 3,
            replication_factor: 1,
        };
        let t = net.round(1000.0, &[read(0, 100.0), read(1, 300.0)]);
        assert_eq!(t.end_us, 1000.0 + 800.0 + 300.0);
        assert_eq!(t.rpc_count, 2);
        assert_eq!(t.messages.len(), 4);
        assert_eq!(t.rpc_bytes, 2 * (64 + 10) + 2 * (64 + 20));
        assert!(t.messages.iter().all(|m| m.arrive_us - m.send_us == 400.0));
    }

    #[test]
    fn an_empty_round_takes_no_time() {
        let net = Network {
            rtt_us: 90_000.0,
            tservers: 3,
            replication_factor: 1,
        };
        assert_eq!(net.round(5.0, &[]).end_us, 5.0);
    }

    #[test]
    fn rf3_writes_wait_for_one_follower() {
        let net = Network {
            rtt_us: 1000.0,
            tservers: 3,
            replication_factor: 3,
        };
        let mut w = read(0, 10.0);
        w.write = true;
        let t = net.round(0.0, &[w]);
        // Request, append to the followers, their apply (10), their ack, then
        // the response: four one-way trips of half the round trip.
        let one_way = net.rtt_us / 2.0;
        assert_eq!(t.end_us, one_way + one_way + 10.0 + one_way + one_way);
        assert_eq!(t.rpc_count, 3);
        let to: Vec<Node> = t
            .messages
            .iter()
            .filter(|m| m.kind == MessageKind::Replicate)
            .map(|m| m.to)
            .collect();
        assert_eq!(to, vec![Node::TServer(1), Node::TServer(2)]);
    }
}
