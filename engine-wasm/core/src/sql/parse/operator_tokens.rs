//! PostgreSQL's lexer rule for operators that end in `+` or `-`
//! (`scan.l`): a multi-character operator cannot end in either unless it
//! also holds one of `~ ! @ # % ^ & | \` ?`, so `doc->>-1` is `->>`
//! applied to `-1`. sqlparser reads `->>-` as one custom operator; this
//! splits it back the way PostgreSQL does.

use sqlparser::tokenizer::{Token, TokenWithSpan};

/// The tokens with each such operator split into the operator and its
/// trailing signs.
pub fn split_trailing_signs(tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    let mut out = Vec::with_capacity(tokens.len());
    for t in tokens {
        let Token::CustomBinaryOperator(op) = &t.token else {
            out.push(t);
            continue;
        };
        let head = op.trim_end_matches(['+', '-']);
        let keeps_signs = op.contains(['~', '!', '@', '#', '%', '^', '&', '|', '`', '?']);
        let Some(head_token) = (!keeps_signs && !head.is_empty())
            .then(|| known(head))
            .flatten()
        else {
            out.push(t);
            continue;
        };
        let span = t.span;
        out.push(TokenWithSpan::new(head_token, span));
        for sign in op[head.len()..].chars() {
            let token = if sign == '-' {
                Token::Minus
            } else {
                Token::Plus
            };
            out.push(TokenWithSpan::new(token, span));
        }
    }
    out
}

fn known(op: &str) -> Option<Token> {
    Some(match op {
        "->" => Token::Arrow,
        "->>" => Token::LongArrow,
        "=" => Token::Eq,
        "<" => Token::Lt,
        ">" => Token::Gt,
        "<=" => Token::LtEq,
        ">=" => Token::GtEq,
        "<>" => Token::Neq,
        "*" => Token::Mul,
        "/" => Token::Div,
        _ => return None,
    })
}
