use super::*;

fn kinds(sql: &str) -> Vec<HintKind> {
    parse_hints(sql)
        .unwrap()
        .expect("a hint comment")
        .hints
        .into_iter()
        .map(|h| h.kind)
        .collect()
}

fn error(sql: &str) -> HintError {
    parse_hints(sql).unwrap_err()
}

fn rel(name: &str) -> JoinTree {
    JoinTree::Relation(name.into())
}

fn pair(a: JoinTree, b: JoinTree) -> JoinTree {
    JoinTree::Join(Box::new(a), Box::new(b))
}

#[test]
fn article_001_hint_after_explain_options() {
    let sql = "explain (analyze, dist, buffers, costs off)\n\
               /*+ nestloop(a b) leading((a b)) Set(yb_bnl_batch_size '1024') */\n\
               with a as (select * from demo)\nselect * from a join demo b using(id)";
    let set = parse_hints(sql).unwrap().unwrap();
    assert_eq!(
        set.hints.iter().map(|h| h.kind.clone()).collect::<Vec<_>>(),
        vec![
            HintKind::Join {
                method: JoinMethod::NestLoop,
                negated: false,
                relations: vec!["a".into(), "b".into()],
            },
            HintKind::Leading(Leading::Tree(pair(rel("a"), rel("b")))),
            HintKind::Set {
                name: "yb_bnl_batch_size".into(),
                value: "1024".into(),
            },
        ]
    );
    assert_eq!(set.span.start, 44);
    assert!(sql[set.span.clone()].starts_with("/*+ nestloop"));
    assert!(sql[set.span.clone()].ends_with("'1024') */"));
    assert_eq!(set.hints[0].offset, 48);
    assert_eq!(
        set.settings().collect::<Vec<_>>(),
        [("yb_bnl_batch_size", "1024")]
    );
}

#[test]
fn no_hint_comment_is_none() {
    assert_eq!(parse_hints("select 1").unwrap(), None);
    assert_eq!(parse_hints("select /* plain */ 1").unwrap(), None);
    // Only words, commas, parentheses and spaces may precede the hint comment.
    assert_eq!(parse_hints("select '/*+ SeqScan(t) */'").unwrap(), None);
    assert_eq!(
        parse_hints("/* c */ /*+ SeqScan(t) */ select 1").unwrap(),
        None
    );
}

#[test]
fn names_are_case_insensitive_and_relations_fold_unless_quoted() {
    assert_eq!(
        kinds("/*+ NESTLOOP(A \"B\") */ select"),
        [HintKind::Join {
            method: JoinMethod::NestLoop,
            negated: false,
            relations: vec!["a".into(), "B".into()],
        }]
    );
}

#[test]
fn set_values_may_be_bare_or_quoted() {
    let set = |sql: &str| match &kinds(sql)[0] {
        HintKind::Set { name, value } => (name.clone(), value.clone()),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        set("/*+ Set(work_mem 64MB) */"),
        ("work_mem".into(), "64MB".into())
    );
    assert_eq!(set("/*+ set(X '1') */"), ("x".into(), "1".into()));
    assert_eq!(set("/*+ Set(x \"a b\") */"), ("x".into(), "a b".into()));
    assert_eq!(set("/*+ Set(x 'it''s') */"), ("x".into(), "it's".into()));
}

#[test]
fn join_methods_and_their_negations() {
    let methods: Vec<(JoinMethod, bool)> =
        kinds("/*+ HashJoin(a b) MergeJoin(a b c) NoNestLoop(a b) YbBatchedNL(a b) */")
            .into_iter()
            .map(|k| match k {
                HintKind::Join {
                    method, negated, ..
                } => (method, negated),
                other => panic!("{other:?}"),
            })
            .collect();
    assert_eq!(
        methods,
        [
            (JoinMethod::HashJoin, false),
            (JoinMethod::MergeJoin, false),
            (JoinMethod::NestLoop, true),
            (JoinMethod::YbBatchedNL, false),
        ]
    );
}

