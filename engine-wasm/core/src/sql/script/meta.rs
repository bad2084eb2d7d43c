//! Backslash meta-commands: reading one from the script and checking its
//! arguments.
//!
//! psql reads a meta-command's arguments up to the end of the line, or up to a
//! backslash: `\\` separates it from SQL that follows on the same line, and a
//! single `\` starts the next meta-command. Arguments are separated by spaces; a
//! single-quoted part has its quotes removed (`''` and backslash escapes honoured),
//! a double-quoted part is kept with its quotes, as psql does for plain options.

use super::lexer::LexError;

/// The largest `\watch` count a script may ask for. psql accepts up to 2^31-1,
/// but a simulation in a browser tab must end: a million runs of even a trivial
/// statement took seconds and gigabytes. A script's runs in all are bounded
/// too ([`MAX_STATEMENT_RUNS`](super::MAX_STATEMENT_RUNS)).
pub const MAX_WATCH_COUNT: u32 = 10_000;

/// psql's interval when `\watch` is given none.
pub const DEFAULT_WATCH_INTERVAL_SECS: f64 = 2.0;

/// A meta-command as written: its name, its arguments, and where it ends.
#[derive(Debug, Clone, PartialEq)]
pub struct MetaLine {
    pub name: String,
    pub args: Vec<Arg>,
    /// Byte offset where SQL scanning resumes.
    pub end: usize,
}

/// One argument, with quotes processed.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub text: String,
    /// Byte offset of its first character in the script.
    pub offset: usize,
    /// Whether any part of it was double-quoted (a quoted table name keeps its case).
    pub double_quoted: bool,
}

/// `\watch` options, as psql 16 accepts them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WatchOptions {
    pub count: Option<u32>,
    pub interval_secs: f64,
}

/// Reads the meta-command whose backslash is at `start`.
pub fn scan(text: &str, start: usize) -> Result<MetaLine, LexError> {
    let s = text.as_bytes();
    let name_end = (start + 1..s.len())
        .find(|&i| s[i].is_ascii_whitespace() || s[i] == b'\\')
        .unwrap_or(s.len());
    let mut line = MetaLine {
        name: text[start + 1..name_end].to_string(),
        args: Vec::new(),
        end: s.len(),
    };
    let mut i = name_end;
    while i < s.len() {
        match s[i] {
            b'\n' => {
                line.end = i + 1;
                return Ok(line);
            }
            b if b.is_ascii_whitespace() => i += 1,
            b'\\' => {
                // `\\` is a separator and is consumed; a lone `\` is the next command.
                line.end = if s.get(i + 1) == Some(&b'\\') {
                    i + 2
                } else {
                    i
                };
                return Ok(line);
            }
            _ => {
                let (arg, next) = scan_arg(text, i)?;
                line.args.push(arg);
                i = next;
            }
        }
    }
    Ok(line)
}

/// Reads one argument starting at `start`: bare and quoted parts glued together
/// until a space, a backslash or the end of the line.
fn scan_arg(text: &str, start: usize) -> Result<(Arg, usize), LexError> {
    let s = text.as_bytes();
    let mut arg = Arg {
        text: String::new(),
        offset: start,
        double_quoted: false,
    };
    let mut i = start;
    while i < s.len() && !s[i].is_ascii_whitespace() && s[i] != b'\\' {
        match s[i] {
            b'\'' => i = single_quoted_part(text, i, &mut arg.text)?,
            b'"' => {
                let end = super::lexer::double_quoted_end(s, i)?;
                arg.text.push_str(&text[i..end]);
                arg.double_quoted = true;
                i = end;
            }
            _ => {
                let end = (i..s.len())
                    .find(|&j| matches!(s[j], b'\'' | b'"' | b'\\') || s[j].is_ascii_whitespace())
                    .unwrap_or(s.len());
                arg.text.push_str(&text[i..end]);
                i = end;
            }
        }
    }
    Ok((arg, i))
}

/// Appends the content of the single-quoted part at `start` to `out`, returning
/// the offset after its closing quote. Escapes as psql reads them: `''`, `\n`,
/// `\t`, `\\`, `\'` (other escaped characters stand for themselves).
fn single_quoted_part(text: &str, start: usize, out: &mut String) -> Result<usize, LexError> {
    let mut chars = text[start + 1..].char_indices();
    while let Some((n, c)) = chars.next() {
        let here = start + 1 + n;
        match c {
            '\'' if text[here + 1..].starts_with('\'') => {
                out.push('\'');
                chars.next();
            }
            '\'' => return Ok(here + 1),
            '\\' => match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, other)) => out.push(other),
                None => break,
            },
            '\n' => break,
            _ => out.push(c),
        }
    }
    Err(LexError {
        message: "unterminated quoted string".to_string(),
        offset: start,
    })
}

