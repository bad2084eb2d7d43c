//! The engine's settings: PostgreSQL-style GUCs for both profiles.
//!
//! Every knob a lesson may turn is here, with its default, range, unit and a line
//! of description for the UI ([`registry`]). Values are read as PostgreSQL's `SET`
//! reads them (`128MB`, bare numbers in the base unit, `on`/`off`, quoted values)
//! and shown as its `SHOW` shows them. Names are case-insensitive. A setting of the
//! other profile is accepted, so one script runs on both; [`Settings::set`] returns
//! its definition so the caller can print a notice.

mod def;
mod error;
mod explain;
mod format;
mod parse;
pub mod planner;
pub mod registry;
#[cfg(test)]
mod tests;
mod typed;

pub use def::{Check, Kind, Scope, SettingDef, Value};
pub use error::SettingError;
pub use registry::{NETWORK_PRESETS, REGISTRY};

use std::time::Duration;

/// The current value of every setting.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// One value per [`REGISTRY`] entry, in the same order.
    values: Vec<Value>,
    /// What RESET returns to (PostgreSQL's `reset_val`): the defaults, plus what
    /// the run was started with (`--set`, a lesson's settings).
    session: Vec<Value>,
    /// Recognized settings IndexLab does not apply ([`planner`]), as SET gave them.
    recognized: Vec<(&'static str, String)>,
}

/// One row of the settings list the UI shows (like `pg_settings`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingInfo {
    pub name: &'static str,
    /// The current value, as `SHOW` prints it.
    pub value: String,
    pub default: String,
    /// `integer`, `bytes`, `real`, `bool`, `enum` or `duration`.
    pub type_name: &'static str,
    /// What a bare number counts (`8kB`, `ms`) or the integer's unit (`rows`).
    pub unit: String,
    /// The bounds, as shown; empty for booleans and enums.
    pub min: String,
    pub max: String,
    /// The accepted words: an enum's values, or a duration's presets.
    pub values: Vec<&'static str>,
    pub scope: Scope,
    pub description: &'static str,
}

impl Default for Settings {
    fn default() -> Self {
        Settings::new()
    }
}

impl Settings {
    /// Every setting at its default.
    pub fn new() -> Settings {
        let values: Vec<Value> = REGISTRY.iter().map(|d| d.kind.default_value()).collect();
        Settings {
            session: values.clone(),
            recognized: Vec::new(),
            values,
        }
    }

