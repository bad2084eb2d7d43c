//! B-tree deduplication (PostgreSQL 13+ merges a full leaf's equal keys into
//! posting lists before splitting it) is not modelled yet. The statement at
//! which the model's tree starts to differ from PostgreSQL's says so, once
//! per index, so a figure read afterwards is never silently different.

use indexlab_engine::scenario::{run_pg, run_yb, Report};

fn notices(r: &Report) -> Vec<(usize, String)> {
    r.statements
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.outcome.notices.iter().map(move |n| (i, n.clone())))
        .filter(|(_, n)| n.contains("deduplication"))
        .collect()
}

#[test]
fn the_first_split_of_a_page_of_equal_keys_is_noticed_once() {
    let script = "create table t (id int, a int);
create index t_a on t (a);
insert into t select g, g % 10 from generate_series(1, 300) g;
insert into t select g, g % 10 from generate_series(1, 5000) g;
insert into t select g, g % 10 from generate_series(1, 5000) g;";
    let (r, _) = run_pg(script, &[]);
    assert_eq!(r.error, None);
    let found = notices(&r);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 3, "the first INSERT fits one leaf");
    assert!(found[0].1.starts_with("index \"t_a\""), "{}", found[0].1);
}

#[test]
fn unique_keys_numeric_keys_and_yugabytedb_need_no_notice() {
    let script = "create table t (id int primary key, a numeric, b int);
create index t_a on t (a);
create index t_b on t (b);
insert into t select g, g % 10, g from generate_series(1, 5000) g;";
    let (pg, _) = run_pg(script, &[]);
    assert!(notices(&pg).is_empty(), "{:?}", notices(&pg));
    let (yb, _) = run_yb(&script.replace("numeric", "int"), &[]);
    assert!(notices(&yb).is_empty());
}

#[test]
fn create_index_over_equal_keys_is_noticed() {
    let script = "create table t (id int, a text);
insert into t select g, 'v' || (g % 5) from generate_series(1, 3000) g;
create index t_a on t (a);";
    let (r, _) = run_pg(script, &[]);
    let found = notices(&r);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 2);
}
