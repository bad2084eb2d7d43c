//! psql's describe meta-commands (`\d`, `\d+`, `\dt`, `\dt+`, `\di`, `\di+`,
//! `\ds`) on both profiles. The pg profile's expected text is real psql 15's
//! output for the same script (`psql -q -X -f`, against PostgreSQL 15 with the
//! C locale, which orders names by bytes), sizes included: the model's pages
//! are PostgreSQL's. The yb profile's is psql's layout with YugabyteDB's index
//! definitions (`lsm`, `HASH`/`ASC`/`DESC` key parts), as YugabyteDB's own
//! regression tests print them (`yb.orig.create_index.out`).

use indexlab_engine::profile::aligned;
use indexlab_engine::report_json;
use indexlab_engine::scenario::{run_pg, run_yb, Report};

/// What psql prints for the script's describe commands: each table (title,
/// header, rows, footers) and the blank line after it.
fn printed(r: &Report) -> String {
    let mut out = String::new();
    for s in &r.statements {
        if s.sql.starts_with('\\') && !s.outcome.columns.is_empty() {
            out.push_str(&aligned(&s.outcome));
            out.push('\n');
        }
    }
    out
}

fn pg_ok(script: &str) -> Report {
    let (r, _) = run_pg(script, &[]);
    if let Some(e) = &r.error {
        panic!("line {}:{}: {}", e.line, e.column, e.message);
    }
    r
}

fn yb_ok(script: &str) -> Report {
    let (r, _) = run_yb(script, &[]);
    if let Some(e) = &r.error {
        panic!("line {}:{}: {}", e.line, e.column, e.message);
    }
    r
}

/// Lines that differ, for a readable failure.
fn assert_same(got: &str, want: &str) {
    if got != want {
        let diff: Vec<String> = got
            .lines()
            .zip(want.lines())
            .enumerate()
            .filter(|(_, (g, w))| g != w)
            .take(5)
            .map(|(i, (g, w))| format!("line {}:\n  got  {g:?}\n  want {w:?}", i + 1))
            .collect();
        panic!(
            "output differs ({} lines against {}):\n{}\n--- got:\n{got}",
            got.lines().count(),
            want.lines().count(),
            diff.join("\n")
        );
    }
}

const TABLES: &str = r#"create table t(id int primary key, v text unique, w int, note varchar(20) default 'none', created timestamptz default now());
create index t_v_idx on t(v) include (w);
create index on t(w desc, id);
insert into t(id, v, w) select i, 'value ' || i, i % 100 from generate_series(1, 2000) i;
create table events(id bigserial primary key, payload text not null, score float8 default -1.5, done boolean default false);
insert into events(payload) select 'p' || i from generate_series(1, 300) i;
\d t
\d+ t
\d
\dt
\dt+
\di
\di+
\d t_pkey
\d+ t_v_idx
\d t_v_key
\d events
\dt e*
\ds
"#;

/// `psql -q -X -f` of [`TABLES`] on PostgreSQL 15.
const TABLES_PSQL: &str = r#"                                   Table "public.t"
 Column  |           Type           | Collation | Nullable |          Default          
---------+--------------------------+-----------+----------+---------------------------
 id      | integer                  |           | not null | 
 v       | text                     |           |          | 
 w       | integer                  |           |          | 
 note    | character varying(20)    |           |          | 'none'::character varying
 created | timestamp with time zone |           |          | now()
Indexes:
    "t_pkey" PRIMARY KEY, btree (id)
    "t_v_idx" btree (v) INCLUDE (w)
    "t_v_key" UNIQUE CONSTRAINT, btree (v)
    "t_w_id_idx" btree (w DESC, id)

                                                              Table "public.t"
 Column  |           Type           | Collation | Nullable |          Default          | Storage  | Compression | Stats target | Description 
---------+--------------------------+-----------+----------+---------------------------+----------+-------------+--------------+-------------
 id      | integer                  |           | not null |                           | plain    |             |              | 
 v       | text                     |           |          |                           | extended |             |              | 
 w       | integer                  |           |          |                           | plain    |             |              | 
 note    | character varying(20)    |           |          | 'none'::character varying | extended |             |              | 
 created | timestamp with time zone |           |          | now()                     | plain    |             |              | 
Indexes:
    "t_pkey" PRIMARY KEY, btree (id)
    "t_v_idx" btree (v) INCLUDE (w)
    "t_v_key" UNIQUE CONSTRAINT, btree (v)
    "t_w_id_idx" btree (w DESC, id)
