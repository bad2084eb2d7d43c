//! VACUUM and ANALYZE in PostgreSQL's own grammar (`gram.y`'s VacuumStmt and
//! AnalyzeStmt), read here because `sqlparser` knows Redshift's VACUUM: it
//! reads `VACUUM ANALYZE t` as a table named `analyze`, and refuses
//! `VACUUM (ANALYZE) t`. Also `DO $$ … $$`, refused by name here: a script's
//! DO blocks never reach this parser (`scenario/plpgsql` runs them).
//!
//! ```text
//! VACUUM [ ( option [, …] ) ] [ table [ (column, …) ] [, …] ]
//! VACUUM [ FULL ] [ FREEZE ] [ VERBOSE ] [ ANALYZE ] [ table [ (column, …) ] [, …] ]
//! ANALYZE [ ( option [, …] ) ] [ table [ (column, …) ] [, …] ]
//! ANALYZE [ VERBOSE ] [ table [ (column, …) ] [, …] ]
//! CLUSTER [ VERBOSE ] [ table [ USING index ] ]   (or the old `index ON table`)
//! REINDEX [ ( VERBOSE ) ] { INDEX | TABLE } [ CONCURRENTLY ] name
//! ```

use super::words::Words;
use crate::sql::ast::{ReindexTarget, Statement, Vacuum};
use crate::sql::error::{unsupported, SqlError};
use sqlparser::tokenizer::Token;

/// The statement, when `sql` is a VACUUM or ANALYZE (or a DO block, refused);
/// `None` for anything else.
pub(super) fn parse(sql: &str) -> Result<Option<Statement>, SqlError> {
    let first = sql
        .trim_start()
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if !matches!(
        first.as_str(),
        "vacuum" | "analyze" | "analyse" | "do" | "cluster" | "reindex"
    ) {
        return Ok(None);
    }
    let mut p = Words::new(sql)?;
    p.next_word();
    Ok(Some(match first.as_str() {
        "vacuum" => Statement::Vacuum(p.vacuum()?),
        "do" => return Err(unsupported("a PL/pgSQL block (DO …)")),
        "cluster" => p.cluster()?,
        "reindex" => p.reindex()?,
        _ => {
            let v = p.options_then_tables(
                &["verbose", "skip_locked", "buffer_usage_limit"],
                "ANALYZE",
            )?;
            Statement::Analyze {
                tables: v.tables,
                verbose: v.verbose,
            }
        }
    }))
}

impl Words {
    fn vacuum(&mut self) -> Result<Vacuum, SqlError> {
        if self.peek() == Some(&Token::LParen) {
            return self.options_then_tables(
                &[
                    "full",
                    "freeze",
                    "verbose",
                    "analyze",
                    "analyse",
                    "disable_page_skipping",
                    "skip_locked",
                    "index_cleanup",
                    "process_toast",
                    "process_main",
                    "truncate",
                    "parallel",
                    "skip_database_stats",
                    "only_database_stats",
                    "buffer_usage_limit",
                ],
                "VACUUM",
            );
        }
        // The old form: its keywords in this order, each optional.
        let mut v = Vacuum::default();
        for (word, flag) in [("full", 0), ("freeze", 1), ("verbose", 2), ("analyze", 3)] {
            let w = self.peek_word();
            if w.as_deref() == Some(word) || (word == "analyze" && w.as_deref() == Some("analyse"))
            {
                self.at += 1;
                match flag {
                    0 => v.full = true,
                    1 => v.freeze = true,
                    2 => v.verbose = true,
                    _ => v.analyze = true,
                }
            }
        }
        v.tables = self.tables()?;
        Ok(v)
    }

