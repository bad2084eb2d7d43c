//! EXPLAIN's FORMAT JSON, VERBOSE and SETTINGS, against what PostgreSQL 15
//! printed for the same script (psql -A -t, so each plan is its one text
//! value). Costs are off throughout: IndexLab's estimates are its own. Where
//! a figure is the simulation's (buffers, WAL bytes), the test compares the
//! plan's shape: every field name, its order and its value's JSON type.

use crate::common;

use common::{error, explain_lines, explains};
use indexlab_engine::scenario::{run_pg, run_yb, Report};

const SETUP: &str = "create table t (id int primary key, v int, w text);\n\
    insert into t select g, g % 10, 'x' || g from generate_series(1, 1000) g;\n\
    create index t_v on t(v);\n\
    create table u (id int primary key, t_id int);\n\
    insert into u select g, g from generate_series(1, 100) g;\n\
    analyze t;\n";

/// The plans `statements` printed on the pg profile after SETUP, each as
/// one text (a JSON plan is one value; a text plan's lines are joined).
fn pg_plans(statements: &str) -> Vec<String> {
    plans(&run_pg(&format!("{SETUP}{statements}"), &[]).0)
}

fn plans(r: &Report) -> Vec<String> {
    assert_eq!(error(r), "", "the script failed");
    explains(r)
        .iter()
        .map(|s| explain_lines(s).join("\n"))
        .collect()
}

/// The run's error after SETUP and `statements` (which should fail).
fn pg_error(statements: &str) -> String {
    error(&run_pg(&format!("{SETUP}{statements}"), &[]).0)
}

/// A JSON plan with every number replaced by `N`: what stays is the shape
/// PostgreSQL gives the fields, whatever the simulated figures.
fn shape(json: &str) -> String {
    json.lines()
        .map(|l| match l.split_once("\": ") {
            Some((k, v)) if v.trim_end_matches(',').parse::<f64>().is_ok() => {
                let comma = if v.ends_with(',') { "," } else { "" };
                format!("{k}\": N{comma}")
            }
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn seq_scan_with_a_filter_in_verbose_and_json() {
    let got = pg_plans(
        "explain (costs off, verbose) select * from t where w = 'x5';\n\
         explain (costs off, format json) select * from t where w = 'x5';\n\
         explain (costs off, analyze, timing off, summary off, buffers, format json) select * from t where w = 'x5';\n",
    );
    let want = [
        r#"Seq Scan on public.t
  Output: id, v, w
  Filter: (t.w = 'x5'::text)"#,
        r#"[
  {
    "Plan": {
      "Node Type": "Seq Scan",
      "Parallel Aware": false,
      "Async Capable": false,
      "Relation Name": "t",
      "Alias": "t",
      "Filter": "(w = 'x5'::text)"
    }
  }
]"#,
        r#"[
  {
    "Plan": {
      "Node Type": "Seq Scan",
      "Parallel Aware": false,
      "Async Capable": false,
      "Relation Name": "t",
      "Alias": "t",
      "Actual Rows": 1,
      "Actual Loops": 1,
      "Filter": "(w = 'x5'::text)",
      "Rows Removed by Filter": 999,
      "Shared Hit Blocks": 6,
      "Shared Read Blocks": 0,
      "Shared Dirtied Blocks": 0,
      "Shared Written Blocks": 0,
      "Local Hit Blocks": 0,
      "Local Read Blocks": 0,
      "Local Dirtied Blocks": 0,
      "Local Written Blocks": 0,
      "Temp Read Blocks": 0,
      "Temp Written Blocks": 0
    },
    "Planning": {
      "Shared Hit Blocks": 0,
      "Shared Read Blocks": 0,
      "Shared Dirtied Blocks": 0,
      "Shared Written Blocks": 0,
      "Local Hit Blocks": 0,
      "Local Read Blocks": 0,
      "Local Dirtied Blocks": 0,
      "Local Written Blocks": 0,
      "Temp Read Blocks": 0,
      "Temp Written Blocks": 0
    },
    "Triggers": [
    ]
  }
]"#,
    ];
    assert_eq!(got, want);
}

#[test]
fn index_scan_in_verbose_text_and_json() {
    let got = pg_plans(
        "explain (costs off, verbose) select v from t where id = 5;\n\
         explain (costs off, verbose, format json) select v from t where id = 5;\n",
    );
    let want = [
        r#"Index Scan using t_pkey on public.t
  Output: v
  Index Cond: (t.id = 5)"#,
        r#"[
  {
    "Plan": {
      "Node Type": "Index Scan",
      "Parallel Aware": false,
      "Async Capable": false,
      "Scan Direction": "Forward",
      "Index Name": "t_pkey",
      "Relation Name": "t",
      "Schema": "public",
      "Alias": "t",
      "Output": ["v"],
      "Index Cond": "(t.id = 5)"
    }
  }
]"#,
    ];
    assert_eq!(got, want);
}

