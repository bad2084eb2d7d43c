//! `npm run difftest -- [--n N] [--seed S] [--profile pg|yb|both] [--out DIR]
//! [--pg CONNINFO] [--statements K] [--no-minimize]`
//!
//! Generates N scripts (seeds S, S+1, …), runs each on PostgreSQL and on
//! IndexLab's profiles, and reports every divergence, minimized and written to
//! DIR as a sqllogictest file. Without `--pg` it starts a throwaway server.
//! Exits 1 when anything diverged.
//!
//! `--corpus DIR` instead runs the published experiments in DIR as psql runs
//! them (see `corpus.rs`): how many statements each profile runs, and exit 1
//! on a panic or a misleading refusal.
//!
//! `--plans` instead runs N planner scripts (see `plans.rs`) and prints how
//! many EXPLAINs have PostgreSQL's plan shape, per query kind, with the
//! commonest differences. `--min-share P` exits 1 when fewer than P % of
//! the EXPLAINs have PostgreSQL's shape (CI's guard against regressions).
//! `--plans --print-script --seed S` prints seed S's script instead, to run
//! it anywhere (`indexlab-cli`, psql).
//!
//! `--record FILE.sql` instead runs one hand-written script on PostgreSQL and
//! prints it as a recorded case (sqllogictest, PostgreSQL's results expected),
//! with the script's leading `--` comment as the case's header.

use indexlab_difftest::compare::{first_divergence_on, Kind};
use indexlab_difftest::generate::{script, Options};
use indexlab_difftest::indexlab::{self, Profile};
use indexlab_difftest::minimize::minimize;
use indexlab_difftest::postgres::{Server, Session};
use indexlab_difftest::record::{header, to_slt, to_slt_checking};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