    /// `( option [value] [, …] )` then the tables. The options a statement
    /// accepts are `known`; an unknown one is PostgreSQL's error.
    fn options_then_tables(&mut self, known: &[&str], what: &str) -> Result<Vacuum, SqlError> {
        let mut v = Vacuum::default();
        if self.peek() == Some(&Token::LParen) {
            self.at += 1;
            loop {
                let Some(name) = self.peek_word() else {
                    return Err(self.unexpected());
                };
                if !known.contains(&name.as_str()) {
                    return Err(self.error(format!("unrecognized {what} option \"{name}\"")));
                }
                self.at += 1;
                let on = self.option_value()?;
                match name.as_str() {
                    "full" => v.full = on,
                    "freeze" => v.freeze = on,
                    "verbose" => v.verbose = on,
                    "analyze" | "analyse" => v.analyze = on,
                    _ => {}
                }
                match self.peek() {
                    Some(Token::Comma) => self.at += 1,
                    Some(Token::RParen) => {
                        self.at += 1;
                        break;
                    }
                    _ => return Err(self.unexpected()),
                }
            }
        } else if self.peek_word().as_deref() == Some("verbose") {
            self.at += 1;
            v.verbose = true;
        }
        v.tables = self.tables()?;
        Ok(v)
    }

    /// An option's value: none (on), a boolean word, a number or a quoted string.
    fn option_value(&mut self) -> Result<bool, SqlError> {
        let on = match self.peek() {
            Some(Token::Comma | Token::RParen) => return Ok(true),
            Some(Token::Word(w)) => !matches!(
                w.value.to_ascii_lowercase().as_str(),
                "off" | "false" | "no"
            ),
            Some(Token::Number(n, _)) => n != "0",
            Some(Token::SingleQuotedString(s)) => !matches!(
                s.to_ascii_lowercase().as_str(),
                "off" | "false" | "no" | "0"
            ),
            _ => return Err(self.unexpected()),
        };
        self.at += 1;
        Ok(on)
    }

    /// `CLUSTER [VERBOSE] [table [USING index]]`, or `CLUSTER index ON table`.
    fn cluster(&mut self) -> Result<Statement, SqlError> {
        if self.peek_word().as_deref() == Some("verbose") {
            self.at += 1;
        }
        let Some(first) = self.name()? else {
            return Ok(Statement::Cluster {
                table: None,
                index: None,
            });
        };
        let (table, index) = match self.peek_word().as_deref() {
            Some("using") => {
                self.at += 1;
                (first, self.name()?)
            }
            Some("on") => {
                self.at += 1;
                let Some(table) = self.name()? else {
                    return Err(self.unexpected());
                };
                (table, Some(first))
            }
            _ => (first, None),
        };
        self.end()?;
        Ok(Statement::Cluster {
            table: Some(table),
            index,
        })
    }

    /// `REINDEX [(VERBOSE)] {INDEX | TABLE} [CONCURRENTLY] name`.
    fn reindex(&mut self) -> Result<Statement, SqlError> {
        if self.peek() == Some(&Token::LParen) {
            while !matches!(self.peek(), Some(Token::RParen) | None) {
                self.at += 1;
            }
            self.at += 1;
        }
        let target = match self.next_word().as_deref() {
            Some("index") => ReindexTarget::Index,
            Some("table") => ReindexTarget::Table,
            Some(other @ ("schema" | "database" | "system")) => {
                return Err(unsupported(format!(
                    "REINDEX {} (IndexLab reindexes one INDEX or one TABLE)",
                    other.to_ascii_uppercase()
                )))
            }
            _ => {
                self.at -= 1;
                return Err(self.unexpected());
            }
        };
        let concurrently = self.peek_word().as_deref() == Some("concurrently");
        if concurrently {
            self.at += 1;
        }
        let Some(name) = self.name()? else {
            return Err(self.unexpected());
        };
        self.end()?;
        Ok(Statement::Reindex {
            target,
            name,
            concurrently,
        })
    }

