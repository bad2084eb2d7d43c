//! The name PostgreSQL gives an index nobody named (`ChooseRelationName`).

/// `<table>_<col>_<col>…_<suffix>` (`t_a_idx`, `t_a_key`), with 1, 2, …
/// appended when that name is taken (`t_a_idx1`), as PostgreSQL does.
pub fn choose_relation_name(
    table: &str,
    columns: &[String],
    suffix: &str,
    taken: impl Fn(&str) -> bool,
) -> String {
    let base = format!("{table}_{}_{suffix}", columns.join("_"));
    if !taken(&base) {
        return base;
    }
    (1..)
        .map(|n| format!("{base}{n}"))
        .find(|n| !taken(n))
        .expect("some number is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_gets_the_next_number() {
        let taken = ["t_a_idx".to_string(), "t_a_idx1".to_string()];
        let is_taken = |n: &str| taken.iter().any(|t| t == n);
        assert_eq!(
            choose_relation_name("t", &["a".into()], "idx", is_taken),
            "t_a_idx2"
        );
        assert_eq!(
            choose_relation_name("t", &["a".into(), "b".into()], "key", is_taken),
            "t_a_b_key"
        );
    }
}
