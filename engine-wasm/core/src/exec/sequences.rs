//! Sequences made with CREATE SEQUENCE, and `nextval`, `currval`,
//! `setval` and `lastval` (PostgreSQL's `commands/sequence.c`), shared by
//! both profiles. A sequence is not transactional: a value handed out stays
//! handed out after a ROLLBACK, as in PostgreSQL. (A serial column's own
//! counter is its table's, `TableShape::sequences`.)

use crate::profile::Outcome;
use crate::sql::ast::CreateSequence;
use crate::sql::error::{ErrorKind, SqlError};

#[derive(Debug, Clone)]
pub struct Sequence {
    pub name: String,
    pub increment: i64,
    pub min: i64,
    pub max: i64,
    pub start: i64,
    pub cycle: bool,
    /// The last value handed out (or set); `start` before any.
    last_value: i64,
    /// Whether `last_value` has been handed out (false: the next nextval
    /// returns it).
    is_called: bool,
}

/// The sequences of a database, and the session's `currval`/`lastval`.
#[derive(Debug, Clone, Default)]
pub struct Sequences {
    list: Vec<Sequence>,
    /// Per sequence, the last value nextval or setval gave this session.
    current: Vec<(String, i64)>,
    /// The sequence nextval last ran on.
    last_used: Option<String>,
    /// The schemas of `search_path` that exist, in order: where an
    /// unqualified name is looked for.
    path: Vec<String>,
}

fn semantic(message: String) -> SqlError {
    SqlError::new(ErrorKind::Semantic, message)
}

fn execution(message: String) -> SqlError {
    SqlError::new(ErrorKind::Execution, message)
}

/// `'name'::regclass` as a sequence function reads its argument: folded
/// to lower case unless double-quoted.
pub fn relation_name(text: &str) -> String {
    super::schemas::relation_key(text).unwrap_or_else(|_| text.to_string())
}

