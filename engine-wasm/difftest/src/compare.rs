//! Comparing IndexLab's outcomes with PostgreSQL's, statement by statement.

use crate::indexlab::Profile;
use crate::outcome::{Outcome, ROWS_KEPT};
use crate::script::{Check, Script};

/// How IndexLab differed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Different rows, or a different number of rows touched.
    WrongResult,
    /// IndexLab failed where PostgreSQL succeeded.
    SpuriousError,
    /// IndexLab succeeded where PostgreSQL fails.
    MissingError,
    /// IndexLab panicked.
    Panic,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::WrongResult,
        Kind::SpuriousError,
        Kind::MissingError,
        Kind::Panic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::WrongResult => "wrong result",
            Kind::SpuriousError => "spurious error",
            Kind::MissingError => "missing error",
            Kind::Panic => "panic",
        }
    }
}

/// The first statement where IndexLab and PostgreSQL differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The statement's place in the script.
    pub index: usize,
    pub kind: Kind,
    pub postgres: Outcome,
    pub indexlab: Outcome,
}

/// The first divergence of the pg profile, if any (see [`first_divergence_on`]).
pub fn first_divergence(
    script: &Script,
    postgres: &[Outcome],
    indexlab: &[Outcome],
) -> Option<Divergence> {
    first_divergence_on(script, Profile::Pg, postgres, indexlab)
}

/// The first divergence of `profile`'s run, if any. Both runs stop at their
/// first error.
pub fn first_divergence_on(
    script: &Script,
    profile: Profile,
    postgres: &[Outcome],
    indexlab: &[Outcome],
) -> Option<Divergence> {
    if let Some(Outcome::Panic(_)) = indexlab.last() {
        let index = indexlab.len() - 1;
        return Some(Divergence {
            index,
            kind: Kind::Panic,
            postgres: postgres.get(index).cloned().unwrap_or(Outcome::Done),
            indexlab: indexlab[index].clone(),
        });
    }
    for (index, (pg, il)) in postgres.iter().zip(indexlab).enumerate() {
        if script.items[index].postgres.is_none() {
            // A backslash command PostgreSQL has no counterpart for: nothing to
            // compare (an error there ends IndexLab's run, and the comparison).
            if il.is_error() {
                return None;
            }
            continue;
        }
        if script.items[index].check == Check::PgCatalog {
            let refused =
                matches!(il, Outcome::Error(m) if m.contains("not supported by IndexLab"));
            if refused {
                return None;
            }
            if profile == Profile::Yb && !pg.is_error() && !il.is_error() {
                continue;
            }
        }
        let kind = match (pg.is_error(), il.is_error()) {
            (true, true) => return None,
            (true, false) => Some(Kind::MissingError),
            // What YugabyteDB's profile refuses by name (a storage query of
            // PostgreSQL's, a DROP COLUMN) ends its run there.
            (false, true)
                if profile == Profile::Yb
                    && matches!(il, Outcome::Error(m) if m.contains("on YugabyteDB (") && m.contains("not supported by IndexLab")) =>
            {
                return None
            }
            (false, true) => Some(Kind::SpuriousError),
            (false, false) => {
                (!agree(script.items[index].check, pg, il)).then_some(Kind::WrongResult)
            }
        };
        if let Some(kind) = kind {
            return Some(Divergence {
                index,
                kind,
                postgres: pg.clone(),
                indexlab: il.clone(),
            });
        }
    }
    None
}

/// Whether two successful outcomes agree under `check`.
pub fn agree(check: Check, pg: &Outcome, il: &Outcome) -> bool {
    match (pg, il) {
        (Outcome::Rows { rows: a, count: n }, Outcome::Rows { rows: b, count: m }) => {
            n == m
                && match check {
                    Check::CountOnly | Check::Statement => true,
                    Check::Ordered => a == b,
                    // Beyond the rows kept, the multisets can't be compared.
                    Check::Unordered if *n as usize > ROWS_KEPT => true,
                    Check::Unordered | Check::PgStorage | Check::PgCatalog => {
                        sorted(a) == sorted(b)
                    }
                }
        }
        (Outcome::Rows { .. }, _) | (_, Outcome::Rows { .. }) => false,
        (a, b) => a == b,
    }
}

fn sorted<T: Ord + Clone>(rows: &[T]) -> Vec<T> {
    let mut v = rows.to_vec();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Item;

    fn rows(r: &[&[&str]]) -> Outcome {
        Outcome::Rows {
            rows: r
                .iter()
                .map(|row| row.iter().map(|v| Some(v.to_string())).collect())
                .collect(),
            count: r.len() as u64,
        }
    }

    fn script(check: Check) -> Script {
        Script {
            items: vec![Item::same("select a from t", check)],
        }
    }

    #[test]
    fn unordered_rows_compare_as_a_multiset_and_ordered_ones_in_order() {
        let (a, b) = (rows(&[&["1"], &["2"]]), rows(&[&["2"], &["1"]]));
        assert_eq!(
            first_divergence(
                &script(Check::Unordered),
                std::slice::from_ref(&a),
                std::slice::from_ref(&b)
            ),
            None
        );
        let d = first_divergence(&script(Check::Ordered), &[a], &[b]).unwrap();
        assert_eq!(d.kind, Kind::WrongResult);
    }

    #[test]
    fn errors_on_one_side_only_are_divergences() {
        let s = script(Check::Unordered);
        let err = Outcome::Error("boom".into());
        let ok = rows(&[&["1"]]);
        let kind = |pg: &Outcome, il: &Outcome| {
            first_divergence(&s, std::slice::from_ref(pg), std::slice::from_ref(il)).map(|d| d.kind)
        };
        assert_eq!(kind(&ok, &err), Some(Kind::SpuriousError));
        assert_eq!(kind(&err, &ok), Some(Kind::MissingError));
        assert_eq!(kind(&err, &err), None);
    }

    #[test]
    fn count_only_ignores_which_rows() {
        let s = script(Check::CountOnly);
        assert_eq!(
            first_divergence(&s, &[rows(&[&["1"]])], &[rows(&[&["2"]])]),
            None
        );
        assert!(first_divergence(&s, &[rows(&[&["1"]])], &[rows(&[])]).is_some());
    }
}
