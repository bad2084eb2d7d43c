//! psql's describe meta-commands over a profile's catalog, printed as psql 15
//! prints them (`describe.c`): `\d name` describes one relation (a table's
//! columns and its indexes, an index's columns), `\d` alone, `\dt`, `\di` and
//! `\ds` list relations, and `+` adds the verbose columns.
//!
//! A profile hands over what its catalog holds ([`Catalog`]); the columns,
//! titles and footers are psql's, and the page and the CLI print them as
//! psql's `printTable` does (`profile::aligned`). What IndexLab does not
//! model is refused by name, never printed differently:
//!
//! - PostgreSQL's own catalogs (`pg_class`…): `\dS`, and a pattern that could
//!   name one (`\dt *`, `\d pg*`);
//! - the description of a sequence (psql right-aligns its numbers, which a
//!   result here does not carry), and a pattern naming several relations
//!   (psql prints one table per relation; a statement here answers one);
//! - sizes on YugabyteDB: `\dt+`'s Size is `pg_table_size()`, which
//!   YugabyteDB answers from its tablets' files on disk (`dbsize.c`,
//!   `YBCPgGetTableDiskSize`), not from pages.
//!
//! psql's messages for a pattern that names nothing are its own: `\d name`
//! fails (the script stops there, as psql's ON_ERROR_STOP does), a list
//! that finds nothing says so and the script goes on, as in psql (here as a
//! notice, IndexLab's one channel for a message that is not an error).

use crate::exec::schemas::{bare, qualified, schema_of, PUBLIC};
use crate::profile::Outcome;
use crate::sql::ast::{BinOp, ColumnDef, Deferrable, Expr, Order};
use crate::sql::deparse::deparse_stored;
use crate::sql::deparse_pretty::{deparse_pretty, index_expression_text};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
pub use crate::sql::quote::quote_ident;
use crate::sql::script::Describe;
use crate::value::{SqlType, Value};

/// Which database's describe output: the index access method and key
/// parts differ (`btree (id)` against `lsm (id HASH)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    Pg,
    Yb,
}

impl Flavor {
    /// The access method of an index (`pg_am.amname`): YugabyteDB builds
    /// every index (and the primary key) as `lsm`.
    fn index_am(self) -> &'static str {
        match self {
            Flavor::Pg => "btree",
            Flavor::Yb => "lsm",
        }
    }

    /// The Owner psql shows (`pg_get_userbyid(relowner)`). IndexLab has no
    /// roles: every relation belongs to the role a fresh server's psql
    /// connects as, `postgres` (`initdb -U postgres`, as the differential
    /// test's server) and on YugabyteDB `yugabyte` (ysqlsh's default user).
    fn owner(self) -> &'static str {
        match self {
            Flavor::Pg => "postgres",
            Flavor::Yb => "yugabyte",
        }
    }
}

/// What a profile's catalog holds, as psql's describe queries read it.
#[derive(Debug, Clone)]
pub struct Catalog {
    pub flavor: Flavor,
    /// The relations of PostgreSQL's own a new database has (`pg_class`,
    /// `pg_class_oid_index`, `information_schema`'s views…): a pattern that
    /// names one is refused, since IndexLab lists only the script's.
    pub system_names: &'static [&'static str],
    pub tables: Vec<Table>,
    pub indexes: Vec<Index>,
    /// The sequences of serial and identity columns.
    pub sequences: Vec<Sequence>,
}

