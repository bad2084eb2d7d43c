//! Transactions on the yb profile: a failed statement leaves nothing, and
//! ROLLBACK (or COMMIT of a failed block) cleans up the block's provisional
//! records, as YugabyteDB does; the rows then equal PostgreSQL's.

use indexlab_engine::scenario::{run_profile_continuing, Report};
use indexlab_engine::yb::YbEngine;

fn run(script: &str) -> (Report, Vec<String>) {
    let mut errors = Vec::new();
    let (report, _) =
        run_profile_continuing::<YbEngine>(script, &[], &mut |e| errors.push(e.message));
    (report, errors)
}

fn rows(r: &Report, sql: &str) -> Vec<String> {
    let s = r.statements.iter().rev().find(|s| s.sql == sql).expect(sql);
    s.outcome
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.clone().unwrap_or_default())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}

const SETUP: &str = "create table t (id int primary key, v text);\n\
                     create index t_v on t (v);\n\
                     insert into t values (1, 'a'), (2, 'b');\n";

#[test]
fn a_failed_statement_leaves_no_row_behind() {
    let (r, errors) = run(&format!(
        "{SETUP}insert into t values (3, 'c'), (4, 'd'), (1, 'dup');\n\
         select id, v from t order by id;\nselect id from t where v = 'c';"
    ));
    assert_eq!(
        errors,
        ["duplicate key value violates unique constraint \"t_pkey\""]
    );
    assert_eq!(rows(&r, "select id, v from t order by id"), ["1|a", "2|b"]);
    // Nor an index entry: the index finds nothing either.
    assert!(rows(&r, "select id from t where v = 'c'").is_empty());
}

#[test]
fn rollback_cleans_up_the_blocks_provisional_records() {
    let (r, errors) = run(&format!(
        "{SETUP}begin;\ninsert into t values (3, 'c');\nupdate t set v = 'z' where id = 1;\n\
         delete from t where id = 2;\nselect id, v from t order by id;\nrollback;\n\
         select id, v from t order by id;\nselect id from t where v = 'z';"
    ));
    assert!(errors.is_empty(), "{errors:?}");
    // Inside the block its own writes are seen; after ROLLBACK, none is.
    let seen: Vec<_> = r
        .statements
        .iter()
        .filter(|s| s.sql == "select id, v from t order by id")
        .collect();
    let text = |i: usize| -> Vec<Option<String>> {
        seen[i]
            .outcome
            .rows
            .iter()
            .map(|row| row[1].clone())
            .collect()
    };
    assert_eq!(text(0), [Some("z".to_string()), Some("c".to_string())]);
    assert_eq!(rows(&r, "select id, v from t order by id"), ["1|a", "2|b"]);
    assert!(rows(&r, "select id from t where v = 'z'").is_empty());
}

#[test]
fn a_failed_block_commits_as_a_rollback() {
    let (r, errors) = run(&format!(
        "{SETUP}begin;\ninsert into t values (3, 'c');\ninsert into t values (1, 'dup');\n\
         select 1;\ncommit;\nselect id, v from t order by id;"
    ));
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[1].starts_with("current transaction is aborted"));
    let commit = r.statements.iter().find(|s| s.sql == "commit").unwrap();
    assert_eq!(commit.outcome.tag, "ROLLBACK");
    assert_eq!(rows(&r, "select id, v from t order by id"), ["1|a", "2|b"]);
}

#[test]
fn records_already_flushed_cannot_be_taken_back_and_it_says_so() {
    let (_, errors) = run(&format!(
        "{SETUP}begin;\ninsert into t values (3, 'c');\n\\flush t\nrollback;"
    ));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("a flush already wrote to an SST"),
        "{}",
        errors[0]
    );
}
