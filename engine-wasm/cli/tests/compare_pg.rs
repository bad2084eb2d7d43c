//! `--compare-pg` against a real PostgreSQL: a throwaway server (Debian's
//! package, which `npm test` installs), started and stopped by the test.

use indexlab_difftest::outcome::Outcome;
use indexlab_difftest::postgres::{Server, Session};
use std::process::{Command, Output};

fn compare(script: &str, server: &Server) -> Output {
    let file = server.folder().join("script.sql");
    std::fs::write(&file, script).unwrap();
    Command::new(env!("CARGO_BIN_EXE_indexlab-cli"))
        .arg(&file)
        .args(["--compare-pg", &server.params()])
        .output()
        .unwrap()
}

#[test]
fn results_and_buffers_side_by_side_and_differences_fail() {
    let server = Server::start().expect("a throwaway PostgreSQL (npm test installs it)");
    let out = compare(
        "create table t (id int primary key, v int);\n\
         insert into t select g, g from generate_series(1, 100000) g;\n\
         vacuum t;\n\
         select id from t where id < 4 order by id;\n\
         explain (analyze, buffers, costs off) select * from t order by id desc limit 50000;\n",
        &server,
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("5 of 5 statements agree"), "{text}");
    // A backward plain index scan reads each leaf it leaves again (PostgreSQL
    // 15 counts 498 here; IndexLab models the re-read): the ratio is 1.00.
    let explain = text.lines().find(|l| l.contains("explain")).unwrap();
    assert!(explain.contains("Index Scan Backward"), "{explain}");
    assert!(explain.trim_end().ends_with("1.00"), "{explain}");

    // What IndexLab refuses but PostgreSQL runs is a difference: exit 1.
    let out = compare(
        "create table t (id int primary key);\nselect array_agg(id) from t;\n",
        &server,
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("DIFFERENT"), "{text}");
    // The script ran in a schema of its own, dropped at the end.
    let mut pg = Session::connect(&server.params()).unwrap();
    let left = pg.statement("select count(*) from pg_namespace where nspname = 'indexlab_compare'");
    assert_eq!(
        left,
        Outcome::Rows {
            rows: vec![vec![Some("0".into())]],
            count: 1
        }
    );
}
