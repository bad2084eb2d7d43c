//! What experiments ask PostgreSQL about its storage, answered from the pg
//! profile's own pages: where a row lives (`ctid`, and the page number as
//! `(ctid::text::point)[0]`). Each expected answer is PostgreSQL 15's for the
//! same script; the differential tester checks the same on random scripts.

use indexlab_engine::scenario::{run_pg, run_yb, Report};

fn rows(r: &Report, statement: usize) -> Vec<Vec<String>> {
    r.statements[statement]
        .outcome
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.clone().unwrap_or_else(|| "NULL".into()))
                .collect()
        })
        .collect()
}

fn error(r: &Report) -> String {
    r.error.as_ref().map(|e| e.message.clone()).unwrap_or_default()
}

#[test]
fn ctid_is_where_the_heap_put_the_row() {
    let script = "create table t0 (id int primary key, v text);
insert into t0 select generate_series(1,1000), 'x';
select ctid, id from t0 order by id limit 2;
select ctid, * from t0 where id = 500;
select (ctid::text::point)[0] as page, count(*) from t0 group by 1 order by 1;
delete from t0 where (ctid::text::point)[0] = 1;
select count(*), max(ctid) from t0;
select * from t0 order by ctid desc limit 1;
select '(3,4)'::tid, '(1.5,2)'::point;\n";
    let r = run_pg(script, &[]).0;
    assert_eq!(r.error, None);
    assert_eq!(rows(&r, 2), [["(0,1)", "1"], ["(0,2)", "2"]]);
    // `*` is the table's own columns: ctid is named or not shown.
    assert_eq!(rows(&r, 3), [["(2,48)", "500", "x"]]);
    assert_eq!(
        rows(&r, 4),
        [["0", "226"], ["1", "226"], ["2", "226"], ["3", "226"], ["4", "96"]]
    );
    assert_eq!(r.statements[5].outcome.tag, "DELETE 226");
    assert_eq!(rows(&r, 6), [["774", "(4,96)"]]);
    assert_eq!(rows(&r, 7), [["1000", "x"]]);
    assert_eq!(rows(&r, 8), [["(3,4)", "(1.5,2)"]]);
}

#[test]
fn ctid_is_refused_where_it_would_not_be_postgresql_s_answer() {
    let base = "create table t (id int primary key);\ninsert into t values (1);\n";
    // A condition on ctid is PostgreSQL's Tid Scan, which IndexLab lacks.
    let r = run_pg(&format!("{base}select id from t where ctid = '(0,1)';\n"), &[]).0;
    assert!(error(&r).contains("Tid Scan"), "{}", error(&r));
    // YugabyteDB has no heap addresses.
    let r = run_yb(&format!("{base}select ctid from t;\n"), &[]).0;
    assert!(error(&r).contains("ctid on YugabyteDB"), "{}", error(&r));
    // No column may take a system column's name.
    let r = run_pg("create table bad (ctid int);\n", &[]).0;
    assert_eq!(
        error(&r),
        "column name \"ctid\" conflicts with a system column name"
    );
}
