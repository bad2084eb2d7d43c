//! Queries over JSON documents built from a table's rows, with `to_char`
//! and `format` beside them: the document is `jsonb_build_object` (or
//! `json_build_object`) of the row's columns, read back with `->`, `->>`,
//! `#>`, `#>>`, `@>`, `?`, changed with `||`, `-` and `jsonb_set`, and
//! measured with `pg_column_size`.

use super::schema::Schema;
use super::values::Type;
use super::Gen;
use crate::script::{Check, Item};

pub(crate) fn documents(g: &mut Gen, schema: &Schema, t: usize) -> Item {
    let table = &schema.tables[t];
    let has = |name: &str| table.columns.iter().find(|c| c.name == name).map(|c| c.ty);
    let mut fields = vec![
        "'id', id".to_string(),
        "'a', a".to_string(),
        "'b', b".to_string(),
    ];
    if has("c").is_some() {
        fields.push("'c', c".into());
    }
    if has("d").is_some() {
        fields.push("'d', d".into());
    }
    let tags = if has("c").is_some() { "c" } else { "b" };
    fields.push(format!("'tags', jsonb_build_array(a, {tags}, null)"));
    let json = g.chance(25);
    let build = if json {
        "json_build_object"
    } else {
        "jsonb_build_object"
    };
    let doc = format!("{build}({})", fields.join(", "));
    let k = g.range(-1, 4);
    let mut exprs = vec![
        "doc->'a'".to_string(),
        "doc->>'b'".to_string(),
        "doc->'tags'->0".to_string(),
        "doc->'tags'->>1".to_string(),
        "doc #> '{tags,1}'".to_string(),
        "doc #>> '{a}'".to_string(),
        "doc::text".to_string(),
        "(doc->>'a')::int + 1".to_string(),
        format!(
            "to_char(a, '{}')",
            g.pick(&["999", "FM00", "S9,999", "9.9", "FM990.00", "MI99"])
        ),
        format!(
            "format('%s-%L', a, {})",
            if has("c").is_some() { "c" } else { "b" }
        ),
    ];
    if !json {
        exprs.extend([
            "doc ? 'c'".to_string(),
            format!("doc @> '{{\"a\": {k}}}'"),
            "doc - 'a'".to_string(),
            "doc || '{\"x\": true}'".to_string(),
            format!("jsonb_set(doc, '{{a}}', '{k}')"),
            "jsonb_set(doc, '{tags,-1}', '\"t\"')".to_string(),
            "jsonb_typeof(doc->'b')".to_string(),
            "jsonb_array_length(doc->'tags')".to_string(),
            "jsonb_strip_nulls(doc)".to_string(),
            "pg_column_size(doc)".to_string(),
        ]);
    } else {
        exprs.push("json_typeof(doc->'b')".to_string());
        exprs.push("doc->'c'".to_string());
    }
    if let Some(Type::Date | Type::Timestamp) = has("d") {
        exprs.push(format!(
            "to_char(d, '{}')",
            g.pick(&[
                "YYYY-MM-DD",
                "FMDay, DD Mon YYYY HH24:MI",
                "IYYY-IW-ID",
                "DDDth Q"
            ])
        ));
    }
    let mut picked: Vec<String> = exprs.iter().filter(|_| g.chance(30)).cloned().collect();
    if picked.is_empty() {
        picked.push(g.pick(&exprs).clone());
    }
    let filter = match g.below(5) {
        0 if !json => format!(" where doc @> '{{\"a\": {k}}}'"),
        1 => format!(" where (doc->>'a')::int > {k}"),
        2 => " where doc->>'c' is not null".to_string(),
        3 if !json => format!(" where doc->'a' = '{k}'"),
        _ => String::new(),
    };
    Item::same(
        format!(
            "select id, {} from (select *, {doc} as doc from {}) s{filter}",
            picked.join(", "),
            table.name
        ),
        Check::Unordered,
    )
}