#[derive(Debug, Clone)]
pub struct Table {
    pub name: String,
    pub columns: Vec<ColumnDef>,
    /// `pg_table_size()` in bytes, where the profile models it (pg).
    pub size: Option<i64>,
    /// Its `Statistics objects:` footer lines.
    pub statistics: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Index {
    pub name: String,
    pub table: String,
    pub key: Vec<KeyPart>,
    pub include: Vec<String>,
    pub primary: bool,
    pub unique: bool,
    /// Built for a UNIQUE constraint (psql's `UNIQUE CONSTRAINT`).
    pub constraint: bool,
    pub size: Option<i64>,
    /// A partial index's WHERE.
    pub predicate: Option<Expr>,
    /// CLUSTER last ordered the table by it (psql adds ` CLUSTER`).
    pub clustered: bool,
    /// Its constraint is DEFERRABLE (psql adds ` DEFERRABLE`, and
    /// ` INITIALLY DEFERRED`).
    pub deferrable: Option<Deferrable>,
}

/// One key column of an index.
#[derive(Debug, Clone)]
pub struct KeyPart {
    pub column: String,
    /// An expression key: the expression
    /// (`lower(v)`, `(a + b)`) and its type; `column` is then its name
    /// (`lower`, `expr`).
    pub expression: Option<(Expr, SqlType)>,
    pub order: Order,
    /// YugabyteDB's `HASH`.
    pub hash: bool,
}

#[derive(Debug, Clone)]
pub struct Sequence {
    pub name: String,
    pub size: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Table,
    Index,
    Sequence,
}

/// A relation as the lists show it.
struct Listed<'a> {
    name: &'a str,
    kind: Kind,
    table: &'a str,
    size: Option<i64>,
}

impl Catalog {
    fn relations(&self) -> Vec<Listed<'_>> {
        let tables = self.tables.iter().map(|t| Listed {
            name: &t.name,
            kind: Kind::Table,
            table: "",
            size: t.size,
        });
        let indexes = self.indexes.iter().map(|i| Listed {
            name: &i.name,
            kind: Kind::Index,
            table: &i.table,
            size: i.size,
        });
        let sequences = self.sequences.iter().map(|s| Listed {
            name: &s.name,
            kind: Kind::Sequence,
            table: "",
            size: s.size,
        });
        let mut all: Vec<Listed> = tables.chain(indexes).chain(sequences).collect();
        // psql orders by schema, then name; under the C collation, byte order.
        all.sort_by_key(|r| (schema_of(r.name), bare(r.name)));
        all
    }
}

/// Runs `d` on `catalog`.
pub fn run(catalog: &Catalog, d: &Describe) -> Result<Outcome, SqlError> {
    let pattern = d.pattern.as_deref().map(Pattern::parse).transpose()?;
    if let Some(p) = pattern.as_ref().filter(|p| p.names_system(catalog)) {
        return Err(unsupported(format!(
            "the pattern \"{}\", which names PostgreSQL's own catalogs too (IndexLab models \
             only the script's relations): name them, for example t*",
            p.text
        )));
    }
    let mut out = match &pattern {
        Some(p) if d.is_plain() => details(catalog, d, p)?,
        _ => list(catalog, d, pattern.as_ref())?,
    };
    let command = d.text.split(' ').next().unwrap_or("\\d");
    for extra in &d.extra {
        out.notices
            .push(format!("{command}: extra argument \"{extra}\" ignored"));
    }
    Ok(out)
}

fn cells(values: Vec<String>) -> Vec<Option<String>> {
    values.into_iter().map(Some).collect()
}

