//! `UPDATE … FROM` and `DELETE … USING` on both profiles: the rows left equal
//! PostgreSQL 15's after the same script (psql 15's `-A -t` output, each
//! query's rows after `@@` and its line).

use crate::psql;

const SCRIPT: &str = r#"create table t (id int primary key, k int, v text);
create table s (id int primary key, k int, name text);
create table r (k int, w int);
insert into t select i, i % 5, 'v' || i from generate_series(1, 20) i;
insert into s select i, i % 3, 'n' || i from generate_series(1, 10) i;
insert into r values (0, 100), (1, 200), (2, 300);
update t set v = s.name from s where t.id = s.id and s.k = 1;
select * from t order by id;
update t x set k = r.w from r where x.k = r.k and x.id > 15;
select id, k from t order by id;
update t set k = s.k + r.w from s, r where t.id = s.id and s.k = r.k;
select id, k from t order by id;
delete from t using s where t.id = s.id and s.name like 'n1%';
delete from t as x using r where x.k = r.w;
select id, k, v from t order by id;
update t set v = 'z' from s where s.id = 99;
update t set v = 'zz' from s where t.k = 4 and s.id = 1;
select id, v from t order by id;"#;

const POSTGRES: &str = r#"@@8
1|1|n1
2|2|v2
3|3|v3
4|4|n4
5|0|v5
6|1|v6
7|2|n7
8|3|v8
9|4|v9
10|0|n10
11|1|v11
12|2|v12
13|3|v13
14|4|v14
15|0|v15
16|1|v16
17|2|v17
18|3|v18
19|4|v19
20|0|v20
@@10
1|1
2|2
3|3
4|4
5|0
6|1
7|2
8|3
9|4
10|0
11|1
12|2
13|3
14|4
15|0
16|200
17|300
18|3
19|4
20|100
@@12
1|201
2|302
3|100
4|201
5|302
6|100
7|201
8|302
9|100
10|201
11|1
12|2
13|3
14|4
15|0
16|200
17|300
18|3
19|4
20|100
@@15
2|302|v2
4|201|n4
5|302|v5
7|201|n7
8|302|v8
11|1|v11
12|2|v12
13|3|v13
14|4|v14
15|0|v15
18|3|v18
19|4|v19
@@18
2|v2
4|n4
5|v5
7|n7
8|v8
11|v11
12|v12
13|v13
14|zz
15|v15
18|v18
19|zz"#;

#[test]
fn update_from_and_delete_using_change_postgresqls_rows() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

#[test]
fn each_profile_counts_the_rows_a_join_changed() {
    use indexlab_engine::scenario::{run_profile_continuing, Report};
    fn tags(r: &Report) -> Vec<String> {
        let writes = r
            .statements
            .iter()
            .filter(|s| s.sql.starts_with("update") || s.sql.starts_with("delete"));
        writes.map(|s| s.outcome.tag.clone()).collect()
    }
    // psql 15 printed these for the same script.
    let want = [
        "UPDATE 4",
        "UPDATE 3",
        "UPDATE 10",
        "DELETE 2",
        "DELETE 6",
        "UPDATE 0",
        "UPDATE 2",
    ];
    let (pg, _) = run_profile_continuing::<indexlab_engine::pg::PgEngine>(SCRIPT, &[], &mut |e| {
        panic!("{}", e.message)
    });
    assert_eq!(tags(&pg), want);
    let (yb, _) = run_profile_continuing::<indexlab_engine::yb::YbEngine>(SCRIPT, &[], &mut |e| {
        panic!("{}", e.message)
    });
    assert_eq!(tags(&yb), want);
    // The rows left are the same (YugabyteDB returns them in its own order
    // without ORDER BY; these queries have one).
    let last = |r: &Report| r.statements.last().unwrap().outcome.rows.clone();
    assert_eq!(last(&pg), last(&yb));
}

#[test]
fn returning_a_from_column_is_refused_by_name() {
    let (_, errors) = psql::run(
        "create table t (id int primary key, v text);\n\
         create table s (id int, name text);\n\
         insert into t values (1, 'a');\ninsert into s values (1, 'n');\n\
         update t set v = s.name from s where t.id = s.id returning t.id, s.name;",
    );
    assert_eq!(
        errors,
        ["RETURNING a column of the FROM (or USING) list is not supported by IndexLab"]
    );
}