Access method: heap

              List of relations
 Schema |     Name      |   Type   |  Owner   
--------+---------------+----------+----------
 public | events        | table    | postgres
 public | events_id_seq | sequence | postgres
 public | t             | table    | postgres
(3 rows)

         List of relations
 Schema |  Name  | Type  |  Owner   
--------+--------+-------+----------
 public | events | table | postgres
 public | t      | table | postgres
(2 rows)

                                    List of relations
 Schema |  Name  | Type  |  Owner   | Persistence | Access method |  Size  | Description 
--------+--------+-------+----------+-------------+---------------+--------+-------------
 public | events | table | postgres | permanent   | heap          | 56 kB  | 
 public | t      | table | postgres | permanent   | heap          | 168 kB | 
(2 rows)

                List of relations
 Schema |    Name     | Type  |  Owner   | Table  
--------+-------------+-------+----------+--------
 public | events_pkey | index | postgres | events
 public | t_pkey      | index | postgres | t
 public | t_v_idx     | index | postgres | t
 public | t_v_key     | index | postgres | t
 public | t_w_id_idx  | index | postgres | t
(5 rows)

                                           List of relations
 Schema |    Name     | Type  |  Owner   | Table  | Persistence | Access method |  Size  | Description 
--------+-------------+-------+----------+--------+-------------+---------------+--------+-------------
 public | events_pkey | index | postgres | events | permanent   | btree         | 16 kB  | 
 public | t_pkey      | index | postgres | t      | permanent   | btree         | 64 kB  | 
 public | t_v_idx     | index | postgres | t      | permanent   | btree         | 112 kB | 
 public | t_v_key     | index | postgres | t      | permanent   | btree         | 112 kB | 
 public | t_w_id_idx  | index | postgres | t      | permanent   | btree         | 80 kB  | 
(5 rows)

        Index "public.t_pkey"
 Column |  Type   | Key? | Definition 
--------+---------+------+------------
 id     | integer | yes  | id
primary key, btree, for table "public.t"

                     Index "public.t_v_idx"
 Column |  Type   | Key? | Definition | Storage  | Stats target 
--------+---------+------+------------+----------+--------------
 v      | text    | yes  | v          | extended | 
 w      | integer | no   | w          | plain    | 
btree, for table "public.t"

      Index "public.t_v_key"
 Column | Type | Key? | Definition 
--------+------+------+------------
 v      | text | yes  | v
unique, btree, for table "public.t"

                                 Table "public.events"
 Column  |       Type       | Collation | Nullable |              Default               
---------+------------------+-----------+----------+------------------------------------
 id      | bigint           |           | not null | nextval('events_id_seq'::regclass)
 payload | text             |           | not null | 
 score   | double precision |           |          | '-1.5'::numeric
 done    | boolean          |           |          | false
Indexes:
    "events_pkey" PRIMARY KEY, btree (id)

         List of relations
 Schema |  Name  | Type  |  Owner   
--------+--------+-------+----------
 public | events | table | postgres
(1 row)

              List of relations
 Schema |     Name      |   Type   |  Owner   
--------+---------------+----------+----------
 public | events_id_seq | sequence | postgres
(1 row)

"#;

#[test]
fn pg_describes_tables_indexes_and_lists_as_psql_15() {
    assert_same(&printed(&pg_ok(TABLES)), TABLES_PSQL);
}

const NAMES: &str = r#"create table u(a int);
create table "Mixed"("Key" int primary key, "select" text, b bigint default 0, n int default -7, f float8 default 2.5, g int generated always as identity, i2 smallint default 3, big bigint default 5000000000);
create index on "Mixed"("select" desc, b);
create unique index mixed_b on "Mixed"(b) include (n);
\d u
\d+ u
\dt+ u
\d "Mixed"
\d+ "Mixed"
\d "Mixed_select_b_idx"
\dti
\dit+
\ds+
\d+
\d public.u
\di mixed*
"#;

/// `psql -q -X -f` of [`NAMES`] on PostgreSQL 15: quoted names, keywords as
/// column names, identity and serial sequences, defaults of every kind.
const NAMES_PSQL: &str = r#"                 Table "public.u"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 a      | integer |           |          | 

                                            Table "public.u"
 Column |  Type   | Collation | Nullable | Default | Storage | Compression | Stats target | Description 
