//! Schemas (CREATE SCHEMA, DROP SCHEMA, `schema.name`, `search_path`), as
//! PostgreSQL's namespace.c resolves names:
//! - a qualified name (`s.t`) names the relation in that schema;
//! - an unqualified one is looked for in each schema of `search_path` in
//!   turn, and the first that has it wins;
//! - an unqualified CREATE puts the relation in the first schema of
//!   `search_path` that exists.
//!
//! The catalogs key a relation by one string: its bare name in `public`
//! (`t`), `schema.name` elsewhere (`s.t`). Everything shown to a user that
//! PostgreSQL shows without a schema (EXPLAIN's `Seq Scan on t`,
//! `pg_class.relname`) takes [`bare`] of it.

use crate::profile::Outcome;
use crate::sql::ast::{CreateIndex, CreateTable};
use crate::sql::error::{ErrorKind, SqlError};
use std::borrow::Cow;

/// The schema every database has, and the one unqualified names mean by
/// default.
pub const PUBLIC: &str = "public";

/// The schemas a database has besides `public`, and the session's path.
#[derive(Debug, Clone)]
pub struct Schemas {
    created: Vec<String>,
    /// `search_path`, as its schema names (`$user` kept: it names a schema
    /// only when one is called as the user, `postgres`).
    search_path: Vec<String>,
}

impl Default for Schemas {
    fn default() -> Self {
        Schemas {
            created: Vec::new(),
            search_path: vec!["$user".into(), PUBLIC.into()],
        }
    }
}

/// The catalogs' key of `name` in `schema`.
pub fn qualify(schema: &str, name: &str) -> String {
    match schema {
        PUBLIC => name.to_string(),
        _ => format!("{schema}.{name}"),
    }
}

/// CREATE INDEX on the table keyed `table`: the index goes in the table's
/// schema (PostgreSQL's grammar has no schema for it).
pub fn index_in<'i>(i: &'i CreateIndex, table: &str) -> Cow<'i, CreateIndex> {
    if i.table == table && !table.contains('.') {
        return Cow::Borrowed(i);
    }
    let mut i = i.clone();
    i.table = table.to_string();
    i.name = i.name.map(|n| qualify(schema_of(table), &n));
    Cow::Owned(i)
}

/// A catalog key's schema.
pub fn schema_of(key: &str) -> &str {
    key.split_once('.').map_or(PUBLIC, |(s, _)| s)
}

/// A catalog key without its schema: what EXPLAIN and `relname` show.
pub fn bare(key: &str) -> &str {
    key.split_once('.').map_or(key, |(_, n)| n)
}

/// `schema.name` always, as psql's `\d` titles and pg_indexes print it.
pub fn qualified(key: &str) -> String {
    format!("{}.{}", schema_of(key), bare(key))
}

impl Schemas {
    pub fn exists(&self, schema: &str) -> bool {
        schema == PUBLIC || self.created.iter().any(|s| s == schema)
    }

    /// The schemas created, in creation order.
    pub fn created(&self) -> &[String] {
        &self.created
    }

