//! `to_char(number, template)`: PostgreSQL's `NUM_processor` for output,
//! followed step by step. The template's `9` and `0` are digit positions
//! (`0` keeps leading zeros from where it stands), `.`/`D` the decimal
//! point, `,`/`G` a group separator shown once digits have started, `FM`
//! drops padding and trailing zeros, `S`, `MI`, `PL` and `SG` place the
//! sign, `TH` adds an ordinal suffix. A number with more integer digits than
//! the template has positions prints as `#`s. Roman numerals (`RN`),
//! scientific notation (`EEEE`), `V`, `PR` and `L` are refused by name.

use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::value::Value;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Key {
    Nine,
    Zero,
    Dec,
    Comma,
    Th { upper: bool },
    Mi,
    Pl,
    Sg,
}

#[derive(Debug)]
enum Node {
    Action(Key),
    Char(char),
}

#[derive(Clone, Copy, PartialEq)]
enum LSign {
    None,
    Pre,
    Post,
}

/// What the template asks for (`NUMDesc`).
struct Desc {
    pre: usize,
    post: usize,
    decimal: bool,
    zero: bool,
    zero_start: usize,
    zero_end: usize,
    fill_mode: bool,
    lsign: LSign,
    pre_lsign_num: usize,
    minus: bool,
    plus: bool,
}

fn error(message: String) -> SqlError {
    SqlError::new(ErrorKind::Semantic, message)
}

/// The template parsed into actions and literal characters, and its
/// description (`NUMDesc_prepare`).
fn parse(format: &str) -> Result<(Vec<Node>, Desc), SqlError> {
    let mut d = Desc {
        pre: 0,
        post: 0,
        decimal: false,
        zero: false,
        zero_start: 0,
        zero_end: 0,
        fill_mode: false,
        lsign: LSign::None,
        pre_lsign_num: 0,
        minus: false,
        plus: false,
    };
    let mut nodes = Vec::new();
    let mut rest = format;
    while let Some(c) = rest.chars().next() {
        if c == '"' {
            rest = quoted(&rest[1..], &mut nodes);
            continue;
        }
        let upper = rest.to_ascii_uppercase();
        let word = |w: &str| upper.starts_with(w);
        for refused in ["RN", "EEEE", "PR", "SP", "V", "L", "B", "C"] {
            if word(refused) {
                return Err(unsupported(format!(
                    "the to_char() number template pattern {refused}"
                )));
            }
        }
        let (key, len) = if word("FM") {
            d.fill_mode = true;
            rest = &rest[2..];
            continue;
        } else if word("TH") {
            (
                Key::Th {
                    upper: rest.starts_with("TH"),
                },
                2,
            )
        } else if word("MI") {
            (Key::Mi, 2)
        } else if word("PL") {
            (Key::Pl, 2)
        } else if word("SG") {
            (Key::Sg, 2)
        } else if word("S") {
            if d.lsign != LSign::None {
                return Err(error("cannot use \"S\" twice".into()));
            }
            if d.plus || d.minus {
                return Err(error(
                    "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together".into(),
                ));
            }
            if d.decimal {
                d.lsign = LSign::Post;
            } else {
                d.lsign = LSign::Pre;
                d.pre_lsign_num = d.pre;
            }
            rest = &rest[1..];
            continue;
        } else if word("D") || c == '.' {
            (Key::Dec, 1)
        } else if word("G") || c == ',' {
            (Key::Comma, 1)
        } else if c == '9' {
            (Key::Nine, 1)
        } else if c == '0' {
            (Key::Zero, 1)
        } else {
            nodes.push(Node::Char(c));
            rest = &rest[c.len_utf8()..];
            continue;
        };
        describe(&mut d, key)?;
        nodes.push(Node::Action(key));
        rest = &rest[len..];
    }
    Ok((nodes, d))
}

/// A double-quoted piece of the template, copied without its quotes (a
/// backslash keeps the next character); returns what follows it.
fn quoted<'a>(rest: &'a str, nodes: &mut Vec<Node>) -> &'a str {
    let mut escaped = false;
    for (i, c) in rest.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return &rest[i + 1..],
            c => {
                nodes.push(Node::Char(c));
                escaped = false;
            }
        }
    }
    ""
}

