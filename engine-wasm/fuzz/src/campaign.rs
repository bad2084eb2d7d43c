//! A fuzzing campaign: inputs `from..from + n` of a seed, each run on both
//! profiles; every distinct finding minimized and saved.
//!
//! Input `i` of seed `s` depends on `(s, i)` alone (and the corpus), so any
//! input can be made again without running the ones before it: that is how a
//! crash that killed the process is traced back to its input.

use crate::corpus;
use crate::findings::{self, Record};
use crate::mutate::{Mutation, Mutator};
use crate::runner::{run_input, Clean, Finding};
use crate::shrink::{self, shrink};
use indexlab_engine::rng::Rng;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    pub seed: u64,
    /// The first input's index.
    pub from: u64,
    pub n: u64,
    /// Wall time one input may take before it counts as a hang.
    pub budget: Duration,
    pub findings_dir: PathBuf,
    pub shrink: shrink::Budget,
}

impl Config {
    pub fn new(seed: u64, n: u64) -> Config {
        Config {
            seed,
            from: 0,
            n,
            budget: Duration::from_secs(10),
            findings_dir: findings::default_dir(),
            shrink: shrink::Budget {
                attempts: 2000,
                hangs: 3,
            },
        }
    }
}

/// Counts over a campaign.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    pub inputs: u64,
    /// Inputs both profiles ran to the end.
    pub ran: u64,
    /// Inputs stopped by a positioned error.
    pub refused: u64,
    pub panics: u64,
    pub hangs: u64,
    pub unpositioned: u64,
    pub bytes: u64,
    /// The slowest input: its time and index.
    pub slowest: (Duration, u64),
}

impl Stats {
    pub fn findings(&self) -> u64 {
        self.panics + self.hangs + self.unpositioned
    }
}

/// A distinct finding, minimized and saved.
#[derive(Debug, Clone)]
pub struct Saved {
    pub index: u64,
    pub finding: Finding,
    pub mutations: Vec<Mutation>,
    pub path: Option<PathBuf>,
    pub minimized: Vec<u8>,
}

/// How a campaign ended.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub stats: Stats,
    pub saved: Vec<Saved>,
    /// Set when a hang stopped the campaign early (its worker still runs):
    /// the index of the input after it.
    pub stopped_before: Option<u64>,
    pub elapsed: Duration,
}

/// Input `index` of `seed`: the first inputs are the seeds themselves, then
/// each is a seed picked at random with one to three mutations.
pub fn input(corpus: &[Vec<u8>], seed: u64, index: u64) -> (Vec<u8>, Vec<Mutation>) {
    if let Some(s) = usize::try_from(index).ok().and_then(|i| corpus.get(i)) {
        return (s.clone(), Vec::new());
    }
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut script = corpus[rng.below(corpus.len() as u64) as usize].clone();
    let done = Mutator::new(rng.next_u64(), corpus).mutate(&mut script);
    (script, done)
}

/// What happened to one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Ran,
    Refused,
    Panic,
    Hang,
    Unpositioned,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ran => "ran",
            Verdict::Refused => "refused",
            Verdict::Panic => "panic",
            Verdict::Hang => "hang",
            Verdict::Unpositioned => "unpositioned",
        }
    }

    pub fn from_name(name: &str) -> Option<Verdict> {
        [
            Verdict::Ran,
            Verdict::Refused,
            Verdict::Panic,
            Verdict::Hang,
            Verdict::Unpositioned,
        ]
        .into_iter()
        .find(|v| v.name() == name)
    }

    fn of(result: &Result<Clean, Finding>) -> Verdict {
        match result {
            Ok(Clean::Ran) => Verdict::Ran,
            Ok(Clean::Refused) => Verdict::Refused,
            Err(Finding::Panic { .. }) => Verdict::Panic,
            Err(Finding::Hang { .. }) => Verdict::Hang,
            Err(Finding::Unpositioned { .. }) => Verdict::Unpositioned,
        }
    }
}

impl Stats {
    /// Counts one input.
    pub fn add(&mut self, index: u64, verdict: Verdict, bytes: usize, took: Duration) {
        self.inputs += 1;
        self.bytes += bytes as u64;
        if took > self.slowest.0 {
            self.slowest = (took, index);
        }
        *match verdict {
            Verdict::Ran => &mut self.ran,
            Verdict::Refused => &mut self.refused,
            Verdict::Panic => &mut self.panics,
            Verdict::Hang => &mut self.hangs,
            Verdict::Unpositioned => &mut self.unpositioned,
        } += 1;
    }
}

/// Hears how a campaign goes (every method does nothing unless overridden).
pub trait Observer {
    /// Input `index` is about to run.
    fn before(&mut self, _index: u64) {}
    /// Input `index` (`bytes` long) ran in `took`.
    fn after(&mut self, _index: u64, _verdict: Verdict, _bytes: usize, _took: Duration) {}
    /// A new distinct finding was minimized and saved.
    fn saved(&mut self, _saved: &Saved) {}
}

/// An observer that hears nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// Runs the campaign, telling `observer` as it goes.
pub fn run(config: &Config, observer: &mut dyn Observer) -> Outcome {
    let corpus = corpus::seeds();
    let started = Instant::now();
    let mut out = Outcome {
        stats: Stats::default(),
        saved: Vec::new(),
        stopped_before: None,
        elapsed: Duration::ZERO,
    };
    for index in config.from..config.from.saturating_add(config.n) {
        let (script, mutations) = input(&corpus, config.seed, index);
        observer.before(index);
        let t = Instant::now();
        let result = run_input(&script, config.budget);
        let took = t.elapsed();
        let verdict = Verdict::of(&result);
        out.stats.add(index, verdict, script.len(), took);
        observer.after(index, verdict, script.len(), took);
        if let Err(finding) = result {
            if !out.saved.iter().any(|s| s.finding.same_as(&finding)) {
                let saved = minimize_and_save(config, index, &script, finding, mutations);
                observer.saved(&saved);
                out.saved.push(saved);
            }
            if verdict == Verdict::Hang {
                out.stopped_before = Some(index + 1);
                break;
            }
        }
    }
    out.elapsed = started.elapsed();
    out
}

/// Shrinks `script` while it gives the same finding, then writes it out.
fn minimize_and_save(
    config: &Config,
    index: u64,
    script: &[u8],
    finding: Finding,
    mutations: Vec<Mutation>,
) -> Saved {
    let minimized = shrink(script, config.shrink, &mut |candidate| match run_input(
        candidate,
        config.budget,
    ) {
        Err(f) if f.same_as(&finding) => Some(matches!(f, Finding::Hang { .. })),
        _ => None,
    });
    let description = format!("{finding}\nmutations: {mutations:?}");
    let path = findings::save(
        &config.findings_dir,
        &Record {
            kind: finding.kind(),
            stage: finding.stage().name(),
            seed: config.seed,
            index,
            description: &description,
            original_len: script.len(),
            minimized: &minimized,
        },
    )
    .ok();
    Saved {
        index,
        finding,
        mutations,
        path,
        minimized,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_depend_on_seed_and_index_only() {
        let corpus = corpus::seeds();
        let first = corpus.len() as u64;
        assert_eq!(input(&corpus, 5, first + 3), input(&corpus, 5, first + 3));
        assert_ne!(input(&corpus, 5, first + 3), input(&corpus, 6, first + 3));
        assert_eq!(input(&corpus, 5, 0), (corpus[0].clone(), Vec::new()));
    }
}
