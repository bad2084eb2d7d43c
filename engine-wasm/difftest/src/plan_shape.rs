//! A plan's shape: its nodes' titles in order, without estimates or actual
//! figures (`Bitmap Heap Scan on t`, `Bitmap Index Scan on t_k`). Two
//! EXPLAINs with the same shape chose the same plan: the same node kinds, on
//! the same relations, through the same indexes, in the same order.

/// The node titles of an EXPLAIN's text lines.
pub fn shape(lines: &[String]) -> Vec<String> {
    let mut nodes = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let text = line.trim();
        let title = match text.strip_prefix("->") {
            Some(rest) => rest.trim(),
            None if i == 0 => text,
            None => continue,
        };
        let end = [" (cost=", "  (cost=", " (actual", "  (actual"]
            .iter()
            .filter_map(|m| title.find(m))
            .min()
            .unwrap_or(title.len());
        nodes.push(title[..end].trim().to_string());
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::shape;

    #[test]
    fn estimates_and_actuals_are_left_out() {
        let plan: Vec<String> = [
            "Bitmap Heap Scan on t  (cost=4.67..61.54 rows=50 width=40) (actual time=0.1..0.2 rows=50 loops=1)",
            "  Recheck Cond: (k = 3)",
            "  ->  Bitmap Index Scan on t_k  (cost=0.00..4.66 rows=50 width=0)",
            "        Index Cond: (k = 3)",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            shape(&plan),
            ["Bitmap Heap Scan on t", "Bitmap Index Scan on t_k"]
        );
    }
}
