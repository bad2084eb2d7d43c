//! The state machine behind [`split_script`](super::split_script): psql's query
//! buffer, its *previous* buffer, and the scan that feeds them.

use super::describe;
use super::lexer::{self, LexError};
use super::meta::{self, MetaLine, WatchOptions};
use super::{Meta, MetaCommand, ScriptError, ScriptItem, Segment, Statement, Trigger, Watch};
use crate::sql::error::{LineIndex, Position};

/// psql's query buffer: the text collected since the last send.
#[derive(Debug, Default)]
struct Buffer {
    sql: String,
    /// (offset in `sql`, offset in the script) where each contiguous piece starts.
    pieces: Vec<(usize, usize)>,
    /// Script offset just after the last byte copied, to detect a gap.
    src_end: usize,
    /// Whether it holds anything but comments and whitespace.
    has_sql: bool,
    /// Script offsets of `(` not yet closed: a `;` inside them does not send.
    open_parens: Vec<usize>,
}

impl Buffer {
    fn push(&mut self, text: &str, start: usize, end: usize) {
        if start >= end {
            return;
        }
        if self.pieces.is_empty() || self.src_end != start {
            self.pieces.push((self.sql.len(), start));
        }
        self.sql.push_str(&text[start..end]);
        self.src_end = end;
    }
}

/// A sent buffer, kept so that `\watch` can run it again.
#[derive(Debug, Clone)]
struct Source {
    sql: String,
    segments: Vec<Segment>,
    has_sql: bool,
}

impl Source {
    fn statement(&self, runs: u32, trigger: Trigger) -> Statement {
        let at = self.segments.first().map_or(Position::START, |s| s.at);
        Statement {
            sql: self.sql.clone(),
            at,
            runs,
            trigger,
            gset: None,
            segments: self.segments.clone(),
        }
    }
}

pub struct Splitter<'a> {
    text: &'a str,
    lines: LineIndex,
    pos: usize,
    buf: Buffer,
    /// The last buffer a `;` sent (psql's `previous_buf`); `None` before any.
    previous: Option<Source>,
    items: Vec<ScriptItem>,
}