/// Reads `\watch`'s options exactly as psql 16 does: `c=N` / `count=N`,
/// `i=SECONDS` / `interval=SECONDS`, or a bare number meaning the interval; each
/// at most once. The messages are psql's.
pub fn watch_options(args: &[Arg]) -> Result<WatchOptions, LexError> {
    let mut opts = WatchOptions {
        count: None,
        interval_secs: DEFAULT_WATCH_INTERVAL_SECS,
    };
    let mut have_interval = false;
    for arg in args {
        let fail = |message: String| LexError {
            message,
            offset: arg.offset,
        };
        let (label, value) = match arg.text.split_once('=') {
            Some((label, value)) => (Some(label), value),
            None => (None, arg.text.as_str()),
        };
        match label {
            None | Some("i") | Some("interval") => {
                if have_interval {
                    return Err(fail(
                        "\\watch: interval value is specified more than once".into(),
                    ));
                }
                have_interval = true;
                opts.interval_secs = parse_interval(value).ok_or_else(|| {
                    fail(format!("\\watch: incorrect interval value \"{value}\""))
                })?;
            }
            Some("c") | Some("count") => {
                if opts.count.is_some() {
                    return Err(fail(
                        "\\watch: iteration count is specified more than once".into(),
                    ));
                }
                opts.count = Some(parse_count(value).map_err(fail)?);
            }
            Some(_) => {
                return Err(fail(format!(
                    "\\watch: unrecognized parameter \"{}\"",
                    arg.text
                )))
            }
        }
    }
    Ok(opts)
}

/// psql reads the interval with `strtod` and rejects negative values.
fn parse_interval(value: &str) -> Option<f64> {
    let secs: f64 = value.trim_start().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then_some(secs)
}

/// psql reads the count with `strtoint` (base 10, within `int`) and rejects
/// values below 1; we also refuse counts a simulation could not finish.
fn parse_count(value: &str) -> Result<u32, String> {
    let incorrect = || format!("\\watch: incorrect iteration count \"{value}\"");
    let count: i64 = value.trim_start().parse().map_err(|_| incorrect())?;
    if count <= 0 || count > i64::from(i32::MAX) {
        return Err(incorrect());
    }
    let count = u32::try_from(count).map_err(|_| incorrect())?;
    if count > MAX_WATCH_COUNT {
        return Err(format!(
            "\\watch: iteration count {count} is above IndexLab's limit of {MAX_WATCH_COUNT} runs"
        ));
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<Arg> {
        scan(text, 0).unwrap().args
    }

    fn texts(text: &str) -> Vec<String> {
        args(text).into_iter().map(|a| a.text).collect()
    }

    #[test]
    fn name_and_arguments_end_at_the_line_end() {
        let line = scan("\\watch c=3 i=0.5\nselect 1;", 0).unwrap();
        assert_eq!(line.name, "watch");
        assert_eq!(texts("\\watch c=3 i=0.5\n"), ["c=3", "i=0.5"]);
        assert_eq!(line.end, 17);
        assert_eq!(line.args[1].offset, 11);
    }

    #[test]
    fn double_backslash_separates_and_a_single_one_starts_the_next_command() {
        let line = scan("\\echo a \\\\ select 1;", 0).unwrap();
        assert_eq!(line.end, 10);
        let line = scan("\\echo a \\flush", 0).unwrap();
        assert_eq!(line.end, 8);
        assert_eq!(texts("\\echo a \\flush"), ["a"]);
    }

    #[test]
    fn quotes_in_arguments() {
        assert_eq!(texts("\\echo 'a b' it''s"), ["a b", "its"]);
        assert_eq!(texts("\\echo 'it''s' 'x\\ty'"), ["it's", "x\ty"]);
        assert_eq!(texts("\\echo \"My T\" ab'c d'e"), ["\"My T\"", "abc de"]);
        assert!(args("\\flush \"T\"")[0].double_quoted);
        let err = scan("\\echo 'abc\nx", 0).unwrap_err();
        assert_eq!(
            (err.message.as_str(), err.offset),
            ("unterminated quoted string", 6)
        );
    }

    #[test]
    fn watch_options_as_psql_16() {
        let w = watch_options(&args("\\watch c=100 i=0.01")).unwrap();
        assert_eq!((w.count, w.interval_secs), (Some(100), 0.01));
        let w = watch_options(&args("\\watch count=3")).unwrap();
        assert_eq!((w.count, w.interval_secs), (Some(3), 2.0));
        let w = watch_options(&args("\\watch 5 c=2")).unwrap();
        assert_eq!((w.count, w.interval_secs), (Some(2), 5.0));
        let w = watch_options(&args("\\watch interval=0")).unwrap();
        assert_eq!((w.count, w.interval_secs), (None, 0.0));
    }

    #[test]
    fn watch_option_errors_name_the_value_and_point_at_it() {
        let err = |t: &str| watch_options(&args(t)).unwrap_err();
        let e = err("\\watch count=$i");
        assert_eq!(e.message, "\\watch: incorrect iteration count \"$i\"");
        assert_eq!(e.offset, 7);
        assert_eq!(
            err("\\watch c=0").message,
            "\\watch: incorrect iteration count \"0\""
        );
        assert_eq!(
            err("\\watch c=1 count=2").message,
            "\\watch: iteration count is specified more than once"
        );
        assert_eq!(
            err("\\watch 1 i=2").message,
            "\\watch: interval value is specified more than once"
        );
        assert_eq!(
            err("\\watch i=-1").message,
            "\\watch: incorrect interval value \"-1\""
        );
        assert_eq!(
            err("\\watch m=3").message,
            "\\watch: unrecognized parameter \"m=3\""
        );
        assert!(err("\\watch c=50000")
            .message
            .contains("limit of 10000 runs"));
        assert!(err("\\watch c=99999999999").message.contains("incorrect"));
        assert!(err("\\watch i=inf").message.contains("incorrect interval"));
    }
}
