//! A generated script: statements as IndexLab runs them and as PostgreSQL runs
//! them, each with the rule that compares their results.

/// How a statement's results are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// A statement without rows (DDL, DML, VACUUM): success or error, and for
    /// INSERT/UPDATE/DELETE the number of rows it touched.
    Statement,
    /// A query whose ORDER BY fixes the order of every row it returns.
    Ordered,
    /// A query without a total order: rows compared as a multiset.
    Unordered,
    /// A query whose rows are not determined (LIMIT without a total order):
    /// only how many rows it returns.
    CountOnly,
    /// A query of PostgreSQL's storage (`pg_relation_size`…), compared as a
    /// multiset; the yb profile refuses it by name (its tables are SST files),
    /// which ends its run there: the generator puts it last.
    PgStorage,
    /// A query of a catalog view each profile answers for its own database
    /// (`pg_indexes`: `USING btree` against `USING lsm`): compared as a
    /// multiset on pg; on yb it must only run. A refusal by name ends the
    /// run on either.
    PgCatalog,
}

/// One line of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The text IndexLab runs (may use YugabyteDB syntax such as `HASH`, or a
    /// backslash command).
    pub indexlab: String,
    /// The text PostgreSQL runs; `None` for a backslash command PostgreSQL has
    /// no counterpart for (`\flush`, `\compact`): nothing to compare.
    pub postgres: Option<String>,
    pub check: Check,
}

impl Item {
    /// A statement both sides run as written.
    pub fn same(sql: impl Into<String>, check: Check) -> Item {
        let sql = sql.into();
        Item {
            postgres: Some(sql.clone()),
            indexlab: sql,
            check,
        }
    }

    /// A backslash command only IndexLab runs.
    pub fn meta(command: impl Into<String>) -> Item {
        Item {
            indexlab: command.into(),
            postgres: None,
            check: Check::Statement,
        }
    }

    pub fn is_meta(&self) -> bool {
        self.indexlab.starts_with('\\')
    }
}

/// A whole script, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Script {
    pub items: Vec<Item>,
}

impl Script {
    /// The script as IndexLab reads it: one statement a line, each ended by `;`
    /// (backslash commands end at the line's end).
    pub fn indexlab_text(&self) -> String {
        let mut out = String::new();
        for item in &self.items {
            out.push_str(&item.indexlab);
            if !item.is_meta() {
                out.push(';');
            }
            out.push('\n');
        }
        out
    }
}

impl Script {
    /// A hand-written script (psql-like, as IndexLab reads it) as items: a
    /// query compared in order when it has an ORDER BY, by its row count when
    /// it has a LIMIT without one, else as a multiset; backslash commands are
    /// IndexLab's alone.
    pub fn from_text(text: &str) -> Result<Script, String> {
        use indexlab_engine::sql::script::{split_script, MetaCommand, ScriptItem};
        let items =
            split_script(text).map_err(|e| format!("{}:{}: {}", e.line, e.column, e.message))?;
        let mut out = Vec::new();
        for item in items {
            match item {
                ScriptItem::Statement(s) => {
                    let lower = s.sql.to_ascii_lowercase();
                    let is_query = lower.starts_with("select") || lower.starts_with("with");
                    let check = match (is_query, lower.contains(" order by ")) {
                        (false, _) => Check::Statement,
                        (true, true) => Check::Ordered,
                        // Which rows a LIMIT keeps is not determined without an order.
                        (true, false) if lower.contains(" limit ") => Check::CountOnly,
                        (true, false) => Check::Unordered,
                    };
                    // `\watch c=N` runs it N times, each a statement of the report.
                    for _ in 0..s.runs {
                        out.push(Item::same(s.sql.clone(), check));
                    }
                }
                ScriptItem::Meta(m) => out.push(Item::meta(match m.command {
                    MetaCommand::Flush(t) => format!("\\flush {}", t.unwrap_or_default()),
                    MetaCommand::Compact(t) => format!("\\compact {}", t.unwrap_or_default()),
                    MetaCommand::Checkpoint => "\\checkpoint".to_string(),
                    MetaCommand::Echo(t) => format!("\\echo {t}"),
                    MetaCommand::Describe(d) => d.text,
                    MetaCommand::Dconfig(p) => format!("\\dconfig {p}"),
                    MetaCommand::Unsupported(m) => format!("-- {m}"),
                    MetaCommand::Reconnect => "\\c".to_string(),
                    MetaCommand::Display { command, args } => {
                        format!("\\{command} {}", args.join(" "))
                    }
                    MetaCommand::SetVariable { name, value } => format!("\\set {name} {value}"),
                    MetaCommand::UnsetVariable(name) => format!("\\unset {name}"),
                })),
            }
        }
        Ok(Script { items: out })
    }
}