impl<'a> Splitter<'a> {
    pub fn new(text: &'a str) -> Splitter<'a> {
        Splitter {
            text,
            lines: LineIndex::new(text),
            pos: 0,
            buf: Buffer::default(),
            previous: None,
            items: Vec::new(),
        }
    }

    pub fn run(mut self) -> Result<Vec<ScriptItem>, ScriptError> {
        while self.pos < self.text.len() {
            self.step()?;
        }
        self.finish()?;
        Ok(self.items)
    }

    /// Consumes one token (or run of ordinary bytes) at `self.pos`.
    fn step(&mut self) -> Result<(), ScriptError> {
        let s = self.text.as_bytes();
        let i = self.pos;
        let next = s.get(i + 1).copied();
        match s[i] {
            b'-' if next == Some(b'-') => self.trivia(lexer::line_comment_end(s, i)),
            b'/' if next == Some(b'*') => {
                let end = lexer::block_comment_end(s, i).map_err(|e| self.error(e))?;
                self.comment(end)
            }
            b'\'' => {
                let escapes = lexer::is_escape_string(s, i);
                let end = lexer::single_quoted_end(s, i, escapes).map_err(|e| self.error(e))?;
                self.sql(end)
            }
            b'"' => {
                let end = lexer::double_quoted_end(s, i).map_err(|e| self.error(e))?;
                self.sql(end)
            }
            b'$' => match lexer::dollar_tag_len(s, i) {
                Some(n) => {
                    let end = lexer::dollar_quoted_end(s, i, n).map_err(|e| self.error(e))?;
                    self.sql(end)
                }
                None => self.sql(i + 1),
            },
            b'(' => {
                self.buf.open_parens.push(i);
                self.sql(i + 1)
            }
            b')' => {
                self.buf.open_parens.pop();
                self.sql(i + 1)
            }
            b';' if self.buf.open_parens.is_empty() => {
                self.pos = i + 1;
                self.send();
            }
            b'\\' => self.backslash(i)?,
            b if b.is_ascii_whitespace() => self.trivia(ordinary_end(s, i, true)),
            _ => self.sql(ordinary_end(s, i, false)),
        }
        Ok(())
    }

    /// Copies SQL text up to `end` into the buffer.
    fn sql(&mut self, end: usize) {
        self.buf.push(self.text, self.pos, end);
        self.buf.has_sql = true;
        self.pos = end;
    }

    /// A block comment: kept (it may be a hint) but not SQL on its own.
    fn comment(&mut self, end: usize) {
        self.buf.push(self.text, self.pos, end);
        self.pos = end;
    }

    /// Whitespace or a `--` comment: psql drops them while the buffer is empty.
    fn trivia(&mut self, end: usize) {
        if !self.buf.sql.is_empty() {
            self.buf.push(self.text, self.pos, end);
        }
        self.pos = end;
    }

    /// A `;` sends the buffer; it becomes the previous statement even when it
    /// held nothing to run (psql then sends an empty query).
    fn send(&mut self) {
        let source = self.take_buffer();
        if source.has_sql {
            let statement = source.statement(1, Trigger::Semicolon);
            self.items.push(ScriptItem::Statement(statement));
        }
        self.previous = Some(source);
    }

    fn backslash(&mut self, at: usize) -> Result<(), ScriptError> {
        if let Some(b';' | b':') = self.text.as_bytes().get(at + 1) {
            // psql's escape to put a `;` (or `:`) in the buffer without sending.
            self.pos = at + 1;
            self.sql(at + 2);
            return Ok(());
        }
        let line = meta::scan(self.text, at).map_err(|e| self.error(e))?;
        self.run_meta(at, &line)?;
        self.pos = line.end;
        Ok(())
    }

    fn run_meta(&mut self, at: usize, line: &MetaLine) -> Result<(), ScriptError> {
        let command = match line.name.as_str() {
            "watch" => {
                let opts = meta::watch_options(&line.args).map_err(|e| self.error(e))?;
                return self.watch(at, opts);
            }
            "flush" => MetaCommand::Flush(self.table_arg(line)?),
            "compact" => MetaCommand::Compact(self.table_arg(line)?),
            "checkpoint" => {
                self.no_extra_args(line, 0)?;
                MetaCommand::Checkpoint
            }
            "echo" => {
                let words: Vec<&str> = line.args.iter().map(|a| a.text.as_str()).collect();
                MetaCommand::Echo(words.join(" "))
            }
            "c" | "connect" => reconnect(line),
            "dconfig" | "dconfig+" => {
                let args: Vec<String> = line.args.iter().map(|a| a.text.clone()).collect();
                super::dconfig::command(&args, line.name.ends_with('+'))
            }
            "gset" => {
                self.no_extra_args(line, 1)?;
                let prefix = line.args.first().map_or(String::new(), |a| a.text.clone());
                return self.gset(at, prefix);
            }
            // psql's own variables (ON_ERROR_STOP, ECHO…) are upper case:
            // those change only how psql runs, answered in words below.
            "set" if line.args.first().is_some_and(|a| is_user_variable(&a.text)) => {
                MetaCommand::SetVariable {
                    name: line.args[0].text.clone(),
                    value: line.args[1..].iter().map(|a| a.text.as_str()).collect(),
                }
            }
            "unset" if line.args.first().is_some_and(|a| is_user_variable(&a.text)) => {
                self.no_extra_args(line, 1)?;
                MetaCommand::UnsetVariable(line.args[0].text.clone())
            }
            "timing" | "x" | "pset" | "set" | "unset" | "conninfo" => MetaCommand::Display {
                command: line.name.clone(),
                args: line.args.iter().map(|a| a.text.clone()).collect(),
            },
            // psql runs what comes before an unknown command and reports it
            // when reached: so does a script here.
            name => describe::command(line)
                .unwrap_or_else(|| MetaCommand::Unsupported(unsupported_message(name))),
        };
        let at = self.position(at);
        self.items.push(ScriptItem::Meta(Meta { command, at }));
        Ok(())
    }

    /// `\gset`: sends the buffer (or, empty, the previous one again) and
    /// keeps its row in variables.
    fn gset(&mut self, at: usize, prefix: String) -> Result<(), ScriptError> {
        let source = if self.buf.has_sql {
            let source = self.take_buffer();
            self.previous = Some(source.clone());
            Some(source)
        } else {
            self.previous.clone()
        };
        let source = source
            .filter(|s| s.has_sql)
            .ok_or_else(|| self.error_at(at, "\\gset cannot be used with an empty query".into()))?;
        let mut statement = source.statement(1, Trigger::Semicolon);
        statement.gset = Some(prefix);
        self.items.push(ScriptItem::Statement(statement));
        Ok(())
    }

    fn watch(&mut self, at: usize, opts: WatchOptions) -> Result<(), ScriptError> {
        let Some(count) = opts.count else {
            // The query runs once, then the script stops at the \watch
            // (or, run as psql runs a script, goes on without it).
            if !self.buf.sql.is_empty() {
                let source = self.take_buffer();
                self.previous = Some(source.clone());
                if source.has_sql {
                    let statement = source.statement(1, Trigger::Semicolon);
                    self.items.push(ScriptItem::Statement(statement));
                }
            }
            let message = "\\watch without a count would repeat forever (as psql does) and a \
                 simulation must end: add c=N, for example \\watch c=10";
            let at = self.position(at);
            self.items.push(ScriptItem::Meta(Meta {
                command: MetaCommand::Unsupported(message.into()),
                at,
            }));
            return Ok(());
        };
        let (source, recalled) = if self.buf.sql.is_empty() {
            (self.previous.clone(), true)
        } else {
            (Some(self.take_buffer()), false)
        };
        let source = source.filter(|s| s.has_sql).ok_or_else(|| {
            self.error_at(at, "\\watch cannot be used with an empty query".into())
        })?;
        let watch = Watch {
            at: self.position(at),
            count,
            interval_secs: opts.interval_secs,
            recalled,
        };
        let statement = source.statement(count, Trigger::Watch(watch));
        self.items.push(ScriptItem::Statement(statement));
        Ok(())
    }

    /// The optional table name of `\flush` and `\compact`.
    fn table_arg(&self, line: &MetaLine) -> Result<Option<String>, ScriptError> {
        self.no_extra_args(line, 1)?;
        Ok(line.args.first().map(|a| sql_identifier(&a.text)))
    }

    fn no_extra_args(&self, line: &MetaLine, allowed: usize) -> Result<(), ScriptError> {
        match line.args.get(allowed) {
            Some(extra) => Err(self.error_at(
                extra.offset,
                format!("\\{}: extra argument \"{}\"", line.name, extra.text),
            )),
            None => Ok(()),
        }
    }

    /// The end of the script: leftover text runs, as psql runs it at end of file.
    fn finish(&mut self) -> Result<(), ScriptError> {
        if !self.buf.has_sql {
            return Ok(());
        }
        if let Some(&paren) = self.buf.open_parens.first() {
            return Err(self.error_at(
                paren,
                "unclosed parenthesis: the script ends inside it \
                 (a \";\" inside parentheses does not end a statement)"
                    .into(),
            ));
        }
        let statement = self.take_buffer().statement(1, Trigger::EndOfScript);
        self.items.push(ScriptItem::Statement(statement));
        Ok(())
    }

    /// Empties the query buffer (psql's reset) and returns what it held, trimmed.
    fn take_buffer(&mut self) -> Source {
        let buf = std::mem::take(&mut self.buf);
        let mut sql = buf.sql;
        sql.truncate(sql.trim_end().len());
        let segments = buf
            .pieces
            .iter()
            .filter(|&&(sql_offset, _)| sql_offset == 0 || sql_offset < sql.len())
            .map(|&(sql_offset, src)| Segment {
                sql_offset,
                at: self.position(src),
            })
            .collect();
        Source {
            sql,
            segments,
            has_sql: buf.has_sql,
        }
    }

    fn position(&self, offset: usize) -> Position {
        self.lines.position(self.text, offset)
    }

    fn error(&self, e: LexError) -> ScriptError {
        self.error_at(e.offset, e.message)
    }

    fn error_at(&self, offset: usize, message: String) -> ScriptError {
        let at = self.position(offset);
        ScriptError {
            message,
            line: at.line,
            column: at.column,
        }
    }
}

/// The end of a run of bytes with no special meaning (or of whitespace).
fn ordinary_end(s: &[u8], start: usize, whitespace: bool) -> usize {
    let special = |b: u8| {
        b.is_ascii_whitespace() != whitespace
            || matches!(
                b,
                b'-' | b'/' | b'\'' | b'"' | b'$' | b'(' | b')' | b';' | b'\\'
            )
    };
    (start + 1..s.len())
        .find(|&i| special(s[i]))
        .unwrap_or(s.len())
}

/// A table name as SQL reads it: unquoted parts folded to lower case, quoted
/// parts kept as written (`""` is a quote).
fn sql_identifier(text: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                out.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if quoted => out.push(c),
            c => out.push(c.to_ascii_lowercase()),
        }
    }
    out
}

