//! The CLI as a user runs it: exit codes, errors on stderr, `--sweep` tables.

use std::process::{Command, Output};

fn cli(args: &[&str], script: impl AsRef<[u8]>) -> Output {
    let dir = std::env::temp_dir().join(format!("indexlab-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!(
        "{}.sql",
        args.join("_").replace(['/', '=', ','], "-")
    ));
    std::fs::write(&file, script).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_indexlab-cli"))
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    out
}

const JOIN: &str = "create table t (id int primary key, x int) split into 4 tablets;\n\
                    insert into t select generate_series(1,100), 0;\n\
                    explain (analyze, dist, costs off) select * from t a join t b using (id);\n";

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn a_sweep_prints_one_line_per_value() {
    let out = cli(
        &["--profile", "yb", "--sweep", "yb_bnl_batch_size=1,10,100"],
        JOIN,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].contains("yb_bnl_batch_size") && lines[0].contains("loops"));
    // value | loops: ceil(100 / batch)
    let loops: Vec<(String, String)> = lines[2..]
        .iter()
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[0].to_string(), cells[1].to_string())
        })
        .collect();
    assert_eq!(
        loops,
        [("1", "100"), ("10", "10"), ("100", "1")].map(|(a, b)| (a.to_string(), b.to_string()))
    );
}

#[test]
fn a_sweep_as_json() {
    let out = cli(
        &[
            "--profile",
            "yb",
            "--json",
            "--sweep",
            "network=local,multi-region",
        ],
        JOIN,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.starts_with("{\"points\":[") || s.contains("\"setting\":\"network\""),
        "{s}"
    );
    assert_eq!(s.matches("\"value\":").count(), 2, "{s}");
}

#[test]
fn a_bad_sweep_or_script_exits_non_zero_with_where() {
    let out = cli(&["--sweep", "yb_bnl_batch_size"], JOIN);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("NAME=V1"),
        "{}",
        text(&out.stderr)
    );

    let out = cli(
        &["--profile", "yb", "--sweep", "yb_bnl_batch_size=5,0"],
        JOIN,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("yb_bnl_batch_size=0"), "{err}");

    let out = cli(&["--profile", "pg"], "select * from nope;\n");
    assert_eq!(out.status.code(), Some(1));
    // Placed at the name, as PostgreSQL places it.
    assert!(text(&out.stderr).contains(":1:15: ERROR:  relation \"nope\" does not exist"));
}

#[test]
fn a_file_that_is_not_utf8_gets_the_line_and_column_of_its_first_bad_byte() {
    // Latin-1 "é" (0xe9) on line 2, after "select 'caf" (11 characters).
    let out = cli(&["--profile", "both"], b"select 1;\nselect 'caf\xe9';\n");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(".sql:2:12: ERROR:  invalid byte sequence for encoding \"UTF8\": 0xe9"),
        "{err}"
    );
}