struct Args {
    n: u64,
    seed: u64,
    profiles: Vec<Profile>,
    out: PathBuf,
    pg: Option<String>,
    options: Options,
    minimize: bool,
    record: Option<PathBuf>,
    corpus: Option<PathBuf>,
    plans: bool,
    print_script: bool,
    min_share: Option<f64>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        n: 100,
        seed: 1,
        profiles: Profile::BOTH.to_vec(),
        out: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/differential/found"
        )),
        pg: None,
        options: Options::default(),
        minimize: true,
        record: None,
        corpus: None,
        plans: false,
        print_script: false,
        min_share: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: '{v}' is not a whole number"))
        };
        match flag.as_str() {
            "--n" => args.n = number(value()?)?,
            "--seed" => args.seed = number(value()?)?,
            "--statements" => args.options.statements = number(value()?)? as usize,
            "--profile" => {
                let v = value()?;
                args.profiles =
                    Profile::parse(&v).ok_or(format!("--profile: '{v}' is not pg, yb or both"))?;
            }
            "--out" => args.out = PathBuf::from(value()?),
            "--pg" => args.pg = Some(value()?),
            "--no-minimize" => args.minimize = false,
            "--record" => args.record = Some(PathBuf::from(value()?)),
            "--corpus" => args.corpus = Some(PathBuf::from(value()?)),
            "--plans" => args.plans = true,
            "--print-script" => args.print_script = true,
            "--min-share" => {
                let v = value()?;
                args.min_share = Some(
                    v.parse::<f64>()
                        .map_err(|_| format!("--min-share: '{v}' is not a percentage"))?,
                )
            }
            other => {
                return Err(format!(
                    "unknown option '{other}' (see the comment at the top of difftest/src/main.rs)"
                ))
            }
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("difftest: {e}");
            return ExitCode::from(2);
        }
    };
    // A panic inside IndexLab is caught and reported as a finding; the default
    // hook would also print it in the middle of the progress output.
    std::panic::set_hook(Box::new(|_| {}));
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("difftest: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs the whole comparison; `Ok(true)` when nothing diverged.
fn run(args: &Args) -> Result<bool, String> {
    if args.plans && args.print_script {
        print!(
            "{}",
            indexlab_difftest::plans::generate::script(args.seed).text
        );
        return Ok(true);
    }
    let server = match &args.pg {
        Some(_) => None,
        None => Some(Server::start()?),
    };
    let params = args
        .pg
        .clone()
        .unwrap_or_else(|| server.as_ref().unwrap().params());
    let mut pg = Session::connect(&params)?;
    if let Some(file) = &args.record {
        return record(&mut pg, file);
    }
    if let Some(dir) = &args.corpus {
        return corpus(&mut pg, dir);
    }
    if args.plans {
        let tally = indexlab_difftest::plans::run(&mut pg, args.seed, args.n)?;
        indexlab_difftest::plans::print(&tally, args.seed, args.n);
        let (all, same) = tally.same();
        let share = 100.0 * f64::from(same) / f64::from(all.max(1));
        if let Some(min) = args.min_share.filter(|m| share < *m) {
            println!("plans: {share:.1} % is below --min-share {min} %");
            return Ok(false);
        }
        return Ok(true);
    }
    let mut counts: BTreeMap<(Profile, Kind), u64> = BTreeMap::new();
    let (mut statements, mut passed, mut failed) = (0u64, 0u64, 0u64);
    for seed in args.seed..args.seed + args.n {
        let s = script(seed, args.options);
        let expected = pg.run(&s)?;
        statements += expected.len() as u64;
        for &profile in &args.profiles {
            let got = indexlab::run(&s, profile);
            let Some(d) = first_divergence_on(&s, profile, &expected, &got) else {
                passed += 1;
                continue;
            };
            failed += 1;
            *counts.entry((profile, d.kind)).or_default() += 1;
            report(args, &mut pg, seed, profile, &s, d)?;
        }
    }
    println!(
        "difftest: {} scripts (seeds {}..={}), {statements} statements run on PostgreSQL",
        args.n,
        args.seed,
        args.seed + args.n - 1
    );
    for &profile in &args.profiles {
        let line: Vec<String> = Kind::ALL
            .iter()
            .map(|k| format!("{} {}", counts.get(&(profile, *k)).unwrap_or(&0), k.name()))
            .collect();
        println!("  {}: {}", profile.name(), line.join(", "));
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// Runs the corpus of published experiments and prints what ran.
fn corpus(pg: &mut Session, dir: &std::path::Path) -> Result<bool, String> {
    let results = indexlab_difftest::corpus::run_dir(dir, pg)?;
    let (mut total, mut ran, mut failed) = (0, 0, 0);
    let (mut plans, mut same_plans) = (0, 0);
    for r in &results {
        println!(
            "{:48} {}: {:3} of {:3} ran (PostgreSQL 15: {})",
            r.file, r.profile, r.ran, r.statements, r.postgres_ran
        );
        for (line, message) in r.refusals.iter().take(40) {
            println!("    line {line}: {message}");
        }
        if r.plans > 0 {
            println!(
                "    plans: {} of {} as PostgreSQL 15's",
                r.same_plans, r.plans
            );
        }
        for (line, theirs, ours) in r.plan_differences.iter().take(20) {
            println!("    line {line}: PostgreSQL {theirs}; IndexLab {ours}");
        }
        for f in &r.failures {
            println!("  FAIL {f}");
        }
        plans += r.plans;
        same_plans += r.same_plans;
        total += r.statements;
        ran += r.ran;
        failed += r.failures.len();
    }
    println!(
        "corpus: {} scripts, {ran} of {total} statements ran on their profile ({:.0} %)",
        results.len(),
        100.0 * ran as f64 / total.max(1) as f64
    );
    println!(
        "corpus plans: {same_plans} of {plans} EXPLAINs on pg have PostgreSQL 15's plan shape ({:.0} %)",
        100.0 * same_plans as f64 / plans.max(1) as f64
    );
    println!("{} passed, {failed} failed", results.len());
    Ok(failed == 0)
}

/// Prints a hand-written script as a recorded case with PostgreSQL's results.
fn record(pg: &mut Session, file: &std::path::Path) -> Result<bool, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let script = indexlab_difftest::script::Script::from_text(&text)?;
    let header: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with("--"))
        .map(|l| l.trim_start_matches('-').trim())
        .collect();
    let expected = pg.run(&script)?;
    let indexlab: Vec<_> = Profile::BOTH
        .iter()
        .map(|p| indexlab::run(&script, *p))
        .collect();
    print!(
        "{}",
        to_slt_checking(&script, &expected, &header.join("\n"), &indexlab)
    );
    Ok(true)
}

/// Prints a divergence, minimized, and writes it as a sqllogictest file.
fn report(
    args: &Args,
    pg: &mut Session,
    seed: u64,
    profile: Profile,
    script: &indexlab_difftest::script::Script,
    d: indexlab_difftest::compare::Divergence,
) -> Result<(), String> {
    let (small, d) = if args.minimize {
        minimize(pg, script, profile, d.kind)?
    } else {
        (script.clone(), d)
    };
    let expected = pg.run(&small)?;
    let text = to_slt(&small, &expected, &header(seed, profile, &d));
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let kind = d.kind.name().replace(' ', "-");
    let file = args
        .out
        .join(format!("{}-{kind}-seed{seed}.slt", profile.name()));
    std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
    println!(
        "--- seed {seed}, {}: {} at statement {} ({})\n{}",
        profile.name(),
        d.kind.name(),
        d.index + 1,
        file.display(),
        small.indexlab_text()
    );
    println!(
        "    PostgreSQL: {}\n    IndexLab:   {}",
        d.postgres.describe(),
        d.indexlab.describe()
    );
    Ok(())
}
