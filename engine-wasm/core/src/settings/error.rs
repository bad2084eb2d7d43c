//! Why a setting was refused, phrased as PostgreSQL phrases it.

use std::fmt;

use crate::sql::error::{ErrorKind, SqlError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingError {
    /// No such setting.
    Unknown { name: String },
    /// The text is not a value of the setting's type.
    Invalid {
        name: &'static str,
        value: String,
        hint: Option<String>,
    },
    /// A value of the right type outside the accepted range (bounds as shown).
    OutOfRange {
        name: &'static str,
        value: String,
        min: String,
        max: String,
        note: Option<&'static str>,
    },
    /// In range but breaking a rule (a page size that is not a power of two).
    Rule {
        name: &'static str,
        value: String,
        rule: &'static str,
    },
    /// Two settings that cannot hold together.
    Inconsistent { message: String },
    /// The engine asked for a setting with the wrong typed getter (a bug).
    WrongType {
        name: &'static str,
        expected: &'static str,
        actual: &'static str,
    },
}

impl SettingError {
    /// A suggestion to print after the message (PostgreSQL's `HINT:`).
    pub fn hint(&self) -> Option<String> {
        match self {
            SettingError::Invalid { hint, .. } => hint.clone(),
            SettingError::OutOfRange { note, .. } => note.map(str::to_string),
            _ => None,
        }
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Unknown { name } => {
                write!(f, "unrecognized configuration parameter \"{name}\"")
            }
            SettingError::Invalid { name, value, .. } => {
                write!(f, "invalid value for parameter \"{name}\": \"{value}\"")
            }
            SettingError::OutOfRange {
                name,
                value,
                min,
                max,
                ..
            } => write!(
                f,
                "{value} is outside the valid range for parameter \"{name}\" ({min} .. {max})"
            ),
            SettingError::Rule { name, value, rule } => {
                write!(
                    f,
                    "invalid value for parameter \"{name}\": \"{value}\": {rule}"
                )
            }
            SettingError::Inconsistent { message } => f.write_str(message),
            SettingError::WrongType {
                name,
                expected,
                actual,
            } => write!(f, "setting \"{name}\" is of type {actual}, not {expected}"),
        }
    }
}

impl std::error::Error for SettingError {}

impl SettingError {
    /// The error as SET, RESET, a hint's `Set()` and `--set` report it: the
    /// message alone, where the `From` conversion adds the setting's hint.
    pub fn without_hint(self) -> SqlError {
        SqlError::new(ErrorKind::Setting, self.to_string())
    }
}

impl From<SettingError> for SqlError {
    fn from(e: SettingError) -> SqlError {
        let err = SqlError::new(ErrorKind::Setting, e.to_string());
        match e.hint() {
            Some(hint) => err.with_hint(hint),
            None => err,
        }
    }
}
