//! Thin wasm-bindgen layer over `indexlab-engine`.
//!
//! Nothing here computes anything: each export converts arguments, calls the core,
//! and converts the result. Panics are reported to JavaScript *before* wasm traps,
//! so the page can show a readable message instead of "unreachable".

mod allocator;
mod packed;

use std::sync::Once;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Defined by the worker on `globalThis`; receives the panic message while the
    /// panicking call is still on the stack (after the trap it would be too late).
    #[wasm_bindgen(js_namespace = globalThis, js_name = __indexlabReportPanic)]
    fn report_panic(message: &str);
}

static HOOK: Once = Once::new();

/// Installs the panic hook: the message goes to the console (with the stack, as
/// `console_error_panic_hook` prints it) and to the worker, which turns it into an
/// error the page can display.
#[wasm_bindgen]
pub fn init_engine() {
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            console_error_panic_hook::hook(info);
            report_panic(&info.to_string());
        }));
    });
}

/// The engine's version (the core crate's).
#[wasm_bindgen]
pub fn version() -> String {
    indexlab_engine::VERSION.to_string()
}

/// The self-test fingerprint, the same text `indexlab-cli --selftest` prints.
#[wasm_bindgen]
pub fn selftest(seed: u32, count: u32) -> String {
    indexlab_engine::selftest::fingerprint(seed as u64, count as usize).to_string()
}

/// Panics on purpose, so tests can check that a panic reaches the page as a
/// readable error and that the page keeps working afterwards.
#[wasm_bindgen]
pub fn panic_for_test(message: &str) {
    panic!("deliberate test panic: {message}");
}

/// Runs a scenario and returns its report as JSON (the CLI's `--json` shape).
/// `settings` is `name=value` lines, like the CLI's `--set`.
#[wasm_bindgen]
pub fn run_scenario(script: &str, profile: &str, settings: &str) -> Result<String, JsError> {
    use indexlab_engine::report_json::report;
    use indexlab_engine::scenario::{run_pg, run_yb};
    if !matches!(profile, "pg" | "yb" | "both") {
        return Err(JsError::new(&format!(
            "unknown profile \"{profile}\"; use \"pg\", \"yb\" or \"both\""
        )));
    }
    let overrides = parse_settings(settings)?;
    Ok(match profile {
        "pg" => report(&run_pg(script, &overrides).0).to_string(),
        "yb" => report(&run_yb(script, &overrides).0).to_string(),
        _ => format!(
            "{{\"pg\":{},\"yb\":{}}}",
            report(&run_pg(script, &overrides).0),
            report(&run_yb(script, &overrides).0)
        ),
    })
}

/// `name=value` lines, as the CLI's `--set`.
fn parse_settings(settings: &str) -> Result<Vec<(String, String)>, JsError> {
    settings
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match l.split_once('=') {
            Some((k, v)) => Ok((k.trim().to_string(), v.trim().to_string())),
            None => Err(JsError::new(&format!("expected name=value, got \"{l}\""))),
        })
        .collect()
}

/// Runs a scenario once per value of a setting (`sweep` is `name=v1,v2,…`, as
/// the CLI's `--sweep`) and returns the sweep as JSON, for the UI's charts.
#[wasm_bindgen]
pub fn run_sweep(
    script: &str,
    profile: &str,
    settings: &str,
    sweep: &str,
) -> Result<String, JsError> {
    use indexlab_engine::sweep::{parse_sweep, sweep as run};
    if !matches!(profile, "pg" | "yb") {
        return Err(JsError::new(&format!(
            "unknown profile \"{profile}\" for a sweep; use \"pg\" or \"yb\""
        )));
    }
    let overrides = parse_settings(settings)?;
    let (name, values) = parse_sweep(sweep).map_err(|e| JsError::new(&e))?;
    let points = run(script, profile, &overrides, &name, &values);
    Ok(indexlab_engine::report_json::sweep(&name, &points).to_string())
}

#[wasm_bindgen]
extern "C" {
    /// Whatever the caller passes to hear how a run goes: an object with a
    /// `report(profile, done, total)` method, called after every statement run.
    pub type ProgressSink;
    #[wasm_bindgen(method)]
    fn report(this: &ProgressSink, profile: &str, done: u32, total: u32);
}

/// Runs a scenario for the player: `{"report": …, "trace": {"events",
/// "snapshots", "dropped"}}` (with profile "both", `{"pg": …, "yb": …}`).
#[wasm_bindgen]
pub fn run_traced(script: &str, profile: &str, settings: &str) -> Result<String, JsError> {
    traced(script, profile, settings, &mut |_, _| {})
}

/// `run_traced`, telling `sink` how far each profile is.
#[wasm_bindgen]
pub fn run_traced_progress(
    script: &str,
    profile: &str,
    settings: &str,
    sink: &ProgressSink,
) -> Result<String, JsError> {
    traced(script, profile, settings, &mut |name, p| {
        sink.report(name, p.done, p.total)
    })
}

fn traced(
    script: &str,
    profile: &str,
    settings: &str,
    progress: &mut dyn FnMut(&str, indexlab_engine::scenario::Progress),
) -> Result<String, JsError> {
    let overrides = parse_settings(settings)?;
    indexlab_engine::traced::run_traced_with(script, profile, &overrides, progress)
        .map(|t| indexlab_engine::traced::to_json(&t))
        .ok_or_else(|| unknown_profile(profile))
}

fn unknown_profile(profile: &str) -> JsError {
    JsError::new(&format!(
        "unknown profile \"{profile}\"; use \"pg\", \"yb\" or \"both\""
    ))
}

/// Runs a scenario on one profile for the page's player, packed (see
/// `packed.rs`): the page's workers run one profile each, in parallel.
#[wasm_bindgen]
pub fn run_traced_packed(
    script: &str,
    profile: &str,
    settings: &str,
    sink: &ProgressSink,
) -> Result<Vec<u8>, JsError> {
    use indexlab_engine::traced::{run_traced_with, Traced};
    if !matches!(profile, "pg" | "yb") {
        return Err(unknown_profile(profile));
    }
    let overrides = parse_settings(settings)?;
    let run = run_traced_with(script, profile, &overrides, &mut |name, p| {
        sink.report(name, p.done, p.total)
    });
    match run {
        Some(Traced::One(run)) => Ok(packed::pack(&run)),
        _ => Err(unknown_profile(profile)),
    }
}

/// Every setting with its default, type, unit, bounds and meaning, as JSON.
#[wasm_bindgen]
pub fn settings_list() -> String {
    indexlab_engine::report_json::settings_list().to_string()
}

/// Does `script` set `name` itself (a `SET` or a `Set()` hint)? A sweep over a
/// setting the script pins would run the same thing at every value.
#[wasm_bindgen]
pub fn script_sets(script: &str, name: &str) -> bool {
    indexlab_engine::sweep::script_pins(script, name)
}
