//! On yb a condition on a range key's second column, the first unbound or
//! bound by a range, is an index condition (YugabyteDB's heuristic guesses a
//! tenth of the rows for a key bound in part) and DocDB skips by it: a seek
//! to the bound under each value of the first column and a seek past the
//! rest of that value, not a read of every entry. The answers are
//! PostgreSQL's.

use crate::yb_plans::{answers_as_pg, explains, figure};

const SETUP: &str = "create table demo (a int, b int, v text, primary key (a asc, b asc));
    insert into demo select a, b, 'x' || b from generate_series(1, 20) a, generate_series(1, 1000) b;
    create table t (id int primary key, x int, y int);
    insert into t select g, g % 7, g % 13 from generate_series(1, 5000) g;
    insert into t values (5001, null, 4), (5002, 3, null);
    create index t_xy on t (x asc, y desc);\n";

#[test]
fn an_equality_on_the_second_column_seeks_twice_per_first_value() {
    let p = explains(&format!(
        "{SETUP}explain (analyze, dist, debug, costs off) select * from demo where b = 500;"
    ));
    let plan = &p[0];
    assert!(
        plan[0].starts_with("Index Scan using demo_pkey on demo"),
        "{plan:?}"
    );
    assert_eq!(plan[1].trim(), "Index Cond: (b = 500)");
    // One row under each of the 20 values of a, and only those read.
    assert_eq!(figure(plan, "Storage Table Rows Scanned"), 20);
    let seeks: f64 = plan
        .iter()
        .find_map(|l| l.trim().strip_prefix("Metric rocksdb_number_db_seek: "))
        .expect("the seek count")
        .parse()
        .unwrap();
    // To (a, 500) and past it, for each a: about two seeks a value, where
    // reading every entry would step through all 20 000.
    assert!((40.0..=42.0).contains(&seeks), "{seeks}");
}

#[test]
fn a_range_on_each_column_and_a_descending_column_skip_too() {
    let p = explains(&format!(
        "{SETUP}explain (analyze, dist, costs off) select * from demo where a > 15 and b > 990;
         explain (analyze, dist, costs off) select x, y from t where y = 3 and x >= 5;"
    ));
    assert_eq!(p[0][1].trim(), "Index Cond: ((a > 15) AND (b > 990))");
    assert_eq!(figure(&p[0], "Storage Table Rows Scanned"), 5 * 10);
    assert!(
        p[1][0].starts_with("Index Only Scan using t_xy on t"),
        "{:?}",
        p[1]
    );
    let rows = (1..=5000).filter(|g| g % 7 >= 5 && g % 13 == 3).count() as u64;
    assert_eq!(figure(&p[1], "Storage Index Rows Scanned"), rows);
}

#[test]
fn skip_scans_answer_as_postgresql_does() {
    let queries = [
        "select a, b from demo where b = 500 order by a",
        "select count(*) from demo where b between 3 and 4",
        "select a, b from demo where b between 3 and 4 order by a desc, b desc limit 7",
        "select count(*) from demo where b > 998 and a <= 3",
        "select count(*) from demo where b = null",
        "select count(*) from demo where b is not null and b < 2",
        "select x, y from t where y < 2 order by x, y desc, id",
        "select count(*), sum(id) from t where y >= 11",
        "select id from t where y = 3 and x > 4 order by id",
        "select count(*) from t where y <= 0",
    ];
    let script = format!("{SETUP}{};", queries.join(";\n"));
    let rows = answers_as_pg(&script, queries.len());
    assert!(rows[0].len() == 20 && rows[6].len() > 100);
}
