//! "Why this plan", in one sentence per choice: what the planner picked,
//! the fact about the data that made it cheapest, and the estimated cost of
//! what it beat. Every number comes from the same estimates the choice read
//! (rows, pages, costs in units of one sequential page read), so the
//! sentence cannot disagree with the plan.

/// One way the planner costed, by name ("a Seq Scan", "an Index Scan using
/// t_a") and its estimated total.
#[derive(Debug, Clone, PartialEq)]
pub struct Considered {
    pub name: String,
    pub cost: f64,
}

/// `(cost 12.50; a Seq Scan: 188.00, …)`: the choice's cost and the
/// cheapest few it beat, each named once.
pub fn costs(chosen: f64, others: &[Considered]) -> String {
    let mut sorted: Vec<&Considered> = others.iter().collect();
    sorted.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    let mut named: Vec<String> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for c in sorted {
        if seen.contains(&c.name.as_str()) || named.len() == 3 {
            continue;
        }
        seen.push(&c.name);
        named.push(format!("{}: {:.2}", c.name, c.cost));
    }
    if named.is_empty() {
        return format!("(estimated cost {chosen:.2}; nothing else could run it)");
    }
    format!("(estimated cost {chosen:.2}; {})", named.join(", "))
}

/// What a single-table scan choice read.
pub struct ScanFacts<'a> {
    pub table: &'a str,
    pub rows: f64,
    pub tuples: f64,
    pub pages: f64,
    pub all_visible: f64,
    /// The query has an ORDER BY the scan's order gives, and its LIMIT.
    pub in_order: bool,
    pub limit: Option<f64>,
    /// A Sort above it puts the rows in ORDER BY order.
    pub sorted_after: bool,
    /// Whether any index could have been used instead.
    pub any_index: bool,
}

/// Why a scan kind won, in words a student can check against the numbers.
pub fn scan(kind: ScanKind, index: &str, f: &ScanFacts, cost: String) -> String {
    let share = if f.tuples > 0.0 {
        format!("about {} of {} rows", whole(f.rows), whole(f.tuples))
    } else {
        format!("about {} rows", whole(f.rows))
    };
    let pages = match whole(f.pages).as_str() {
        "1" => "1 page".to_string(),
        n => format!("{n} pages"),
    };
    let reason = match kind {
        ScanKind::Seq if !f.any_index => format!(
            "{share} are wanted and no index can find them, so all {pages} of {} are read",
            f.table
        ),
        ScanKind::Seq => format!(
            "{share} are wanted, and reading all {pages} of {} in order costs less than \
             finding them through an index",
            f.table
        ),
        ScanKind::ParallelSeq(workers) => format!(
            "{share} are wanted from all {pages} of {}: the leader and {workers} worker{} \
             each take pages in turn and check their rows, which costs less than one process \
             checking them all, even with the workers' start (parallel_setup_cost) and each \
             row handed to the Gather (parallel_tuple_cost)",
            f.table,
            if workers == 1 { "" } else { "s" }
        ),
        ScanKind::ParallelIndex(workers) => format!(
            "{share} match, too many for one process to fetch cheaply: the leader and \
             {workers} worker{} take {index}'s leaf pages in turn and share the rows' work, \
             even with the workers' start and each row handed to the Gather",
            if workers == 1 { "" } else { "s" }
        ),
        ScanKind::Index | ScanKind::IndexOnly if f.in_order => {
            let stop = f.limit.map_or(String::new(), |l| {
                format!(", and the LIMIT stops it after {} rows", whole(l))
            });
            format!(
                "{index} hands the rows over already in ORDER BY order, so no Sort is needed{stop}"
            )
        }
        ScanKind::Index => format!(
            "{share} match: a few pages of {index} and about one heap page per row cost less \
             than reading all {pages}"
        ),
        ScanKind::IndexOnly => format!(
            "{index} holds every column the query needs and {}% of the table's pages are \
             all-visible, so {share} come from the index, the heap rarely read",
            (f.all_visible * 100.0).round()
        ),
        ScanKind::Bitmap => format!(
            "{share} match: too many for a heap visit each, too few to read all {pages}; the \
             bitmap from {index} reads each page holding one once, in page order"
        ),
        ScanKind::BitmapOr => format!(
            "{share} match one arm of the OR or another, and no one index finds them all; \
             each arm's rows are marked from {index}, the bitmaps are ORed, and each page \
             holding a marked row is read once, in page order, instead of all {pages}"
        ),
        ScanKind::BitmapAnd => format!(
            "{share} match every condition, though each index alone finds many more; the \
             bitmaps from {index} are ANDed, so only the pages holding rows all of them \
             mark are read, once each, in page order"
        ),
    };
    let sort = if f.sorted_after {
        "; a Sort then puts them in the order wanted"
    } else {
        ""
    };
    format!("{}: {reason}{sort} {cost}.", kind.title())
}

