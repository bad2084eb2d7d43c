//! Refusing statements nested or chained too deeply, before any tree is built.
//!
//! Every pass over an expression tree recurses: converting sqlparser's tree,
//! binding, evaluating, deparsing for EXPLAIN, even dropping it. `a AND b AND …`
//! parses without recursion into a left-deep tree as deep as the chain, so a
//! 100 000-term chain overflowed the stack in the first pass (natively; the
//! page's wasm has only about 1 MiB of stack). PostgreSQL has a stack depth
//! limit for the same reason; ours is a bound on the tree's depth read from the
//! tokens, so nothing deep is ever built.

use super::super::error::{ErrorKind, Position, SqlError};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan};

/// The deepest expression a statement may hold, in operators, keywords and
/// parentheses (see [`check_depth`]). A tree this deep runs within a 1 MiB
/// stack even unoptimized (`depth_at_the_limit_fits_in_a_small_stack` in
/// `core/tests/limits.rs`), and no teaching script comes near it.
pub const MAX_EXPRESSION_DEPTH: usize = 1000;

/// sqlparser's own bound on its recursion (nested parentheses, subqueries),
/// its default, set explicitly so the message can name it.
pub const PARSER_RECURSION_LIMIT: usize = 50;

/// Checks that no expression in `tokens` can be deeper than
/// [`MAX_EXPRESSION_DEPTH`]; returns where the parentheses nest deepest (for
/// the parser's own limit's message).
///
/// The bound: every token that can make a tree node above its operands (an
/// operator, a keyword, `::`, an opening parenthesis) adds one level, and a
/// comma ends a list item, taking back the levels its item added. So
/// `a AND b AND c` counts 2 and a 10 000-value `IN (…)` list counts 1: a
/// chain costs its length, a list does not. It overcounts (`a = 1 AND b = 2`
/// counts 3 for a tree 2 deep), and undercounts only by the few keywords
/// before a statement's first list (`SELECT`), far inside the limit's margin.
pub fn check_depth(tokens: &[TokenWithSpan]) -> Result<Location, SqlError> {
    // Levels added in the current list item, per open parenthesis (the first
    // entry is the statement itself).
    let mut items: Vec<usize> = vec![0];
    let mut depth = 0usize;
    let mut deepest = (0, Location { line: 1, column: 1 });
    for t in tokens {
        match &t.token {
            Token::Whitespace(_) => continue,
            Token::LParen | Token::LBracket => {
                items.push(0);
                depth += 1;
            }
            Token::RParen | Token::RBracket => {
                if items.len() > 1 {
                    depth -= items.pop().unwrap_or(0) + 1;
                }
            }
            Token::Comma | Token::SemiColon => {
                let item = items.last_mut().expect("the statement level");
                depth -= *item;
                *item = 0;
            }
            token if is_operand(token) => {}
            _ => {
                *items.last_mut().expect("the statement level") += 1;
                depth += 1;
            }
        }
        if depth > MAX_EXPRESSION_DEPTH {
            return Err(too_deep(t.span.start));
        }
        if items.len() > deepest.0 {
            deepest = (items.len(), t.span.start);
        }
    }
    Ok(deepest.1)
}

/// A name or a literal: a leaf of the tree, adding no level.
fn is_operand(token: &Token) -> bool {
    match token {
        Token::Word(w) => w.keyword == Keyword::NoKeyword,
        Token::Number(..)
        | Token::Char(_)
        | Token::SingleQuotedString(_)
        | Token::DoubleQuotedString(_)
        | Token::DollarQuotedString(_)
        | Token::NationalStringLiteral(_)
        | Token::EscapedStringLiteral(_)
        | Token::UnicodeStringLiteral(_)
        | Token::HexStringLiteral(_)
        | Token::Placeholder(_) => true,
        _ => false,
    }
}

fn position(at: Location) -> Position {
    let clamp = |n: u64| u32::try_from(n.max(1)).unwrap_or(u32::MAX);
    Position::new(clamp(at.line), clamp(at.column))
}

fn too_deep(at: Location) -> SqlError {
    SqlError::new(
        ErrorKind::Limit,
        format!(
            "expression too complex: more than {MAX_EXPRESSION_DEPTH} nested or chained \
             operators (IndexLab's stack depth limit)"
        ),
    )
    .with_hint("split the statement, or write a long chain of OR as IN (…)")
    .at(position(at))
}

/// The error for sqlparser's own recursion limit, placed where the
/// parentheses nest deepest (sqlparser does not say where it stopped).
pub fn nested_too_deeply(deepest: Location) -> SqlError {
    SqlError::new(
        ErrorKind::Limit,
        format!(
            "statement nested too deeply: the parser allows {PARSER_RECURSION_LIMIT} levels \
             of parentheses and subqueries"
        ),
    )
    .at(position(deepest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::tokenizer::Tokenizer;

    fn check(sql: &str) -> Result<Location, SqlError> {
        let tokens = Tokenizer::new(&PostgreSqlDialect {}, sql)
            .tokenize_with_location()
            .unwrap();
        check_depth(&tokens)
    }

    fn chain(terms: usize, op: &str) -> String {
        vec!["x"; terms].join(op)
    }

    #[test]
    fn a_long_chain_is_refused_where_it_crosses_the_limit() {
        let sql = format!("select 1 where {}", chain(100_000, " AND "));
        let e = check(&sql).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert!(e.message.contains("more than 1000"), "{}", e.message);
        // "select" and "where" count 2, then each AND one: the 999th AND
        // crosses. Its column: after "select 1 where " (15 characters) and 998
        // times "x AND ", the A after the next "x ".
        assert_eq!(e.at, Some(Position::new(1, 16 + 998 * 6 + 2)));
    }

    #[test]
    fn lists_do_not_add_up() {
        let values: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
        check(&format!("select 1 where x in ({})", values.join(", "))).unwrap();
        let rows = vec!["(1, 'a' || 'b', -2)"; 20_000].join(", ");
        check(&format!("insert into t values {rows}")).unwrap();
    }

    #[test]
    fn parentheses_and_chains_inside_them_add_up() {
        let nested = |n| format!("select {}1{}", "(".repeat(n), ")".repeat(n));
        assert!(check(&nested(1000)).is_err(), "select + 1000 parentheses");
        check(&nested(999)).unwrap();
        let inner = format!("select ({})", chain(600, " + "));
        assert!(check(&format!("{inner} + ({})", chain(600, " * "))).is_ok());
        assert!(check(&format!(
            "select ({} + ({}))",
            chain(600, " + "),
            chain(600, " * ")
        ))
        .is_err());
    }

    #[test]
    fn the_deepest_parenthesis_is_found() {
        let at = check("select (1,\n  ((2)), 3)").unwrap();
        assert_eq!((at.line, at.column), (2, 4));
    }
}
