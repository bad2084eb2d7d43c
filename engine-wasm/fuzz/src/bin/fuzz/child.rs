//! The campaign's own process: runs inputs and tells the supervisor about each
//! one on stdout, one marker line before it runs and one after.
//!
//! Markers: `@input I` (about to run input I), `@done I VERDICT BYTES MICROS`,
//! and `@stopped NEXT` when a hang ended the campaign early. Any other line
//! is for the user and is passed on as is.

use indexlab_fuzz::campaign::{self, Config, Observer, Saved, Verdict};
use indexlab_fuzz::runner::{run_input, Clean};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

struct Markers;

impl Observer for Markers {
    fn before(&mut self, index: u64) {
        println!("@input {index}");
    }

    fn after(&mut self, index: u64, verdict: Verdict, bytes: usize, took: Duration) {
        println!(
            "@done {index} {} {bytes} {}",
            verdict.name(),
            took.as_micros()
        );
    }

    fn saved(&mut self, s: &Saved) {
        print_saved(
            s.index,
            &s.finding.to_string(),
            &s.minimized,
            s.path.as_deref(),
        );
    }
}

/// Prints a finding the way both processes report one.
pub fn print_saved(index: u64, finding: &str, minimized: &[u8], path: Option<&Path>) {
    println!("FINDING at input {index}: {finding}");
    let shown: String = String::from_utf8_lossy(minimized)
        .chars()
        .take(300)
        .collect();
    println!("  minimized to {} bytes: {shown:?}", minimized.len());
    match path {
        Some(p) => println!("  saved as {}", p.display()),
        None => println!("  (could not be saved)"),
    }
}

pub fn run(config: &Config) -> ExitCode {
    let outcome = campaign::run(config, &mut Markers);
    if let Some(next) = outcome.stopped_before {
        println!("@stopped {next}");
    }
    if outcome.stats.findings() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs one input file and prints what happened: exit 0 when nothing is
/// wrong, 1 for a finding (a crash kills the process instead).
pub fn replay(file: &Path, budget: Duration) -> ExitCode {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("fuzz: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    match run_input(&bytes, budget) {
        Ok(clean) => {
            let how = match clean {
                Clean::Ran => "both profiles ran it",
                Clean::Refused => "refused with a positioned error",
            };
            println!("{}: no finding ({how})", file.display());
            ExitCode::SUCCESS
        }
        Err(finding) => {
            println!("{}: {finding}", file.display());
            ExitCode::from(1)
        }
    }
}