#[test]
fn index_only_scan_with_analyze() {
    let got = pg_plans(
        "explain (costs off, verbose) select id from t where id < 3;\n\
         explain (costs off, analyze, timing off, summary off, format json) select id from t where id < 3;\n",
    );
    let want = [
        r#"Index Only Scan using t_pkey on public.t
  Output: id
  Index Cond: (t.id < 3)"#,
        r#"[
  {
    "Plan": {
      "Node Type": "Index Only Scan",
      "Parallel Aware": false,
      "Async Capable": false,
      "Scan Direction": "Forward",
      "Index Name": "t_pkey",
      "Relation Name": "t",
      "Alias": "t",
      "Actual Rows": 2,
      "Actual Loops": 1,
      "Index Cond": "(id < 3)",
      "Rows Removed by Index Recheck": 0,
      "Heap Fetches": 2
    },
    "Triggers": [
    ]
  }
]"#,
    ];
    assert_eq!(got, want);
}

#[test]
fn sort_under_limit_keeps_the_sort_column_as_output() {
    let got = pg_plans(
        "explain (costs off, verbose) select v from t order by w limit 3;\n\
         explain (costs off, format json) select v from t order by w limit 3;\n",
    );
    let want = [
        r#"Limit
  Output: v, w
  ->  Sort
        Output: v, w
        Sort Key: t.w
        ->  Seq Scan on public.t
              Output: v, w"#,
        r#"[
  {
    "Plan": {
      "Node Type": "Limit",
      "Parallel Aware": false,
      "Async Capable": false,
      "Plans": [
        {
          "Node Type": "Sort",
          "Parent Relationship": "Outer",
          "Parallel Aware": false,
          "Async Capable": false,
          "Sort Key": ["w"],
          "Plans": [
            {
              "Node Type": "Seq Scan",
              "Parent Relationship": "Outer",
              "Parallel Aware": false,
              "Async Capable": false,
              "Relation Name": "t",
              "Alias": "t"
            }
          ]
        }
      ]
    }
  }
]"#,
    ];
    assert_eq!(got, want);
}

#[test]
fn aggregates_hashed_and_plain() {
    let got = pg_plans(
        "explain (costs off, format json) select v, count(*) from t group by v;\n\
         explain (costs off, format json) select count(*) from t;\n",
    );
    let want = [
        r#"[
  {
    "Plan": {
      "Node Type": "Aggregate",
      "Strategy": "Hashed",
      "Partial Mode": "Simple",
      "Parallel Aware": false,
      "Async Capable": false,
      "Group Key": ["v"],
      "Plans": [
        {
          "Node Type": "Seq Scan",
          "Parent Relationship": "Outer",
          "Parallel Aware": false,
          "Async Capable": false,
          "Relation Name": "t",
          "Alias": "t"
        }
      ]
    }
  }
]"#,
        r#"[
  {
    "Plan": {
      "Node Type": "Aggregate",
      "Strategy": "Plain",
      "Partial Mode": "Simple",
      "Parallel Aware": false,
      "Async Capable": false,
      "Plans": [
        {
          "Node Type": "Seq Scan",
          "Parent Relationship": "Outer",
          "Parallel Aware": false,
          "Async Capable": false,
          "Relation Name": "t",
          "Alias": "t"
        }
      ]
    }
  }
]"#,
    ];
    assert_eq!(got, want);
}