/// The kinds of table scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanKind {
    Seq,
    /// A Parallel Seq Scan by this many workers and the leader, under a Gather.
    ParallelSeq(u32),
    /// A Parallel Index (Only) Scan, the same way.
    ParallelIndex(u32),
    Index,
    IndexOnly,
    Bitmap,
    /// Several indexes' bitmaps ANDed (named "a and b").
    BitmapAnd,
    /// One bitmap per arm of an OR, ORed (its indexes named "a and b").
    BitmapOr,
}

impl ScanKind {
    fn title(self) -> &'static str {
        match self {
            ScanKind::Seq => "Seq Scan",
            ScanKind::ParallelSeq(_) => "Gather over a Parallel Seq Scan",
            ScanKind::ParallelIndex(_) => "Gather over a Parallel Index Scan",
            ScanKind::Index => "Index Scan",
            ScanKind::IndexOnly => "Index Only Scan",
            ScanKind::Bitmap | ScanKind::BitmapAnd | ScanKind::BitmapOr => "Bitmap Heap Scan",
        }
    }
}

/// The ways to join two tables, as the sentence names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinWay {
    Hash,
    NestLoop,
    Memoized,
    Merge,
}

impl JoinWay {
    pub fn name(self) -> &'static str {
        match self {
            JoinWay::Hash => "a Hash Join",
            JoinWay::Merge => "a Merge Join",
            JoinWay::NestLoop => "a Nested Loop of index lookups",
            JoinWay::Memoized => "a Nested Loop of index lookups under a Memoize",
        }
    }
}

/// Why a join method won: the sizes of the two sides decide it.
pub fn join(way: JoinWay, outer: &str, inner: &str, rows: (f64, f64), cost: String) -> String {
    let (o, i) = (whole(rows.0), whole(rows.1));
    match way {
        JoinWay::Hash => format!(
            "Hash Join: the about {i} rows of {inner} are hashed once and each of the about {o} \
             rows of {outer} probes the table, cheaper than an index lookup per row {cost}."
        ),
        JoinWay::NestLoop => format!(
            "Nested Loop: only about {o} rows of {outer}, each looked up in an index of {inner}, \
             cheaper than reading and hashing about {i} rows of {inner} {cost}."
        ),
        JoinWay::Merge => format!(
            "Merge Join: {outer} and {inner} are read in key order and paired in one pass {cost}."
        ),
        JoinWay::Memoized => format!(
            "Nested Loop with Memoize: the about {o} rows of {outer} repeat their keys, so the \
             Memoize answers a repeated key from memory instead of searching {inner}'s index \
             again {cost}."
        ),
    }
}

/// One side of a Merge Join, as the sentence tells it.
pub struct MergeSide<'a> {
    pub name: &'a str,
    /// The index that gives its rows in key order; None when sorted.
    pub index: Option<&'a str>,
    /// Its estimated rows, and those the merge reads before it stops.
    pub rows: f64,
    pub read: f64,
}

/// Why a Merge Join won: how each side comes in key order, and how much of
/// them one pass reads.
pub fn merge_join(outer: &MergeSide, inner: &MergeSide, cost: String) -> String {
    let order = |s: &MergeSide| match s.index {
        Some(index) => format!("{} comes in key order from {index}", s.name),
        None => format!("the about {} rows of {} are sorted", whole(s.rows), s.name),
    };
    let early = [(outer, inner), (inner, outer)]
        .into_iter()
        .find(|(s, _)| s.read < s.rows)
        .map(|(s, other)| {
            format!(
                " and stops once {}'s keys run out (no later row of {} can match), so only \
                 about {} of {}'s {} rows are read",
                other.name,
                s.name,
                whole(s.read),
                s.name,
                whole(s.rows)
            )
        })
        .unwrap_or_default();
    format!(
        "Merge Join: {} and {}; one pass pairs equal keys{early}, cheaper than hashing or \
         looking each row up {cost}.",
        order(outer),
        order(inner)
    )
}