#[test]
fn leading_order_and_trees() {
    assert_eq!(
        kinds("/*+ Leading(a b c) */"),
        [HintKind::Leading(Leading::Order(vec![
            "a".into(),
            "b".into(),
            "c".into()
        ]))]
    );
    assert_eq!(
        kinds("/*+ Leading(((a b) c)) */"),
        [HintKind::Leading(Leading::Tree(pair(
            pair(rel("a"), rel("b")),
            rel("c")
        )))]
    );
}

#[test]
fn scans_with_optional_indexes() {
    assert_eq!(
        kinds("/*+ SeqScan(t) IndexScan(t) IndexOnlyScan(demo demo_value i2) NoIndexScan(t) */"),
        [
            HintKind::Scan {
                method: ScanMethod::SeqScan,
                negated: false,
                table: "t".into(),
                indexes: vec![],
            },
            HintKind::Scan {
                method: ScanMethod::IndexScan,
                negated: false,
                table: "t".into(),
                indexes: vec![],
            },
            HintKind::Scan {
                method: ScanMethod::IndexOnlyScan,
                negated: false,
                table: "demo".into(),
                indexes: vec!["demo_value".into(), "i2".into()],
            },
            HintKind::Scan {
                method: ScanMethod::IndexScan,
                negated: true,
                table: "t".into(),
                indexes: vec![],
            },
        ]
    );
}

#[test]
fn unknown_hints_are_kept_with_their_arguments() {
    let hints = kinds("/*+ Rows(a b #10) BitmapScan(t) SeqScan(t) */");
    assert_eq!(
        hints[0],
        HintKind::Unknown {
            name: "Rows".into(),
            args: "a b #10".into()
        }
    );
    assert_eq!(hints[1].name(), "BitmapScan");
    assert_eq!(hints[2].name(), "SeqScan");
}

#[test]
fn malformed_hints_are_errors_at_the_right_offset() {
    let e = error("/*+ Set(x) */");
    assert_eq!(e.offset, 4);
    assert!(e.message.contains("Set(name value)"));

    let e = error("select /*+ NestLoop(a) */ 1");
    assert_eq!(
        (e.offset, e.message.as_str()),
        (11, "NestLoop hint needs at least two relation names")
    );

    let e = error("/*+ SeqScan(t) Leading((a b c)) */");
    assert_eq!(e.offset, 15);
    assert!(e.message.contains("exactly two"));

    let e = error("/*+ NestLoop(a b */");
    assert_eq!(
        (e.offset, e.message.as_str()),
        (12, "unterminated hint: missing \")\"")
    );

    let e = error("/*+ NestLoop */");
    assert!(e.message.contains("parentheses"), "{}", e.message);

    let e = error("/*+ ) */");
    assert_eq!(e.offset, 4);
    assert!(e.message.starts_with("hint syntax error at or near \")"));

    let e = error("/*+ Set(x 'abc) */");
    assert_eq!(e.offset, 10);

    assert_eq!(error("/*+ SeqScan(t) /* x */").offset, 15);
    assert_eq!(error("/*+ SeqScan(t)").offset, 0);
    assert!(error("/*+ SeqScan(a b) */")
        .message
        .contains("one table name"));
    assert!(error("/*+ IndexScan() */")
        .message
        .contains("optional index"));
    assert!(error("/*+ Leading(a) */").message.contains("at least two"));
}

#[test]
fn errors_convert_to_sql_errors() {
    let e: SqlError = error("/*+ Set(x) */").into();
    assert_eq!(e.kind, ErrorKind::Hint);
}

#[test]
fn never_panics_on_odd_input() {
    for sql in [
        "/*+",
        "/*+*/",
        "/*+ ( */",
        "/*+ a(((( */",
        "/*+ é(ü) */",
        "/*+ 'x */",
        "/*+\"",
        "/*+ a() b()) */",
        "/*+ Leading(()) */",
        "/*+ Leading((a (b))) */",
    ] {
        let _ = parse_hints(sql);
    }
}
