//! Runs the campaign in a child process and outlives it.
//!
//! A panic or a hang is caught inside the child; a stack overflow or an
//! allocation failure aborts it. The supervisor knows which input was running
//! (the child's `@input` marker), makes that input again from its seed and
//! index, minimizes it by replaying candidates in fresh processes, saves it,
//! and starts a new child at the next input. It also keeps the counts, since
//! a child that dies cannot report its own.

use super::child::print_saved;
use indexlab_fuzz::campaign::{self, Config, Stats, Verdict};
use indexlab_fuzz::corpus;
use indexlab_fuzz::findings::{self, Record};
use indexlab_fuzz::shrink::{shrink, Budget};
use std::io::{BufRead, BufReader};
use std::process::{Command, ExitCode, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Attempts to minimize a crash: each is a new process, so fewer than for a
/// panic found in-process.
const CRASH_SHRINK: Budget = Budget {
    attempts: 300,
    hangs: 3,
};

pub fn run(config: &Config) -> ExitCode {
    let started = Instant::now();
    let end = config.from.saturating_add(config.n);
    let mut stats = Stats::default();
    let mut crashes = 0u64;
    let mut next = config.from;
    let mut last_progress = Instant::now();
    println!(
        "fuzz: seed {}, inputs {}..{}, {:?} per input before a hang, findings in {}",
        config.seed,
        config.from,
        end,
        config.budget,
        config.findings_dir.display()
    );
    while next < end {
        let mut child = match spawn_child(config, next, end - next) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("fuzz: cannot start the campaign process: {e}");
                return ExitCode::from(2);
            }
        };
        let stdout = child.stdout.take().expect("piped stdout");
        // The input running now, and the last one started (a crash while a
        // finding is minimized belongs to the input it came from).
        let (mut running, mut last, mut stopped) = (None, None, None);
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(i) = line.strip_prefix("@input ") {
                running = i.parse::<u64>().ok();
                last = running;
            } else if let Some(done) = line.strip_prefix("@done ") {
                count_done(&mut stats, done);
                running = None;
            } else if let Some(i) = line.strip_prefix("@stopped ") {
                stopped = i.parse::<u64>().ok();
            } else {
                println!("{line}");
            }
            if last_progress.elapsed() > Duration::from_secs(10) {
                print_progress(&stats, crashes, started.elapsed());
                last_progress = Instant::now();
            }
        }
        let status = child.wait().expect("the campaign process ends");
        next = match (status.code(), stopped, running.or(last)) {
            // A hang stopped it: go on after the hung input.
            (Some(1), Some(resume), _) => resume,
            // Finished (with or without findings).
            (Some(0 | 1), None, _) if running.is_none() => end,
            // Died on an input, or minimizing what it found: a crash.
            (_, _, Some(index)) if crashed(status) => {
                crashes += 1;
                if running.is_some() {
                    stats.inputs += 1;
                }
                save_crash(config, index, status);
                index + 1
            }
            _ => {
                eprintln!("fuzz: the campaign process ended unexpectedly ({status})");
                return ExitCode::from(2);
            }
        };
    }
    print_summary(&stats, crashes, started.elapsed());
    if stats.findings() + crashes > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn spawn_child(config: &Config, from: u64, n: u64) -> std::io::Result<std::process::Child> {
    Command::new(std::env::current_exe()?)
        .arg("--child")
        .args(["--seed", &config.seed.to_string()])
        .args(["--from", &from.to_string()])
        .args(["--n", &n.to_string()])
        .args(["--timeout-ms", &config.budget.as_millis().to_string()])
        .arg("--findings")
        .arg(&config.findings_dir)
        .stdout(Stdio::piped())
        .spawn()
}

/// Counts an `@done I VERDICT BYTES MICROS` marker.
fn count_done(stats: &mut Stats, done: &str) {
    let parts: Vec<&str> = done.split(' ').collect();
    if let [index, verdict, bytes, micros] = parts[..] {
        if let (Ok(index), Some(verdict), Ok(bytes), Ok(micros)) = (
            index.parse(),
            Verdict::from_name(verdict),
            bytes.parse(),
            micros.parse(),
        ) {
            stats.add(index, verdict, bytes, Duration::from_micros(micros));
        }
    }
}

/// Makes input `index` again, minimizes it by replaying candidates in new
/// processes (a candidate still crashes if its process dies abnormally), and
/// saves it.
fn save_crash(config: &Config, index: u64, status: ExitStatus) {
    let corpus = corpus::seeds();
    let (script, mutations) = campaign::input(&corpus, config.seed, index);
    let scratch = config
        .findings_dir
        .join(format!(".crash-candidate-{}.sql", std::process::id()));
    let _ = std::fs::create_dir_all(&config.findings_dir);
    let minimized = shrink(&script, CRASH_SHRINK, &mut |candidate| {
        std::fs::write(&scratch, candidate).ok()?;
        let replay = Command::new(std::env::current_exe().ok()?)
            .arg("--replay")
            .arg(&scratch)
            .args(["--timeout-ms", &config.budget.as_millis().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .ok()?;
        crashed(replay).then_some(false)
    });
    let _ = std::fs::remove_file(&scratch);
    let description = format!(
        "crash: the process died running this input ({status}); a stack overflow \
         or an allocation failure aborts\nmutations: {mutations:?}"
    );
    let path = findings::save(
        &config.findings_dir,
        &Record {
            kind: "crash",
            stage: "process",
            seed: config.seed,
            index,
            description: &description,
            original_len: script.len(),
            minimized: &minimized,
        },
    )
    .ok();
    print_saved(index, &description, &minimized, path.as_deref());
}

/// Whether a replay died instead of reporting (exit 0 or 1, or 2 for usage).
fn crashed(status: ExitStatus) -> bool {
    !matches!(status.code(), Some(0..=2))
}

fn print_progress(stats: &Stats, crashes: u64, elapsed: Duration) {
    println!(
        "fuzz: {} inputs in {:.0?} ({:.0}/s), {} findings",
        stats.inputs,
        elapsed,
        stats.inputs as f64 / elapsed.as_secs_f64().max(1e-9),
        stats.findings() + crashes
    );
}

fn print_summary(stats: &Stats, crashes: u64, elapsed: Duration) {
    println!(
        "fuzz: {} inputs ({} MB) in {:.1?}: {} ran, {} refused with a positioned error; \
         {} panics, {} hangs, {} unpositioned errors, {} crashes; slowest input {} took {:.0?}",
        stats.inputs,
        stats.bytes / 1_000_000,
        elapsed,
        stats.ran,
        stats.refused,
        stats.panics,
        stats.hangs,
        stats.unpositioned,
        crashes,
        stats.slowest.1,
        stats.slowest.0,
    );
}
