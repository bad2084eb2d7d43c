//! One aggregate's transition state over a group's rows (PostgreSQL's
//! `transfn` / `finalfn` pair), and the key a group is found by.

use crate::sql::ast::{AggFunc, Expr};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::compare;
use crate::sql::numeric::numeric_error;
use crate::value::{Numeric, SqlType, Value};
use std::collections::HashSet;

/// A row's group-by values in a form that hashes: GROUP BY puts equal values
/// together and all NULLs in one group.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum KeyPart {
    Null,
    Int(i64),
    /// The float's bits, with -0 read as 0 (they are equal in SQL).
    Float(u64),
    Text(String),
    Bool(bool),
    Timestamp(i64),
    Tid(u64),
    /// An interval by `interval_cmp`'s value: `1 mon` and `30 days` are
    /// one group, as in PostgreSQL.
    Interval(i128),
    /// A numeric without trailing zeros: `1.5` and `1.50` are one group.
    Numeric(String),
    Bytes(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GroupKey(Vec<KeyPart>);

/// PostgreSQL's `json` has no equality operator (only `jsonb` has one):
/// GROUP BY, DISTINCT, UNION and `count(DISTINCT …)` of a json value fail.
pub fn no_json_equality() -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        "could not identify an equality operator for type json",
    )
}

/// … and no ordering operator: ORDER BY a json value fails.
pub fn no_json_ordering() -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        "could not identify an ordering operator for type json",
    )
}

/// ORDER BY's check of the values it sorts by.
pub fn check_sortable<'v>(mut values: impl Iterator<Item = &'v Value>) -> Result<(), SqlError> {
    match values.any(|v| matches!(v, Value::Json(_))) {
        true => Err(no_json_ordering()),
        false => Ok(()),
    }
}

impl GroupKey {
    /// The key of values GROUP BY or DISTINCT compares for equality.
    pub fn checked(values: &[Value]) -> Result<GroupKey, SqlError> {
        match values.iter().any(|v| matches!(v, Value::Json(_))) {
            true => Err(no_json_equality()),
            false => Ok(GroupKey::of(values)),
        }
    }

    pub fn of(values: &[Value]) -> GroupKey {
        GroupKey(
            values
                .iter()
                .map(|v| match v {
                    Value::Null => KeyPart::Null,
                    Value::Int(i) => KeyPart::Int(*i),
                    Value::Float(f) => KeyPart::Float(if *f == 0.0 { 0 } else { f.to_bits() }),
                    Value::Text(s) => KeyPart::Text(s.to_string()),
                    Value::Bool(b) => KeyPart::Bool(*b),
                    Value::Timestamp(t) | Value::LocalTimestamp(t) => KeyPart::Timestamp(*t),
                    Value::Date(d) => KeyPart::Int(i64::from(*d)),
                    Value::Interval(iv) => KeyPart::Interval(iv.cmp_key()),
                    Value::Tid(t) => KeyPart::Tid(*t),
                    Value::Bytea(b) => KeyPart::Bytes(b.to_vec()),
                    Value::Json(s) => KeyPart::Text(s.to_string()),
                    // Equal jsonb values (1 and 1.0 included) group together.
                    Value::Jsonb(j) => KeyPart::Text(j.group_key()),
                    // Equal numerics group together whatever their scales.
                    Value::Numeric(n) => numeric_part(n),
                    Value::Real(f) => KeyPart::Float(if *f == 0.0 {
                        0
                    } else {
                        f64::from(*f).to_bits()
                    }),
                })
                .collect(),
        )
    }
}

/// A numeric's key part: equal values alike whatever their scales, and an
/// integral one as the integer it equals (a column of `coalesce(int,
/// numeric)` holds both kinds of value).
fn numeric_part(n: &Numeric) -> KeyPart {
    let n = n.normalized();
    match n.to_i64_rounded() {
        Ok(i) if n.scale() == 0 => KeyPart::Int(i),
        _ => KeyPart::Numeric(n.to_string()),
    }
}