/// `\d`, `\dt`, `\di`, `\ds` (and `+`): psql's `listTables`.
fn list(catalog: &Catalog, d: &Describe, pattern: Option<&Pattern>) -> Result<Outcome, SqlError> {
    let (tables, indexes, sequences) = (d.listed('t'), d.listed('i'), d.listed('s'));
    if d.verbose && catalog.flavor == Flavor::Yb {
        let command = d.text.split(' ').next().unwrap_or("\\d+");
        return Err(unsupported(format!(
            "{command} on YugabyteDB (its Size column is pg_table_size(), which YugabyteDB answers \
             from its tablets' files on the tablet servers' disks, not from PostgreSQL's pages; \
             IndexLab does not model that size, and {} lists the relations without it)",
            command.replace('+', "")
        )));
    }
    let shown: Vec<Listed> = catalog
        .relations()
        .into_iter()
        .filter(|r| match r.kind {
            Kind::Table => tables,
            Kind::Index => indexes,
            Kind::Sequence => sequences,
        })
        .filter(|r| match pattern {
            Some(p) => p.matches(r.name),
            // psql lists what search_path makes visible: IndexLab's
            // describing catalog knows public.
            None => schema_of(r.name) == PUBLIC,
        })
        .collect();
    if shown.is_empty() {
        let said = match pattern {
            Some(p) => format!("Did not find any relation named \"{}\".", p.text),
            None => "Did not find any relations.".to_string(),
        };
        return Ok(Outcome::tag("").notice(said));
    }
    let mut columns = vec!["Schema", "Name", "Type", "Owner"];
    if indexes {
        columns.push("Table");
    }
    // psql 15 shows the access method for tables, materialized views and indexes.
    let access_method = tables || indexes || d.listed('m');
    if d.verbose {
        columns.push("Persistence");
        if access_method {
            columns.push("Access method");
        }
        columns.extend(["Size", "Description"]);
    }
    let rows: Vec<Vec<Option<String>>> = shown
        .iter()
        .map(|r| {
            let mut row = vec![
                schema_of(r.name).to_string(),
                bare(r.name).to_string(),
                match r.kind {
                    Kind::Table => "table",
                    Kind::Index => "index",
                    Kind::Sequence => "sequence",
                }
                .to_string(),
                catalog.flavor.owner().to_string(),
            ];
            if indexes {
                row.push(bare(r.table).to_string());
            }
            if d.verbose {
                row.push("permanent".into());
                if access_method {
                    row.push(match r.kind {
                        Kind::Table => "heap".into(),
                        Kind::Index => catalog.flavor.index_am().into(),
                        // A sequence has no access method: NULL, printed empty.
                        Kind::Sequence => String::new(),
                    });
                }
                row.push(
                    r.size
                        .map(crate::sql::functions::size_pretty)
                        .unwrap_or_default(),
                );
                row.push(String::new());
            }
            cells(row)
        })
        .collect();
    Ok(Outcome {
        title: Some("List of relations".into()),
        columns: columns.into_iter().map(String::from).collect(),
        row_count: rows.len() as u64,
        rows,
        ..Outcome::default()
    })
}

/// `\d name` (and `+`): psql's `describeTableDetails`, for the one relation
/// the pattern names.
fn details(catalog: &Catalog, d: &Describe, pattern: &Pattern) -> Result<Outcome, SqlError> {
    let found: Vec<Listed> = catalog
        .relations()
        .into_iter()
        .filter(|r| pattern.matches(r.name))
        .collect();
    let command = d.text.split(' ').next().unwrap_or("\\d");
    match found.as_slice() {
        [] => Err(SqlError::new(
            ErrorKind::Semantic,
            format!("Did not find any relation named \"{}\".", pattern.text),
        )),
        [one] => match one.kind {
            Kind::Table => {
                let t = catalog.tables.iter().find(|t| t.name == one.name);
                table(catalog, t.expect("listed"), d.verbose)
            }
            Kind::Index => {
                let i = catalog.indexes.iter().find(|i| i.name == one.name);
                Ok(index(catalog, i.expect("listed"), d.verbose))
            }
            Kind::Sequence => Err(unsupported(format!(
                "{command} of a sequence (\"{}\": psql prints its start, bounds and increment \
                 right-aligned, which IndexLab's results do not carry)",
                one.name
            ))),
        },
        many => {
            let names: Vec<&str> = many.iter().map(|r| r.name).collect();
            Err(unsupported(format!(
                "{command} of a pattern that names several relations ({}: psql describes each in \
                 a table of its own, and a statement here answers one); name one relation",
                names.join(", ")
            )))
        }
    }
}

/// A column's type as `format_type()` prints it.
fn type_name(c: &ColumnDef) -> String {
    match (c.ty, c.max_chars) {
        (SqlType::Text, Some(n)) => format!("character varying({n})"),
        (ty, _) => ty.display_name(),
    }
}

/// `attstorage`: variable-length types are `extended`, the rest `plain`.
fn storage(c: &ColumnDef) -> &'static str {
    match c.ty {
        SqlType::Text | SqlType::Bpchar(_) => "extended",
        _ => "plain",
    }
}

