//! `fuzz`: the long fuzzing run (`npm run fuzz -- --n 100000 --seed 7`).
//!
//! By default it supervises: the campaign runs in a child process (this same
//! binary with `--child`), so a crash that `catch_unwind` cannot catch — a
//! stack overflow, an allocation failure — is traced to its input, minimized
//! and saved like any other finding, and the campaign goes on after it.
//!
//! `--replay FILE` runs one saved input and says what happens to it.

mod child;
mod supervisor;

use indexlab_fuzz::campaign::Config;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: fuzz [--n N] [--seed S] [--from I] [--timeout-ms MS] [--findings DIR]
       fuzz --replay FILE [--timeout-ms MS]

  --n N            inputs to run (default 10000)
  --seed S         the campaign's seed (default 1); input I of seed S is always the same
  --from I         the first input's index (default 0)
  --timeout-ms MS  wall time an input may take before it is a hang (default 10000)
  --findings DIR   where minimized inputs go (default engine-wasm/fuzz/findings)
  --replay FILE    run one input file on both profiles and report what happens";

/// What the command line asks for.
pub struct Args {
    pub config: Config,
    pub replay: Option<PathBuf>,
    /// Run the campaign in this process, printing markers for the supervisor.
    pub child: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        config: Config::new(1, 10_000),
        replay: None,
        child: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match flag.as_str() {
            "--n" => args.config.n = number(value()?)?,
            "--seed" => args.config.seed = number(value()?)?,
            "--from" => args.config.from = number(value()?)?,
            "--timeout-ms" => args.config.budget = Duration::from_millis(number(value()?)?),
            "--findings" => args.config.findings_dir = PathBuf::from(value()?),
            "--replay" => args.replay = Some(PathBuf::from(value()?)),
            "--child" => args.child = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("fuzz: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(file) = &args.replay {
        return child::replay(file, args.config.budget);
    }
    if args.child {
        return child::run(&args.config);
    }
    supervisor::run(&args.config)
}