fn describe(d: &mut Desc, key: Key) -> Result<(), SqlError> {
    match key {
        Key::Nine if d.decimal => d.post += 1,
        Key::Nine => d.pre += 1,
        Key::Zero => {
            if !d.zero && !d.decimal {
                d.zero = true;
                d.zero_start = d.pre + 1;
            }
            if d.decimal {
                d.post += 1;
            } else {
                d.pre += 1;
            }
            d.zero_end = d.pre + d.post;
        }
        Key::Dec if d.decimal => return Err(error("multiple decimal points".into())),
        Key::Dec => d.decimal = true,
        Key::Mi | Key::Pl | Key::Sg if d.lsign != LSign::None => {
            return Err(error(
                "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together".into(),
            ))
        }
        Key::Mi => d.minus = true,
        Key::Pl => d.plus = true,
        Key::Sg => {
            d.minus = true;
            d.plus = true;
        }
        Key::Comma | Key::Th { .. } => {}
    }
    Ok(())
}

/// The number's digits as the template will place them, its sign, and how
/// many positions before its first digit stay blank.
fn digits(value: &Value, d: &mut Desc) -> Result<(String, char, usize), SqlError> {
    let text = match value {
        Value::Int(i) => {
            let mut s = i.to_string();
            if d.post > 0 {
                s.push('.');
                s.push_str(&"0".repeat(d.post));
            }
            s
        }
        Value::Numeric(n) => n
            .round(d.post as i32)
            .map_err(crate::sql::numeric::numeric_error)?
            .to_string(),
        Value::Float(_) | Value::Real(_) => {
            let f = match value {
                Value::Float(f) => *f,
                Value::Real(r) => f64::from(*r),
                _ => 0.0,
            };
            if !f.is_finite() {
                return Err(unsupported("to_char() of NaN or Infinity"));
            }
            // float8_to_char: no more than DBL_DIG (15) significant digits
            // (FLT_DIG, 6, for a real).
            let max_digits = if matches!(value, Value::Real(_)) {
                6
            } else {
                15
            };
            let int_len = format!("{:.0}", f.abs()).len();
            if int_len >= max_digits {
                d.post = 0;
            } else if int_len + d.post > max_digits {
                d.post = max_digits - int_len;
            }
            format!("{:.*}", d.post, f)
        }
        _ => return Err(unsupported("to_char() of this value")),
    };
    let (sign, body) = match text.strip_prefix('-') {
        Some(b) => ('-', b.to_string()),
        None => ('+', text),
    };
    let pre_len = body.find('.').unwrap_or(body.len());
    if pre_len < d.pre {
        return Ok((body, sign, d.pre - pre_len));
    }
    if pre_len > d.pre {
        let mut hashes = "#".repeat(d.pre + d.post + 1);
        hashes.replace_range(d.pre..=d.pre, ".");
        return Ok((hashes, sign, 0));
    }
    Ok((body, sign, 0))
}

/// `to_char(number, template)`.
pub fn format(value: &Value, template: &str) -> Result<String, SqlError> {
    if template.is_empty() {
        return Ok(String::new());
    }
    let (nodes, mut d) = parse(template)?;
    let (number, sign, out_pre_spaces) = digits(value, &mut d)?;
    let mut p = Processor::new(&d, number.into_bytes(), sign, out_pre_spaces);
    for node in &nodes {
        match node {
            Node::Char(c) => p.out.push(*c),
            Node::Action(key) => p.action(*key),
        }
    }
    Ok(p.out)
}

/// `NUMProc`: the state of writing one number.
struct Processor<'a> {
    d: &'a Desc,
    number: Vec<u8>,
    /// Next digit of `number` to write (`number_p`).
    at: usize,
    sign: char,
    sign_wrote: bool,
    out_pre_spaces: usize,
    num_count: i64,
    num_curr: usize,
    /// A digit has been written (a group separator shows from then on).
    num_in: bool,
    lsign: LSign,
    /// Index in `number` of its last digit worth writing in fill mode.
    last_relevant: Option<usize>,
    out: String,
}