/// A table: psql's `Table "public.t"`.
fn table(catalog: &Catalog, t: &Table, verbose: bool) -> Result<Outcome, SqlError> {
    let mut columns = vec!["Column", "Type", "Collation", "Nullable", "Default"];
    if verbose {
        columns.extend(["Storage", "Compression", "Stats target", "Description"]);
    }
    let rows: Vec<Vec<Option<String>>> = t
        .columns
        .iter()
        .map(|c| {
            let mut row = vec![
                c.name.clone(),
                type_name(c),
                String::new(),
                if c.not_null { "not null" } else { "" }.to_string(),
                default_text(&t.name, c),
            ];
            if verbose {
                row.extend([
                    storage(c).to_string(),
                    String::new(),
                    String::new(),
                    String::new(),
                ]);
            }
            cells(row)
        })
        .collect();
    let mut footers = Vec::new();
    let mut indexes: Vec<&Index> = catalog
        .indexes
        .iter()
        .filter(|i| i.table == t.name)
        .collect();
    // psql: ORDER BY i.indisprimary DESC, c2.relname.
    indexes.sort_by(|a, b| b.primary.cmp(&a.primary).then(a.name.cmp(&b.name)));
    if !indexes.is_empty() {
        footers.push("Indexes:".to_string());
    }
    for i in indexes {
        let label = if i.primary {
            " PRIMARY KEY,"
        } else if i.unique && i.constraint {
            " UNIQUE CONSTRAINT,"
        } else if i.unique {
            " UNIQUE,"
        } else {
            ""
        };
        let deferral = match i.deferrable {
            Some(d) if d.initially_deferred => " DEFERRABLE INITIALLY DEFERRED",
            Some(_) => " DEFERRABLE",
            None => "",
        };
        footers.push(format!(
            "    \"{}\"{label} {}{deferral}{}",
            bare(&i.name),
            index_definition(catalog, i, true)?,
            if i.clustered { " CLUSTER" } else { "" }
        ));
    }
    footers.extend(t.statistics.iter().cloned());
    if verbose {
        footers.push("Access method: heap".to_string());
    }
    Ok(Outcome {
        title: Some(format!("Table \"{}\"", qualified(&t.name))),
        columns: columns.into_iter().map(String::from).collect(),
        row_count: rows.len() as u64,
        rows,
        footers,
        hide_rows_line: true,
        ..Outcome::default()
    })
}

/// An index: psql's `Index "public.t_pkey"`.
fn index(catalog: &Catalog, i: &Index, verbose: bool) -> Outcome {
    let table = catalog.tables.iter().find(|t| t.name == i.table);
    let column = |name: &str| table.and_then(|t| t.columns.iter().find(|c| c.name == name));
    let mut columns = vec!["Column", "Type", "Key?", "Definition"];
    if verbose {
        columns.extend(["Storage", "Stats target"]);
    }
    let stored = i
        .key
        .iter()
        .map(|k| (k.column.as_str(), k.expression.as_ref(), true))
        .chain(i.include.iter().map(|c| (c.as_str(), None, false)));
    let rows: Vec<Vec<Option<String>>> = stored
        .map(|(name, expression, key)| {
            let c = column(name).filter(|_| expression.is_none());
            let (ty, definition) = match expression {
                Some((e, ty)) => (ty.pg_name().to_string(), index_expression_text(e)),
                None => (c.map(type_name).unwrap_or_default(), quote_ident(name)),
            };
            let mut row = vec![
                name.to_string(),
                ty,
                if key { "yes" } else { "no" }.to_string(),
                definition,
            ];
            if verbose {
                row.extend([c.map(storage).unwrap_or("plain").to_string(), String::new()]);
            }
            cells(row)
        })
        .collect();
    let kind = if i.primary {
        "primary key, "
    } else if i.unique {
        "unique, "
    } else {
        ""
    };
    Outcome {
        title: Some(format!("Index \"{}\"", qualified(&i.name))),
        columns: columns.into_iter().map(String::from).collect(),
        row_count: rows.len() as u64,
        rows,
        footers: vec![format!(
            "{kind}{}, for table \"{}\"",
            catalog.flavor.index_am(),
            qualified(&i.table)
        )],
        hide_rows_line: true,
        ..Outcome::default()
    }
}