#[test]
fn settings_after_sets_in_name_order_as_show_prints_them() {
    let got = pg_plans(
        "set enable_seqscan = off;\n\
         set random_page_cost = 1.1;\n\
         set work_mem = 65536;\n\
         explain (costs off, settings) select v from t where id = 5;\n\
         explain (costs off, settings, format json) select v from t where id = 5;\n\
         reset all;\n\
         explain (costs off, settings) select v from t where id = 5;\n",
    );
    let want = [
        r#"Index Scan using t_pkey on t
  Index Cond: (id = 5)
Settings: enable_seqscan = 'off', random_page_cost = '1.1', work_mem = '64MB'"#,
        r#"[
  {
    "Plan": {
      "Node Type": "Index Scan",
      "Parallel Aware": false,
      "Async Capable": false,
      "Scan Direction": "Forward",
      "Index Name": "t_pkey",
      "Relation Name": "t",
      "Alias": "t",
      "Index Cond": "(id = 5)"
    },
    "Settings": {
      "enable_seqscan": "off",
      "random_page_cost": "1.1",
      "work_mem": "64MB"
    }
  }
]"#,
        r#"Index Scan using t_pkey on t
  Index Cond: (id = 5)"#,
    ];
    assert_eq!(got, want);
}

#[test]
fn insert_update_delete_with_analyze_buffers_and_wal() {
    let got = pg_plans(
        "explain (costs off, analyze, timing off, summary off, buffers, wal, format json) insert into t values (5000, 1, 'a');\n\
         explain (costs off, analyze, timing off, summary off, wal, format json) update t set v = 2 where id = 5000;\n\
         explain (costs off, analyze, timing off, summary off, format json) delete from t where id = 5000;\n",
    );
    // The figures are the simulation's; the fields are PostgreSQL's.
    let want = [
        r#"[
  {
    "Plan": {
      "Node Type": "ModifyTable",
      "Operation": "Insert",
      "Parallel Aware": false,
      "Async Capable": false,
      "Relation Name": "t",
      "Alias": "t",
      "Actual Rows": 0,
      "Actual Loops": 1,
      "Shared Hit Blocks": 7,
      "Shared Read Blocks": 1,
      "Shared Dirtied Blocks": 1,
      "Shared Written Blocks": 0,
      "Local Hit Blocks": 0,
      "Local Read Blocks": 0,
      "Local Dirtied Blocks": 0,
      "Local Written Blocks": 0,
      "Temp Read Blocks": 0,
      "Temp Written Blocks": 0,
      "WAL Records": 3,
      "WAL FPI": 0,
      "WAL Bytes": 193,
      "Plans": [
        {
          "Node Type": "Result",
          "Parent Relationship": "Outer",
          "Parallel Aware": false,
          "Async Capable": false,
          "Actual Rows": 1,
          "Actual Loops": 1,
          "Shared Hit Blocks": 0,
          "Shared Read Blocks": 0,
          "Shared Dirtied Blocks": 0,
          "Shared Written Blocks": 0,
          "Local Hit Blocks": 0,
          "Local Read Blocks": 0,
          "Local Dirtied Blocks": 0,
          "Local Written Blocks": 0,
          "Temp Read Blocks": 0,
          "Temp Written Blocks": 0,
          "WAL Records": 0,
          "WAL FPI": 0,
          "WAL Bytes": 0
        }
      ]
    },
    "Planning": {
      "Shared Hit Blocks": 0,
      "Shared Read Blocks": 0,
      "Shared Dirtied Blocks": 0,
      "Shared Written Blocks": 0,
      "Local Hit Blocks": 0,
      "Local Read Blocks": 0,
      "Local Dirtied Blocks": 0,
      "Local Written Blocks": 0,
      "Temp Read Blocks": 0,
      "Temp Written Blocks": 0
    },
    "Triggers": [
    ]
  }
]"#,
        r#"[
  {
    "Plan": {
      "Node Type": "ModifyTable",
      "Operation": "Update",
      "Parallel Aware": false,
      "Async Capable": false,
      "Relation Name": "t",
      "Alias": "t",
      "Actual Rows": 0,
      "Actual Loops": 1,
      "WAL Records": 3,
      "WAL FPI": 0,
      "WAL Bytes": 199,
      "Plans": [
        {
          "Node Type": "Index Scan",
          "Parent Relationship": "Outer",
          "Parallel Aware": false,
          "Async Capable": false,
          "Scan Direction": "Forward",
          "Index Name": "t_pkey",
          "Relation Name": "t",
          "Alias": "t",
          "Actual Rows": 1,
          "Actual Loops": 1,
          "Index Cond": "(id = 5000)",
          "Rows Removed by Index Recheck": 0,
          "WAL Records": 0,
          "WAL FPI": 0,
          "WAL Bytes": 0
        }
      ]
    },
    "Triggers": [
    ]
  }
]"#,
        r#"[
  {
    "Plan": {
      "Node Type": "ModifyTable",
      "Operation": "Delete",
      "Parallel Aware": false,
      "Async Capable": false,
      "Relation Name": "t",
      "Alias": "t",
      "Actual Rows": 0,
      "Actual Loops": 1,
      "Plans": [
        {
          "Node Type": "Index Scan",
          "Parent Relationship": "Outer",
          "Parallel Aware": false,
          "Async Capable": false,
          "Scan Direction": "Forward",
          "Index Name": "t_pkey",
          "Relation Name": "t",
          "Alias": "t",
          "Actual Rows": 1,
          "Actual Loops": 1,
          "Index Cond": "(id = 5000)",
          "Rows Removed by Index Recheck": 0
        }
      ]
    },
    "Triggers": [
    ]
  }
]"#,
    ];
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert_eq!(shape(g), shape(w));
    }
    assert!(got[0].contains("\"WAL Records\": 3,"), "{}", got[0]);
}

