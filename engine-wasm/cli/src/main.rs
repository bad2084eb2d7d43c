//! `indexlab-cli`: runs IndexLab scenario files natively (see DESIGN §3).

mod compare_pg;
mod text;

use clap::Parser;
use indexlab_engine::pg::PgEngine;
use indexlab_engine::scenario::{run_pg, run_profile_continuing, run_yb, Report, ReportError};
use indexlab_engine::yb::YbEngine;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run an IndexLab scenario (a psql-like SQL script) on the simulated engines.
#[derive(Parser, Debug)]
#[command(name = "indexlab-cli", version = indexlab_engine::VERSION)]
struct Args {
    /// The scenario file (.sql) to run.
    #[arg(required_unless_present = "selftest")]
    file: Option<PathBuf>,

    /// Which engine profile runs the script.
    #[arg(long, value_enum, default_value_t = Profile::Pg)]
    profile: Profile,

    /// Print one JSON object instead of psql-like text.
    #[arg(long)]
    json: bool,

    /// Override a setting, e.g. --set shared_buffers=16MB (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_setting)]
    settings: Vec<(String, String)>,

    /// Run the script once per value of a setting and print a table
    /// (value, loops, read requests, RPCs, virtual time), e.g.
    /// --sweep yb_bnl_batch_size=1,10,100,1000.
    #[arg(long, value_name = "NAME=V1,V2,…", value_parser = indexlab_engine::sweep::parse_sweep)]
    sweep: Option<(String, Vec<String>)>,

    /// Print what the web page's player receives (report and trace, as JSON),
    /// exactly as the wasm build returns it: the same scenario gives the same
    /// bytes natively and in wasm (`npm run identical` checks it).
    #[arg(long, conflicts_with_all = ["json", "sweep"])]
    traced: bool,

    /// Run the script on your own PostgreSQL too (a URL such as
    /// postgresql://user@localhost/db, or a libpq key=value string) and print,
    /// per statement, whether the results agree and each EXPLAIN's
    /// `Buffers: shared hit/read` beside IndexLab's pg profile's, with the ratio.
    /// The script runs in a schema of its own, dropped at the end.
    #[arg(long, value_name = "URL")]
    compare_pg: Option<String>,

    /// Go on after an error, as psql does without ON_ERROR_STOP: each error is
    /// printed (to stderr, with its line) and the script continues with the
    /// next statement. Without it the first error ends the run, as in the page.
    #[arg(long)]
    keep_going: bool,