/// `pg_get_indexdef()` after its `USING`: `btree (a, b DESC) INCLUDE (c)`;
/// on YugabyteDB `lsm (a HASH, b ASC)`, several hash columns as one group
/// (`lsm ((a, b) HASH, c ASC)`), as YugabyteDB's `ruleutils.c` prints them.
///
/// psql's `\d` asks for it pretty-printed (`WHERE n > 5`), the view
/// `pg_indexes` plain, with every operator in parentheses (`WHERE (n > 5)`).
pub fn index_definition(catalog: &Catalog, i: &Index, pretty: bool) -> Result<String, SqlError> {
    check_printable(catalog, i)?;
    let flavor = catalog.flavor;
    let key_text = |k: &KeyPart| key_text(k, pretty);
    let order = |k: &KeyPart| match k.order {
        Order::Desc => " DESC",
        Order::Asc => "",
    };
    let parts: Vec<String> = match flavor {
        Flavor::Pg => i
            .key
            .iter()
            .map(|k| format!("{}{}", key_text(k), order(k)))
            .collect(),
        Flavor::Yb => {
            let hashed: Vec<String> = i.key.iter().filter(|k| k.hash).map(key_text).collect();
            let mut parts = match hashed.len() {
                0 => Vec::new(),
                1 => vec![format!("{} HASH", hashed[0])],
                _ => vec![format!("({}) HASH", hashed.join(", "))],
            };
            parts.extend(i.key.iter().filter(|k| !k.hash).map(|k| {
                let dir = match k.order {
                    Order::Asc => "ASC",
                    Order::Desc => "DESC",
                };
                format!("{} {dir}", key_text(k))
            }));
            parts
        }
    };
    let mut def = format!("{} ({})", flavor.index_am(), parts.join(", "));
    if !i.include.is_empty() {
        let included: Vec<String> = i.include.iter().map(|c| quote_ident(c)).collect();
        def.push_str(&format!(" INCLUDE ({})", included.join(", ")));
    }
    if let Some(p) = &i.predicate {
        let text = if pretty {
            deparse_pretty(p)
        } else {
            deparse_stored(p)
        };
        def.push_str(&format!(" WHERE {text}"));
    }
    Ok(def)
}

/// Refuses, by name, the expressions of an index that PostgreSQL stores in a
/// form this deparser does not print: an IN list (kept as `= ANY (ARRAY[…])`
/// with each element's type), a `varchar` column (read through a cast to
/// text, `(c)::text`) and a `char(n)` one as a function's argument (the same).
fn check_printable(catalog: &Catalog, i: &Index) -> Result<(), SqlError> {
    let table = catalog.tables.iter().find(|t| t.name == i.table);
    let varchar = |name: &str| {
        table.is_some_and(|t| {
            t.columns
                .iter()
                .any(|c| c.name == name && c.ty == SqlType::Text && c.max_chars.is_some())
        })
    };
    let column_type = |name: &str| {
        table
            .and_then(|t| t.columns.iter().find(|c| c.name == name))
            .map(|c| c.ty)
    };
    // A constant of another type than its column's is stored cast, as
    // `(b = (29)::numeric)` or `(d >= '2016-01-01'::date)`.
    let quoted_for_typed = |a: &Expr, b: &Expr| {
        let (Expr::Column { name, .. }, Expr::Literal(v)) = (a, b) else {
            return false;
        };
        let Some(ty) = column_type(name) else {
            return false;
        };
        let same = match v {
            Value::Null => true,
            Value::Int(_) => matches!(ty, SqlType::Int2 | SqlType::Int4 | SqlType::Int8),
            Value::Text(_) => ty == SqlType::Text,
            Value::Numeric(_) => matches!(ty, SqlType::Numeric(_)),
            Value::Bool(_) => ty == SqlType::Bool,
            _ => false,
        };
        !same
    };
    const CAST: &str =
        "a constant compared with a column of another type, which PostgreSQL stores cast";
    let exprs = i.predicate.iter().chain(
        i.key
            .iter()
            .filter_map(|k| k.expression.as_ref().map(|(e, _)| e)),
    );
    for e in exprs {
        let mut refused = None;
        e.visit(&mut |x| match x {
            Expr::InList { .. } => {
                refused = Some("an IN list, which PostgreSQL keeps as = ANY (ARRAY[…])")
            }
            Expr::Column { name, .. } if varchar(name) => {
                refused = Some("a varchar column, which PostgreSQL reads through a cast to text")
            }
            // `lower(c)` of a char(n) column is stored as `lower((c)::text)`.
            Expr::Function { args, .. }
                if args.iter().any(|a| {
                    matches!(a, Expr::Column { name, .. }
                        if matches!(column_type(name), Some(SqlType::Bpchar(_))))
                }) =>
            {
                refused =
                    Some("a char(n) column read by a function, which PostgreSQL casts to text")
            }
            Expr::Binary { left, right, .. }
                if quoted_for_typed(left, right) || quoted_for_typed(right, left) =>
            {
                refused = Some(CAST)
            }
            Expr::Between {
                expr, low, high, ..
            } if quoted_for_typed(expr, low) || quoted_for_typed(expr, high) => {
                refused = Some(CAST)
            }
            _ => {}
        });
        if let Some(why) = refused {
            return Err(unsupported(format!(
                "printing the definition of index \"{}\" (its expressions have {why})",
                i.name
            )));
        }
    }
    Ok(())
}

