//! Shrinking a script that diverges to a short one that still does.
//!
//! Delta debugging over statements (remove halves, then quarters, … then
//! single statements, keeping each removal after which the same kind of
//! divergence remains), then over the rows of each multi-row INSERT.

use crate::compare::{first_divergence_on, Divergence, Kind};
use crate::indexlab::{self, Profile};
use crate::postgres::Session;
use crate::script::{Item, Script};

/// Runs both sides and returns the first divergence.
pub fn check(
    pg: &mut Session,
    script: &Script,
    profile: Profile,
) -> Result<Option<Divergence>, String> {
    let expected = pg.run(script)?;
    let got = indexlab::run(script, profile);
    Ok(first_divergence_on(script, profile, &expected, &got))
}

/// The smallest script found that still shows a divergence of `kind`, cut
/// after the statement that diverges.
pub fn minimize(
    pg: &mut Session,
    script: &Script,
    profile: Profile,
    kind: Kind,
) -> Result<(Script, Divergence), String> {
    let mut best = script.clone();
    let mut found = check(pg, &best, profile)?
        .filter(|d| d.kind == kind)
        .ok_or("the divergence did not reproduce")?;
    best.items.truncate(found.index + 1);
    let keeps = |candidate: &Script, pg: &mut Session| -> Result<Option<Divergence>, String> {
        Ok(check(pg, candidate, profile)?.filter(|d| d.kind == kind))
    };
    let mut chunk = best.items.len().div_ceil(2);
    while chunk >= 1 {
        let mut start = 0;
        while start < best.items.len() {
            let mut candidate = best.clone();
            let end = (start + chunk).min(candidate.items.len());
            candidate.items.drain(start..end);
            match keeps(&candidate, pg)? {
                Some(d) if !candidate.items.is_empty() => {
                    candidate.items.truncate(d.index + 1);
                    best = candidate;
                    found = d;
                }
                _ => start += chunk,
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    for i in 0..best.items.len() {
        while let Some(smaller) = drop_a_row(&best.items[i]).into_iter().find_map(|item| {
            let mut candidate = best.clone();
            candidate.items[i] = item;
            keeps(&candidate, pg).ok().flatten().map(|d| (candidate, d))
        }) {
            (best, found) = smaller;
        }
    }
    Ok((best, found))
}

/// The INSERT … VALUES item with one of its rows removed, each way.
fn drop_a_row(item: &Item) -> Vec<Item> {
    let Some(at) = item.indexlab.find(" values (") else {
        return Vec::new();
    };
    let (head, tuples) = item.indexlab.split_at(at + " values ".len());
    let rows: Vec<&str> = tuples.split("), (").collect();
    if rows.len() < 2 {
        return Vec::new();
    }
    (0..rows.len())
        .map(|skip| {
            let kept: Vec<String> = rows
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, r)| r.trim_start_matches('(').trim_end_matches(')').to_string())
                .collect();
            let sql = format!("{head}({})", kept.join("), ("));
            Item::same(sql, item.check)
        })
        .collect()
}
