//! CREATE STATISTICS and DROP STATISTICS: validated as PostgreSQL 15
//! validates them, recorded, shown by `\d`, dropped with their table.
//! Expected errors and footers: psql 15 on a cluster fresh from initdb.

use crate::psql;

use indexlab_engine::scenario::run_yb;

#[test]
fn definitions_are_checked_and_described_as_postgresql_does() {
    let (report, errors) = psql::run(
        "create table t (a int, b int, c text);
create statistics stts (dependencies) on a, b from t;
create statistics on a, b, c from t;
create statistics s2 on a from t;
create statistics s3 (foo) on a, b from t;
create statistics s4 on a, x from t;
create statistics s5 on a, a from t;
create statistics stts on a, b from t;
create statistics if not exists stts on a, b from t;
create statistics s6 (mcv, ndistinct) on b, a from nope;
create statistics s7 (ndistinct, mcv) on c, a from t;
\\d t
drop statistics stts;
drop statistics stts;
drop statistics if exists stts, s7;
\\d t",
    );
    assert_eq!(
        errors,
        [
            "syntax error at or near \"on\"",
            "extended statistics require at least 2 columns",
            "unrecognized statistics kind \"foo\"",
            "column \"x\" does not exist",
            "duplicate column name in statistics definition",
            "statistics object \"stts\" already exists",
            "relation \"nope\" does not exist",
            "statistics object \"stts\" does not exist",
        ]
    );
    let footers = |line| {
        report.statements[psql::at(&report, line)]
            .outcome
            .footers
            .clone()
    };
    assert_eq!(
        footers(12),
        [
            "Statistics objects:",
            "    \"public.s7\" (ndistinct, mcv) ON a, c FROM t",
            "    \"public.stts\" (dependencies) ON a, b FROM t",
        ]
    );
    assert!(footers(16).is_empty());
    let skipped = &report.statements[psql::at(&report, 15)].outcome.notices;
    assert_eq!(
        skipped,
        &["statistics object \"stts\" does not exist, skipping"]
    );
}

/// A table's statistics objects go with it: the name is free again.
#[test]
fn dropping_the_table_drops_its_statistics() {
    let (_, errors) = psql::run(
        "create table t (a int, b int);
create statistics s on a, b from t;
drop table t;
create table t (a int, b int);
create statistics s on a, b from t;",
    );
    assert!(errors.is_empty(), "{errors:?}");
}

/// YugabyteDB 2.19–2.21's query layer is PostgreSQL 11's: no `mcv` kind.
#[test]
fn yugabytedb_has_the_postgresql_11_kinds() {
    let (r, _) = run_yb(
        "create table t (a int, b int);
create statistics s1 (ndistinct, dependencies) on a, b from t;
create statistics s2 (mcv) on a, b from t;",
        &[],
    );
    let e = r.error.map(|e| (e.line, e.message)).unwrap_or_default();
    assert_eq!(e, (3, "unrecognized statistics kind \"mcv\"".to_string()));
}