/// A key as `pg_get_indexdef` prints it: a column's (quoted) name, or the
/// expression.
fn key_text(k: &KeyPart, pretty: bool) -> String {
    match &k.expression {
        Some((e, _)) if pretty => index_expression_text(e),
        Some((e, _)) => match e {
            Expr::Function { .. } | Expr::Call(_) => deparse_stored(e),
            _ => format!("({})", deparse_stored(e)),
        },
        None => quote_ident(&k.column),
    }
}

/// A column's default as `pg_get_expr(adbin, adrelid, true)` prints it.
fn default_text(table: &str, c: &ColumnDef) -> String {
    if let Some(e) = &c.generated {
        return format!(
            "generated always as ({}) stored",
            crate::sql::deparse_pretty::deparse_pretty(e)
        );
    }
    if c.generated_always {
        return "generated always as identity".into();
    }
    if c.serial {
        // A serial column's sequence, as regclass prints its name. (An
        // identity column `GENERATED BY DEFAULT` is read as one too: the
        // column's definition does not tell them apart.)
        // regclass names it with its schema when that is not public.
        let seq = quote_ident(&format!("{}_{}_seq", bare(table), c.name));
        let seq = match schema_of(table) {
            PUBLIC => seq,
            schema => format!("{}.{seq}", quote_ident(schema)),
        };
        return format!("nextval('{}'::regclass)", seq.replace('\'', "''"));
    }
    match &c.default {
        None => String::new(),
        Some(e) => expr_text(e, c),
    }
}

/// A default expression as PostgreSQL stores and prints it: the literal as
/// written, labelled with its type where `get_const_expr` labels it (a
/// negative integer, a string), the column's implicit cast hidden.
fn expr_text(e: &Expr, c: &ColumnDef) -> String {
    let quoted = |s: &str| format!("'{}'", s.replace('\'', "''"));
    match e {
        // PostgreSQL keeps no default for a NULL constant.
        Expr::Literal(Value::Null) => String::new(),
        Expr::Literal(Value::Int(n)) => match i32::try_from(*n) {
            Ok(n) if n >= 0 => n.to_string(),
            Ok(n) => format!("{}::integer", quoted(&n.to_string())),
            Err(_) => format!("{}::bigint", quoted(&n.to_string())),
        },
        Expr::Literal(Value::Float(f)) => {
            let mut s = format!("{f}");
            if !s.contains(['.', 'e', 'E']) {
                s.push_str(".0");
            }
            if *f < 0.0 {
                format!("{}::numeric", quoted(&s))
            } else {
                s
            }
        }
        Expr::Literal(Value::Numeric(n)) if n.signum() < 0 => {
            format!("{}::numeric", quoted(&n.to_string()))
        }
        Expr::Literal(Value::Numeric(n)) => n.to_string(),
        Expr::Literal(Value::Bool(b)) => b.to_string(),
        Expr::Literal(Value::Text(s)) => match (c.ty, c.max_chars) {
            (SqlType::Text, Some(_)) => format!("{}::character varying", quoted(s)),
            // A date/time default is stored as its type's value, printed by
            // its output function (`'1 hour'` shows as `'01:00:00'::interval`).
            (ty, _) if crate::sql::datetime::is_datetime(ty) => {
                match crate::sql::eval::parse_text_as(s, ty) {
                    Ok(v) => format!("{}::{}", quoted(&v.pg_text()), ty.pg_name()),
                    Err(_) => format!("{}::{}", quoted(s), ty.pg_name()),
                }
            }
            (ty, _) => format!("{}::{}", quoted(s), ty.pg_name()),
        },
        Expr::Binary {
            op: BinOp::Sub,
            left,
            right,
        } if matches!(**left, Expr::Literal(Value::Int(0))) => {
            format!("- {}", expr_text(right, c))
        }
        other => {
            // The deparser's outer parentheses are EXPLAIN's; pretty mode drops them.
            let s = crate::sql::deparse::deparse(other);
            match s.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
                Some(inner) if !matches!(other, Expr::Function { .. } | Expr::Call(_)) => {
                    inner.to_string()
                }
                _ => s,
            }
        }
    }
}

