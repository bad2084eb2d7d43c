//! psql's describe meta-commands as a script writes them: `\d [pattern]`,
//! `\d+`, and the lists `\dt`, `\di`, `\ds` (letters combined as psql allows,
//! `\dti+`). What they print is the profile's business
//! ([`crate::exec::describe`]); here they are only read.
//!
//! psql (`command.c`, `exec_command_d`) looks at the letter after `d`: none,
//! `+` or `S` describes the relations a pattern names (or lists them all when
//! there is no pattern); `t`, `i`, `s`, `v`, `m` or `E` lists relations of
//! those kinds. `+` anywhere adds the verbose columns; `S` adds PostgreSQL's
//! own catalogs, which IndexLab does not model.

use super::meta::MetaLine;
use super::MetaCommand;

/// A describe command: `\d`, `\d+ t`, `\dt`, `\di+ t*`….
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Describe {
    /// The kinds listed (`t` tables, `i` indexes, `s` sequences, `v` views,
    /// `m` materialized views, `E` foreign tables), as written after `d`;
    /// empty for `\d` itself.
    pub kinds: String,
    /// `+`: psql's verbose columns and footers.
    pub verbose: bool,
    /// The pattern as written (double quotes kept, as psql keeps them).
    pub pattern: Option<String>,
    /// Arguments after the pattern: psql ignores them with a warning.
    pub extra: Vec<String>,
    /// The command as the script wrote it, for the report (`\dt+ t*`).
    pub text: String,
}

impl Describe {
    /// Whether this is `\d` (or `\d+`) rather than one of the lists.
    pub fn is_plain(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The kinds a list shows: `\d` without a pattern lists `tvmsE`, as psql.
    pub fn listed(&self, kind: char) -> bool {
        if self.kinds.is_empty() {
            "tvmsE".contains(kind)
        } else {
            self.kinds.contains(kind)
        }
    }
}

/// The command `\name args…` if it is a describe command IndexLab runs, or the
/// refusal it gets; `None` when `name` is no describe command at all.
pub(super) fn command(line: &MetaLine) -> Option<MetaCommand> {
    let name = line.name.as_str();
    let rest = name.strip_prefix('d')?;
    let first = rest.chars().next();
    let lists = matches!(first, Some('t' | 'i' | 's' | 'v' | 'm' | 'E'));
    if !(first.is_none() || matches!(first, Some('+' | 'S')) || lists) {
        return None; // \df, \dn, \du, \dx, \dconfig…: another command
    }
    if !rest.chars().all(|c| "tismvE+S".contains(c)) {
        return None;
    }
    if rest.contains('S') {
        return Some(MetaCommand::Unsupported(format!(
            "the meta-command \\{name} is not supported by IndexLab (S lists PostgreSQL's own \
             catalogs, which IndexLab does not model); \\{} describes the script's relations",
            name.replace('S', "")
        )));
    }
    let mut args = line.args.iter().map(|a| a.text.clone());
    let pattern = args.next();
    let extra: Vec<String> = args.collect();
    let mut text = format!("\\{name}");
    for a in &line.args {
        text.push(' ');
        text.push_str(&a.text);
    }
    Some(MetaCommand::Describe(Describe {
        kinds: rest.chars().filter(|c| !matches!(c, '+' | 'S')).collect(),
        verbose: rest.contains('+'),
        pattern,
        extra,
        text,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::meta;
    use super::*;

    fn read(text: &str) -> Option<MetaCommand> {
        command(&meta::scan(text, 0).unwrap())
    }

    fn describe(text: &str) -> Describe {
        match read(text) {
            Some(MetaCommand::Describe(d)) => d,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn reads_the_kinds_the_plus_and_the_pattern() {
        let d = describe("\\d t");
        assert_eq!((d.kinds.as_str(), d.verbose), ("", false));
        assert_eq!(d.pattern.as_deref(), Some("t"));
        assert!(d.is_plain());
        let d = describe("\\dt+ \"My T\" x");
        assert_eq!((d.kinds.as_str(), d.verbose), ("t", true));
        assert_eq!(d.pattern.as_deref(), Some("\"My T\""));
        assert_eq!(d.extra, ["x"]);
        assert_eq!(d.text, "\\dt+ \"My T\" x");
        let d = describe("\\dit");
        assert!(d.listed('t') && d.listed('i') && !d.listed('s'));
        let d = describe("\\d+");
        assert!(d.verbose && d.pattern.is_none() && d.listed('s') && !d.listed('i'));
    }

    #[test]
    fn other_d_commands_are_not_describe_commands() {
        for name in [
            "\\df",
            "\\dn",
            "\\du",
            "\\dx",
            "\\dconfig x",
            "\\dtf",
            "\\echo",
        ] {
            assert_eq!(read(name), None, "{name}");
        }
    }

    #[test]
    fn system_relations_are_refused_by_name() {
        let Some(MetaCommand::Unsupported(m)) = read("\\dtS") else {
            panic!("refused")
        };
        assert!(m.starts_with("the meta-command \\dtS is not supported by IndexLab"));
        assert!(m.ends_with("\\dt describes the script's relations"));
    }
}
