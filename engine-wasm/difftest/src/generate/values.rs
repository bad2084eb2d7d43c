//! Columns, literals and WHERE conditions.

use super::Gen;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Type {
    Int,
    BigInt,
    SmallInt,
    Text,
    /// `varchar(n)`: longer texts are an error.
    Varchar(u32),
    /// `char(n)`: blank-padded, compared without its trailing blanks.
    Char(u32),
    Date,
    Timestamp,
    Interval,
    /// `numeric(p,s)`: every stored value has scale s (an unconstrained
    /// numeric would keep each literal's scale, and `3` and `3.0` are one
    /// value to a unique index but two to IndexLab's key bytes).
    Numeric(u32, u32),
}

impl Type {
    pub fn sql(self) -> String {
        match self {
            Type::Int => "int".into(),
            Type::BigInt => "bigint".into(),
            Type::SmallInt => "smallint".into(),
            Type::Text => "text".into(),
            Type::Varchar(n) => format!("varchar({n})"),
            Type::Char(n) => format!("char({n})"),
            Type::Date => "date".into(),
            Type::Timestamp => "timestamp".into(),
            Type::Interval => "interval".into(),
            Type::Numeric(p, s) => format!("numeric({p},{s})"),
        }
    }

    pub fn is_text(self) -> bool {
        matches!(self, Type::Text | Type::Varchar(_) | Type::Char(_))
    }

    pub fn is_datetime(self) -> bool {
        matches!(self, Type::Date | Type::Timestamp | Type::Interval)
    }

    /// A value of this date/time type made from the integer expression `n`
    /// (a series' `g`, a loop's `i`), so rows differ and repeat.
    pub fn made_from_integer(self, n: &str) -> String {
        match self {
            Type::Date => format!("date '2016-01-01' + {n}"),
            Type::Timestamp => format!("timestamp '2016-01-01' + ({n}) * interval '6 hours'"),
            _ => format!("({n}) * interval '1 hour'"),
        }
    }

