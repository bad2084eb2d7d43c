//! How the query layer cuts operations into rounds.
//!
//! PgGate buffers operations in the order the executor produces them (one per
//! value of an `= ANY (ARRAY[…])` on a hash-sharded key, per row written, …).
//! When `ysql_request_limit` operations are buffered, or the executor needs the
//! answers, it flushes: the buffered operations go out grouped per tablet, one
//! RPC each, all in parallel. A flush is one read (or write) request as
//! YugabyteDB counts them: 2000 keys with the default limit of 1024 make two
//! requests (article 001), whatever the number of tablets.

/// One flush: the operations sent together, grouped per tablet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// (tablet, indices of its operations in the input), tablets in order of
    /// their first operation.
    pub per_tablet: Vec<(usize, Vec<usize>)>,
}

impl Round {
    pub fn ops(&self) -> usize {
        self.per_tablet.iter().map(|(_, ops)| ops.len()).sum()
    }
}

/// The rounds that send operations whose tablets are `op_tablets`, in order, at
/// most `request_limit` operations a round (a limit of 0 counts as 1).
pub fn rounds(op_tablets: &[usize], request_limit: usize) -> Vec<Round> {
    op_tablets
        .chunks(request_limit.max(1))
        .enumerate()
        .map(|(chunk, tablets)| {
            let base = chunk * request_limit.max(1);
            let mut per_tablet: Vec<(usize, Vec<usize>)> = Vec::new();
            for (i, &t) in tablets.iter().enumerate() {
                match per_tablet.iter_mut().find(|(id, _)| *id == t) {
                    Some((_, ops)) => ops.push(base + i),
                    None => per_tablet.push((t, vec![base + i])),
                }
            }
            Round { per_tablet }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn article_001_two_thousand_keys_make_two_requests() {
        let tablets: Vec<usize> = (0..2000).map(|i| i % 10).collect();
        let r = rounds(&tablets, 1024);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].ops(), 1024);
        assert_eq!(r[1].ops(), 976);
        assert_eq!(r[0].per_tablet.len(), 10);
        assert_eq!(rounds(&tablets, 2000).len(), 1);
        assert_eq!(rounds(&tablets, 100).len(), 20);
    }

    #[test]
    fn nothing_to_send_is_no_round() {
        assert!(rounds(&[], 10).is_empty());
        assert_eq!(rounds(&[3, 3], 0).len(), 2);
    }

    proptest! {
        /// Every operation is sent exactly once, in a round of at most the
        /// limit, to its own tablet; rounds keep the input order.
        #[test]
        fn every_op_once_within_the_limit(
            tablets in proptest::collection::vec(0usize..8, 0..300),
            limit in 1usize..50,
        ) {
            let r = rounds(&tablets, limit);
            prop_assert_eq!(r.len(), tablets.len().div_ceil(limit));
            let mut seen = Vec::new();
            for round in &r {
                prop_assert!(round.ops() <= limit);
                let mut ids: Vec<usize> = round.per_tablet.iter().map(|(t, _)| *t).collect();
                ids.dedup();
                prop_assert_eq!(ids.len(), round.per_tablet.len());
                let mut in_round = Vec::new();
                for (t, ops) in &round.per_tablet {
                    for &op in ops {
                        prop_assert_eq!(tablets[op], *t);
                        in_round.push(op);
                    }
                }
                in_round.sort_unstable();
                seen.extend(in_round);
            }
            prop_assert_eq!(seen, (0..tablets.len()).collect::<Vec<_>>());
        }
    }
}