/// A psql pattern (`processSQLNamePattern`): `*` any run of characters, `?`
/// one, letters folded to lower case outside double quotes, a `.` between a
/// schema and a name.
#[derive(Debug, Clone)]
struct Pattern {
    /// As written, for psql's "Did not find any relation named …".
    text: String,
    schema: Option<Vec<Glob>>,
    name: Vec<Glob>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Glob {
    Char(char),
    One,
    Any,
}

/// The schemas of PostgreSQL's own relations.
const SYSTEM_SCHEMAS: &[&str] = &["pg_catalog", "information_schema", "pg_toast"];

impl Pattern {
    fn parse(text: &str) -> Result<Pattern, SqlError> {
        let mut parts: Vec<Vec<Glob>> = vec![Vec::new()];
        let mut quoted = false;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            let part = parts.last_mut().expect("one part at least");
            match c {
                '"' if quoted && chars.peek() == Some(&'"') => {
                    chars.next();
                    part.push(Glob::Char('"'));
                }
                '"' => quoted = !quoted,
                '*' if !quoted => part.push(Glob::Any),
                '?' if !quoted => part.push(Glob::One),
                '.' if !quoted => parts.push(Vec::new()),
                c if !quoted && "|+()[]{}^\\".contains(c) => {
                    return Err(unsupported(format!(
                        "the regular expression character {c} in the pattern \"{text}\" (IndexLab \
                         matches psql's patterns with * and ? only)"
                    )))
                }
                c if !quoted => part.push(Glob::Char(c.to_ascii_lowercase())),
                c => part.push(Glob::Char(c)),
            }
        }
        let name = parts.pop().expect("one part at least");
        let schema = match parts.len() {
            0 => None,
            1 => parts.pop(),
            _ => {
                return Err(unsupported(format!(
                    "a database name in the pattern \"{text}\" (IndexLab runs one database)"
                )))
            }
        };
        Ok(Pattern {
            text: text.to_string(),
            schema,
            name,
        })
    }

    /// Whether the pattern names one of PostgreSQL's own relations, which
    /// psql would list or describe too. Without a schema, psql sees what the
    /// search path makes visible: the script's relations and `pg_catalog`'s,
    /// all named `pg_…` (YugabyteDB adds `pg_yb_…` and `yb_…` ones).
    fn names_system(&self, catalog: &Catalog) -> bool {
        let named = |n: &&str| glob_matches(&self.name, n);
        let yb_own = catalog.flavor == Flavor::Yb
            && (could_start_with(&self.name, "pg_yb") || could_start_with(&self.name, "yb_"));
        match &self.schema {
            Some(s) if SYSTEM_SCHEMAS.iter().any(|sys| glob_matches(s, sys)) => {
                yb_own || catalog.system_names.iter().any(named)
            }
            Some(_) => false,
            None => {
                yb_own
                    || catalog
                        .system_names
                        .iter()
                        .filter(|n| n.starts_with("pg_") && !n.starts_with("pg_toast"))
                        .any(named)
            }
        }
    }

    /// Whether the relation keyed `name` matches: its schema (public when
    /// the pattern has none) and its name.
    fn matches(&self, name: &str) -> bool {
        let schema = self.schema.as_ref();
        schema.map_or(schema_of(name) == PUBLIC, |s| {
            glob_matches(s, schema_of(name))
        }) && glob_matches(&self.name, bare(name))
    }
}

