//! Runs one input the way the page and the CLI do, and says what is wrong
//! with the outcome: a panic, a hang, or an error without a usable position.
//!
//! Both profiles run in a worker thread under `catch_unwind`; the caller waits
//! for it with a time budget (the watchdog), so a hang is reported instead of
//! stopping the run. A hung worker cannot be stopped from outside: it is left
//! running, detached, and the campaign stops at the first hang.

use indexlab_engine::report_json;
use indexlab_engine::scenario::{run_pg, run_yb, ReportError};
use indexlab_engine::sql::script::decode_script;
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Once;
use std::time::{Duration, Instant};

/// The worker's stack. The page runs the engine in wasm with about 1 MiB of
/// stack; natively, at the test profile's opt-level 1, frames are larger, so
/// twice that keeps the fuzzer from reporting depths the page survives while
/// still finding recursion that nothing bounds.
pub const WORKER_STACK: usize = 2 << 20;

/// Worker threads carry this name, so the panic hook knows whose panics to keep.
const WORKER_NAME: &str = "fuzz-input";

/// What is wrong with a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The engine panicked; `at` is the panic's source location.
    Panic {
        stage: Stage,
        message: String,
        at: String,
    },
    /// The input ran past its time budget.
    Hang { stage: Stage, budget: Duration },
    /// An error with no position, or one outside the script.
    Unpositioned { stage: Stage, error: String },
}

/// Which step of a run the finding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Reading the bytes as UTF-8.
    Decode,
    Pg,
    Yb,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Decode => "decode",
            Stage::Pg => "pg",
            Stage::Yb => "yb",
        }
    }
}

impl Finding {
    pub fn kind(&self) -> &'static str {
        match self {
            Finding::Panic { .. } => "panic",
            Finding::Hang { .. } => "hang",
            Finding::Unpositioned { .. } => "unpositioned",
        }
    }

    pub fn stage(&self) -> Stage {
        match self {
            Finding::Panic { stage, .. }
            | Finding::Hang { stage, .. }
            | Finding::Unpositioned { stage, .. } => *stage,
        }
    }

    /// Whether `other` is the same bug, for shrinking: the same kind at the
    /// same stage, and for a panic the same source location.
    pub fn same_as(&self, other: &Finding) -> bool {
        match (self, other) {
            (Finding::Panic { at: a, .. }, Finding::Panic { at: b, .. }) => {
                a == b && self.stage() == other.stage()
            }
            _ => self.kind() == other.kind() && self.stage() == other.stage(),
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Panic { stage, message, at } => {
                write!(f, "panic on {}: {message} (at {at})", stage.name())
            }
            Finding::Hang { stage, budget } => {
                write!(
                    f,
                    "hang on {}: still running after {budget:?}",
                    stage.name()
                )
            }
            Finding::Unpositioned { stage, error } => {
                write!(
                    f,
                    "error without a valid position on {}: {error}",
                    stage.name()
                )
            }
        }
    }
}

/// How a run ended when nothing was wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clean {
    /// Both profiles ran the whole script.
    Ran,
    /// A positioned error stopped it (bad input is expected to).
    Refused,
}

thread_local! {
    /// The last panic's message and location in this thread, from the hook.
    static LAST_PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// Keeps worker panics quiet (they become findings) and records where they
/// happened; other threads' panics still print as usual.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some(WORKER_NAME) {
                return previous(info);
            }
            let message = match info.payload().downcast_ref::<&str>() {
                Some(s) => s.to_string(),
                None => info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| "(no message)".into()),
            };
            let at = info
                .location()
                .map_or("unknown".into(), |l| format!("{}:{}", l.file(), l.line()));
            LAST_PANIC.with(|p| *p.borrow_mut() = Some((message, at)));
        }));
    });
}

/// Runs `script` on both profiles within `budget` of wall time.
pub fn run_input(script: &[u8], budget: Duration) -> Result<Clean, Finding> {
    install_panic_hook();
    let (tx, rx) = mpsc::channel();
    let stage = std::sync::Arc::new(std::sync::atomic::AtomicU8::new(0));
    let worker_stage = stage.clone();
    let bytes = script.to_vec();
    let spawned = std::thread::Builder::new()
        .name(WORKER_NAME.into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let set = |s: Stage| worker_stage.store(s as u8, std::sync::atomic::Ordering::SeqCst);
            let _ = tx.send(run_both(&bytes, set));
        });
    if let Err(e) = spawned {
        panic!("cannot start a fuzz worker thread: {e}");
    }
    let started = Instant::now();
    match rx.recv_timeout(budget) {
        Ok(result) => result,
        Err(_) => Err(Finding::Hang {
            stage: match stage.load(std::sync::atomic::Ordering::SeqCst) {
                0 => Stage::Decode,
                1 => Stage::Pg,
                _ => Stage::Yb,
            },
            budget: started.elapsed(),
        }),
    }
}

