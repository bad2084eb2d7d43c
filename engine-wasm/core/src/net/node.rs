//! The nodes of the simulated cluster.

use std::fmt;

/// A node: the query layer the client talks to, or a tablet server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    /// The YSQL node running the plan (PostgreSQL's executor and PgGate).
    Query,
    /// Tablet server number `n` (0-based; shown 1-based, as `yb-tserver-1`).
    TServer(u32),
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Query => f.write_str("ysql"),
            Node::TServer(n) => write!(f, "tserver-{}", n + 1),
        }
    }
}

/// The followers of a tablet led by `leader`: the next `rf - 1` servers, as
/// the load balancer spreads replicas evenly.
pub fn followers(leader: u32, rf: u32, servers: u32) -> impl Iterator<Item = u32> {
    let servers = servers.max(1);
    (1..rf.min(servers)).map(move |i| (leader + i) % servers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_one_based() {
        assert_eq!(Node::Query.to_string(), "ysql");
        assert_eq!(Node::TServer(0).to_string(), "tserver-1");
    }

    #[test]
    fn followers_are_the_other_servers() {
        assert_eq!(followers(2, 3, 3).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(followers(0, 1, 3).count(), 0);
        // Never more replicas than servers, never the leader twice.
        assert_eq!(followers(0, 3, 1).count(), 0);
    }
}