    /// The definition of `name`, or PostgreSQL's error for an unknown one.
    pub fn definition(name: &str) -> Result<&'static SettingDef, SettingError> {
        Ok(find(name)?.1)
    }

    /// Makes the current values the ones RESET returns to: a run's settings
    /// are its session's configuration.
    pub fn start_session(&mut self) {
        self.session = self.values.clone();
    }

    /// `SET name = text`. `DEFAULT` (unquoted) resets, as in PostgreSQL.
    pub fn set(&mut self, name: &str, text: &str) -> Result<&'static SettingDef, SettingError> {
        let (i, def) = find(name)?;
        if text.trim().eq_ignore_ascii_case("default") {
            self.values[i] = self.session[i];
        } else {
            self.values[i] = parse::parse_value(def, text)?;
        }
        Ok(def)
    }

    /// `name=value`, as the CLI's `--set` gives it.
    pub fn apply_assignment(
        &mut self,
        assignment: &str,
    ) -> Result<&'static SettingDef, SettingError> {
        match assignment.split_once('=') {
            Some((name, value)) => self.set(name, value),
            None => Err(SettingError::Invalid {
                name: "--set",
                value: assignment.to_string(),
                hint: Some("Write name=value, for example shared_buffers=16MB.".into()),
            }),
        }
    }

    /// `RESET name`: back to the session's value.
    pub fn reset(&mut self, name: &str) -> Result<&'static SettingDef, SettingError> {
        let (i, def) = find(name)?;
        self.values[i] = self.session[i];
        Ok(def)
    }

    /// `RESET name`, or `RESET ALL` without a name; the named setting's definition
    /// (for a notice when the profile ignores it).
    pub fn reset_named(
        &mut self,
        name: Option<&str>,
    ) -> Result<Option<&'static SettingDef>, SettingError> {
        let Some(name) = name else {
            self.reset_all();
            return Ok(None);
        };
        self.reset(name).map(Some)
    }

    /// `RESET ALL`.
    pub fn reset_all(&mut self) {
        self.recognized.clear();
        self.values.clone_from(&self.session);
    }

    /// `SHOW name`, formatted as PostgreSQL prints it.
    pub fn show(&self, name: &str) -> Result<String, SettingError> {
        if let Some((n, default, _)) = planner::lookup(name) {
            let set = self.recognized.iter().find(|(r, _)| r == n);
            return Ok(set.map_or(default.to_string(), |(_, v)| v.clone()));
        }
        Ok(format::show(&self.value(name)?))
    }

    /// SET of a recognized setting IndexLab does not apply: the notice
    /// that says so, or `None` when `name` is not one.
    pub fn set_recognized(&mut self, name: &str, text: &str) -> Option<String> {
        let (n, _, scope) = planner::lookup(name)?;
        self.recognized.retain(|(r, _)| r != n);
        if !text.trim().eq_ignore_ascii_case("default") {
            self.recognized.push((n, text.trim().to_string()));
        }
        Some(match scope {
            Scope::Yb => format!("{n} is recorded; IndexLab does not apply it yet (it is YugabyteDB's: PostgreSQL refuses it)"),
            _ => format!("{n} is recorded; IndexLab's planner does not apply it yet, so plans stay as they were"),
        })
    }

    /// RESET of a recognized setting: whether `name` was one.
    pub fn reset_recognized(&mut self, name: &str) -> bool {
        let Some((n, ..)) = planner::lookup(name) else {
            return false;
        };
        self.recognized.retain(|(r, _)| r != n);
        true
    }

    pub fn value(&self, name: &str) -> Result<Value, SettingError> {
        let (i, _) = find(name)?;
        Ok(self.values[i])
    }

    pub fn get_int(&self, name: &str) -> Result<i64, SettingError> {
        match self.value(name)? {
            Value::Int(n) => Ok(n),
            other => Err(wrong_type(name, "integer", other)),
        }
    }

    /// A size, in bytes.
    pub fn get_bytes(&self, name: &str) -> Result<u64, SettingError> {
        match self.value(name)? {
            Value::Bytes(b) => Ok(b),
            other => Err(wrong_type(name, "bytes", other)),
        }
    }

    /// A real; integers are accepted too.
    pub fn get_float(&self, name: &str) -> Result<f64, SettingError> {
        match self.value(name)? {
            Value::Float(f) => Ok(f),
            Value::Int(n) => Ok(n as f64),
            other => Err(wrong_type(name, "real", other)),
        }
    }

    pub fn get_bool(&self, name: &str) -> Result<bool, SettingError> {
        match self.value(name)? {
            Value::Bool(b) => Ok(b),
            other => Err(wrong_type(name, "bool", other)),
        }
    }

    /// An enum's value, in its canonical spelling.
    pub fn get_enum(&self, name: &str) -> Result<&'static str, SettingError> {
        match self.value(name)? {
            Value::Enum(e) => Ok(e),
            other => Err(wrong_type(name, "enum", other)),
        }
    }

    /// A duration, in nanoseconds (virtual time).
    pub fn get_nanos(&self, name: &str) -> Result<u64, SettingError> {
        match self.value(name)? {
            Value::Duration { nanos, .. } => Ok(nanos),
            other => Err(wrong_type(name, "duration", other)),
        }
    }

    pub fn get_duration(&self, name: &str) -> Result<Duration, SettingError> {
        self.get_nanos(name).map(Duration::from_nanos)
    }

    /// Every setting, in registry order, for the UI.
    pub fn list(&self) -> Vec<SettingInfo> {
        REGISTRY
            .iter()
            .zip(&self.values)
            .map(|(def, value)| info(def, value))
            .collect()
    }

    /// The settings that differ from their default, as `(name, shown value)`.
    pub fn changed(&self) -> Vec<(&'static str, String)> {
        REGISTRY
            .iter()
            .zip(&self.values)
            .filter(|(def, value)| def.kind.default_value() != **value)
            .map(|(def, value)| (def.name, format::show(value)))
            .collect()
    }

    /// Rules between settings, checked before a run (each `SET` alone cannot
    /// know the order the user will set them in).
    pub fn check_consistency(&self) -> Result<(), SettingError> {
        let rf = self.get_int("replication_factor")?;
        let servers = self.get_int("tablet_servers")?;
        if rf > servers {
            return Err(SettingError::Inconsistent {
                message: format!(
                    "replication_factor ({rf}) cannot exceed tablet_servers ({servers}): \
                     each replica needs its own server"
                ),
            });
        }
        Ok(())
    }
}

fn find(name: &str) -> Result<(usize, &'static SettingDef), SettingError> {
    registry::lookup(name).ok_or_else(|| SettingError::Unknown {
        name: name.trim().to_string(),
    })
}

/// A typed getter used on a setting of another type: a bug in the engine, which
/// the registry tests catch; reported rather than panicking.
fn wrong_type(name: &str, expected: &'static str, actual: Value) -> SettingError {
    let actual = match actual {
        Value::Int(_) => "integer",
        Value::Bytes(_) => "bytes",
        Value::Float(_) => "real",
        Value::Bool(_) => "bool",
        Value::Enum(_) => "enum",
        Value::Duration { .. } => "duration",
    };
    SettingError::WrongType {
        name: find(name).map_or("?", |(_, d)| d.name),
        expected,
        actual,
    }
}

/// `8kB` stays, `1B` becomes `B`: what one bare unit of a number counts.
fn unit_label(shown: String) -> String {
    match shown.strip_prefix('1') {
        Some(rest) if !rest.starts_with(|c: char| c.is_ascii_digit()) => rest.to_string(),
        _ => shown,
    }
}

fn info(def: &'static SettingDef, value: &Value) -> SettingInfo {
    let (min, max) = format::bounds(&def.kind);
    let (unit, values) = match def.kind {
        Kind::Int { unit, .. } => (unit.to_string(), Vec::new()),
        Kind::Bytes { base, .. } => (format::show(&Value::Bytes(base)), Vec::new()),
        Kind::Duration { base, presets, .. } => (
            format::show(&Value::Duration {
                nanos: base,
                preset: None,
            }),
            presets.iter().map(|p| p.0).collect(),
        ),
        Kind::Enum { values, .. } => (String::new(), values.to_vec()),
        Kind::Float { .. } | Kind::Bool { .. } => (String::new(), Vec::new()),
    };
    SettingInfo {
        name: def.name,
        value: format::show(value),
        default: format::show(&def.kind.default_value()),
        type_name: def.kind.type_name(),
        unit: unit_label(unit),
        min,
        max,
        values,
        scope: def.scope,
        description: def.description,
    }
}