/// Decodes and runs `bytes` on pg then yb, in this thread, telling `at` which
/// stage it is in.
fn run_both(bytes: &[u8], at: impl Fn(Stage)) -> Result<Clean, Finding> {
    at(Stage::Decode);
    let script = match guarded(Stage::Decode, || decode_script(bytes))? {
        Ok(s) => s,
        Err(e) => {
            let text = String::from_utf8_lossy(bytes);
            check_position(Stage::Decode, &text, e.line, e.column, &e.message)?;
            return Ok(Clean::Refused);
        }
    };
    let mut clean = Clean::Ran;
    for stage in [Stage::Pg, Stage::Yb] {
        at(stage);
        let error = guarded(stage, || {
            // What the page does with a run: serialize its report and trace.
            let (report, trace) = match stage {
                Stage::Yb => {
                    let (report, engine) = run_yb(script, &[]);
                    (
                        report,
                        engine
                            .map(|mut e| serde_json::to_value(e.trace_mut()).expect("plain data")),
                    )
                }
                _ => {
                    let (report, engine) = run_pg(script, &[]);
                    (
                        report,
                        engine
                            .map(|mut e| serde_json::to_value(e.trace_mut()).expect("plain data")),
                    )
                }
            };
            let json = (
                report_json::report(&report).to_string(),
                trace.map(|t| t.to_string()),
            );
            std::hint::black_box(json);
            report.error
        })?;
        if let Some(e) = error {
            check_error(stage, script, &e)?;
            clean = Clean::Refused;
        }
    }
    Ok(clean)
}

/// Runs `f`, turning a panic into a finding.
fn guarded<T>(stage: Stage, f: impl FnOnce() -> T) -> Result<T, Finding> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let (message, at) = LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| ("(no message)".into(), "unknown".into()));
        Finding::Panic { stage, message, at }
    })
}

fn check_error(stage: Stage, script: &str, e: &ReportError) -> Result<(), Finding> {
    check_position(stage, script, e.line, e.column, &e.message)
}

/// An error's position must name a character of the script, or the place
/// just after a line's last one: line ≥ 1 within the script's lines, column
/// ≥ 1 and at most one past that line's length in characters (as PostgreSQL
/// counts columns, so a byte count past a multi-byte character shows here).
pub fn check_position(
    stage: Stage,
    script: &str,
    line: u32,
    column: u32,
    message: &str,
) -> Result<(), Finding> {
    let lines: Vec<&str> = script.split('\n').collect();
    let fits = line >= 1
        && column >= 1
        && lines
            .get(line as usize - 1)
            .is_some_and(|l| column as usize <= l.chars().count() + 1);
    if fits {
        Ok(())
    } else {
        let short: String = message.chars().take(200).collect();
        Err(Finding::Unpositioned {
            stage,
            error: format!("line {line}, column {column}: {short}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUDGET: Duration = Duration::from_secs(30);

    #[test]
    fn a_good_script_runs_and_a_bad_one_is_refused() {
        assert_eq!(run_input(b"select 1;", BUDGET), Ok(Clean::Ran));
        assert_eq!(
            run_input(b"select * from nope;", BUDGET),
            Ok(Clean::Refused)
        );
        assert_eq!(run_input(b"select 1;\xff", BUDGET), Ok(Clean::Refused));
    }

    #[test]
    fn positions_outside_the_script_are_findings() {
        let ok = |l, c| check_position(Stage::Pg, "ab\ncé", l, c, "m").is_ok();
        assert!(ok(1, 1) && ok(1, 3) && ok(2, 3));
        assert!(!ok(0, 1), "line 0");
        assert!(!ok(1, 0), "column 0");
        assert!(!ok(3, 1), "past the last line");
        // "cé" is 2 characters but 3 bytes: column 4 would be a byte count.
        assert!(!ok(2, 4), "past the line's end");
    }

    #[test]
    fn a_panic_in_a_worker_is_a_finding_with_its_message_and_location() {
        install_panic_hook();
        let result = std::thread::Builder::new()
            .name(WORKER_NAME.into())
            .spawn(|| guarded(Stage::Yb, || panic!("boom {}", 7)))
            .unwrap()
            .join()
            .unwrap();
        let Err(Finding::Panic { stage, message, at }) = result else {
            panic!("expected a panic finding, got {result:?}");
        };
        assert_eq!((stage, message.as_str()), (Stage::Yb, "boom 7"));
        assert!(at.contains("runner.rs"), "{at}");
    }

    #[test]
    fn same_as_compares_kind_stage_and_panic_location() {
        let panic = |at: &str| Finding::Panic {
            stage: Stage::Pg,
            message: "x".into(),
            at: at.into(),
        };
        assert!(panic("a.rs:1").same_as(&panic("a.rs:1")));
        assert!(!panic("a.rs:1").same_as(&panic("a.rs:2")));
        let hang = Finding::Hang {
            stage: Stage::Pg,
            budget: BUDGET,
        };
        assert!(!hang.same_as(&panic("a.rs:1")));
    }
}
