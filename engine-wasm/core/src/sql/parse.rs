//! From SQL text to [`ast::Statement`]: `sqlparser` (PostgreSQL dialect) does the
//! parsing, this module converts its tree and rejects what IndexLab does not model.
//!
//! YugabyteDB syntax that `sqlparser` does not know is blanked out first
//! ([`yb_syntax`]).

use super::ast::*;
use super::convert::{convert_expr, convert_select_query, ident_name, object_name, relation_name};
use super::error::{unsupported, ErrorKind, Position, SqlError};
use crate::value::SqlType;
use sqlparser::ast as sp;
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Tokenizer;
use yb_syntax::strip_yb_syntax;

mod alter_table;
mod create_table;
pub mod depth;
mod maintenance;
mod on_conflict;
mod operator_tokens;
mod sequence;
mod set_constraints;
mod statistics;
mod words;
mod yb_syntax;

use create_table::convert_create_table;

/// Parses one statement (its text without the trailing `;`). Positions in errors are
/// relative to the statement text (line 1, column 1 = its first character).
pub fn parse_statement(sql: &str) -> Result<Statement, SqlError> {
    if let Some(stmt) = maintenance::parse(sql)? {
        return Ok(stmt);
    }
    if let Some(stmt) = set_constraints::parse(sql)? {
        return Ok(stmt);
    }
    if let Some(stmt) = statistics::parse(sql)? {
        return Ok(stmt);
    }
    if let Some(stmt) = sequence::parse(sql)? {
        return Ok(stmt);
    }
    let (text, yb) = strip_yb_syntax(sql);
    let dialect = PostgreSqlDialect {};
    let tokens = Tokenizer::new(&dialect, &text)
        .with_unescape(true)
        .tokenize_with_location()
        .map_err(|e| syntax_error(ParserError::TokenizerError(e.to_string()), &text))?;
    let tokens = operator_tokens::split_trailing_signs(tokens);
    // Too deep a statement is refused from its tokens: its tree is never built.
    let deepest = depth::check_depth(&tokens)?;
    let mut parsed = Parser::new(&dialect)
        .with_recursion_limit(depth::PARSER_RECURSION_LIMIT)
        .with_tokens_with_locations(tokens)
        .parse_statements()
        .map_err(|e| match e {
            ParserError::RecursionLimitExceeded => depth::nested_too_deeply(deepest),
            // sqlparser does not know every PostgreSQL statement: one IndexLab
            // does not run is named, never called a syntax error.
            _ if unrun_statement(&text).is_some() => unsupported(format!(
                "the statement {}",
                unrun_statement(&text).unwrap_or_default()
            )),
            // psql would have replaced it before the server saw the text.
            _ if psql_variable(&text).is_some() => unsupported(format!(
                "the psql variable {} without a value (no \\set or \\gset before it \
                 gave it one)",
                psql_variable(&text).unwrap_or_default()
            ))
            .near(psql_variable(&text).unwrap_or_default()),
            other => syntax_error(other, &text),
        })?;
    if parsed.is_empty() {
        return Err(SqlError::new(
            ErrorKind::Syntax,
            "expected one statement, found 0",
        ));
    }
    if parsed.len() > 1 {
        // psql's `\;` sends several statements as one query (PostgreSQL runs
        // them in one implicit transaction); IndexLab runs one at a time.
        return Err(unsupported(format!(
            "sending {} statements as one query (psql's \\;)",
            parsed.len()
        ))
        .with_hint("End each statement with ; to run them one after the other."));
    }
    let mut stmt = convert_statement(parsed.remove(0))?;
    if let Statement::CreateTable(t) = &mut stmt {
        t.split_into = yb.split_into;
    }
    if let Some(list) = &yb.split_at {
        let rows = split_rows(list)?;
        match &mut stmt {
            Statement::CreateTable(t) => t.split_at = Some(rows),
            Statement::CreateIndex(i) => i.split_at = Some(rows),
            _ => {
                return Err(unsupported(
                    "SPLIT AT VALUES outside CREATE TABLE and CREATE INDEX",
                ))
            }
        }
    }
    Ok(stmt)
}