#[test]
fn every_json_plan_is_valid_json() {
    let got = pg_plans(
        "explain (format json) select v from t order by w limit 3;\n\
         explain (format json, analyze, buffers, settings) select * from t where id = 5;\n\
         explain (format json, analyze, wal) update t set w = 'a\"b\\c' where id = 1;\n",
    );
    for plan in &got {
        let v: serde_json::Value = serde_json::from_str(plan).expect("valid JSON");
        assert!(v[0]["Plan"]["Node Type"].is_string(), "{plan}");
    }
    assert!(got[1].contains("\"Execution Time\": "), "{}", got[1]);
}

#[test]
fn a_zero_count_is_left_out_of_text_but_printed_in_json() {
    // PostgreSQL 15: show_instrumentation_count prints a zero only in
    // the structured formats.
    let got = pg_plans(
        "explain (costs off, analyze, timing off, summary off) select * from t where w <> 'zz';\n\
         explain (costs off, analyze, timing off, summary off, format json) select * from t where w <> 'zz';\n",
    );
    assert_eq!(
        got[0],
        "Seq Scan on t (actual rows=1000 loops=1)\n  Filter: (w <> 'zz'::text)"
    );
    assert!(
        got[1].contains("\"Rows Removed by Filter\": 0\n"),
        "{}",
        got[1]
    );
}

#[test]
fn settings_in_json_is_an_empty_group_when_nothing_differs() {
    let got =
        pg_plans("explain (costs off, settings, format json) select v from t where id = 5;\n");
    assert!(
        got[0].contains("\n    \"Settings\": {\n    }\n"),
        "{}",
        got[0]
    );
}

#[test]
fn settings_postgresql_does_not_flag_for_explain_are_left_out() {
    // maintenance_work_mem and default_statistics_target lack GUC_EXPLAIN.
    let got = pg_plans(
        "set maintenance_work_mem = '1GB';\n\
         set default_statistics_target = 500;\n\
         set seq_page_cost = 1.0;\n\
         set enable_sort = false;\n\
         explain (costs off, settings) select v from t where id = 5;\n",
    );
    assert_eq!(
        got[0],
        "Index Scan using t_pkey on t\n  Index Cond: (id = 5)\nSettings: enable_sort = 'off'"
    );
}