--------+---------+-----------+----------+---------+---------+-------------+--------------+-------------
 a      | integer |           |          |         | plain   |             |              | 
Access method: heap

                                   List of relations
 Schema | Name | Type  |  Owner   | Persistence | Access method |  Size   | Description 
--------+------+-------+----------+-------------+---------------+---------+-------------
 public | u    | table | postgres | permanent   | heap          | 0 bytes | 
(1 row)

                              Table "public.Mixed"
 Column |       Type       | Collation | Nullable |           Default            
--------+------------------+-----------+----------+------------------------------
 Key    | integer          |           | not null | 
 select | text             |           |          | 
 b      | bigint           |           |          | 0
 n      | integer          |           |          | '-7'::integer
 f      | double precision |           |          | 2.5
 g      | integer          |           | not null | generated always as identity
 i2     | smallint         |           |          | 3
 big    | bigint           |           |          | '5000000000'::bigint
Indexes:
    "Mixed_pkey" PRIMARY KEY, btree ("Key")
    "Mixed_select_b_idx" btree ("select" DESC, b)
    "mixed_b" UNIQUE, btree (b) INCLUDE (n)

                                                         Table "public.Mixed"
 Column |       Type       | Collation | Nullable |           Default            | Storage  | Compression | Stats target | Description 
--------+------------------+-----------+----------+------------------------------+----------+-------------+--------------+-------------
 Key    | integer          |           | not null |                              | plain    |             |              | 
 select | text             |           |          |                              | extended |             |              | 
 b      | bigint           |           |          | 0                            | plain    |             |              | 
 n      | integer          |           |          | '-7'::integer                | plain    |             |              | 
 f      | double precision |           |          | 2.5                          | plain    |             |              | 
 g      | integer          |           | not null | generated always as identity | plain    |             |              | 
 i2     | smallint         |           |          | 3                            | plain    |             |              | 
 big    | bigint           |           |          | '5000000000'::bigint         | plain    |             |              | 
Indexes:
    "Mixed_pkey" PRIMARY KEY, btree ("Key")
    "Mixed_select_b_idx" btree ("select" DESC, b)
    "mixed_b" UNIQUE, btree (b) INCLUDE (n)
Access method: heap

  Index "public.Mixed_select_b_idx"
 Column |  Type  | Key? | Definition 
--------+--------+------+------------
 select | text   | yes  | "select"
 b      | bigint | yes  | b
btree, for table "public.Mixed"

                   List of relations
 Schema |        Name        | Type  |  Owner   | Table 
--------+--------------------+-------+----------+-------
 public | Mixed              | table | postgres | 
 public | Mixed_pkey         | index | postgres | Mixed
 public | Mixed_select_b_idx | index | postgres | Mixed
 public | mixed_b            | index | postgres | Mixed
 public | u                  | table | postgres | 
(5 rows)

                                                List of relations
 Schema |        Name        | Type  |  Owner   | Table | Persistence | Access method |    Size    | Description 
--------+--------------------+-------+----------+-------+-------------+---------------+------------+-------------
 public | Mixed              | table | postgres |       | permanent   | heap          | 8192 bytes | 
 public | Mixed_pkey         | index | postgres | Mixed | permanent   | btree         | 8192 bytes | 
 public | Mixed_select_b_idx | index | postgres | Mixed | permanent   | btree         | 8192 bytes | 
 public | mixed_b            | index | postgres | Mixed | permanent   | btree         | 8192 bytes | 
 public | u                  | table | postgres |       | permanent   | heap          | 0 bytes    | 
(5 rows)

                                  List of relations
 Schema |    Name     |   Type   |  Owner   | Persistence |    Size    | Description 
--------+-------------+----------+----------+-------------+------------+-------------
 public | Mixed_g_seq | sequence | postgres | permanent   | 8192 bytes | 
(1 row)

                                          List of relations
 Schema |    Name     |   Type   |  Owner   | Persistence | Access method |    Size    | Description 
--------+-------------+----------+----------+-------------+---------------+------------+-------------
 public | Mixed       | table    | postgres | permanent   | heap          | 8192 bytes | 
 public | Mixed_g_seq | sequence | postgres | permanent   |               | 8192 bytes | 
 public | u           | table    | postgres | permanent   | heap          | 0 bytes    | 
