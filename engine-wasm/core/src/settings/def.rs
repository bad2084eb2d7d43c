//! What a setting is: its name, type, default, accepted range and meaning.
//!
//! Values are held in one canonical unit per type, whatever unit the user wrote:
//! sizes in bytes, durations in nanoseconds (cost constants need sub-microsecond
//! precision, which PostgreSQL's integer base units could not hold).

/// Which database profile a setting belongs to. Settings of the other profile are
/// still accepted, so one script runs on both; the caller prints a notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    Pg,
    Yb,
    Both,
}

impl Scope {
    pub fn covers_pg(self) -> bool {
        matches!(self, Scope::Pg | Scope::Both)
    }

    pub fn covers_yb(self) -> bool {
        matches!(self, Scope::Yb | Scope::Both)
    }

    /// The notice for a SET or RESET of a setting of this scope that `profile`
    /// ("pg" or "yb") ignores; `None` when the profile uses it.
    pub fn ignored_by(self, profile: &str, name: &str) -> Option<String> {
        match profile {
            "pg" if !self.covers_pg() => Some(format!(
                "setting \"{name}\" belongs to the {} profile; the pg profile ignores it",
                self.name()
            )),
            "yb" if !self.covers_yb() => Some(format!(
                "setting \"{name}\" belongs to the PostgreSQL profile; the yb profile ignores it"
            )),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::Pg => "pg",
            Scope::Yb => "yb",
            Scope::Both => "both",
        }
    }
}

/// A rule beyond the range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    None,
    /// Page sizes: PostgreSQL's `BLCKSZ` must be a power of two.
    PowerOfTwo,
    /// Replication factors: a Raft group needs an odd number of voters.
    Odd,
}

/// A setting's type, with its default and range in the canonical unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A plain integer; `unit` is only a label for the UI (`rows`, `%`).
    Int {
        default: i64,
        min: i64,
        max: i64,
        unit: &'static str,
    },
    /// A size in bytes; a bare number counts in `base` bytes (8192 for
    /// `shared_buffers`, as PostgreSQL counts it in pages).
    Bytes {
        default: u64,
        min: u64,
        max: u64,
        base: u64,
    },
    Float {
        default: f64,
        min: f64,
        max: f64,
    },
    Bool {
        default: bool,
    },
    /// One of `values` (the first spelling is shown).
    Enum {
        default: &'static str,
        values: &'static [&'static str],
    },
    /// A duration in nanoseconds; a bare number counts in `base` nanoseconds.
    /// `presets` are names that stand for a duration (`multi-az` = 0.8 ms).
    Duration {
        default: u64,
        min: u64,
        max: u64,
        base: u64,
        presets: &'static [(&'static str, u64)],
    },
}

impl Kind {
    /// The type's name for the UI, close to `pg_settings.vartype`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Kind::Int { .. } => "integer",
            Kind::Bytes { .. } => "bytes",
            Kind::Float { .. } => "real",
            Kind::Bool { .. } => "bool",
            Kind::Enum { .. } => "enum",
            Kind::Duration { .. } => "duration",
        }
    }

    pub fn default_value(&self) -> Value {
        match *self {
            Kind::Int { default, .. } => Value::Int(default),
            Kind::Bytes { default, .. } => Value::Bytes(default),
            Kind::Float { default, .. } => Value::Float(default),
            Kind::Bool { default } => Value::Bool(default),
            Kind::Enum { default, .. } => Value::Enum(default),
            Kind::Duration {
                default, presets, ..
            } => Value::Duration {
                nanos: default,
                preset: presets.iter().find(|p| p.1 == default).map(|p| p.0),
            },
        }
    }
}

/// A setting's current value, in the canonical unit of its [`Kind`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Int(i64),
    Bytes(u64),
    Float(f64),
    Bool(bool),
    Enum(&'static str),
    /// Nanoseconds, and the preset name it was set by, if any (shown as such).
    Duration {
        nanos: u64,
        preset: Option<&'static str>,
    },
}

/// One entry of the registry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SettingDef {
    pub name: &'static str,
    pub kind: Kind,
    pub scope: Scope,
    pub check: Check,
    /// One line for the UI.
    pub description: &'static str,
    /// Said with a range error, when the bare range needs explaining.
    pub range_note: Option<&'static str>,
    /// Read once, when the engine starts (the pool's size, the cluster's
    /// servers): like PostgreSQL's `postmaster` parameters, `SET` refuses it.
    pub at_start: bool,
}

impl SettingDef {
    /// The same setting with an extra rule.
    pub const fn checked(mut self, check: Check) -> SettingDef {
        self.check = check;
        self
    }

    /// The same setting with an explanation for range errors.
    pub const fn note(mut self, note: &'static str) -> SettingDef {
        self.range_note = Some(note);
        self
    }

    /// The same setting, fixed when the engine starts.
    pub const fn fixed_at_start(mut self) -> SettingDef {
        self.at_start = true;
        self
    }
}

const fn def(
    name: &'static str,
    kind: Kind,
    scope: Scope,
    description: &'static str,
) -> SettingDef {
    SettingDef {
        name,
        kind,
        scope,
        check: Check::None,
        description,
        range_note: None,
        at_start: false,
    }
}

/// Short constructors that keep the registry one line of data per setting.
pub const KB: u64 = 1024;
pub const MB: u64 = 1024 * KB;
pub const GB: u64 = 1024 * MB;
pub const NS: u64 = 1;
pub const US: u64 = 1000 * NS;
pub const MS: u64 = 1000 * US;
pub const SEC: u64 = 1000 * MS;

pub const fn int(
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
    unit: &'static str,
    scope: Scope,
    description: &'static str,
) -> SettingDef {
    def(
        name,
        Kind::Int {
            default,
            min,
            max,
            unit,
        },
        scope,
        description,
    )
}

pub const fn bytes(
    name: &'static str,
    default: u64,
    min: u64,
    max: u64,
    base: u64,
    scope: Scope,
    description: &'static str,
) -> SettingDef {
    def(
        name,
        Kind::Bytes {
            default,
            min,
            max,
            base,
        },
        scope,
        description,
    )
}

pub const fn float(
    name: &'static str,
    default: f64,
    min: f64,
    max: f64,
    scope: Scope,
    description: &'static str,
) -> SettingDef {
    def(name, Kind::Float { default, min, max }, scope, description)
}

pub const fn boolean(
    name: &'static str,
    default: bool,
    scope: Scope,
    description: &'static str,
) -> SettingDef {
    def(name, Kind::Bool { default }, scope, description)
}

pub const fn one_of(
    name: &'static str,
    default: &'static str,
    values: &'static [&'static str],
    scope: Scope,
    description: &'static str,
) -> SettingDef {
    def(name, Kind::Enum { default, values }, scope, description)
}

pub const fn duration(
    name: &'static str,
    default: u64,
    max: u64,
    base: u64,
    scope: Scope,
    description: &'static str,
) -> SettingDef {
    def(
        name,
        Kind::Duration {
            default,
            min: 0,
            max,
            base,
            presets: &[],
        },
        scope,
        description,
    )
}

pub const fn latency(
    name: &'static str,
    default: u64,
    max: u64,
    base: u64,
    presets: &'static [(&'static str, u64)],
    scope: Scope,
    description: &'static str,
) -> SettingDef {
    def(
        name,
        Kind::Duration {
            default,
            min: 0,
            max,
            base,
            presets,
        },
        scope,
        description,
    )
}