/// How a grouping was done, as the sentence explains it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupWay {
    Hashed,
    /// Sorted by a Sort below; `ordered_aggregates` when a DISTINCT or
    /// ORDER BY aggregate left no other way.
    Sorted {
        ordered_aggregates: bool,
    },
    /// Read in group order from an index.
    InOrder,
    /// The WHERE fixes every group key: any read is in group order.
    Fixed,
}

/// Why a grouping strategy won.
pub fn grouping(
    title: &str,
    way: GroupWay,
    rows: f64,
    groups: f64,
    limit: Option<f64>,
    cost: String,
) -> String {
    let (r, g) = (whole(rows), whole(groups));
    let reason = match way {
        GroupWay::Hashed => format!(
            "about {r} rows fold into about {g} groups kept in a hash table, in whatever order \
             they come; sorting them into group order first would cost more"
        ),
        GroupWay::Sorted {
            ordered_aggregates: true,
        } => "an aggregate with DISTINCT or ORDER BY needs each group's values in order, which a \
         hash table cannot give, so the rows are sorted by the group key first"
            .to_string(),
        GroupWay::Sorted { .. } => format!(
            "the about {r} rows are sorted into group order and each group is finished when the \
             key changes, cheaper here than a hash table of about {g} groups"
        ),
        GroupWay::Fixed => "the WHERE fixes the group key, so the rows that pass are all \
             of one group and already in order: no hash table and no Sort"
            .to_string(),
        GroupWay::InOrder => {
            let stop = limit.map_or(String::new(), |l| {
                format!(", and the LIMIT stops the scan after {} groups", whole(l))
            });
            format!(
                "the rows arrive in group order from an index, so each group is finished when \
                 the key changes, with no hash table and no Sort{stop}"
            )
        }
    };
    format!("{title}: {reason} {cost}.")
}

/// A whole number of rows or pages, as a reader counts them.
pub fn whole(x: f64) -> String {
    format!("{}", x.round() as i64)
}

/// Said when a plan won though another's estimate was lower: PostgreSQL's
/// `add_path` counts totals within 1 % as equal and keeps the plan that
/// starts sooner.
pub const SOONER: &str =
    " PostgreSQL counts totals within 1 % of each other as equal, and then keeps \
     the plan that returns its first row sooner.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_names_the_choice_and_what_it_beat() {
        let f = ScanFacts {
            table: "t",
            rows: 1000.0,
            tuples: 10_000.0,
            pages: 63.0,
            all_visible: 1.0,
            in_order: false,
            limit: None,
            sorted_after: false,
            any_index: true,
        };
        let others = [
            Considered {
                name: "a Seq Scan".into(),
                cost: 188.0,
            },
            Considered {
                name: "an Index Scan using t_a".into(),
                cost: 250.5,
            },
        ];
        let s = scan(ScanKind::Bitmap, "t_a", &f, costs(97.5, &others));
        assert_eq!(
            s,
            "Bitmap Heap Scan: about 1000 of 10000 rows match: too many for a heap visit each, \
             too few to read all 63 pages; the bitmap from t_a reads each page holding one \
             once, in page order (estimated cost 97.50; a Seq Scan: 188.00, an Index Scan \
             using t_a: 250.50)."
        );
    }

    #[test]
    fn only_the_cheapest_three_others_are_named_once_each() {
        let others: Vec<Considered> = [5.0, 1.0, 4.0, 3.0, 1.0]
            .iter()
            .enumerate()
            .map(|(i, c)| Considered {
                name: if *c == 1.0 {
                    "x".into()
                } else {
                    format!("p{i}")
                },
                cost: *c,
            })
            .collect();
        assert_eq!(
            costs(0.5, &others),
            "(estimated cost 0.50; x: 1.00, p3: 3.00, p2: 4.00)"
        );
        assert!(costs(1.0, &[]).contains("nothing else"));
    }
}