/// The positions of `glob` reachable after reading `text`.
fn glob_states(glob: &[Glob], text: &str) -> Vec<bool> {
    let close = |states: &mut Vec<bool>| {
        // A `*` may match nothing: whoever reaches it reaches past it too.
        for i in 0..glob.len() {
            if states[i] && glob[i] == Glob::Any {
                states[i + 1] = true;
            }
        }
    };
    let mut states = vec![false; glob.len() + 1];
    states[0] = true;
    close(&mut states);
    for ch in text.chars() {
        let mut next = vec![false; glob.len() + 1];
        for i in 0..glob.len() {
            if !states[i] {
                continue;
            }
            match glob[i] {
                Glob::Any => next[i] = true,
                Glob::One => next[i + 1] = true,
                Glob::Char(c) if c == ch => next[i + 1] = true,
                Glob::Char(_) => {}
            }
        }
        close(&mut next);
        states = next;
    }
    states
}

fn glob_matches(glob: &[Glob], text: &str) -> bool {
    glob_states(glob, text)[glob.len()]
}

/// Whether some name starting with `prefix` matches `glob`.
fn could_start_with(glob: &[Glob], prefix: &str) -> bool {
    glob_states(glob, prefix).contains(&true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(text: &str) -> Pattern {
        Pattern::parse(text).unwrap_or_else(|e| panic!("{text}: {}", e.message))
    }

    #[test]
    fn patterns_match_as_psql_reads_them() {
        assert!(pattern("t").matches("t") && !pattern("t").matches("t1"));
        assert!(pattern("T").matches("t"), "folded to lower case");
        assert!(pattern("\"T\"").matches("T") && !pattern("\"T\"").matches("t"));
        assert!(pattern("t*").matches("t_pkey") && pattern("t*").matches("t"));
        assert!(pattern("t?").matches("t1") && !pattern("t?").matches("t"));
        assert!(pattern("*_idx").matches("t_v_idx"));
        assert!(pattern("public.t").matches("t") && !pattern("other.t").matches("t"));
        assert!(pattern("\"a*b\"").matches("a*b") && !pattern("\"a*b\"").matches("ab"));
        assert!(pattern("\"say \"\"hi\"\"\"").matches("say \"hi\""));
        // An empty name (`public.`, `""`) names nothing, as in psql.
        assert!(!pattern("public.").matches("t") && !pattern("\"\"").matches("t"));
    }

    fn catalog(flavor: Flavor) -> Catalog {
        Catalog {
            flavor,
            system_names: crate::pg::SYSTEM_RELATION_NAMES,
            tables: Vec::new(),
            indexes: Vec::new(),
            sequences: Vec::new(),
        }
    }

    #[test]
    fn patterns_that_name_the_system_catalogs_are_told_apart() {
        let pg = catalog(Flavor::Pg);
        for p in [
            "*",
            "p*",
            "pg_class",
            "?g_*",
            "pg_catalog.*",
            "pg_catalog.pg_am",
            "information_schema.*",
        ] {
            assert!(pattern(p).names_system(&pg), "{p}");
        }
        // Nothing of PostgreSQL's ends in _idx, nor is in public, nor is t.
        for p in ["*_idx", "public.*", "t*", "pg", "pg_catalog.t", "*.t"] {
            assert!(!pattern(p).names_system(&pg), "{p}");
        }
        let yb = catalog(Flavor::Yb);
        assert!(pattern("yb_*").names_system(&yb) && !pattern("yb_*").names_system(&pg));
    }

    #[test]
    fn regular_expressions_and_database_names_are_refused() {
        for p in ["d.public.t", "t[12]", "a|b", "(t)", "t+"] {
            let e = Pattern::parse(p).expect_err(p);
            assert!(
                e.message.contains("is not supported by IndexLab"),
                "{p}: {}",
                e.message
            );
        }
    }

    #[test]
    fn identifiers_are_quoted_as_quote_ident_does() {
        assert_eq!(quote_ident("id"), "id");
        assert_eq!(quote_ident("value"), "value");
        assert_eq!(quote_ident("select"), "\"select\"");
        assert_eq!(quote_ident("Mixed Case"), "\"Mixed Case\"");
        assert_eq!(quote_ident("1a"), "\"1a\"");
    }
}
