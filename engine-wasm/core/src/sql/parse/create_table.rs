//! CREATE TABLE: columns with their constraints, the primary key, UNIQUE.
//!
//! PostgreSQL's column constraints are honoured (NOT NULL, DEFAULT, UNIQUE,
//! PRIMARY KEY, `varchar(n)`'s length); any other constraint is refused by
//! name rather than silently dropped, since a table that accepts what
//! PostgreSQL would refuse would teach wrong answers.

use super::{convert_type, key_columns};
use crate::sql::ast::{AddKey, ColumnDef, CreateTable, Expr, KeyColumn, Order};
use crate::sql::convert::{convert_expr, ident_name, relation_name};
use crate::sql::error::unsupported;
use crate::sql::error::SqlError;
use sqlparser::ast as sp;

/// `GENERATED { ALWAYS | BY DEFAULT } AS IDENTITY`: a serial column (its
/// sequence `table_column_seq`, NOT NULL) that, when ALWAYS, no INSERT or
/// UPDATE may set ([`crate::exec::row`]).
fn identity(
    def: &mut ColumnDef,
    how: &sp::GeneratedAs,
    options: Option<&[sp::SequenceOptions]>,
) -> Result<(), SqlError> {
    if options.is_some_and(|o| !o.is_empty()) {
        return Err(unsupported(
            "sequence options of an identity column (START WITH, INCREMENT BY…)",
        ));
    }
    use crate::value::SqlType::{Int2, Int4, Int8};
    if !matches!(def.ty, Int2 | Int4 | Int8) {
        return Err(crate::sql::error::SqlError::new(
            crate::sql::error::ErrorKind::Semantic,
            "identity column type must be smallint, integer, or bigint",
        ));
    }
    def.serial = true;
    def.not_null = true;
    def.generated_always = matches!(how, sp::GeneratedAs::Always);
    Ok(())
}

/// A column as CREATE TABLE and ALTER TABLE … ADD COLUMN write it, with the
/// PRIMARY KEY or UNIQUE written on it.
pub(super) struct ParsedColumn {
    pub def: ColumnDef,
    pub keys: Vec<AddKey>,
}

pub(super) fn convert_column(c: &sp::ColumnDef) -> Result<ParsedColumn, SqlError> {
    let (ty, serial) = convert_type(&c.data_type)?;
    let name = ident_name(&c.name);
    if crate::sql::eval::is_system_column(&name) {
        return Err(crate::sql::error::SqlError::new(
            crate::sql::error::ErrorKind::Semantic,
            format!("column name \"{name}\" conflicts with a system column name"),
        )
        .near(&name));
    }
    let mut def = ColumnDef::plain(name.clone(), ty);
    def.serial = serial;
    def.not_null = serial;
    def.max_chars = varchar_length(&c.data_type)?;
    let mut keys = Vec::new();
    let key = |constraint: &Option<sp::Ident>,
               primary: bool,
               c: &Option<sp::ConstraintCharacteristics>|
     -> Result<AddKey, SqlError> {
        Ok(AddKey {
            name: constraint.as_ref().map(ident_name),
            deferrable: super::alter_table::deferrable(c)?,
            columns: vec![KeyColumn {
                name: name.clone(),
                order: Order::Asc,
                hash: true,
                expr: None,
                hash_group: false,
            }],
            primary,
        })
    };
    for opt in &c.options {
        match &opt.option {
            sp::ColumnOption::PrimaryKey(pk) => {
                keys.push(key(&opt.name, true, &pk.characteristics)?)
            }
            sp::ColumnOption::Unique(u) => keys.push(key(&opt.name, false, &u.characteristics)?),
            sp::ColumnOption::NotNull => def.not_null = true,
            sp::ColumnOption::Null => {}
            sp::ColumnOption::Default(e) => def.default = Some(default_expr(e)?),
            sp::ColumnOption::Generated {
                generated_as,
                sequence_options,
                generation_expr: None,
                ..
            } => identity(&mut def, generated_as, sequence_options.as_deref())?,
            sp::ColumnOption::Generated {
                generation_expr: Some(e),
                generation_expr_mode: Some(sp::GeneratedExpressionMode::Stored),
                ..
            } => def.generated = Some(convert_expr(e)?),
            other => return Err(unsupported(format!("the column constraint {other}"))),
        }
    }
    Ok(ParsedColumn { def, keys })
}

