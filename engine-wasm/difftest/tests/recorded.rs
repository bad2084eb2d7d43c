//! Every recorded case (`tests/differential/cases/*.slt`: minimized divergences
//! and hand-written checks, with PostgreSQL 15's results as the expected ones)
//! replayed on both profiles, without PostgreSQL.

use indexlab_difftest::indexlab::Profile;
use indexlab_difftest::record::replay;
use std::path::PathBuf;

fn cases() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/differential/cases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "slt"))
        .collect();
    files.sort();
    files
}

#[test]
fn recorded_cases_give_postgresql_s_answers_on_both_profiles() {
    let files = cases();
    assert!(files.len() >= 10, "only {} recorded cases", files.len());
    let mut failures = Vec::new();
    for file in &files {
        for profile in Profile::BOTH {
            if let Err(e) = replay(file, profile) {
                failures.push(format!("[{}] {e}", profile.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The replay can fail: a case whose expected rows IndexLab does not give.
#[test]
fn a_wrong_expectation_fails_the_replay() {
    let dir = std::env::temp_dir().join(format!("indexlab-slt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong.slt");
    std::fs::write(
        &file,
        "statement ok\ncreate table t (id int primary key)\n\n\
         statement ok\ninsert into t values (1)\n\n\
         query T rowsort\nselect id from t\n----\n2\n",
    )
    .unwrap();
    for profile in Profile::BOTH {
        assert!(replay(&file, profile).is_err());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
