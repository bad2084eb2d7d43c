//! A statement's result as psql's aligned format prints it (`print.c`,
//! `print_aligned_text`, border 1): the title centred over the table, the
//! header centred in its column, a line of dashes, the rows, then the footers
//! or `(N rows)`. The CLI prints results with it, and the describe tests
//! compare it with real psql's output byte for byte.
//!
//! Every cell is left-aligned: the outcome carries no column types, and psql
//! right-aligns only numeric columns (none of the describe commands' columns
//! is one).

use super::Outcome;

/// `text` and `fill` spaces after it; `format!("{v:<w$}")` panics for a width
/// over 65 535, which a long text value sets its column to.
fn padded(text: &str, width: usize) -> String {
    let mut s = String::with_capacity(text.len() + width);
    s.push_str(text);
    s.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(text.chars().count()),
    ));
    s
}

/// The outcome's table as psql prints it, each line ending in a newline (the
/// blank line psql prints after a table is the caller's).
pub fn aligned(o: &Outcome) -> String {
    let lines: Vec<Vec<String>> = match &o.explain {
        Some(plan) => plan.iter().map(|l| vec![l.clone()]).collect(),
        // psql prints NULL as nothing (its default `\pset null ''`).
        None => o
            .rows
            .iter()
            .map(|r| r.iter().map(|c| c.clone().unwrap_or_default()).collect())
            .collect(),
    };
    let ncol = o.columns.len();
    let mut widths: Vec<usize> = o.columns.iter().map(|c| c.chars().count()).collect();
    for r in &lines {
        for (i, v) in r.iter().enumerate().take(ncol) {
            let widest = v.split('\n').map(|l| l.chars().count()).max();
            widths[i] = widths[i].max(widest.unwrap_or(0));
        }
    }
    let mut out = String::new();
    if let Some(title) = &o.title {
        // Centred over the table's whole width; as is when it is wider.
        let total = widths.iter().sum::<usize>() + 3 * ncol.max(1) - 1;
        let w = title.chars().count();
        let indent = if w >= total { 0 } else { (total - w) / 2 };
        out.push_str(&" ".repeat(indent));
        out.push_str(title);
        out.push('\n');
    }
    // The header: each name centred in its column, every column padded.
    let header: Vec<String> = o
        .columns
        .iter()
        .zip(&widths)
        .map(|(c, w)| {
            let space = w - c.chars().count();
            format!(
                "{}{c}{}",
                " ".repeat(space / 2),
                " ".repeat(space - space / 2)
            )
        })
        .collect();
    out.push(' ');
    out.push_str(&header.join(" | "));
    out.push_str(" \n");
    let dashes: Vec<String> = widths.iter().map(|w| "-".repeat(w + 2)).collect();
    out.push_str(&dashes.join("+"));
    out.push('\n');
    // The rows: every cell padded to its column but the last, which psql
    // leaves as it is.
    for r in &lines {
        // A value of several lines in a one-column table (EXPLAIN's JSON):
        // psql pads each line but the last and marks it continued with `+`.
        if let ([v], [w]) = (r.as_slice(), widths.as_slice()) {
            if v.contains('\n') {
                let mut parts = v.split('\n').peekable();
                while let Some(part) = parts.next() {
                    out.push(' ');
                    match parts.peek() {
                        Some(_) => {
                            out.push_str(&padded(part, *w));
                            out.push_str("+\n");
                        }
                        None => {
                            out.push_str(part);
                            out.push('\n');
                        }
                    }
                }
                continue;
            }
        }
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (v, w))| {
                if i + 1 < ncol {
                    padded(v, *w)
                } else {
                    v.clone()
                }
            })
            .collect();
        out.push(' ');
        out.push_str(&cells.join(" | "));
        out.push('\n');
    }
    if o.footers.is_empty() {
        if let Some(line) = o.rows_line() {
            out.push_str(&line);
            out.push('\n');
        }
    }
    for f in &o.footers {
        out.push_str(f);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(columns: &[&str], rows: &[&[&str]]) -> Outcome {
        Outcome {
            tag: format!("SELECT {}", rows.len()),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: rows
                .iter()
                .map(|r| r.iter().map(|v| Some(v.to_string())).collect())
                .collect(),
            row_count: rows.len() as u64,
            ..Outcome::default()
        }
    }

    #[test]
    fn a_value_of_several_lines_is_continued_with_plus_marks() {
        // As psql 15 prints `select e'[\n  {\n  }\n]' as "QUERY PLAN"`.
        let o = outcome(&["QUERY PLAN"], &[&["[\n  {\n  }\n]"]]);
        let want = [
            " QUERY PLAN ",
            "------------",
            " [         +",
            "   {       +",
            "   }       +",
            " ]",
            "(1 row)",
            "",
        ];
        assert_eq!(aligned(&o), want.join("\n"));
    }

    #[test]
    fn psql_pads_every_header_and_every_cell_but_the_last() {
        // As psql 15 prints `select 'abcdef' as a, '' as b, 'x' as c`.
        let o = outcome(&["a", "bb", "c"], &[&["abcdef", "", "x"], &["y", "z", ""]]);
        assert_eq!(
            aligned(&o),
            "   a    | bb | c \n\
             --------+----+---\n \
             abcdef |    | x\n \
             y      | z  | \n\
             (2 rows)\n"
        );
    }

    #[test]
    fn the_title_is_centred_and_footers_replace_the_row_count() {
        let mut o = outcome(&["Column", "Type"], &[&["id", "integer"]]);
        o.title = Some("Table \"public.t\"".into());
        o.footers = vec![
            "Indexes:".into(),
            "    \"t_pkey\" PRIMARY KEY, btree (id)".into(),
        ];
        assert_eq!(
            aligned(&o),
            " Table \"public.t\"\n \
             Column |  Type   \n\
             --------+---------\n \
             id     | integer\n\
             Indexes:\n    \"t_pkey\" PRIMARY KEY, btree (id)\n"
        );
        o.footers.clear();
        o.hide_rows_line = true;
        assert!(!aligned(&o).contains("(1 row)"));
        // A title wider than the table starts at the margin.
        o.title = Some("x".repeat(40));
        assert!(aligned(&o).starts_with("xxxx"));
    }
}