#[test]
fn format_text_is_the_default_and_yaml_is_refused() {
    let got = pg_plans(
        "explain (costs off, format text) select v from t where id = 5;\n\
         explain (costs off) select v from t where id = 5;\n",
    );
    assert_eq!(got[0], got[1]);
    let yaml = pg_error("explain (format yaml) select 1;\n");
    assert!(yaml.ends_with("is not supported by IndexLab"), "{yaml}");
    assert_eq!(
        pg_error("explain (format foo) select 1;\n"),
        "unrecognized value for EXPLAIN option \"format\": \"foo\""
    );
}

#[test]
fn a_two_table_join_is_refused_by_name_in_json_and_verbose() {
    // PostgreSQL prints Join Type and Inner Unique, which IndexLab's join
    // node does not know yet; the text format still works.
    let join = "select * from t join u on u.t_id = t.id where u.id < 3;\n";
    for option in ["format json", "verbose"] {
        let e = pg_error(&format!("explain (costs off, {option}) {join}"));
        assert!(e.ends_with("is not supported by IndexLab"), "{e}");
        assert!(
            e.contains(" Join") || e.contains("Nested Loop") || e.contains("join"),
            "{e}"
        );
    }
    assert!(!pg_plans(&format!("explain (costs off) {join}"))[0].is_empty());
}

#[test]
fn verbose_is_refused_where_its_output_lists_are_not_derived() {
    for statement in [
        "select v + 1 from t",
        "select v from t x where x.id = 5",
        "select count(*) from t having count(*) > 1",
        "insert into t (id) values (5000)",
        "update t set v = null where id = 5",
    ] {
        let e = pg_error(&format!("explain (verbose, costs off) {statement};\n"));
        assert!(e.starts_with("EXPLAIN (VERBOSE)"), "{statement}: {e}");
        assert!(e.ends_with("is not supported by IndexLab"), "{e}");
    }
}

#[test]
fn verbose_aggregates_read_the_whole_row() {
    // The scan under an Aggregate returns the planner's physical target list.
    let got = pg_plans(
        "explain (costs off, verbose) select v, count(*) from t group by v;\n\
         explain (costs off, verbose) select count(*) from t where w = 'x';\n\
         explain (costs off, verbose) select sum(v), max(w) from t where id < 10;\n",
    );
    let want = [
        "HashAggregate\n  Output: v, count(*)\n  Group Key: t.v\n  ->  Seq Scan on public.t\n        Output: id, v, w",
        "Aggregate\n  Output: count(*)\n  ->  Seq Scan on public.t\n        Output: id, v, w\n        Filter: (t.w = 'x'::text)",
        "Aggregate\n  Output: sum(v), max(w)\n  ->  Index Scan using t_pkey on public.t\n        Output: id, v, w\n        Index Cond: (t.id < 10)",
    ];
    assert_eq!(got, want);
}

#[test]
fn verbose_limit_over_an_aggregate_parenthesizes_what_it_passes_on() {
    // The GroupAggregate over the index on v (PostgreSQL's plan) passes on
    // `count(*), v`; the Limit references them: `(count(*)), v`.
    let got =
        pg_plans("explain (costs off, verbose) select count(*), v from t group by v limit 2;\n");
    let lines: Vec<&str> = got[0].lines().collect();
    assert_eq!(lines[..2], ["Limit", "  Output: (count(*)), v"]);
    assert_eq!(lines[2], "  ->  GroupAggregate");
    assert_eq!(lines[3], "        Output: count(*), v");
}

