//! Property tests: the splitter never cuts inside quotes or comments, never
//! panics, and every position it reports is a character of the input.

use proptest::prelude::*;

use super::*;

/// The character at a 1-based line and column, if there is one.
fn char_at(text: &str, at: Position) -> Option<char> {
    let line = text.split('\n').nth(at.line.checked_sub(1)? as usize)?;
    line.chars().nth(at.column.checked_sub(1)? as usize)
}

/// Every position in a split result (or its error) must be inside the input.
fn assert_positions_inside(text: &str, result: &Result<Vec<ScriptItem>, ScriptError>) {
    let mut positions = Vec::new();
    match result {
        Err(e) => positions.push(e.position()),
        Ok(items) => {
            for item in items {
                match item {
                    ScriptItem::Meta(m) => positions.push(m.at),
                    ScriptItem::Statement(s) => {
                        positions.push(s.at);
                        positions.push(s.position_at(s.sql.len().saturating_sub(1)));
                        if let Trigger::Watch(w) = s.trigger {
                            positions.push(w.at);
                        }
                    }
                }
            }
        }
    }
    for at in positions {
        assert!(char_at(text, at).is_some(), "{at} is outside {text:?}");
    }
}

/// Characters that mean something to the splitter, to stress it.
const TRICKY: &str = "[a-z ;'\"$*/()\\\\\\-\n\tEé:]{0,120}";

proptest! {
    #[test]
    fn never_panics_on_arbitrary_text(text in any::<String>()) {
        let result = split_script(&text);
        assert_positions_inside(&text, &result);
    }

    #[test]
    fn never_panics_on_syntax_heavy_text(text in TRICKY) {
        let result = split_script(&text);
        assert_positions_inside(&text, &result);
    }
}

/// A piece of a generated statement, containing `;` and other traps.
fn piece() -> impl Strategy<Value = String> {
    let content = "[a-z ;\\\\'\"$*/()\\-]{0,12}";
    prop_oneof![
        "[a-z_][a-z0-9_]{0,6}".prop_map(|w| w),
        content.prop_map(|c| format!("'{}'", c.replace('\'', "''"))),
        content.prop_map(|c| format!("\"{}\"", c.replace('"', "\"\""))),
        content.prop_map(|c| format!("$q${}$q$", c.replace('$', "d"))),
        content.prop_map(|c| format!("$${}$$", c.replace('$', "d"))),
        content.prop_map(|c| format!(
            "/* {} /* {} */ */",
            c.replace(['*', '/'], ""),
            c.replace(['*', '/'], "")
        )),
        content.prop_map(|c| format!("-- {c}\n")),
        "[a-z]{1,5}".prop_map(|w| format!("({w}; {w})")),
    ]
}

/// A statement body: a keyword then pieces separated by spaces.
fn body() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..6).prop_map(|pieces| {
        let mut sql = String::from("select");
        for p in pieces {
            sql.push(' ');
            sql.push_str(&p);
        }
        sql
    })
}

#[derive(Debug, Clone)]
enum Gen {
    Terminated(String),
    Watched(String, u32),
    Echo(String),
}

fn gen_item() -> impl Strategy<Value = Gen> {
    prop_oneof![
        4 => body().prop_map(Gen::Terminated),
        1 => (body(), 1u32..5).prop_map(|(b, n)| Gen::Watched(b, n)),
        1 => "[a-z]{1,8}".prop_map(Gen::Echo),
    ]
}

fn render(items: &[Gen]) -> String {
    let mut text = String::new();
    for item in items {
        match item {
            Gen::Terminated(b) => text.push_str(&format!("{b};\n")),
            Gen::Watched(b, n) => text.push_str(&format!("{b}\n\\watch c={n} i=0\n")),
            Gen::Echo(w) => text.push_str(&format!("\\echo {w}\n")),
        }
    }
    text
}

/// What splitting the rendered script must give back.
fn expected(items: &[Gen]) -> Vec<(String, u32)> {
    items
        .iter()
        .map(|item| match item {
            Gen::Terminated(b) => (b.trim_end().to_string(), 1),
            Gen::Watched(b, n) => (b.trim_end().to_string(), *n),
            Gen::Echo(w) => (format!("echo {w}"), 0),
        })
        .collect()
}

fn actual(items: &[ScriptItem]) -> Vec<(String, u32)> {
    items
        .iter()
        .map(|item| match item {
            ScriptItem::Statement(s) => (s.sql.clone(), s.runs),
            ScriptItem::Meta(Meta {
                command: MetaCommand::Echo(w),
                ..
            }) => (format!("echo {w}"), 0),
            ScriptItem::Meta(m) => (format!("{:?}", m.command), 0),
        })
        .collect()
}

proptest! {
    #[test]
    fn splits_exactly_at_the_generated_boundaries(items in prop::collection::vec(gen_item(), 0..8)) {
        let text = render(&items);
        let result = split_script(&text);
        assert_positions_inside(&text, &result);
        let split = result.map_err(|e| TestCaseError::fail(format!("{e} in {text:?}")))?;
        prop_assert_eq!(actual(&split), expected(&items));
        for item in &split {
            if let ScriptItem::Statement(s) = item {
                // Every statement starts at its keyword.
                prop_assert_eq!(char_at(&text, s.at), Some('s'));
            }
        }
    }
}
