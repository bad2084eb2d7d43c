//! Every lesson's scenarios exist and run on both profiles without an error
//! (until the page's MDX loader checks them at build time).

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
        let mdx = std::fs::read_to_string(dir.join("lesson.mdx"))
            .unwrap_or_else(|e| panic!("{}: lesson.mdx: {e}", dir.display()));
        let sources = scenario_sources(&mdx);
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