    /// `column` moved a little, as an UPDATE's new value.
    pub fn shifted(self, g: &mut Gen, column: &str) -> String {
        match (self, g.below(2)) {
            (Type::Date, 0) => format!("{column} + {}", g.range(-2, 3)),
            (Type::Date, _) => format!("{column} - interval '1 day'"),
            (Type::Timestamp, 0) => format!("{column} + interval '90 minutes'"),
            (Type::Timestamp, _) => format!("{column} - interval '1 mon'"),
            (_, 0) => format!("{column} * 2"),
            _ => format!("{column} - interval '30 minutes'"),
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Column {
    pub name: &'static str,
    pub ty: Type,
    pub not_null: bool,
    pub unique: bool,
    pub default: Option<String>,
}

impl Column {
    pub fn new(name: &'static str, ty: Type) -> Column {
        Column {
            name,
            ty,
            not_null: false,
            unique: false,
            default: None,
        }
    }

    /// Now and then NOT NULL, UNIQUE or a DEFAULT.
    pub fn constraints(&mut self, g: &mut Gen) {
        self.not_null = g.chance(8);
        self.unique = g.chance(6);
        if g.chance(15) {
            self.default = Some(value(g, self.ty));
        }
    }

    /// The constraints as CREATE TABLE writes them after the type.
    pub fn constraint_sql(&self) -> String {
        let mut out = String::new();
        if self.not_null {
            out.push_str(" not null");
        }
        if self.unique {
            out.push_str(" unique");
        }
        if let Some(d) = &self.default {
            out.push_str(&format!(" default {d}"));
        }
        out
    }
}

/// Texts that sort in interesting ways in the C collation (case, spaces,
/// prefixes); never empty (see the module docs of `generate`).
const TEXTS: &[&str] = &["a", "ab", "abc", "B", "b", "zz", "a b", "x"];

/// A small integer: small enough that conditions match and values repeat.
pub(crate) fn int_value(g: &mut Gen) -> i64 {
    g.range(-3, 30)
}

/// A literal of type `ty`, NULL one time in ten.
pub(crate) fn literal(g: &mut Gen, ty: Type) -> String {
    if g.chance(10) {
        return "null".into();
    }
    value(g, ty)
}

/// A literal that is not NULL (a text that fits a `varchar(n)` but now and then).
pub(crate) fn value(g: &mut Gen, ty: Type) -> String {
    match ty {
        Type::Varchar(n) | Type::Char(n) if g.chance(95) => {
            let fits: Vec<&&str> = TEXTS.iter().filter(|t| t.len() <= n as usize).collect();
            format!("'{}'", g.pick(&fits))
        }
        _ if ty.is_text() => format!("'{}'", g.pick(TEXTS)),
        _ if ty.is_datetime() => datetime_value(g, ty),
        // An integer now and then; else decimals, one more than the scale
        // at times (rounded on the way in).
        Type::Numeric(_, s) if g.chance(70) => {
            let digits = s + u32::from(g.chance(30));
            let frac = g.below(10u64.pow(digits));
            format!("{}.{frac:0width$}", int_value(g), width = digits as usize)
        }
        _ => int_value(g).to_string(),
    }
}

/// A date/time literal: quoted alone (typed by the column it meets) or
/// typed (`date '…'`). Dates and timestamps are fixed-width ISO text, so
/// quoted ones also sort as text sorts; intervals are always typed and only
/// in hours or days below a day's hours, so no two equal intervals (`1 day`,
/// `24 hours`) are written differently (IndexLab's index keys would order
/// them apart, see btree::key).
fn datetime_value(g: &mut Gen, ty: Type) -> String {
    let typed = g.chance(30);
    match ty {
        Type::Date => {
            let text = format!("'2016-01-{:02}'", g.range(1, 9));
            if typed {
                format!("date {text}")
            } else {
                text
            }
        }
        Type::Timestamp => {
            let text = format!(
                "'2016-01-{:02} {:02}:00:00'",
                g.range(1, 9),
                g.pick(&[0, 6, 12, 18])
            );
            if typed {
                format!("timestamp {text}")
            } else {
                text
            }
        }
        _ => match g.below(3) {
            0 => format!("interval '{} days'", g.range(0, 3)),
            _ => format!("interval '{} hours'", g.range(-3, 20)),
        },
    }
}

/// A value no other row has (for a UNIQUE column), from a counter.
pub(crate) fn fresh_value(ty: Type, n: i64) -> String {
    match ty {
        Type::Varchar(w) | Type::Char(w) if w < 4 => format!("'{}'", 10 + n.rem_euclid(90)),
        _ if ty.is_text() => format!("'u{n}'"),
        Type::Date => format!("date '2017-01-01' + {n}"),
        Type::Timestamp => format!("timestamp '2017-01-01' + {n} * interval '1 minute'"),
        Type::Interval => format!("{} * interval '1 second'", 100 + n),
        Type::Numeric(..) => format!("{}.5", 100 + n),
        _ => (100 + n).to_string(),
    }
}

/// A WHERE condition over `columns` (qualified by `table` when given), nested
/// at most `depth` levels of AND/OR/NOT.
pub(crate) fn condition(
    g: &mut Gen,
    columns: &[Column],
    table: Option<&str>,
    depth: u32,
) -> String {
    if depth > 0 && g.chance(40) {
        let left = condition(g, columns, table, depth - 1);
        let right = condition(g, columns, table, depth - 1);
        return match g.below(5) {
            0..=2 => format!("{left} and {right}"),
            3 => format!("({left} or {right})"),
            _ => format!("not ({left})"),
        };
    }
    let c = g.pick(columns).clone();
    let name = match table {
        Some(t) => format!("{t}.{}", c.name),
        None => c.name.to_string(),
    };
    match g.below(12) {
        0..=4 => {
            let op = g.pick(&["=", "<>", "<", "<=", ">", ">="]);
            let v = if g.chance(4) {
                "null".into()
            } else {
                value(g, c.ty)
            };
            format!("{name} {op} {v}")
        }
        5..=6 => {
            let n = 1 + g.below(4);
            let list: Vec<String> = (0..n).map(|_| literal(g, c.ty)).collect();
            let not = if g.chance(40) { "not " } else { "" };
            format!("{name} {not}in ({})", list.join(", "))
        }
        7..=8 => {
            let (lo, hi) = (value(g, c.ty), value(g, c.ty));
            let not = if g.chance(25) { "not " } else { "" };
            format!("{name} {not}between {lo} and {hi}")
        }
        9 => {
            let not = if g.chance(50) { "not " } else { "" };
            format!("{name} is {not}null")
        }
        _ => {
            // Two bounds on one column: each must be kept (`id < 10 and id < 2`).
            let op1 = g.pick(&["<", "<=", ">", ">="]);
            let op2 = g.pick(&["<", "<=", ">", ">=", "="]);
            let (v1, v2) = (value(g, c.ty), value(g, c.ty));
            format!("{name} {op1} {v1} and {name} {op2} {v2}")
        }
    }
}