/// The rows of `SPLIT AT VALUES ((…), …)` (`list` is the parenthesised
/// list), read as the rows of a VALUES list.
fn split_rows(list: &str) -> Result<Vec<Vec<Expr>>, SqlError> {
    let inner = &list[1..list.len() - 1];
    match parse_statement(&format!("values {inner}")) {
        Ok(Statement::Select(q)) if q.values.is_some() => Ok(q.values.unwrap_or_default()),
        _ => Err(SqlError::new(
            ErrorKind::Syntax,
            format!("SPLIT AT VALUES {list}: each split point is a parenthesised row of values"),
        )),
    }
}

/// A psql variable reference (`:name`, `:'name'`, `:"name"`) outside
/// quotes and comments, which psql substitutes before sending the text; a
/// cast (`::int`) is not one.
fn psql_variable(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\'' | b'"' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q {
                    i += 1;
                }
            }
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b':' if b.get(i + 1) == Some(&b':') => i += 1,
            b':' if i == 0 || b[i - 1] != b':' => {
                let rest = &text[i + 1..];
                let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"');
                let name_start = rest.get(quote.map_or(0, |_| 1)..).unwrap_or("");
                let name: String = name_start
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                {
                    let q = quote.map(String::from).unwrap_or_default();
                    return Some(format!(":{q}{name}{q}"));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The kind of a PostgreSQL statement IndexLab does not run (`REINDEX`,
/// `CREATE STATISTICS`, `SET CONSTRAINTS`…), from its first words.
fn unrun_statement(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .take(4)
        .map(|w| {
            w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .to_ascii_lowercase()
        })
        .collect();
    let first = words.first()?.as_str();
    const WHOLE: &[&str] = &[
        "reindex",
        "cluster",
        "checkpoint",
        "copy",
        "comment",
        "grant",
        "revoke",
        "lock",
        "listen",
        "notify",
        "unlisten",
        "discard",
        "prepare",
        "execute",
        "deallocate",
        "begin",
        "start",
        "commit",
        "end",
        "rollback",
        "abort",
        "savepoint",
        "release",
        "truncate",
        "refresh",
        "reassign",
        "import",
        "load",
        "call",
        "fetch",
        "move",
        "close",
        "declare",
        "alter",
        "security",
        "values",
        "table",
    ];
    if WHOLE.contains(&first) {
        return Some(first.to_ascii_uppercase());
    }
    let second = |skip: &[&str]| {
        words[1..]
            .iter()
            .find(|w| !skip.contains(&w.as_str()))
            .cloned()
            .unwrap_or_default()
    };
    match first {
        "create" | "drop" => {
            let kind = second(&["or", "replace", "unique", "temp", "temporary", "unlogged"]);
            (!matches!(kind.as_str(), "table" | "index" | "extension" | "")).then(|| {
                format!(
                    "{} {}",
                    first.to_ascii_uppercase(),
                    kind.to_ascii_uppercase()
                )
            })
        }
        "set" => {
            let kind = second(&[]);
            matches!(
                kind.as_str(),
                "constraints" | "transaction" | "session" | "local" | "role"
            )
            .then(|| format!("SET {}", kind.to_ascii_uppercase()))
        }
        _ => None,
    }
}

/// sqlparser reports "… at Line: 2, Column: 5"; keep the message, lift the position.
/// An error at the end of the input comes without one: it is placed just after
/// the statement's last character of `text`, as PostgreSQL places it.
fn syntax_error(e: ParserError, text: &str) -> SqlError {
    let msg = match e {
        ParserError::TokenizerError(m) | ParserError::ParserError(m) => m,
        ParserError::RecursionLimitExceeded => "statement nested too deeply".to_string(),
    };
    let mut err = SqlError::new(ErrorKind::Syntax, msg.clone());
    if let Some(i) = msg.find(" at Line: ") {
        let tail = &msg[i + 10..];
        let mut nums = tail
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse::<u32>().ok());
        if let (Some(line), Some(column)) = (nums.next(), nums.next()) {
            err.message = format!("syntax error: {}", &msg[..i]);
            err = err.at(Position::new(line, column));
        }
    } else if msg.ends_with("found: EOF") {
        err.message = format!("syntax error at end of input: {msg}");
        err = err.at(Position::START.advance(text, text.len()));
    }
    err
}

fn convert_statement(stmt: sp::Statement) -> Result<Statement, SqlError> {
    Ok(match stmt {
        sp::Statement::CreateTable(t) if t.query.is_some() => create_table_as(t)?,
        sp::Statement::CreateTable(t) => Statement::CreateTable(convert_create_table(t)?),
        sp::Statement::AlterTable(a) => alter_table::convert_alter_table(a)?,
        sp::Statement::CreateIndex(i) => Statement::CreateIndex(convert_create_index(i)?),
        sp::Statement::Insert(i) => convert_insert(i)?,
        sp::Statement::Update(u) => convert_update(u)?,
        sp::Statement::Delete(d) => convert_delete(d)?,
        sp::Statement::Query(q) if matches!(*q.body, sp::SetExpr::Insert(_)) => with_insert(*q)?,
        sp::Statement::Query(q) => select_maybe_into(*q)?,
        sp::Statement::Explain {
            statement,
            options,
            analyze,
            verbose,
            ..
        } => {
            let mut options = convert_explain_options(options.unwrap_or_default())?;
            options.analyze |= analyze;
            options.verbose |= verbose;
            Statement::Explain {
                options,
                statement: Box::new(convert_statement(*statement)?),
            }
        }
        sp::Statement::Set(set) => convert_set(set)?,
        sp::Statement::Reset(r) => match r.reset {
            sp::Reset::ALL => Statement::Reset { name: None },
            sp::Reset::ConfigurationParameter(name) => Statement::Reset {
                name: Some(object_name(&name)),
            },
            sp::Reset::SessionAuthorization => {
                return Err(unsupported("\"RESET SESSION AUTHORIZATION\""))
            }
        },
        sp::Statement::ShowVariable { variable } => Statement::Show {
            name: variable
                .iter()
                .map(ident_name)
                .collect::<Vec<_>>()
                .join(" "),
        },
        sp::Statement::Drop {
            object_type,
            names,
            if_exists,
            ..
        } if matches!(object_type, sp::ObjectType::Table | sp::ObjectType::Index) => {
            let names = names.iter().map(relation_name).collect();
            if object_type == sp::ObjectType::Table {
                Statement::DropTable { names, if_exists }
            } else {
                Statement::DropIndex { names, if_exists }
            }
        }
        sp::Statement::Prepare {
            name,
            data_types,
            statement,
        } => Statement::Prepare {
            name: ident_name(&name),
            types: data_types
                .iter()
                .map(|t| convert_type(t).map(|(ty, _)| ty))
                .collect::<Result<_, _>>()?,
            statement: Box::new(convert_statement(*statement)?),
        },
        sp::Statement::Execute {
            name: Some(name),
            parameters,
            immediate: false,
            ..
        } => Statement::Execute {
            name: object_name(&name),
            args: parameters
                .iter()
                .map(convert_expr)
                .collect::<Result<_, _>>()?,
        },
        sp::Statement::Deallocate { name, .. } => Statement::Deallocate {
            name: Some(ident_name(&name)).filter(|n| n != "all"),
        },
        sp::Statement::StartTransaction { statements, .. } if statements.is_empty() => {
            Statement::Transaction(TxnCommand::Begin)
        }
        sp::Statement::Commit { chain: false, .. } => Statement::Transaction(TxnCommand::Commit),
        sp::Statement::Rollback {
            chain: false,
            savepoint: None,
        } => Statement::Transaction(TxnCommand::Rollback),
        sp::Statement::Truncate(t) if t.partitions.is_none() => Statement::Truncate {
            tables: t
                .table_names
                .iter()
                .map(|n| relation_name(&n.name))
                .collect(),
            restart_identity: matches!(t.identity, Some(sp::TruncateIdentityOption::Restart)),
        },
        sp::Statement::CreateSchema {
            schema_name,
            if_not_exists,
            or_replace: false,
            ..
        } => Statement::CreateSchema {
            name: match schema_name {
                sp::SchemaName::Simple(n) | sp::SchemaName::NamedAuthorization(n, _) => {
                    object_name(&n)
                }
                // The schema of the role named: `postgres`, the only one.
                sp::SchemaName::UnnamedAuthorization(role) => ident_name(&role),
            },
            if_not_exists,
        },
        sp::Statement::Drop {
            object_type: sp::ObjectType::Schema,
            names,
            if_exists,
            cascade,
            ..
        } => Statement::DropSchema {
            names: names.iter().map(object_name).collect(),
            if_exists,
            cascade,
        },
        sp::Statement::CreateExtension(e) => Statement::CreateExtension {
            name: ident_name(&e.name),
            if_not_exists: e.if_not_exists,
        },
        sp::Statement::CreateFunction(_) => {
            return Err(unsupported(
                "CREATE FUNCTION (IndexLab runs the SQL of a script and its DO blocks; \
                 it keeps no functions of its own)",
            ))
        }
        other => {
            let text = other.to_string();
            // The statement's kind, its words before the first name.
            let kind = unrun_statement(&text).unwrap_or_else(|| {
                text.split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            return Err(unsupported(format!("the statement {kind}")));
        }
    })
}

/// `CREATE TABLE t [(a, b)] AS query`: the query's columns, renamed by the list.
fn create_table_as(t: sp::CreateTable) -> Result<Statement, SqlError> {
    if t.temporary {
        return Err(unsupported("CREATE TEMPORARY TABLE … AS"));
    }
    let columns = t.columns.iter().map(|c| ident_name(&c.name)).collect();
    let query = t.query.map(|q| convert_select_query(*q)).transpose()?;
    Ok(Statement::CreateTableAs {
        name: relation_name(&t.name),
        columns,
        query: Box::new(query.unwrap_or_else(Select::empty)),
        if_not_exists: t.if_not_exists,
    })
}

/// A query, or `SELECT … INTO t FROM …` (a CREATE TABLE AS in disguise).
fn select_maybe_into(mut q: sp::Query) -> Result<Statement, SqlError> {
    let into = match q.body.as_mut() {
        sp::SetExpr::Select(s) => s.into.take(),
        _ => None,
    };
    let Some(into) = into else {
        return Ok(Statement::Select(convert_select_query(q)?));
    };
    if into.temporary || into.targets.len() != 1 {
        return Err(unsupported(
            "SELECT INTO a temporary table or several targets",
        ));
    }
    let name = match &into.targets[0] {
        sp::Expr::Identifier(id) => ident_name(id),
        sp::Expr::CompoundIdentifier(parts) => parts.last().map(ident_name).unwrap_or_default(),
        other => return Err(unsupported(format!("SELECT INTO {other}"))),
    };
    Ok(Statement::CreateTableAs {
        name,
        columns: Vec::new(),
        query: Box::new(convert_select_query(q)?),
        if_not_exists: false,
    })
}

/// `char(n)`'s n (1 when omitted), within PostgreSQL's limit.
pub(crate) fn char_length(len: &Option<sp::CharacterLength>) -> Result<u32, SqlError> {
    match len {
        None => Ok(1),
        Some(sp::CharacterLength::IntegerLength { length, .. }) => match u32::try_from(*length) {
            Ok(n @ 1..=10_485_760) => Ok(n),
            _ => Err(SqlError::new(
                ErrorKind::Semantic,
                "length for type char cannot exceed 10485760",
            )),
        },
        Some(sp::CharacterLength::Max) => Err(unsupported("char(max)")),
    }
}

fn convert_type(t: &sp::DataType) -> Result<(SqlType, bool), SqlError> {
    use sp::DataType as D;
    let ty = match t {
        D::Int(_) | D::Integer(_) | D::Int4(_) => SqlType::Int4,
        D::SmallInt(_) | D::Int2(_) => SqlType::Int2,
        D::BigInt(_) | D::Int8(_) => SqlType::Int8,
        D::Timestamp(_, sp::TimezoneInfo::Tz | sp::TimezoneInfo::WithTimeZone) => {
            SqlType::Timestamptz
        }
        D::Timestamp(None, sp::TimezoneInfo::None | sp::TimezoneInfo::WithoutTimeZone) => {
            SqlType::Timestamp
        }
        D::Timestamp(..) => {
            return Err(unsupported(
                "timestamp(p) (a precision that rounds its seconds)",
            ))
        }
        D::Date => SqlType::Date,
        D::Interval {
            fields: None,
            precision: None,
        } => SqlType::Interval,
        D::Text | D::Varchar(_) | D::CharacterVarying(_) | D::String(_) => SqlType::Text,
        D::Char(len) | D::Character(len) => SqlType::Bpchar(char_length(len)?),
        // `real`, `float4` and `float(1..24)` are single precision: not modelled.
        D::DoublePrecision | D::Float8 | D::Float(sp::ExactNumberInfo::None) => SqlType::Float8,
        D::Float(sp::ExactNumberInfo::Precision(p)) if *p > 24 => SqlType::Float8,
        D::Bool | D::Boolean => SqlType::Bool,
        D::Uuid => SqlType::Uuid,
        D::JSON => SqlType::Json,
        D::JSONB => SqlType::Jsonb,
        D::Numeric(info) | D::Decimal(info) | D::Dec(info) => super::convert::numeric_type(info)?,
        D::Custom(name, _) => {
            return match object_name(name).as_str() {
                "serial" | "serial4" => Ok((SqlType::Int4, true)),
                "smallserial" | "serial2" => Ok((SqlType::Int2, true)),
                "bigserial" | "serial8" => Ok((SqlType::Int8, true)),
                "timestamptz" => Ok((SqlType::Timestamptz, false)),
                other => Err(unsupported(format!("the type {other}")).near(other)),
            }
        }
        other => {
            let name = other.to_string().to_ascii_lowercase();
            let word = name.split(['(', ' ']).next().unwrap_or("").to_string();
            return Err(unsupported(format!("the type {other}")).near(word));
        }
    };
    Ok((ty, false))
}

/// A constraint's key columns (PRIMARY KEY, UNIQUE): plain columns only, as
/// in PostgreSQL's grammar.
fn key_columns(cols: &[sp::IndexColumn]) -> Result<Vec<KeyColumn>, SqlError> {
    let keys = index_key_columns(cols)?;
    if keys.iter().any(|k| k.expr.is_some()) {
        return Err(SqlError::new(
            crate::sql::error::ErrorKind::Syntax,
            "syntax error at or near \"(\"",
        ));
    }
    Ok(keys)
}

/// An index's key columns, or expressions; as in YugabyteDB, a first column
/// without ASC or DESC is hashed, and so is a first group of columns
/// `(a, b) [HASH]`, hashed together.
fn index_key_columns(cols: &[sp::IndexColumn]) -> Result<Vec<KeyColumn>, SqlError> {
    let mut keys = Vec::with_capacity(cols.len());
    for (i, c) in cols.iter().enumerate() {
        // `(v)` is the column v; anything else is an expression.
        let mut written = &c.column.expr;
        while let sp::Expr::Nested(inner) = written {
            written = inner;
        }
        if let sp::Expr::Tuple(items) = written {
            keys.extend(hash_group(i, items, c)?);
            continue;
        }
        let (name, expr) = match written {
            sp::Expr::Identifier(id) => (ident_name(id), None),
            other => {
                let e = convert_expr(other)?;
                (crate::exec::index_expression::column_name(&e), Some(e))
            }
        };
        let order = match c.column.options.sort {
            Some(sp::OrderBySort::Desc) => Order::Desc,
            _ => Order::Asc,
        };
        keys.push(KeyColumn {
            name,
            order,
            hash: i == 0 && c.column.options.sort.is_none(),
            expr,
            hash_group: false,
        });
    }
    Ok(keys)
}

/// YugabyteDB's `(a, b) HASH`: the columns hashed together for sharding.
/// Only first, of plain columns, and without ASC or DESC.
fn hash_group(
    i: usize,
    items: &[sp::Expr],
    c: &sp::IndexColumn,
) -> Result<Vec<KeyColumn>, SqlError> {
    if i > 0 || c.column.options.sort.is_some() {
        return Err(unsupported(
            "a group of key columns (a, b) other than the first, hashed one",
        ));
    }
    items
        .iter()
        .map(|item| match item {
            sp::Expr::Identifier(id) => Ok(KeyColumn {
                name: ident_name(id),
                order: Order::Asc,
                hash: true,
                expr: None,
                hash_group: true,
            }),
            other => Err(unsupported(format!(
                "the expression {other} in a hashed group of key columns"
            ))),
        })
        .collect()
}

fn convert_create_index(i: sp::CreateIndex) -> Result<CreateIndex, SqlError> {
    if !i.with.is_empty() {
        return Err(unsupported(
            "an index's storage parameters (CREATE INDEX … WITH)",
        ));
    }
    index_method(i.using.as_ref())?;
    Ok(CreateIndex {
        name: i.name.as_ref().map(object_name),
        table: relation_name(&i.table_name),
        columns: index_key_columns(&i.columns)?,
        include: i.include.iter().map(ident_name).collect(),
        unique: i.unique,
        if_not_exists: i.if_not_exists,
        predicate: i.predicate.as_ref().map(convert_expr).transpose()?,
        split_at: None,
    })
}

/// `USING method`: B-tree (YugabyteDB's `lsm`, its name for the same
/// ordered index) is what IndexLab models; any other access method is
/// refused by name rather than built as a B-tree of another size.
fn index_method(using: Option<&sp::IndexType>) -> Result<(), SqlError> {
    let name = match using {
        None | Some(sp::IndexType::BTree) => return Ok(()),
        Some(sp::IndexType::Custom(id)) if id.value.eq_ignore_ascii_case("lsm") => return Ok(()),
        Some(other) => other.to_string().to_ascii_lowercase(),
    };
    Err(unsupported(format!(
        "an index USING {name} (IndexLab models B-tree indexes: leave USING out or write USING btree)"
    ))
    .near(name))
}

/// `WITH w AS (…) INSERT INTO t SELECT … FROM w`: the WITH queries are
/// seen by the INSERT's source query, which is where they can be read (a
/// WITH holding INSERT, UPDATE or DELETE itself is refused by name).
fn with_insert(q: sp::Query) -> Result<Statement, SqlError> {
    let sp::SetExpr::Insert(sp::Statement::Insert(insert)) = *q.body else {
        return Err(unsupported("this form of WITH … INSERT"));
    };
    if q.order_by.is_some() || q.limit_clause.is_some() {
        return Err(unsupported("ORDER BY or LIMIT after WITH … INSERT"));
    }
    let with = match &q.with {
        Some(w) if w.recursive => return Err(unsupported("WITH RECURSIVE before INSERT")),
        Some(w) => super::convert::convert_with(w)?,
        None => Vec::new(),
    };
    let mut statement = convert_insert(insert)?;
    if let Statement::Insert { source, .. } = &mut statement {
        let mut all = with;
        all.append(&mut source.with);
        source.with = all;
    }
    Ok(statement)
}

fn table_object(t: &sp::TableObject) -> Result<String, SqlError> {
    match t {
        sp::TableObject::TableName(n) => Ok(relation_name(n)),
        other => Err(unsupported(format!("inserting into {other}"))),
    }
}

fn convert_insert(i: sp::Insert) -> Result<Statement, SqlError> {
    if i.table_alias.is_some() {
        return Err(unsupported(
            "an alias for INSERT's table (INSERT INTO t AS x)",
        ));
    }
    let on_conflict = i.on.map(on_conflict::convert).transpose()?.map(Box::new);
    let returning = on_conflict::returning(i.returning.as_deref())?;
    let source = match i.source {
        Some(q) => convert_select_query(*q)?,
        None => return Err(unsupported("INSERT without VALUES or SELECT")),
    };
    let columns: Option<Vec<String>> = if i.columns.is_empty() {
        None
    } else {
        Some(i.columns.iter().map(object_name).collect())
    };
    // Named columns must each get a value (`transformInsertRow`); without a
    // list, the columns after the last value take their defaults.
    if let (Some(cols), Some(rows)) = (&columns, &source.values) {
        if rows.iter().any(|r| r.len() < cols.len()) {
            return Err(SqlError::new(
                crate::sql::error::ErrorKind::Semantic,
                "INSERT has more target columns than expressions",
            ));
        }
    }
    Ok(Statement::Insert {
        table: table_object(&i.table)?,
        columns,
        source,
        on_conflict,
        returning,
    })
}

/// The target of an UPDATE or DELETE: its table and other name.
fn single_table(from: &sp::TableWithJoins) -> Result<(String, Option<String>), SqlError> {
    match &from.relation {
        sp::TableFactor::Table { name, alias, .. } if from.joins.is_empty() => Ok((
            relation_name(name),
            alias.as_ref().map(|a| ident_name(&a.name)),
        )),
        other => Err(unsupported(format!("UPDATE/DELETE on {other}"))),
    }
}

/// The FROM list of an UPDATE (USING of a DELETE): comma-separated tables.
fn joined_tables(list: &[sp::TableWithJoins], clause: &str) -> Result<Vec<FromItem>, SqlError> {
    list.iter()
        .map(|t| {
            if !t.joins.is_empty() {
                return Err(unsupported(format!(
                    "JOIN in the {clause} list (list the tables with commas)"
                )));
            }
            super::convert::table_factor(&t.relation)
        })
        .collect()
}

fn convert_update(u: sp::Update) -> Result<Statement, SqlError> {
    let from = match &u.from {
        Some(
            sp::UpdateTableFromKind::AfterSet(list) | sp::UpdateTableFromKind::BeforeSet(list),
        ) => joined_tables(list, "FROM")?,
        None => Vec::new(),
    };
    let returning = on_conflict::returning(u.returning.as_deref())?;
    let assignments = u
        .assignments
        .iter()
        .map(|a| {
            let name = match &a.target {
                sp::AssignmentTarget::ColumnName(n) => object_name(n),
                other => return Err(unsupported(format!("assigning to {other}"))),
            };
            Ok((name, convert_expr(&a.value)?))
        })
        .collect::<Result<_, SqlError>>()?;
    let (table, alias) = single_table(&u.table)?;
    Ok(Statement::Update {
        table,
        alias,
        assignments,
        from,
        filter: u.selection.as_ref().map(convert_expr).transpose()?,
        returning,
    })
}

fn convert_delete(d: sp::Delete) -> Result<Statement, SqlError> {
    let tables = match &d.from {
        sp::FromTable::WithFromKeyword(t) | sp::FromTable::WithoutKeyword(t) => t,
    };
    if tables.len() != 1 {
        return Err(unsupported("DELETE of several tables"));
    }
    let using = match &d.using {
        Some(list) => joined_tables(list, "USING")?,
        None => Vec::new(),
    };
    let (table, alias) = single_table(&tables[0])?;
    Ok(Statement::Delete {
        table,
        alias,
        using,
        filter: d.selection.as_ref().map(convert_expr).transpose()?,
        returning: on_conflict::returning(d.returning.as_deref())?,
    })
}

/// A Boolean option's value, as `defGetBoolean` reads it.
fn option_flag(name: &str, arg: &Option<sp::Expr>) -> Result<bool, SqlError> {
    let Some(e) = arg else { return Ok(true) };
    let word = e.to_string().to_ascii_lowercase();
    match word.trim_matches('\'') {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(SqlError::new(
            ErrorKind::Syntax,
            format!("{name} requires a Boolean value"),
        )),
    }
}

/// FORMAT's value, as PostgreSQL's parser checks it: a word, one of four.
fn explain_format(arg: &Option<sp::Expr>) -> Result<ExplainFormat, SqlError> {
    let word = arg
        .as_ref()
        .map(|e| e.to_string().trim_matches('\'').to_ascii_lowercase())
        .unwrap_or_default();
    match word.as_str() {
        "text" => Ok(ExplainFormat::Text),
        "json" => Ok(ExplainFormat::Json),
        "yaml" | "xml" => Err(unsupported(format!(
            "EXPLAIN (FORMAT {})",
            word.to_ascii_uppercase()
        ))),
        _ => Err(SqlError::new(
            ErrorKind::Syntax,
            format!("unrecognized value for EXPLAIN option \"format\": \"{word}\""),
        )),
    }
}

fn convert_explain_options(opts: Vec<sp::UtilityOption>) -> Result<ExplainOptions, SqlError> {
    let mut o = ExplainOptions::default();
    for opt in opts {
        if ident_name(&opt.name) == "format" {
            o.format = explain_format(&opt.arg)?;
            continue;
        }
        // The name first, as ExplainQuery does: an option PostgreSQL 15
        // does not have (SERIALIZE, MEMORY…) is unrecognized whatever its value.
        let name = ident_name(&opt.name);
        let flag: &mut bool = match name.as_str() {
            "analyze" => &mut o.analyze,
            "buffers" => &mut o.buffers,
            "costs" => &mut o.costs,
            "timing" => &mut o.timing,
            "verbose" => &mut o.verbose,
            "dist" => &mut o.dist,
            "debug" => &mut o.debug,
            "wal" => &mut o.wal,
            "settings" => &mut o.settings,
            "summary" => {
                o.summary = Some(option_flag(&name, &opt.arg)?);
                continue;
            }
            other => {
                return Err(SqlError::new(
                    ErrorKind::Syntax,
                    format!("unrecognized EXPLAIN option \"{other}\""),
                ))
            }
        };
        *flag = option_flag(&name, &opt.arg)?;
    }
    Ok(o)
}

fn convert_set(set: sp::Set) -> Result<Statement, SqlError> {
    match set {
        sp::Set::SingleAssignment {
            variable, values, ..
        } => {
            let value = values
                .iter()
                .map(|v| match v {
                    sp::Expr::Value(v) => match &v.value {
                        sp::Value::SingleQuotedString(s) => s.clone(),
                        other => other.to_string(),
                    },
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", ");
            Ok(Statement::Set {
                name: object_name(&variable),
                value,
            })
        }
        other => Err(unsupported(format!("\"{other}\""))),
    }
}