    /// An optionally qualified name (`schema.name`: the last part), folded
    /// as PostgreSQL folds it; `None` at the end of the statement.
    fn name(&mut self) -> Result<Option<String>, SqlError> {
        let mut name = None;
        loop {
            match self.peek() {
                Some(Token::Word(w))
                    if name.is_none() || self.tokens[self.at - 1].token == Token::Period =>
                {
                    name = Some(match w.quote_style {
                        Some(_) => w.value.clone(),
                        None => w.value.to_ascii_lowercase(),
                    });
                    self.at += 1;
                }
                Some(Token::Period) if name.is_some() => self.at += 1,
                _ => return Ok(name),
            }
        }
    }

    /// Nothing but a semicolon may follow.
    fn end(&mut self) -> Result<(), SqlError> {
        match self.peek() {
            None | Some(Token::SemiColon) => Ok(()),
            Some(_) => Err(self.unexpected()),
        }
    }

    /// `table [ (column, …) ] [, …]`, names folded as PostgreSQL folds them.
    fn tables(&mut self) -> Result<Vec<String>, SqlError> {
        let mut out = Vec::new();
        while let Some(tok) = self.peek() {
            let name = match tok {
                Token::Word(w) => match w.quote_style {
                    Some(_) => w.value.clone(),
                    None => w.value.to_ascii_lowercase(),
                },
                Token::SemiColon => break,
                _ => return Err(self.unexpected()),
            };
            self.at += 1;
            // `schema.table`: the last part names the table.
            let mut name = name;
            while self.peek() == Some(&Token::Period) {
                self.at += 1;
                match self.peek() {
                    Some(Token::Word(w)) => {
                        name = match w.quote_style {
                            Some(_) => w.value.clone(),
                            None => w.value.to_ascii_lowercase(),
                        };
                        self.at += 1;
                    }
                    _ => return Err(self.unexpected()),
                }
            }
            if self.peek() == Some(&Token::LParen) {
                // Columns to analyze: every column's statistics are gathered anyway.
                while !matches!(self.peek(), Some(Token::RParen) | None) {
                    self.at += 1;
                }
                if self.peek().is_none() {
                    return Err(self.unexpected());
                }
                self.at += 1;
            }
            out.push(name);
            match self.peek() {
                Some(Token::Comma) => self.at += 1,
                Some(Token::SemiColon) | None => break,
                _ => return Err(self.unexpected()),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vacuum(sql: &str) -> Vacuum {
        match parse(sql).unwrap() {
            Some(Statement::Vacuum(v)) => v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn vacuum_analyze_is_not_a_table_named_analyze() {
        let v = vacuum("VACUUM ANALYZE demo");
        assert!(v.analyze && !v.full);
        assert_eq!(v.tables, ["demo"]);
        let v = vacuum("vacuum (analyze, verbose false) a, public.\"B\"");
        assert!(v.analyze && !v.verbose);
        assert_eq!(v.tables, ["a", "B"]);
        assert_eq!(vacuum("vacuum").tables, Vec::<String>::new());
        let v = vacuum("vacuum full freeze verbose analyze t (a, b)");
        assert!(v.full && v.freeze && v.verbose && v.analyze);
        assert_eq!(v.tables, ["t"]);
    }

    #[test]
    fn analyze_takes_tables_and_verbose() {
        let Some(Statement::Analyze { tables, verbose }) = parse("analyze verbose t1, t2").unwrap()
        else {
            panic!()
        };
        assert!(verbose);
        assert_eq!(tables, ["t1", "t2"]);
        assert!(parse("select 1").unwrap().is_none());
    }

    #[test]
    fn bad_options_and_do_blocks_are_named() {
        let e = parse("vacuum (nonsense) t").unwrap_err();
        assert_eq!(e.message, "unrecognized VACUUM option \"nonsense\"");
        let e = parse("vacuum t u").unwrap_err();
        assert!(e.message.contains("\"u\""), "{}", e.message);
        let e = parse("do $$ begin perform 1; end $$").unwrap_err();
        assert!(e.message.contains("PL/pgSQL"), "{}", e.message);
        assert!(e.message.contains("not supported by IndexLab"));
    }
}