    /// `CREATE SCHEMA [IF NOT EXISTS] name`.
    pub fn create(&mut self, name: &str, if_not_exists: bool) -> Result<Outcome, SqlError> {
        if self.exists(name) || is_system(name) {
            let message = format!("schema \"{name}\" already exists");
            return match if_not_exists {
                true => Ok(Outcome::tag("CREATE SCHEMA").notice(format!("{message}, skipping"))),
                false => Err(SqlError::new(ErrorKind::Semantic, message)),
            };
        }
        if name.starts_with("pg_") {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("unacceptable schema name \"{name}\""),
            )
            .with_detail("The prefix \"pg_\" is reserved for system schemas."));
        }
        self.created.push(name.to_string());
        Ok(Outcome::tag("CREATE SCHEMA"))
    }

    /// `DROP SCHEMA names [CASCADE]` over a database holding `tables` and
    /// standalone `sequences` (by key): what goes, or PostgreSQL's error.
    /// The schemas leave the list at once; the caller drops the relations.
    pub fn drop(
        &mut self,
        names: &[String],
        if_exists: bool,
        cascade: bool,
        (tables, sequences): (&[String], &[String]),
    ) -> Result<SchemaDrop, SqlError> {
        let mut out = SchemaDrop::default();
        for name in names {
            if name == PUBLIC || is_system(name) {
                return Err(crate::sql::error::unsupported(format!(
                    "DROP SCHEMA {name} (IndexLab keeps its system schemas and public)"
                )));
            }
            if !self.exists(name) {
                match if_exists {
                    true => out
                        .notices
                        .push(format!("schema \"{name}\" does not exist, skipping")),
                    false => return Err(no_schema(name)),
                }
                continue;
            }
            out.schemas.push(name.clone());
        }
        let mut held = Vec::new();
        for schema in &out.schemas {
            let mine = |key: &&String| schema_of(key) == schema;
            out.tables.extend(tables.iter().filter(mine).cloned());
            out.sequences.extend(sequences.iter().filter(mine).cloned());
            for key in tables.iter().filter(mine) {
                held.push((format!("table {}", display(key)), schema.clone()));
            }
            for key in sequences.iter().filter(mine) {
                held.push((format!("sequence {}", display(key)), schema.clone()));
            }
        }
        out.notices
            .extend(drop_check(&out.schemas, &held, cascade)?);
        self.created.retain(|s| !out.schemas.contains(s));
        Ok(out)
    }

    /// `SET search_path`'s value, as PostgreSQL splits it.
    pub fn set_search_path(&mut self, value: &str) {
        self.search_path = value
            .split(',')
            .map(|s| {
                let s = s.trim();
                match s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
                    Some(quoted) => quoted.replace("\"\"", "\""),
                    None => s.to_ascii_lowercase(),
                }
            })
            .filter(|s| !s.is_empty())
            .collect();
    }

    /// The schemas of `search_path` that exist, in order.
    pub fn path(&self) -> impl Iterator<Item = &str> {
        self.search_path
            .iter()
            .map(String::as_str)
            .filter(|s| self.exists(s))
    }

    /// The catalog key an unqualified `name` means: the first schema on the
    /// path holding a relation of that name (`has`). A qualified name, or
    /// one no schema holds, stays as written (so a missing relation's error
    /// names it as written).
    pub fn resolve<'n>(&self, name: &'n str, has: impl Fn(&str) -> bool) -> Cow<'n, str> {
        if let Some(bare) = name.strip_prefix("public.") {
            return Cow::Borrowed(bare);
        }
        if name.contains('.') {
            return Cow::Borrowed(name);
        }
        for schema in self.path() {
            if schema == PUBLIC {
                if has(name) {
                    return Cow::Borrowed(name);
                }
            } else {
                let key = qualify(schema, name);
                if has(&key) {
                    return Cow::Owned(key);
                }
            }
        }
        Cow::Borrowed(name)
    }

    /// Where in `items` (a catalog's tables or indexes, each named by
    /// `key`) the relation `name` means is, as [`Self::resolve`] finds it.
    pub fn find<T>(
        &self,
        items: &[Option<T>],
        name: &str,
        key: impl Fn(&T) -> &str,
    ) -> Option<usize> {
        let find = |k: &str| {
            items
                .iter()
                .position(|i| i.as_ref().is_some_and(|i| key(i) == k))
        };
        find(&self.resolve(name, |k| find(k).is_some()))
    }

    /// The catalog key of a relation CREATE makes as `name`: in its
    /// schema if qualified (which must exist), else in the first schema of
    /// the path.
    pub fn for_create(&self, name: &str) -> Result<String, SqlError> {
        if let Some((schema, bare)) = name.split_once('.') {
            return match self.exists(schema) {
                true => Ok(qualify(schema, bare)),
                false => Err(no_schema(schema)),
            };
        }
        match self.path().next() {
            Some(schema) => Ok(qualify(schema, name)),
            None => Err(SqlError::new(
                ErrorKind::Semantic,
                "no schema has been selected to create in",
            )),
        }
    }

    /// CREATE TABLE as the catalogs key what it makes: the table in the
    /// schema it goes to, its constraints' indexes in the same one.
    pub fn table_in<'t>(&self, t: &'t CreateTable) -> Result<Cow<'t, CreateTable>, SqlError> {
        let key = self.for_create(&t.name)?;
        if key == t.name {
            return Ok(Cow::Borrowed(t));
        }
        let schema = schema_of(&key).to_string();
        let mut t = t.clone();
        t.name = key;
        t.primary_key_name = t.primary_key_name.map(|n| qualify(&schema, &n));
        for k in &mut t.unique {
            k.name = k.name.take().map(|n| qualify(&schema, &n));
        }
        Ok(Cow::Owned(t))
    }

    /// `current_schema()`: the first schema of the path that exists.
    pub fn current(&self) -> Option<&str> {
        self.path().next()
    }
}

