//! Schemas: CREATE and DROP SCHEMA, qualified names, the same name in two
//! schemas, `search_path`. Each expected answer is PostgreSQL 15's for the
//! same script (`psql -A -t`, a fresh cluster).

use crate::psql;

const SCRIPT: &str = r"create schema app;
create table app.t (id int primary key, v text);
create table t (id int primary key, w int);
insert into app.t select g, 'v' || g from generate_series(1, 300) g;
insert into public.t values (10, 100);
select * from app.t where id <= 2 order by id;
select * from t;
select t.id, t.v from app.t where t.id = 1;
select x.v from app.t x join t on t.id = x.id * 10;
create index on app.t (v);
create index vi on app.t (v, id);
drop index vi;
drop index app.vi;
select schemaname, tablename, indexname, indexdef from pg_indexes where tablename = 't' order by 1, 3;
select relname, relkind from pg_class where relname in ('t', 't_pkey', 't_v_idx') order by 1, 2;
select pg_relation_size('app.t'), pg_relation_size('t');
select 'app.t'::regclass, 't'::regclass;
explain (costs off, verbose) select w from t where w > 1;
explain (costs off) select x.v from app.t x where length(x.v) = 2;
set search_path = app, public;
show search_path;
select * from t where id <= 2 order by id;
insert into t values (301, 'three');
select count(*) from app.t;
select * from public.t;
create table u (a serial, b int);
insert into u (b) values (1);
select * from app.u;
create sequence s;
select nextval('app.s'), nextval('s');
reset search_path;
select * from u;
select * from app.u;
insert into app.t values (1, 'dup');
create table app.t (a int);
create table if not exists app.t (a int);
drop schema app;
drop schema app cascade;
select * from t;
drop schema if exists app;
create schema app;
create schema app;
create schema if not exists app;
create table nope.x (a int);
create schema pg_x;
drop schema app, nope;
drop schema if exists app, nope;
";

const POSTGRES: &str = r"@@6
1|v1
2|v2
@@7
10|100
@@8
1|v1
@@9
v1
@@14
app|t|t_pkey|CREATE UNIQUE INDEX t_pkey ON app.t USING btree (id)
app|t|t_v_idx|CREATE INDEX t_v_idx ON app.t USING btree (v)
public|t|t_pkey|CREATE UNIQUE INDEX t_pkey ON public.t USING btree (id)
@@15
t|r
t|r
t_pkey|i
t_pkey|i
t_v_idx|i
@@16
16384|8192
@@17
app.t|t
@@21
app, public
@@22
1|v1
2|v2
@@24
301
@@25
10|100
@@28
1|1
@@30
1|2
@@33
1|1
@@39
10|100
";

#[test]
fn qualified_names_and_search_path_answer_as_postgresql_does() {
    psql::assert_rows_after_errors(SCRIPT, POSTGRES);
}

#[test]
fn explain_names_the_relation_without_its_schema_and_verbose_with_it() {
    let (r, _) = psql::run(SCRIPT);
    let plan = |line| {
        r.statements[psql::at(&r, line)]
            .outcome
            .explain
            .clone()
            .unwrap()
    };
    assert_eq!(
        plan(18),
        ["Seq Scan on public.t", "  Output: w", "  Filter: (t.w > 1)"]
    );
    assert_eq!(plan(19), ["Seq Scan on t x", "  Filter: (length(v) = 2)"]);
}

#[test]
fn schema_errors_and_notices_are_postgresqls() {
    let (r, errors) = psql::run(SCRIPT);
    assert_eq!(
        errors,
        [
            "index \"vi\" does not exist",
            "relation \"u\" does not exist",
            "duplicate key value violates unique constraint \"t_pkey\"\nDETAIL:  Key (id)=(1) already exists.",
            "relation \"t\" already exists",
            "cannot drop schema app because other objects depend on it\nDETAIL:  table app.t depends on schema app\ntable app.u depends on schema app\nsequence app.s depends on schema app",
            "schema \"app\" already exists",
            "schema \"nope\" does not exist",
            "unacceptable schema name \"pg_x\"\nDETAIL:  The prefix \"pg_\" is reserved for system schemas.",
            "schema \"nope\" does not exist",
        ]
    );
    let notices = |line| r.statements[psql::at(&r, line)].outcome.notices.clone();
    assert_eq!(notices(36), ["relation \"t\" already exists, skipping"]);
    assert_eq!(
        notices(38),
        ["drop cascades to 3 other objects\nDETAIL:  drop cascades to table app.t\ndrop cascades to table app.u\ndrop cascades to sequence app.s"]
    );
    assert_eq!(notices(40), ["schema \"app\" does not exist, skipping"]);
    assert_eq!(notices(47), ["schema \"nope\" does not exist, skipping"]);
}

#[test]
fn describe_names_the_schema() {
    let (r, errors) = psql::run(
        "create schema app;
create table app.t (id serial primary key, v text);
create index on app.t (v);
create statistics app.st on id, v from app.t;
\\d app.t
\\dt app.*
\\d app.t_v_idx",
    );
    assert_eq!(errors.len(), 0, "{errors:?}");
    let d = &r.statements[4].outcome;
    assert_eq!(d.title.as_deref(), Some("Table \"app.t\""));
    assert!(d.rows[0][4]
        .as_deref()
        .unwrap()
        .contains("nextval('app.t_id_seq'::regclass)"));
    assert!(
        d.footers
            .iter()
            .any(|f| f == "    \"t_pkey\" PRIMARY KEY, btree (id)"),
        "{:?}",
        d.footers
    );
    assert!(
        d.footers
            .iter()
            .any(|f| f.starts_with("    \"app.st\" (") && f.ends_with("FROM app.t")),
        "{:?}",
        d.footers
    );
    let list = &r.statements[5].outcome;
    assert_eq!(list.rows[0][0].as_deref(), Some("app"));
    assert_eq!(list.rows[0][1].as_deref(), Some("t"));
    let ix = &r.statements[6].outcome;
    assert_eq!(ix.title.as_deref(), Some("Index \"app.t_v_idx\""));
    assert_eq!(ix.footers, ["btree, for table \"app.t\""]);
}

#[test]
fn yugabytedb_resolves_names_the_same_way() {
    let script = "create schema app;
create table app.t (id int primary key, v text);
create table t (id int primary key, w int);
insert into app.t values (1, 'a'), (2, 'b');
insert into t values (10, 100);
set search_path = app, public;
select * from t order by id;
select * from public.t;
reset search_path;
select * from t;
drop schema app cascade;
select count(*) from t;
";
    // PostgreSQL 15's answers.
    psql::assert_rows_yb(
        script,
        "@@7\n1|a\n2|b\n@@8\n10|100\n@@10\n10|100\n@@12\n1\n",
    );
}
