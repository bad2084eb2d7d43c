//! Every lesson's scenarios exist and run on both profiles without an error,
//! natively (the page's build checks the same in wasm, with each component's
//! variants, events and answers: web/build/lessonCheck.ts).

use indexlab_engine::scenario::{run_pg, run_yb};
use std::path::Path;

/// The `src` of every `<Scenario src="…">` in a lesson's text.
fn scenario_sources(mdx: &str) -> Vec<String> {
    mdx.split("<Scenario")
        .skip(1)
        .filter_map(|tag| {
            let at = tag.find("src=\"")? + 5;
            let end = tag[at..].find('"')?;
            Some(tag[at..at + end].to_string())
        })
        .collect()
}

#[test]
fn every_lesson_scenario_runs_on_both_profiles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let mut lessons = 0;
    for entry in std::fs::read_dir(&root).expect("lessons/") {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        lessons += 1;
        // A lesson is one .mdx file per step.
        let mut sources = Vec::new();
        for step in std::fs::read_dir(&dir).unwrap() {
            let path = step.unwrap().path();
            if path.extension().is_some_and(|e| e == "mdx") {
                let mdx = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                sources.extend(scenario_sources(&mdx));
            }
        }
        sources.sort();
        sources.dedup();
        assert!(!sources.is_empty(), "{}: no <Scenario src>", dir.display());
        for src in sources {
            let path = dir.join(&src);
            let script = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for (profile, error) in [
                ("pg", run_pg(&script, &[]).0.error),
                ("yb", run_yb(&script, &[]).0.error),
            ] {
                if let Some(e) = error {
                    panic!(
                        "{}:{}:{} on {profile}: {}",
                        path.display(),
                        e.line,
                        e.column,
                        e.message
                    );
                }
            }
        }
    }
    assert!(lessons > 0, "no lesson in {}", root.display());
}

#[test]
fn scenario_sources_are_read_from_the_tags() {
    let mdx = "text <Scenario src=\"a.sql\" /> more <Scenario  src=\"b.sql\"/>";
    assert_eq!(scenario_sources(mdx), ["a.sql", "b.sql"]);
}