/// The running state of one aggregate call in one group.
#[derive(Debug)]
pub struct Accumulator {
    func: AggFunc,
    /// `count(*)` has none: it counts rows, NULLs included.
    has_argument: bool,
    /// `FILTER (WHERE …)`: each row brings whether it counts.
    has_filter: bool,
    /// Values already seen, for `agg(DISTINCT x)`.
    seen: Option<HashSet<GroupKey>>,
    count: i64,
    int_sum: i128,
    float_sum: f64,
    /// Whether the values summed are floats (sum and avg of float8).
    floats: bool,
    /// The numeric values summed (sum and avg of numeric).
    numeric_sum: Option<Numeric>,
    /// sum() of bigint (and of numeric) is numeric; of smallint and
    /// integer it is bigint (PostgreSQL's int2_sum / int4_sum / int8_sum).
    sum_is_numeric: bool,
    best: Option<Value>,
    /// string_agg: the values so far, and the delimiter put between them.
    /// With DISTINCT, PostgreSQL sorts the values first (the aggregate's
    /// input is sorted to find the duplicates), so they join in order.
    parts: Vec<String>,
    separator: String,
    /// `ORDER BY` inside the call: each value's sort keys, and how each
    /// key sorts (order, NULLs first).
    keys: Vec<Vec<Value>>,
    key_order: Vec<(crate::sql::ast::Order, bool)>,
    /// The argument's type, for the error of a string_agg of no text.
    arg_type: Option<SqlType>,
}

fn no_function(func: AggFunc, v: &Value) -> SqlError {
    let ty = match v {
        Value::Text(_) => "text",
        Value::Bool(_) => "boolean",
        Value::Timestamp(_) => "timestamp with time zone",
        Value::Int(_) => "bigint",
        Value::Float(_) => "double precision",
        Value::Tid(_) => "tid",
        Value::Real(_) => "real",
        Value::Numeric(_) => "numeric",
        Value::Bytea(_) => "bytea",
        Value::Json(_) => "json",
        Value::Jsonb(_) => "jsonb",
        Value::Null => "unknown",
        Value::Date(_) | Value::LocalTimestamp(_) | Value::Interval(_) => {
            let name = v.datetime_type().map_or("", |t| t.pg_name());
            if name == "interval" {
                return crate::sql::error::unsupported(format!("{}(interval)", func.name()));
            }
            name
        }
    };
    SqlError::new(
        ErrorKind::Semantic,
        format!("function {}({ty}) does not exist", func.name()),
    )
}

impl Accumulator {
    /// A fresh state for `call`, an [`Expr::Aggregate`] whose argument is of
    /// type `arg_type` (None: not known, taken as an integer's).
    pub fn for_call(call: &Expr, arg_type: Option<SqlType>) -> Accumulator {
        let Expr::Aggregate {
            func,
            arg,
            distinct,
            separator,
            order_by,
            filter,
        } = call
        else {
            unreachable!("the grouping plan only keeps aggregate calls")
        };
        Accumulator {
            func: *func,
            has_argument: arg.is_some(),
            has_filter: filter.is_some(),
            seen: distinct.then(HashSet::new),
            count: 0,
            int_sum: 0,
            float_sum: 0.0,
            floats: false,
            numeric_sum: None,
            sum_is_numeric: matches!(arg_type, Some(SqlType::Int8 | SqlType::Numeric(_))),
            best: None,
            parts: Vec::new(),
            keys: Vec::new(),
            key_order: order_by
                .iter()
                .map(|o| (o.order, o.nulls_come_first()))
                .collect(),
            arg_type,
            separator: match separator {
                Some(Value::Text(s)) => s.to_string(),
                _ => String::new(),
            },
        }
    }

    pub fn takes_argument(&self) -> bool {
        self.has_argument
    }

    pub fn takes_filter(&self) -> bool {
        self.has_filter
    }

    /// How many sort keys (`ORDER BY` inside the call) each row brings.
    pub fn sort_keys(&self) -> usize {
        self.key_order.len()
    }

    /// Adds one row's argument with its sort keys (see [`Self::add`]).
    pub fn add_sorted(&mut self, value: Option<&Value>, keys: &[Value]) -> Result<(), SqlError> {
        let before = self.parts.len();
        self.add(value)?;
        if self.parts.len() > before {
            self.keys.push(keys.to_vec());
        }
        Ok(())
    }

