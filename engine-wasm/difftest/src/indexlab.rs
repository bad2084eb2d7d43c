//! Running a script on IndexLab's profiles.

use crate::outcome::{from_indexlab, Outcome};
use crate::script::Script;
use indexlab_engine::scenario::{run_pg, run_yb, Report};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// IndexLab's two profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Profile {
    Pg,
    Yb,
}

impl Profile {
    pub const BOTH: [Profile; 2] = [Profile::Pg, Profile::Yb];

    pub fn name(self) -> &'static str {
        match self {
            Profile::Pg => "pg",
            Profile::Yb => "yb",
        }
    }

    pub fn parse(s: &str) -> Option<Vec<Profile>> {
        match s {
            "pg" => Some(vec![Profile::Pg]),
            "yb" => Some(vec![Profile::Yb]),
            "both" => Some(Profile::BOTH.to_vec()),
            _ => None,
        }
    }
}

/// Runs `script` on `profile`: one outcome per statement up to and including
/// the first error (the script stops there, as it does in the page).
pub fn run(script: &Script, profile: Profile) -> Vec<Outcome> {
    run_text(&script.indexlab_text(), profile)
}

/// Runs script text on `profile`; a panic becomes the last outcome.
pub fn run_text(text: &str, profile: Profile) -> Vec<Outcome> {
    let result = catch_unwind(AssertUnwindSafe(|| match profile {
        Profile::Pg => run_pg(text, &[]).0,
        Profile::Yb => run_yb(text, &[]).0,
    }));
    match result {
        Ok(report) => outcomes(&report),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".into());
            vec![Outcome::Panic(message)]
        }
    }
}

fn outcomes(report: &Report) -> Vec<Outcome> {
    let mut out: Vec<Outcome> = report
        .statements
        .iter()
        .map(|s| from_indexlab(&s.outcome))
        .collect();
    if let Some(e) = &report.error {
        out.push(Outcome::Error(e.message.clone()));
    }
    out
}