impl Sequences {
    pub fn exists(&self, name: &str) -> bool {
        self.list.iter().any(|s| s.name == name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.list.iter().map(|s| s.name.as_str())
    }

    /// CREATE SEQUENCE; `name_taken` says whether any relation (a table, an
    /// index, a sequence) has the name (they share one namespace).
    pub fn create(&mut self, s: &CreateSequence, name_taken: bool) -> Result<Outcome, SqlError> {
        if name_taken {
            if s.if_not_exists {
                return Ok(Outcome::tag("CREATE SEQUENCE")
                    .notice(format!("relation \"{}\" already exists, skipping", s.name)));
            }
            return Err(semantic(format!("relation \"{}\" already exists", s.name)));
        }
        let sequence = define(s)?;
        self.list.push(sequence);
        Ok(Outcome::tag("CREATE SEQUENCE"))
    }

    /// DROP SEQUENCE [IF EXISTS] names.
    pub fn drop(&mut self, names: &[String], if_exists: bool) -> Result<Outcome, SqlError> {
        let mut out = Outcome::tag("DROP SEQUENCE");
        for name in names {
            if !self.exists(name) {
                if if_exists {
                    out = out.notice(format!("sequence \"{name}\" does not exist, skipping"));
                    continue;
                }
                return Err(semantic(format!("sequence \"{name}\" does not exist")));
            }
        }
        self.list.retain(|s| !names.contains(&s.name));
        self.current.retain(|(n, _)| !names.contains(n));
        Ok(out)
    }

    /// `search_path`'s existing schemas changed.
    pub fn set_path(&mut self, path: Vec<String>) {
        self.path = path;
    }

    /// The key an unqualified `name` means: the first schema on the path
    /// that has it (as [`super::schemas::Schemas::resolve`]).
    fn resolved(&self, name: &str) -> String {
        if name.contains('.') {
            return name.to_string();
        }
        self.path
            .iter()
            .map(|s| super::schemas::qualify(s, name))
            .find(|key| self.exists(key))
            .unwrap_or_else(|| name.to_string())
    }

    fn get_mut(&mut self, name: &str) -> Result<&mut Sequence, SqlError> {
        self.list
            .iter_mut()
            .find(|s| s.name == name)
            .ok_or_else(|| semantic(format!("relation \"{name}\" does not exist")))
    }

    fn remember(&mut self, name: &str, value: i64) {
        match self.current.iter_mut().find(|(n, _)| n == name) {
            Some(c) => c.1 = value,
            None => self.current.push((name.to_string(), value)),
        }
    }

    /// `nextval(name)`: the next value, wrapping with CYCLE, else an error
    /// past the bound.
    pub fn nextval(&mut self, name: &str) -> Result<i64, SqlError> {
        let key = self.resolved(name);
        let s = self.get_mut(&key)?;
        let value = if !s.is_called {
            s.last_value
        } else {
            match s.last_value.checked_add(s.increment) {
                Some(v) if (s.min..=s.max).contains(&v) => v,
                _ if s.cycle && s.increment > 0 => s.min,
                _ if s.cycle => s.max,
                _ => {
                    let (which, bound) = if s.increment > 0 {
                        ("maximum", s.max)
                    } else {
                        ("minimum", s.min)
                    };
                    return Err(execution(format!(
                        "nextval: reached {which} value of sequence \"{}\" ({bound})",
                        s.name
                    )));
                }
            }
        };
        s.last_value = value;
        s.is_called = true;
        let name = s.name.clone();
        self.remember(&name, value);
        self.last_used = Some(name);
        Ok(value)
    }

    /// `currval(name)`: what nextval last gave this session.
    pub fn currval(&mut self, name: &str) -> Result<i64, SqlError> {
        let key = self.resolved(name);
        self.get_mut(&key)?;
        self.current
            .iter()
            .find(|(n, _)| *n == key)
            .map(|c| c.1)
            .ok_or_else(|| {
                execution(format!(
                    "currval of sequence \"{name}\" is not yet defined in this session"
                ))
            })
    }

    /// `lastval()`: what nextval last gave this session, of any sequence.
    pub fn lastval(&mut self) -> Result<i64, SqlError> {
        let missing = || execution("lastval is not yet defined in this session".into());
        let name = self.last_used.clone().ok_or_else(missing)?;
        self.currval(&name).map_err(|_| missing())
    }

    /// `setval(name, value [, is_called])`.
    pub fn setval(&mut self, name: &str, value: i64, is_called: bool) -> Result<i64, SqlError> {
        let key = self.resolved(name);
        let s = self.get_mut(&key)?;
        if !(s.min..=s.max).contains(&value) {
            return Err(execution(format!(
                "setval: value {value} is out of bounds for sequence \"{}\" ({}..{})",
                s.name, s.min, s.max
            )));
        }
        s.last_value = value;
        s.is_called = is_called;
        let name = s.name.clone();
        self.remember(&name, value);
        Ok(value)
    }
}

/// The sequence CREATE SEQUENCE describes (`init_params`): bounds from its
/// type and direction where not given, and PostgreSQL's checks.
fn define(s: &CreateSequence) -> Result<Sequence, SqlError> {
    let (type_min, type_max) = s.type_range;
    let increment = s.increment.unwrap_or(1);
    if increment == 0 {
        return Err(semantic("INCREMENT must not be zero".into()));
    }
    let max = s.max.unwrap_or(if increment > 0 { type_max } else { -1 });
    let min = s.min.unwrap_or(if increment > 0 { 1 } else { type_min });
    for (what, v) in [("MAXVALUE", max), ("MINVALUE", min)] {
        if v < type_min || v > type_max {
            return Err(semantic(format!(
                "{what} ({v}) is out of range for sequence data type {}",
                s.type_name
            )));
        }
    }
    if min >= max {
        return Err(semantic(format!(
            "MINVALUE ({min}) must be less than MAXVALUE ({max})"
        )));
    }
    let start = s.start.unwrap_or(if increment > 0 { min } else { max });
    if start < min {
        return Err(semantic(format!(
            "START value ({start}) cannot be less than MINVALUE ({min})"
        )));
    }
    if start > max {
        return Err(semantic(format!(
            "START value ({start}) cannot be greater than MAXVALUE ({max})"
        )));
    }
    Ok(Sequence {
        name: s.name.clone(),
        increment,
        min,
        max,
        start,
        cycle: s.cycle,
        last_value: start,
        is_called: false,
    })
}