#[test]
fn verbose_insert_update_delete_show_the_new_row_and_ctid() {
    let got = pg_plans(
        "explain (costs off, verbose) delete from t where id = 5000;\n\
         explain (costs off, verbose) update t set w = 'a', v = 2 where id = 5000;\n\
         explain (costs off, verbose) update t set v = v + 1 where w = 'q';\n\
         explain (costs off, verbose) insert into t values (1, 2, 'a');\n\
         explain (costs off, verbose) insert into t values (7000, 1, 'a'), (7001, 1, 'b');\n\
         explain (costs off, verbose, analyze, timing off, summary off) delete from t where id = 7;\n",
    );
    let want = [
        "Delete on public.t\n  ->  Index Scan using t_pkey on public.t\n        Output: ctid\n        Index Cond: (t.id = 5000)",
        "Update on public.t\n  ->  Index Scan using t_pkey on public.t\n        Output: 2, 'a'::text, ctid\n        Index Cond: (t.id = 5000)",
        "Update on public.t\n  ->  Seq Scan on public.t\n        Output: (v + 1), ctid\n        Filter: (t.w = 'q'::text)",
        "Insert on public.t\n  ->  Result\n        Output: 1, 2, 'a'::text",
        "Insert on public.t\n  ->  Values Scan on \"*VALUES*\"\n        Output: \"*VALUES*\".column1, \"*VALUES*\".column2, \"*VALUES*\".column3",
        "Delete on public.t (actual rows=0 loops=1)\n  ->  Index Scan using t_pkey on public.t (actual rows=1 loops=1)\n        Output: ctid\n        Index Cond: (t.id = 7)",
    ];
    assert_eq!(got, want);
}

#[test]
fn verbose_update_in_json_lists_its_output() {
    let got = pg_plans(
        "explain (costs off, verbose, format json) update t set v = v - 1 where id = 7;\n",
    );
    let want = r#"[
  {
    "Plan": {
      "Node Type": "ModifyTable",
      "Operation": "Update",
      "Parallel Aware": false,
      "Async Capable": false,
      "Relation Name": "t",
      "Schema": "public",
      "Alias": "t",
      "Plans": [
        {
          "Node Type": "Index Scan",
          "Parent Relationship": "Outer",
          "Parallel Aware": false,
          "Async Capable": false,
          "Scan Direction": "Forward",
          "Index Name": "t_pkey",
          "Relation Name": "t",
          "Schema": "public",
          "Alias": "t",
          "Output": ["(v - 1)", "ctid"],
          "Index Cond": "(t.id = 7)"
        }
      ]
    }
  }
]"#;
    assert_eq!(got, [want]);
}

#[test]
fn yugabyte_verbose_dml_is_refused() {
    let r = run_yb(
        &format!("{SETUP}explain (verbose) delete from t where id = 1;\n"),
        &[],
    )
    .0;
    let e = error(&r);
    assert!(
        e.starts_with("EXPLAIN (VERBOSE) of INSERT, UPDATE or DELETE"),
        "{e}"
    );
}

/// The yb profile's plan for `statements` after SETUP.
fn yb_plans(statements: &str) -> Vec<String> {
    plans(&run_yb(&format!("{SETUP}{statements}"), &[]).0)
}

#[test]
fn yugabyte_json_and_settings_are_refused_by_name() {
    // YugabyteDB 2.19's query layer is PostgreSQL 11's: no SETTINGS option,
    // and JSON without the fields PostgreSQL 15 added.
    for options in ["format json", "settings"] {
        let r = run_yb(
            &format!("{SETUP}explain (costs off, {options}) select v from t where id = 5;\n"),
            &[],
        )
        .0;
        let e = error(&r);
        assert!(
            e.contains("on YugabyteDB") && e.ends_with("is not supported by IndexLab"),
            "{options}: {e}"
        );
    }
}

#[test]
fn yugabyte_verbose_prints_as_postgresql_does() {
    let got = yb_plans("explain (costs off, verbose) select v from t where id = 5;\n");
    assert_eq!(
        got[0],
        "Index Scan using t_pkey on public.t\n  Output: v\n  Index Cond: (t.id = 5)"
    );
}

/// The option's name is checked before its value, as ExplainQuery does:
/// an option PostgreSQL 15 lacks (SERIALIZE came in 17) is unrecognized,
/// and a known one with a word that is not a Boolean says so.
#[test]
fn options_are_named_before_their_values_are_read() {
    assert_eq!(
        pg_error("explain (serialize text, costs off) select 1;\n"),
        "unrecognized EXPLAIN option \"serialize\""
    );
    assert_eq!(
        pg_error("explain (analyze foo) select 1;\n"),
        "analyze requires a Boolean value"
    );
}