impl<'a> Processor<'a> {
    fn new(d: &'a Desc, number: Vec<u8>, sign: char, out_pre_spaces: usize) -> Processor<'a> {
        let mut lsign = d.lsign;
        let sign_wrote = if d.plus || d.minus {
            // MI/PL/SG write the sign themselves (PL alone still wants it written).
            !d.plus || d.minus
        } else {
            if lsign == LSign::Pre && d.pre == d.pre_lsign_num {
                lsign = LSign::Post;
            }
            sign == '+' && d.fill_mode && lsign == LSign::None
        };
        let mut last_relevant = None;
        if d.fill_mode && d.decimal {
            last_relevant = last_relevant_decimal(&number);
            if let Some(lr) = last_relevant {
                if d.zero_end > out_pre_spaces {
                    let last_zero = (number.len() - 1).min(d.zero_end - out_pre_spaces);
                    if lr < last_zero {
                        last_relevant = Some(last_zero);
                    }
                }
            }
        }
        let mut num_count = (d.post + d.pre) as i64 - 1;
        if !sign_wrote && out_pre_spaces == 0 {
            num_count += 1;
        }
        Processor {
            d,
            number,
            at: 0,
            sign,
            sign_wrote,
            out_pre_spaces,
            num_count,
            num_curr: 0,
            num_in: false,
            lsign,
            last_relevant,
            out: String::new(),
        }
    }

    fn current(&self) -> u8 {
        self.number.get(self.at).copied().unwrap_or(0)
    }

    fn last_relevant_is_point(&self) -> bool {
        self.last_relevant
            .is_some_and(|i| self.number.get(i) == Some(&b'.'))
    }

    /// "0.1" under "9.9" is " .1": a leading zero before the point is a blank.
    fn predecimal_space(&self) -> bool {
        !self.d.zero && self.at == 0 && self.number.first() == Some(&b'0') && self.d.post != 0
    }

    fn action(&mut self, key: Key) {
        let fm = self.d.fill_mode;
        match key {
            Key::Nine | Key::Zero | Key::Dec => self.numpart(key),
            Key::Comma if !self.num_in && fm => {}
            Key::Comma if !self.num_in => self.out.push(' '),
            Key::Comma => self.out.push(','),
            Key::Th { upper } => {
                if self.number.first() == Some(&b'#') || self.sign == '-' || self.d.decimal {
                    return;
                }
                let digits = String::from_utf8_lossy(&self.number).to_string();
                let n: i64 = digits.trim().parse().unwrap_or(0);
                self.out.push_str(&super::ordinal(n, upper));
            }
            Key::Mi if self.sign == '-' => self.out.push('-'),
            Key::Pl if self.sign == '+' => self.out.push('+'),
            Key::Mi | Key::Pl if fm => {}
            Key::Mi | Key::Pl => self.out.push(' '),
            Key::Sg => self.out.push(self.sign),
        }
    }

    /// `NUM_numpart_to_char`: a digit position or the decimal point.
    fn numpart(&mut self, key: Key) {
        let d = self.d;
        let fm = d.fill_mode;
        if !self.sign_wrote
            && (self.num_curr >= self.out_pre_spaces
                || (d.zero && d.zero_start.saturating_sub(1) == self.num_curr))
            && (!self.predecimal_space() || self.last_relevant_is_point())
        {
            if self.lsign == LSign::Pre {
                self.out.push(self.sign);
                self.sign_wrote = true;
            } else if self.lsign == LSign::None {
                if self.sign == '-' {
                    self.out.push('-');
                } else if !fm {
                    self.out.push(' ');
                }
                self.sign_wrote = true;
            }
        }
        let zero_start = d.zero_start.saturating_sub(1);
        if self.num_curr < self.out_pre_spaces && (zero_start > self.num_curr || !d.zero) {
            if !fm {
                self.out.push(' ');
            }
        } else if d.zero && self.num_curr < self.out_pre_spaces && zero_start <= self.num_curr {
            self.out.push('0');
            self.num_in = true;
        } else {
            if self.current() == b'.' {
                if !self.last_relevant_is_point() || fm {
                    self.out.push('.');
                }
            } else if self.last_relevant.is_some_and(|lr| self.at > lr) && key != Key::Zero {
                // A trailing zero fill mode leaves out.
            } else if self.predecimal_space() {
                if !fm {
                    self.out.push(' ');
                } else if self.last_relevant_is_point() {
                    self.out.push('0');
                }
            } else if self.current() != 0 {
                self.out.push(self.current() as char);
                self.num_in = true;
            }
            if self.at < self.number.len() {
                self.at += 1;
            }
        }
        let mut end = self.num_count + i64::from(self.out_pre_spaces > 0) + i64::from(d.decimal);
        if self.last_relevant.is_some_and(|lr| lr == self.at) {
            end = self.num_curr as i64;
        }
        if self.num_curr as i64 + 1 == end && self.lsign == LSign::Post {
            self.out.push(self.sign);
        }
        self.num_curr += 1;
    }
}

/// `get_last_relevant_decnum`: the last nonzero digit after the point, or
/// the point itself when all after it are zeros.
fn last_relevant_decimal(number: &[u8]) -> Option<usize> {
    let point = number.iter().position(|&b| b == b'.')?;
    let mut result = point;
    for (i, &b) in number.iter().enumerate().skip(point + 1) {
        if b != b'0' {
            result = i;
        }
    }
    Some(result)
}
