//! Key encoding: memcmp order equals SQL order, decode inverts encode, prefixes of
//! rows encode to byte prefixes.

use std::cmp::Ordering;

use proptest::prelude::*;

use super::key::*;
use crate::value::{SqlType, Value};

const TYPES: [SqlType; 12] = [
    SqlType::Date,
    SqlType::Timestamp,
    SqlType::Interval,
    SqlType::Numeric(None),
    SqlType::Int4,
    SqlType::Int8,
    SqlType::Timestamptz,
    SqlType::Text,
    SqlType::Bpchar(3),
    SqlType::Float8,
    SqlType::Bool,
    SqlType::Uuid,
];

/// SQL order of one column's values, ASC with NULLS LAST.
fn asc_cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Greater,
        (_, Value::Null) => Ordering::Less,
        (Value::Int(x), Value::Int(y)) | (Value::Timestamp(x), Value::Timestamp(y)) => x.cmp(y),
        (Value::Float(x), Value::Float(y)) => match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => x.partial_cmp(y).unwrap(),
        },
        (Value::Text(x), Value::Text(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Date(x), Value::Date(y)) => x.cmp(y),
        (Value::LocalTimestamp(x), Value::LocalTimestamp(y)) => x.cmp(y),
        // interval_cmp's order, ties (`1 mon` vs `30 days`) by the fields
        // the key keeps after it.
        (Value::Interval(x), Value::Interval(y)) => {
            (x.cmp_key(), x.months, x.days).cmp(&(y.cmp_key(), y.months, y.days))
        }
        // Equal numerics of different scales sort by scale (the key keeps it).
        (Value::Numeric(x), Value::Numeric(y)) => x.cmp(y).then(x.scale().cmp(&y.scale())),
        _ => unreachable!("values of one column share a type"),
    }
}