/// The catalogs' key of the relation a text names, read as `regclassin`
/// reads it: an identifier folded to lower case unless double-quoted (`'T'`
/// is t, `'"T"'` is T), qualified or not by its schema (`public.t`, `s.t`).
pub fn relation_key(text: &str) -> Result<String, SqlError> {
    let mut parts = Vec::new();
    let mut rest = text.trim();
    loop {
        let (part, after) = match rest.strip_prefix('"') {
            Some(quoted) => {
                let mut name = String::new();
                let mut chars = quoted.char_indices().peekable();
                let mut end = None;
                while let Some((i, c)) = chars.next() {
                    if c == '"' {
                        if chars.peek().map(|(_, c)| *c) == Some('"') {
                            name.push('"');
                            chars.next();
                        } else {
                            end = Some(i + 1);
                            break;
                        }
                    } else {
                        name.push(c);
                    }
                }
                let Some(end) = end else {
                    return Err(invalid_name(text));
                };
                (name, &quoted[end..])
            }
            None => {
                let end = rest.find('.').unwrap_or(rest.len());
                (rest[..end].trim().to_ascii_lowercase(), &rest[end..])
            }
        };
        parts.push(part);
        match after.trim_start().strip_prefix('.') {
            Some(more) => rest = more.trim_start(),
            None if after.trim().is_empty() => break,
            None => return Err(invalid_name(text)),
        }
    }
    match parts.as_slice() {
        [name] => Ok(name.clone()),
        [schema, name] if schema == "pg_catalog" => Ok(name.clone()),
        [schema, name] => Ok(qualify(schema, name)),
        _ => Err(invalid_name(text)),
    }
}

fn invalid_name(text: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!("invalid name syntax: \"{text}\""),
    )
}

/// What DROP SCHEMA removes.
#[derive(Debug, Default)]
pub struct SchemaDrop {
    pub schemas: Vec<String>,
    /// The tables and sequences they held, by key.
    pub tables: Vec<String>,
    pub sequences: Vec<String>,
    pub notices: Vec<String>,
}

/// A key as PostgreSQL's messages name the object: `s.t`, or `t` in public.
fn display(key: &str) -> &str {
    key
}

/// The schemas PostgreSQL always has besides `public`.
fn is_system(name: &str) -> bool {
    matches!(name, "pg_catalog" | "information_schema" | "pg_toast")
}

/// DROP SCHEMA's check of what the schemas hold (`objects`, as PostgreSQL
/// names them: `table s.t`): without CASCADE it fails and lists them; with
/// it, the notice that says they go too.
pub fn drop_check(
    schemas: &[String],
    objects: &[(String, String)],
    cascade: bool,
) -> Result<Vec<String>, SqlError> {
    if objects.is_empty() {
        return Ok(Vec::new());
    }
    let named: Vec<String> = objects.iter().map(|(o, _)| o.clone()).collect();
    if cascade {
        return Ok(vec![super::drop_column::cascade_notice(&named)]);
    }
    let detail: Vec<String> = objects
        .iter()
        .map(|(o, s)| format!("{o} depends on schema {s}"))
        .collect();
    Err(SqlError::new(
        ErrorKind::Semantic,
        format!(
            "cannot drop schema {} because other objects depend on it",
            schemas.join(", ")
        ),
    )
    .with_detail(detail.join("\n"))
    .with_hint("Use DROP ... CASCADE to drop the dependent objects too."))
}

pub fn no_schema(schema: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!("schema \"{schema}\" does not exist"),
    )
    .near(schema)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_along_the_search_path() {
        let mut s = Schemas::default();
        s.create("app", false).unwrap();
        let has = |k: &str| k == "app.t" || k == "t";
        assert_eq!(s.resolve("t", has), "t");
        s.set_search_path("app, public");
        assert_eq!(s.resolve("t", has), "app.t");
        assert_eq!(s.resolve("u", has), "u");
        assert_eq!(s.resolve("public.t", has), "t");
        assert_eq!(s.for_create("public.u").unwrap(), "u");
        assert_eq!(s.for_create("u").unwrap(), "app.u");
        s.set_search_path("\"$user\", nowhere");
        assert!(s.for_create("u").is_err());
        assert_eq!(s.for_create("app.u").unwrap(), "app.u");
        assert!(s.for_create("other.u").is_err());
    }

    #[test]
    fn a_relation_is_named_as_regclass_reads_it() {
        let key = |t: &str| relation_key(t).unwrap();
        assert_eq!(key("t"), "t");
        assert_eq!(key("T"), "t");
        assert_eq!(key("\"T\""), "T");
        assert_eq!(key("public.t"), "t");
        assert_eq!(key("public.\"My \"\"x\"\"\""), "My \"x\"");
        assert_eq!(key("Other.t"), "other.t");
        assert!(relation_key("a.b.c.d").is_err());
    }

    #[test]
    fn keys_split_into_schema_and_name() {
        assert_eq!((schema_of("app.t"), bare("app.t")), ("app", "t"));
        assert_eq!((schema_of("t"), bare("t")), ("public", "t"));
        assert_eq!(qualified("t"), "public.t");
        assert!(Schemas::default().create("pg_x", false).is_err());
    }
}