(3 rows)

                 Table "public.u"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 a      | integer |           |          | 

              List of relations
 Schema |  Name   | Type  |  Owner   | Table 
--------+---------+-------+----------+-------
 public | mixed_b | index | postgres | Mixed
(1 row)

"#;

#[test]
fn pg_quoted_names_defaults_sequences_and_a_table_without_indexes() {
    assert_same(&printed(&pg_ok(NAMES)), NAMES_PSQL);
}

const YB: &str = r#"create table t(id int primary key, v text unique, w int);
create index t_v_idx on t(v) include (w);
create index on t(w desc, id);
create table r(a int, b int, c varchar(10), primary key (a asc, b desc));
create index r_c on r(c asc);
\d t
\d+ t
\d r
\d t_pkey
\di
\dt
"#;

const YB_PSQL: &str = r#"                 Table "public.t"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 id     | integer |           | not null | 
 v      | text    |           |          | 
 w      | integer |           |          | 
Indexes:
    "t_pkey" PRIMARY KEY, lsm (id HASH)
    "t_v_idx" lsm (v HASH) INCLUDE (w)
    "t_v_key" UNIQUE CONSTRAINT, lsm (v HASH)
    "t_w_id_idx" lsm (w DESC, id ASC)

                                            Table "public.t"
 Column |  Type   | Collation | Nullable | Default | Storage  | Compression | Stats target | Description 
--------+---------+-----------+----------+---------+----------+-------------+--------------+-------------
 id     | integer |           | not null |         | plain    |             |              | 
 v      | text    |           |          |         | extended |             |              | 
 w      | integer |           |          |         | plain    |             |              | 
Indexes:
    "t_pkey" PRIMARY KEY, lsm (id HASH)
    "t_v_idx" lsm (v HASH) INCLUDE (w)
    "t_v_key" UNIQUE CONSTRAINT, lsm (v HASH)
    "t_w_id_idx" lsm (w DESC, id ASC)
Access method: heap

                        Table "public.r"
 Column |         Type          | Collation | Nullable | Default 
--------+-----------------------+-----------+----------+---------
 a      | integer               |           | not null | 
 b      | integer               |           | not null | 
 c      | character varying(10) |           |          | 
Indexes:
    "r_pkey" PRIMARY KEY, lsm (a ASC, b DESC)
    "r_c" lsm (c ASC)

        Index "public.t_pkey"
 Column |  Type   | Key? | Definition 
--------+---------+------+------------
 id     | integer | yes  | id
primary key, lsm, for table "public.t"

               List of relations
 Schema |    Name    | Type  |  Owner   | Table 
--------+------------+-------+----------+-------
 public | r_c        | index | yugabyte | r
 public | r_pkey     | index | yugabyte | r
 public | t_pkey     | index | yugabyte | t
 public | t_v_idx    | index | yugabyte | t
 public | t_v_key    | index | yugabyte | t
 public | t_w_id_idx | index | yugabyte | t
(6 rows)

        List of relations
 Schema | Name | Type  |  Owner   
--------+------+-------+----------
 public | r    | table | yugabyte
 public | t    | table | yugabyte
(2 rows)

"#;

#[test]
fn yb_describes_its_indexes_as_lsm_with_hash_and_range_keys() {
    assert_same(&printed(&yb_ok(YB)), YB_PSQL);
}

#[test]
fn the_census_experiment_lists_its_range_keys_and_covering_index() {
    // tests/corpus/yb-secondary-indexes-census.sql's `\d+ census`, as
    // YugabyteDB's documentation shows its indexes.
    let r = yb_ok(
        "CREATE TABLE census(id int, name varchar(255), age int, zipcode int, employed boolean, \
         PRIMARY KEY(id ASC));
         create index idx_zip on census(zipcode ASC);
         create index idx_zip2 on census(zipcode ASC) include(id);
         \\d+ census\n",
    );
    let d = &r.statements.last().unwrap().outcome;
    assert_eq!(
        d.footers,
        [
            "Indexes:",
            "    \"census_pkey\" PRIMARY KEY, lsm (id ASC)",
            "    \"idx_zip\" lsm (zipcode ASC)",
            "    \"idx_zip2\" lsm (zipcode ASC) INCLUDE (id)",
            "Access method: heap",
        ]
    );
}

/// The error a script stops at.
fn error(report: &Report) -> String {
    report.error.as_ref().expect("an error").message.clone()
}