/// SQL order of two rows under the columns' directions (DESC: NULLS FIRST).
fn sql_cmp(a: &[Value], b: &[Value], cols: &[KeyColumn]) -> Ordering {
    for ((x, y), c) in a.iter().zip(b).zip(cols) {
        let ord = asc_cmp(x, y);
        let ord = if c.order == SortOrder::Desc {
            ord.reverse()
        } else {
            ord
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    Ordering::Equal
}

fn value(ty: SqlType) -> BoxedStrategy<Value> {
    let v = match ty {
        SqlType::Int4 => any::<i32>().prop_map(|n| Value::Int(n.into())).boxed(),
        SqlType::Int2 => any::<i16>().prop_map(|n| Value::Int(n.into())).boxed(),
        SqlType::Int8 => any::<i64>().prop_map(Value::Int).boxed(),
        SqlType::Timestamptz => prop_oneof![any::<i64>(), -3i64..3]
            .prop_map(Value::Timestamp)
            .boxed(),
        SqlType::Float8 => prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(-0.0),
            Just(0.0),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            -2.0f64..2.0,
        ]
        .prop_map(Value::Float)
        .boxed(),
        SqlType::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        SqlType::Date => prop_oneof![any::<i32>(), -3i32..3]
            .prop_map(Value::Date)
            .boxed(),
        SqlType::Timestamp => prop_oneof![any::<i64>(), -3i64..3]
            .prop_map(Value::LocalTimestamp)
            .boxed(),
        SqlType::Interval => (
            prop_oneof![any::<i64>(), Just(0i64), Just(86_400_000_000)],
            -40i32..40,
            -3i32..3,
        )
            .prop_map(|(micros, days, months)| {
                Value::Interval(Box::new(crate::value::Interval {
                    micros,
                    days,
                    months,
                }))
            })
            .boxed(),
        SqlType::Numeric(_) => (prop_oneof![any::<i64>(), -300i64..300], 0u32..5, 0u32..3)
            .prop_map(|(n, scale, pad)| {
                let unit = 10f64.powi(scale as i32);
                let text = format!("{:.*}e0", (scale + pad) as usize, n as f64 / unit);
                Value::numeric(crate::value::Numeric::parse(&text).unwrap())
            })
            .boxed(),
        SqlType::Float4 => prop_oneof![any::<f32>(), -2.0f32..2.0]
            .prop_map(Value::Real)
            .boxed(),
        SqlType::Tid => (any::<u32>(), any::<u16>())
            .prop_map(|(p, o)| Value::Tid((u64::from(p) << 16) | u64::from(o)))
            .boxed(),
        SqlType::Bytea | SqlType::Json | SqlType::Jsonb => {
            unreachable!("bytea, json and jsonb are never key columns")
        }
        // Held padded to its length: ordered as its bytes.
        SqlType::Bpchar(n) => prop::collection::vec(
            prop::sample::select(vec!['a', 'b', ' ', 'é']),
            0..=n as usize,
        )
        .prop_map(move |cs| {
            let s: String = cs.into_iter().collect();
            crate::sql::eval::to_bpchar(&s, n, true).unwrap()
        })
        .boxed(),
        SqlType::Point => (-3i64..3, -3i64..3)
            .prop_map(|(x, y)| Value::text(format!("({x},{y})")))
            .boxed(),
        SqlType::Text => prop::collection::vec(
            prop::sample::select(vec!['\0', '\u{1}', 'a', 'b', '\u{7f}', 'é', '中']),
            0..5,
        )
        .prop_map(|cs| Value::text(cs.into_iter().collect::<String>()))
        .boxed(),
        // Any 128 bits, as canonical text: their order must be the bytes'.
        SqlType::Uuid => (any::<u64>(), any::<u64>())
            .prop_map(|(h, l)| {
                let hex = format!("{h:016x}{l:016x}");
                Value::text(crate::value::parse_uuid(&hex).unwrap())
            })
            .boxed(),
    };
    prop_oneof![1 => Just(Value::Null), 5 => v].boxed()
}

fn schema() -> impl Strategy<Value = Vec<KeyColumn>> {
    let column = (prop::sample::select(TYPES.to_vec()), any::<bool>()).prop_map(|(ty, desc)| {
        if desc {
            KeyColumn::desc(ty)
        } else {
            KeyColumn::asc(ty)
        }
    });
    prop::collection::vec(column, 1..4)
}

fn row(cols: &[KeyColumn]) -> impl Strategy<Value = Vec<Value>> {
    cols.iter().map(|c| value(c.ty)).collect::<Vec<_>>()
}

fn two_rows() -> impl Strategy<Value = (Vec<KeyColumn>, Vec<Value>, Vec<Value>)> {
    schema().prop_flat_map(|cols| {
        let (a, b) = (row(&cols), row(&cols));
        (Just(cols), a, b)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn memcmp_order_is_sql_order((cols, a, b) in two_rows()) {
        let (ka, kb) = (encode_key(&a, &cols).unwrap(), encode_key(&b, &cols).unwrap());
        prop_assert_eq!(ka.cmp(&kb), sql_cmp(&a, &b, &cols), "{:?} vs {:?}", a, b);
    }

    #[test]
    fn decode_inverts_encode((cols, a, _b) in two_rows()) {
        let bytes = encode_key(&a, &cols).unwrap();
        let back = decode_key(&bytes, &cols).unwrap();
        prop_assert_eq!(sql_cmp(&a, &back, &cols), Ordering::Equal);
        prop_assert_eq!(encode_key(&back, &cols).unwrap(), bytes);
    }

    #[test]
    fn a_row_prefix_encodes_to_a_byte_prefix((cols, a, _b) in two_rows()) {
        let whole = encode_key(&a, &cols).unwrap();
        for k in 0..a.len() {
            let part = encode_key(&a[..k], &cols).unwrap();
            prop_assert!(whole.starts_with(&part));
        }
    }
}

#[test]
fn nulls_last_ascending_first_descending() {
    let asc = [KeyColumn::asc(SqlType::Int8)];
    let desc = [KeyColumn::desc(SqlType::Int8)];
    let (null, big) = ([Value::Null], [Value::Int(i64::MAX)]);
    assert!(encode_key(&null, &asc).unwrap() > encode_key(&big, &asc).unwrap());
    assert!(encode_key(&null, &desc).unwrap() < encode_key(&big, &desc).unwrap());
}

#[test]
fn text_prefixes_sort_first() {
    let cols = [KeyColumn::asc(SqlType::Text), KeyColumn::asc(SqlType::Int4)];
    let enc = |s: &str, n| encode_key(&[Value::text(s), Value::Int(n)], &cols).unwrap();
    assert!(enc("a", 9) < enc("a\0", 0));
    assert!(enc("a\0", 9) < enc("ab", 0));
    let desc = [
        KeyColumn::desc(SqlType::Text),
        KeyColumn::asc(SqlType::Int4),
    ];
    let enc_d = |s: &str, n| encode_key(&[Value::text(s), Value::Int(n)], &desc).unwrap();
    assert!(enc_d("ab", 0) < enc_d("a", 9));
}

#[test]
fn errors_are_typed() {
    let cols = [KeyColumn::asc(SqlType::Int4)];
    assert_eq!(
        encode_key(&[Value::Int(1 << 40)], &cols),
        Err(KeyError::OutOfRange { column: 0 })
    );
    assert!(matches!(
        encode_key(&[Value::text("x")], &cols),
        Err(KeyError::TypeMismatch { column: 0, .. })
    ));
    assert!(encode_key(&[Value::Int(1), Value::Int(2)], &cols).is_err());
    assert!(decode_key(&[0x01, 0x80], &cols).is_err());
    assert!(decode_key(&[0x07], &cols).is_err());
    let mut with_extra = encode_key(&[Value::Int(1)], &cols).unwrap();
    with_extra.push(0);
    assert!(decode_key(&with_extra, &cols).is_err());
}