/// `\c [dbname]`: the same database again is a new session; any other
/// database, user or host is refused by name.
fn reconnect(line: &MetaLine) -> MetaCommand {
    let args: Vec<&str> = line.args.iter().map(|a| a.text.as_str()).collect();
    match args.as_slice() {
        [] | ["-"] | ["postgres"] | ["yugabyte"] => MetaCommand::Reconnect,
        _ => MetaCommand::Unsupported(format!(
            "\\c {} is not supported by IndexLab (it runs one database as one user: \\c \
             alone starts a new session on it)",
            args.join(" ")
        )),
    }
}

fn unsupported_message(name: &str) -> String {
    if name.is_empty() {
        return "invalid command \\ (a backslash starts a meta-command)".into();
    }
    let why = match name {
        "!" => " (it runs a shell command; a script in IndexLab has no shell)",
        "i" | "ir" | "include" | "include_relative" => {
            " (it reads another file; paste that file's statements into the script)"
        }
        "copy" | "g" | "gx" | "o" | "out" | "w" | "write" => {
            " (it reads or writes files on the client; IndexLab has none)"
        }
        _ if name.starts_with('d') => {
            " (of psql's describe commands IndexLab runs \\d, \\dt, \\di and \\ds, with + and a \
             pattern, and \\dconfig with a pattern)"
        }
        _ => "",
    };
    format!(
        "the meta-command \\{name} is not supported by IndexLab{why}; scripts accept \\watch, \\flush, \
         \\compact, \\checkpoint, \\echo, \\d, \\timing, \\x, \\pset, \\set, \\unset and \\gset"
    )
}

/// A variable a script sets for itself (`\\set n 10`), not one of psql's
/// own upper-case settings (`\\set ON_ERROR_STOP on`).
fn is_user_variable(name: &str) -> bool {
    name.chars().any(|c| c.is_lowercase())
}