    /// Print the engine's self-test fingerprint (the web page shows the same line).
    #[arg(long)]
    selftest: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum Profile {
    Pg,
    Yb,
    Both,
}

fn parse_setting(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("expected NAME=VALUE, got '{s}'")),
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.selftest {
        println!("{}", indexlab_engine::selftest::fingerprint(42, 1000));
        return ExitCode::SUCCESS;
    }
    let Some(file) = args.file.as_ref() else {
        eprintln!("indexlab-cli: no scenario file given");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("indexlab-cli: cannot read '{}': {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let name = file.display().to_string();
    // A file that is not UTF-8 is bad input like any other: say where.
    let script = match indexlab_engine::sql::script::decode_script(&bytes) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{name}:{}:{}: ERROR:  {}", e.line, e.column, e.message);
            return ExitCode::from(1);
        }
    };
    if args.traced {
        let profile = match args.profile {
            Profile::Pg => "pg",
            Profile::Yb => "yb",
            Profile::Both => "both",
        };
        let traced = indexlab_engine::traced::run_traced(script, profile, &args.settings);
        return match traced {
            Some(t) => {
                println!("{}", indexlab_engine::traced::to_json(&t));
                ExitCode::SUCCESS
            }
            None => ExitCode::from(2),
        };
    }
    if let Some(url) = &args.compare_pg {
        return match compare_pg::compare(script, url, &args.settings) {
            Ok((text, agrees)) => {
                print!("{text}");
                if agrees {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => {
                eprintln!("indexlab-cli: --compare-pg: {e}");
                ExitCode::from(2)
            }
        };
    }
    if let Some((setting, values)) = &args.sweep {
        return run_sweep(script, &args, setting, values, &name);
    }
    let run = |profile: &str| -> Report {
        if !args.keep_going {
            return match profile {
                "pg" => report_of(run_pg(script, &args.settings)),
                _ => report_of(run_yb(script, &args.settings)),
            };
        }
        let mut errors = 0;
        let mut on_error = |e: ReportError| {
            errors += 1;
            eprintln!(
                "{name}:{}:{}: ERROR:  {} ({profile})",
                e.line, e.column, e.message
            );
        };
        let mut report = match profile {
            "pg" => report_of(run_profile_continuing::<PgEngine>(
                script,
                &args.settings,
                &mut on_error,
            )),
            _ => report_of(run_profile_continuing::<YbEngine>(
                script,
                &args.settings,
                &mut on_error,
            )),
        };
        if errors > 0 && report.error.is_none() {
            // The exit status still tells a caller that something failed.
            report.error = Some(ReportError {
                kind: indexlab_engine::sql::error::ErrorKind::Script,
                message: format!("{errors} statement(s) failed"),
                hint: None,
                line: u32::MAX,
                column: 0,
            });
        }
        report
    };
    match args.profile {
        Profile::Pg => finish(&[run("pg")], &name, args.json),
        Profile::Yb => finish(&[run("yb")], &name, args.json),
        Profile::Both => finish(&[run("pg"), run("yb")], &name, args.json),
    }
}

/// A run's report. Its engine is left for the process's exit to reclaim: the CLI
/// exits right after printing, and freeing a million-row engine one allocation
/// at a time would only add a few percent to the run.
fn report_of<E>((report, engine): (Report, Option<E>)) -> Report {
    std::mem::forget(engine);
    report
}

/// Runs a sweep on the chosen profile(s) and prints its table (or JSON).
fn run_sweep(script: &str, args: &Args, setting: &str, values: &[String], file: &str) -> ExitCode {
    use indexlab_engine::sweep::{script_pins, sweep};
    if script_pins(script, setting) {
        eprintln!(
            "indexlab-cli: warning: {file} sets {setting} itself (SET or a Set() hint); \
             every run will use the script's value"
        );
    }
    let profiles: &[&str] = match args.profile {
        Profile::Pg => &["pg"],
        Profile::Yb => &["yb"],
        Profile::Both => &["pg", "yb"],
    };
    let mut code = ExitCode::SUCCESS;
    let mut json_parts = Vec::new();
    for profile in profiles {
        let points = sweep(script, profile, &args.settings, setting, values);
        if args.json {
            json_parts.push((
                profile,
                indexlab_engine::report_json::sweep(setting, &points),
            ));
        } else {
            if profiles.len() > 1 {
                println!("=== {profile} ===");
            }
            print!("{}", text::sweep_table(setting, &points));
        }
        for p in &points {
            if let Some(e) = &p.error {
                let at = if e.in_settings() {
                    format!("{file}: in the settings")
                } else {
                    format!("{file}:{}:{}", e.line, e.column)
                };
                eprintln!("{at}: ERROR:  {} ({setting}={})", e.message, p.value);
                code = ExitCode::from(1);
            }
        }
    }
    if args.json {
        match json_parts.as_slice() {
            [(_, one)] => println!("{one}"),
            many => {
                let parts: Vec<String> = many.iter().map(|(p, j)| format!("\"{p}\":{j}")).collect();
                println!("{{{}}}", parts.join(","));
            }
        }
    }
    code
}

/// Prints the reports (one per profile; with two, JSON is `{"pg": …, "yb": …}`
/// and text shows each under a heading), and exits non-zero on any error.
fn finish(reports: &[Report], file: &str, json: bool) -> ExitCode {
    use indexlab_engine::report_json::report as to_json;
    if json {
        match reports {
            [one] => println!("{}", to_json(one)),
            many => {
                let parts: Vec<String> = many
                    .iter()
                    .map(|r| format!("\"{}\":{}", r.profile, to_json(r)))
                    .collect();
                println!("{{{}}}", parts.join(","));
            }
        }
    } else {
        for r in reports {
            if reports.len() > 1 {
                println!("=== {} ===", r.profile);
            }
            print!("{}", text::report(r));
        }
    }
    let mut code = ExitCode::SUCCESS;
    for r in reports {
        code = report_error(r, file).unwrap_or(code);
    }
    code
}

fn report_error(report: &Report, file: &str) -> Option<ExitCode> {
    match &report.error {
        None => None,
        Some(e) if e.in_settings() => {
            eprintln!("{file}: ERROR in the settings (--set):  {}", e.message);
            if let Some(h) = &e.hint {
                eprintln!("HINT:  {h}");
            }
            Some(ExitCode::from(1))
        }
        Some(e) if e.line == u32::MAX => {
            eprintln!("{file}: {}", e.message);
            Some(ExitCode::from(1))
        }
        Some(e) => {
            eprintln!("{file}:{}:{}: ERROR:  {}", e.line, e.column, e.message);
            if let Some(h) = &e.hint {
                eprintln!("HINT:  {h}");
            }
            Some(ExitCode::from(1))
        }
    }
}