    /// Adds one row's argument (`None` for `count(*)`). NULLs are skipped, as
    /// every aggregate but `count(*)` skips them.
    pub fn add(&mut self, value: Option<&Value>) -> Result<(), SqlError> {
        let Some(v) = value else {
            self.count += 1;
            return Ok(());
        };
        if v.is_null() {
            return Ok(());
        }
        if let Some(seen) = &mut self.seen {
            if !seen.insert(GroupKey::checked(std::slice::from_ref(v))?) {
                return Ok(());
            }
        }
        self.count += 1;
        match self.func {
            AggFunc::Count => {}
            AggFunc::Sum | AggFunc::Avg => match v {
                Value::Int(i) => self.int_sum += i128::from(*i),
                Value::Numeric(n) => {
                    let sum = match &self.numeric_sum {
                        Some(s) => s.add(n).map_err(numeric_error)?,
                        None => **n,
                    };
                    self.numeric_sum = Some(sum);
                }
                Value::Float(f) => {
                    self.floats = true;
                    self.float_sum += f;
                }
                Value::Real(_) => {
                    return Err(crate::sql::error::unsupported(format!(
                        "{}() of real (float4 arithmetic); cast it: {}(x::float8)",
                        self.func.name(),
                        self.func.name()
                    )))
                }
                other => return Err(no_function(self.func, other)),
            },
            AggFunc::Min | AggFunc::Max => {
                let better = match &self.best {
                    None => true,
                    Some(b) => {
                        let ord = compare(v, b).ok_or_else(|| no_function(self.func, v))?;
                        if self.func == AggFunc::Min {
                            ord.is_lt()
                        } else {
                            ord.is_gt()
                        }
                    }
                };
                if better {
                    self.best = Some(v.clone());
                }
            }
            AggFunc::StringAgg => {
                let Value::Text(text) = v else {
                    let ty = self.arg_type.map_or("unknown", SqlType::pg_name);
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        format!("function string_agg({ty}, unknown) does not exist"),
                    ));
                };
                self.parts.push(text.to_string());
            }
        }
        Ok(())
    }

    /// The sum of the integers and numerics added, as a numeric.
    fn exact_sum(&self) -> Result<Numeric, SqlError> {
        let ints = Numeric::from_i128(self.int_sum).map_err(numeric_error)?;
        match &self.numeric_sum {
            Some(n) => n.add(&ints).map_err(numeric_error),
            None => Ok(ints),
        }
    }

    /// The aggregate's result for the group.
    pub fn finish(self) -> Result<Value, SqlError> {
        Ok(match self.func {
            AggFunc::Count => Value::Int(self.count),
            _ if self.count == 0 => Value::Null,
            AggFunc::Sum if self.floats => Value::Float(self.float_sum),
            AggFunc::Sum if self.sum_is_numeric || self.numeric_sum.is_some() => {
                Value::numeric(self.exact_sum()?)
            }
            AggFunc::Sum => Value::Int(
                i64::try_from(self.int_sum)
                    .map_err(|_| SqlError::new(ErrorKind::Execution, "bigint out of range"))?,
            ),
            AggFunc::Avg if self.floats => Value::Float(self.float_sum / self.count as f64),
            // PostgreSQL's avg of integers and numerics is numeric_div(sum, count):
            // `2.5000000000000000`.
            AggFunc::Avg => {
                let count = Numeric::from_i64(self.count);
                Value::numeric(self.exact_sum()?.div(&count).map_err(numeric_error)?)
            }
            AggFunc::Min | AggFunc::Max => self.best.unwrap_or(Value::Null),
            AggFunc::StringAgg => {
                let mut parts = self.parts;
                if !self.key_order.is_empty() {
                    // A stable sort: equal keys keep the input's order.
                    let mut keyed: Vec<_> = self.keys.into_iter().zip(parts).collect();
                    let order = &self.key_order;
                    keyed.sort_by(|(a, _), (b, _)| {
                        (order.iter().enumerate())
                            .map(|(i, (o, nf))| {
                                crate::exec::select::sql_order(&a[i], &b[i], *o, *nf)
                            })
                            .find(|c| c.is_ne())
                            .unwrap_or(std::cmp::Ordering::Equal)
                    });
                    parts = keyed.into_iter().map(|(_, p)| p).collect();
                } else if self.seen.is_some() {
                    parts.sort();
                }
                Value::text(parts.join(&self.separator))
            }
        })
    }
}
