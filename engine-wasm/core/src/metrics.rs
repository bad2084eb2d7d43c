//! Named counters, using the real databases' names where they exist
//! (`shared_hit`, `rocksdb_number_db_seek`, …; see DESIGN §2 "Metrics").
//!
//! A [`Metrics`] is an ordered map so reports print and serialize in a stable order:
//! the same scenario gives byte-identical output.

use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metrics {
    values: BTreeMap<&'static str, f64>,
}

impl Metrics {
    pub fn add(&mut self, name: &'static str, amount: f64) {
        if amount != 0.0 {
            *self.values.entry(name).or_insert(0.0) += amount;
        }
    }

    pub fn incr(&mut self, name: &'static str) {
        self.add(name, 1.0);
    }

    pub fn set(&mut self, name: &'static str, value: f64) {
        self.values.insert(name, value);
    }

    pub fn get(&self, name: &str) -> f64 {
        self.values.get(name).copied().unwrap_or(0.0)
    }

    /// Adds every counter of `other` into `self`.
    pub fn merge(&mut self, other: &Metrics) {
        for (k, v) in &other.values {
            self.add(k, *v);
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.values.iter().map(|(k, v)| (*k, *v))
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Counters per relation (table or index name), for the per-relation view.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RelationMetrics {
    pub by_relation: BTreeMap<String, Metrics>,
    /// On yb, the same counters per tablet replica (article 004's table: every
    /// replica counts the inserts, only the leader the seeks).
    pub replicas: Vec<ReplicaMetrics>,
}

/// One tablet replica's counters.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaMetrics {
    pub relation: String,
    pub tablet: u32,
    /// The tablet server holding it (0-based; `tserver-1` is 0).
    pub tserver: u32,
    pub leader: bool,
    pub metrics: Metrics,
}

impl RelationMetrics {
    pub fn add(&mut self, relation: &str, name: &'static str, amount: f64) {
        if amount == 0.0 {
            return;
        }
        if let Some(m) = self.by_relation.get_mut(relation) {
            m.add(name, amount);
        } else {
            let mut m = Metrics::default();
            m.add(name, amount);
            self.by_relation.insert(relation.to_string(), m);
        }
    }

    pub fn merge(&mut self, other: &RelationMetrics) {
        for (rel, m) in &other.by_relation {
            self.by_relation.entry(rel.clone()).or_default().merge(m);
        }
        for r in &other.replicas {
            let same = |x: &&mut ReplicaMetrics| x.tablet == r.tablet && x.tserver == r.tserver;
            match self.replicas.iter_mut().find(same) {
                Some(x) => x.metrics.merge(&r.metrics),
                None => self.replicas.push(r.clone()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_add_merge_and_stay_ordered() {
        let mut a = Metrics::default();
        a.incr("shared_read");
        a.add("shared_hit", 3.0);
        a.add("zero", 0.0);
        let mut b = Metrics::default();
        b.add("shared_hit", 2.0);
        a.merge(&b);
        let names: Vec<_> = a.iter().map(|(k, _)| k).collect();
        assert_eq!(names, ["shared_hit", "shared_read"]);
        assert_eq!(a.get("shared_hit"), 5.0);
        assert_eq!(a.get("missing"), 0.0);
    }

    #[test]
    fn relation_metrics_are_kept_apart() {
        let mut r = RelationMetrics::default();
        r.add("demo", "shared_hit", 1.0);
        r.add("demo_pkey", "shared_hit", 2.0);
        r.add("demo", "shared_hit", 1.0);
        assert_eq!(r.by_relation["demo"].get("shared_hit"), 2.0);
        assert_eq!(r.by_relation["demo_pkey"].get("shared_hit"), 2.0);
    }
}