#[test]
fn sizes_on_yugabytedb_are_refused_by_name() {
    for command in ["\\dt+", "\\di+", "\\d+", "\\dt+ t"] {
        let (r, _) = run_yb(
            &format!("create table t(id int primary key);\n{command}\n"),
            &[],
        );
        let e = error(&r);
        assert!(e.contains("is not supported by IndexLab"), "{command}: {e}");
        assert!(e.contains("pg_table_size()"), "{command}: {e}");
        assert_eq!(r.error.as_ref().unwrap().line, 2);
    }
    // Without + the same lists run.
    yb_ok("create table t(id int primary key);\n\\dt\n\\di\n\\d\n");
}

#[test]
fn what_is_not_modelled_is_refused_by_name() {
    let script = "create table t(id serial primary key, v int);\ncreate index on t(v);\n";
    for (command, says) in [
        ("\\dt *", "PostgreSQL's own catalogs"),
        ("\\d pg_class", "PostgreSQL's own catalogs"),
        ("\\dt pg_catalog.*", "PostgreSQL's own catalogs"),
        ("\\dS", "PostgreSQL's own catalogs"),
        (
            "\\d t*",
            "names several relations (t, t_id_seq, t_pkey, t_v_idx",
        ),
        ("\\d t_id_seq", "of a sequence"),
        ("\\dt t[12]", "regular expression"),
        (
            "\\df",
            "psql's describe commands IndexLab runs \\d, \\dt, \\di and \\ds",
        ),
    ] {
        let text = format!("{script}{command}\n");
        for r in [run_pg(&text, &[]).0, run_yb(&text, &[]).0] {
            let e = error(&r);
            assert!(e.contains("is not supported by IndexLab"), "{command}: {e}");
            assert!(e.contains(says), "{command}: {e}");
        }
    }
}

#[test]
fn a_name_that_is_not_there_is_psqls_error_and_an_empty_list_is_not() {
    // `\d name` fails, as describeTableDetails does: the script stops there
    // (psql's ON_ERROR_STOP).
    let (r, _) = run_pg("create table t(a int);\n\\d nope\nselect 1;\n", &[]);
    assert_eq!(error(&r), "Did not find any relation named \"nope\".");
    assert_eq!((r.error.as_ref().unwrap().line, r.statements.len()), (2, 1));
    // A list that finds nothing says so and the script goes on, as in psql.
    let r = pg_ok("\\dt\n\\di t*\nselect 1;\n");
    assert_eq!(
        r.statements[0].outcome.notices,
        ["Did not find any relations."]
    );
    assert_eq!(
        r.statements[1].outcome.notices,
        ["Did not find any relation named \"t*\"."]
    );
    assert_eq!(r.statements.len(), 3);
    // A pattern starting with * names no catalog of PostgreSQL's unless one
    // matches it: nothing of PostgreSQL's ends in _idx.
    let r = pg_ok("create table t(v int);\ncreate index on t(v);\n\\di *_idx\n");
    let rows = &r.statements[2].outcome.rows;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][1].as_deref(), Some("t_v_idx"));
    // psql ignores arguments after the pattern, with a warning.
    let r = pg_ok("create table t(a int);\n\\d t x\n");
    let d = &r.statements[1];
    assert_eq!(d.sql, "\\d t x");
    assert_eq!(d.outcome.notices, ["\\d: extra argument \"x\" ignored"]);
    assert_eq!(d.outcome.title.as_deref(), Some("Table \"public.t\""));
}

#[test]
fn the_report_carries_the_title_the_footers_and_whether_psql_counts_the_rows() {
    let r = pg_ok("create table t(id int primary key);\n\\d t\n\\dt\nselect 1;\n");
    let json = report_json::report(&r);
    let s = &json["statements"];
    assert_eq!(s[1]["sql"], "\\d t");
    assert_eq!(s[1]["title"], "Table \"public.t\"");
    assert_eq!(s[1]["footers"][1], "    \"t_pkey\" PRIMARY KEY, btree (id)");
    assert_eq!(s[1]["rows_line"], false);
    assert_eq!(s[1]["tag"], "");
    assert_eq!(s[2]["title"], "List of relations");
    assert_eq!(s[2]["rows_line"], true);
    assert!(s[3]["title"].is_null());
    assert_eq!(s[3]["footers"].as_array().map(Vec::len), Some(0));
    assert_eq!(s[3]["rows_line"], true);
}