pub(super) fn convert_create_table(t: sp::CreateTable) -> Result<CreateTable, SqlError> {
    if t.query.is_some() {
        return Err(unsupported("CREATE TABLE … AS"));
    }
    let mut columns = Vec::new();
    let mut primary_key = None;
    let mut primary_key_name = None;
    let mut primary_key_deferrable = None;
    let mut unique = Vec::new();
    for c in &t.columns {
        let parsed = convert_column(c)?;
        for key in parsed.keys {
            if key.primary {
                primary_key = Some(key.columns);
                primary_key_name = key.name;
                primary_key_deferrable = key.deferrable;
            } else {
                unique.push(key);
            }
        }
        columns.push(parsed.def);
    }
    let mut key_order_written = false;
    let written = |cols: &[sp::IndexColumn]| cols.iter().any(|c| c.column.options.sort.is_some());
    for c in &t.constraints {
        match c {
            sp::TableConstraint::PrimaryKey(pk) => {
                key_order_written |= written(&pk.columns);
                primary_key = Some(key_columns(&pk.columns)?);
                primary_key_name = pk.name.as_ref().map(ident_name);
                primary_key_deferrable = super::alter_table::deferrable(&pk.characteristics)?;
            }
            sp::TableConstraint::Unique(u) => {
                key_order_written |= written(&u.columns);
                unique.push(AddKey {
                    name: u.name.as_ref().map(ident_name),
                    columns: key_columns(&u.columns)?,
                    primary: false,
                    deferrable: super::alter_table::deferrable(&u.characteristics)?,
                });
            }
            other => return Err(unsupported(format!("the table constraint {other}"))),
        }
    }
    // A primary key's columns are NOT NULL.
    for k in primary_key.iter().flatten() {
        if let Some(c) = columns.iter_mut().find(|c| c.name == k.name) {
            c.not_null = true;
        }
    }
    Ok(CreateTable {
        name: relation_name(&t.name),
        columns,
        primary_key,
        primary_key_name,
        primary_key_deferrable,
        unique,
        split_into: None,
        split_at: None,
        key_order_written,
        if_not_exists: t.if_not_exists,
        options: match &t.table_options {
            sp::CreateTableOptions::None => Vec::new(),
            sp::CreateTableOptions::With(options) => options
                .iter()
                .map(super::alter_table::option)
                .collect::<Result<_, _>>()?,
            other => return Err(unsupported(format!("the table options {other}"))),
        },
    })
}

/// `varchar(n)` / `character varying(n)`: n.
fn varchar_length(t: &sp::DataType) -> Result<Option<u32>, SqlError> {
    use sp::DataType as D;
    match t {
        D::Varchar(Some(len)) | D::CharacterVarying(Some(len)) => match len {
            sp::CharacterLength::IntegerLength { length, .. } if *length >= 1 => {
                Ok(Some(u32::try_from(*length).unwrap_or(u32::MAX)))
            }
            _ => Err(unsupported(format!("the type {t}"))),
        },
        _ => Ok(None),
    }
}

/// A DEFAULT: any expression without a column (PostgreSQL's rule): a
/// constant, `now()`, or a volatile `clock_timestamp()` or `random()`,
/// evaluated for each row.
fn default_expr(e: &sp::Expr) -> Result<Expr, SqlError> {
    let expr = convert_expr(e)?;
    let mut column = None;
    expr.visit(&mut |x| match x {
        Expr::Column { name, .. } => column = column.take().or(Some(name.clone())),
        Expr::Aggregate { .. } => column = column.take().or(Some(String::new())),
        _ => {}
    });
    match column {
        None => Ok(expr),
        Some(c) if c.is_empty() => Err(SqlError::new(
            crate::sql::error::ErrorKind::Semantic,
            "aggregate functions are not allowed in DEFAULT expressions",
        )),
        Some(_) => Err(SqlError::new(
            crate::sql::error::ErrorKind::Semantic,
            "cannot use column reference in DEFAULT expression",
        )),
    }
}
