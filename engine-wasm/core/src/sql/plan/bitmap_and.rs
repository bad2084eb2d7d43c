//! Which indexes a Bitmap Heap Scan reads, as `choose_bitmap_and` picks
//! them. Each index with a condition can build a bitmap of the rows it
//! finds; two bitmaps ANDed mark only the rows both find, so a scan over
//! `a = 1 AND b = 2` with an index on each column may read both indexes
//! and then only the heap pages holding rows with both values.
//!
//! Reading a second index costs its own pages, so it is worth it only when
//! the heap pages it saves cost more. PostgreSQL does not try every subset:
//! it sorts the indexes by what reading each costs, then lets each one in
//! turn lead a group, adding each later index that makes the whole scan
//! cheaper, and keeps the cheapest group (a group of one is a plain Bitmap
//! Heap Scan).

use super::cost::bitmap_scan::{and_tree, Tree};
use super::cost::CostParams;
use crate::sql::ast::Expr;

/// One index that can build a bitmap.
pub struct Arm<'a> {
    /// The conditions it uses (`Index Cond`).
    pub used: &'a [Expr],
    /// A partial index's predicate.
    pub predicate: &'a [Expr],
    /// Its Bitmap Index Scan's cost and selectivity.
    pub tree: Tree,
}

/// The arms of the cheapest group, in the order the BitmapAnd reads them,
/// with the group's tree; `heap_cost` is a Bitmap Heap Scan's total over a
/// tree. None without arms.
pub fn choose(
    arms: &[Arm],
    heap_cost: impl Fn(&Tree) -> f64,
    p: &CostParams,
) -> Option<(Vec<usize>, Tree)> {
    let order = sorted(&distinct_clause_sets(arms), arms);
    let mut best: Option<(Vec<usize>, Tree, f64)> = None;
    for (lead, &i) in order.iter().enumerate() {
        let mut group = vec![i];
        let mut tree = arms[i].tree;
        let mut cost = heap_cost(&tree);
        let mut quals: Vec<&Expr> = arms[i].used.iter().chain(arms[i].predicate).collect();
        for &j in &order[lead + 1..] {
            let arm = &arms[j];
            // An index whose condition the group already applies adds
            // nothing (`bms_overlap` of the clauses; a predicate implied).
            let redundant = arm.used.iter().any(|u| quals.contains(&u))
                || arm.predicate.iter().any(|pr| quals.contains(&pr));
            if redundant {
                continue;
            }
            let trees: Vec<Tree> = group.iter().chain([&j]).map(|&k| arms[k].tree).collect();
            let with = and_tree(&trees, p);
            let new_cost = heap_cost(&with);
            if new_cost < cost {
                group.push(j);
                (tree, cost) = (with, new_cost);
                quals.extend(arm.used.iter().chain(arm.predicate));
            }
        }
        if best.as_ref().is_none_or(|(_, _, c)| cost < *c) {
            best = Some((group, tree, cost));
        }
    }
    best.map(|(group, tree, _)| (group, tree))
}

/// The arms left when two use the very same conditions: the cheaper to
/// read (the first of equals).
fn distinct_clause_sets(arms: &[Arm]) -> Vec<usize> {
    // The conditions and predicate clauses each uses, as sets.
    let same = |a: &Arm, b: &Arm| {
        let (x, y) = (clauses(a), clauses(b));
        x.iter().all(|c| y.contains(c)) && y.iter().all(|c| x.contains(c))
    };
    let mut kept: Vec<usize> = Vec::new();
    for (i, arm) in arms.iter().enumerate() {
        match kept.iter_mut().find(|k| same(&arms[**k], arm)) {
            Some(k) if arm.tree.cost < arms[*k].tree.cost => *k = i,
            Some(_) => {}
            None => kept.push(i),
        }
    }
    kept
}

fn clauses<'a>(a: &Arm<'a>) -> Vec<&'a Expr> {
    a.used.iter().chain(a.predicate).collect()
}

/// `kept` by each arm's own cost, then selectivity (`path_usage_comparator`;
/// a stable sort, as PostgreSQL's for so few).
fn sorted(kept: &[usize], arms: &[Arm]) -> Vec<usize> {
    let mut order = kept.to_vec();
    order.sort_by(|&a, &b| {
        let (x, y) = (&arms[a].tree, &arms[b].tree);
        x.cost
            .total_cmp(&y.cost)
            .then(x.selectivity.total_cmp(&y.selectivity))
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> CostParams {
        crate::sql::plan::cost::CostParams::default()
    }

    fn arm(used: &[Expr], cost: f64, selectivity: f64) -> Arm<'_> {
        Arm {
            used,
            predicate: &[],
            tree: Tree { cost, selectivity },
        }
    }

    #[test]
    fn a_second_index_joins_when_the_heap_it_saves_costs_more() {
        let (a, b) = ([Expr::Param(1)], [Expr::Param(2)]);
        let arms = [arm(&a, 5.0, 0.01), arm(&b, 5.0, 0.01)];
        // Heap cost falls with the selectivity: ANDing pays.
        let (group, tree) =
            choose(&arms, |t| t.cost + 10_000.0 * t.selectivity, &params()).unwrap();
        assert_eq!(group, [0, 1]);
        assert!((tree.selectivity - 0.0001).abs() < 1e-12);
        // A heap that costs little either way: the second index does not pay.
        let (group, _) = choose(&arms, |t| t.cost + 10.0 * t.selectivity, &params()).unwrap();
        assert_eq!(group, [0]);
    }

    #[test]
    fn the_cheaper_index_leads_and_one_on_the_same_conditions_is_dropped() {
        let (a, b) = ([Expr::Param(1)], [Expr::Param(2)]);
        let arms = [arm(&a, 9.0, 0.01), arm(&b, 5.0, 0.01), arm(&a, 4.0, 0.01)];
        let (group, _) = choose(&arms, |t| t.cost + 10_000.0 * t.selectivity, &params()).unwrap();
        assert_eq!(group, [2, 1]);
    }
}
