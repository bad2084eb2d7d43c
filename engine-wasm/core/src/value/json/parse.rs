//! PostgreSQL's JSON grammar (`common/jsonapi.c`): RFC 8259 with any value
//! at the top, and its error details word for word. The tree keeps each
//! value's byte span, so a `json` operator can hand back the text as it was
//! written (`'{"a": [1,  2]}'::json -> 'a'` is `[1,  2]`, spaces and all).

/// Deeper nesting is refused rather than risking the stack of the page.
pub const MAX_DEPTH: usize = 1000;

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Byte range of the value in the parsed text.
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    Null,
    Bool(bool),
    /// The number as written (json keeps it so; jsonb reads it as numeric).
    Number(String),
    /// The string with its escapes resolved.
    String(String),
    Array(Vec<Node>),
    /// Pairs as written: in order, duplicates kept.
    Object(Vec<(String, Node)>),
}

/// Why a text is not JSON, as `json_errdetail` words it.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonError {
    /// The DETAIL of "invalid input syntax for type json".
    Syntax(String),
    /// `\u0000` read into a jsonb (or into text by `->>`).
    NulInText,
    /// A number past what IndexLab's numeric holds.
    NumberOutOfRange(String),
    TooDeep,
}

impl JsonError {
    pub fn detail(&self) -> String {
        match self {
            JsonError::Syntax(d) => d.clone(),
            JsonError::NulInText => "\\u0000 cannot be converted to text.".to_string(),
            JsonError::NumberOutOfRange(n) => format!("The number {n} is out of range."),
            JsonError::TooDeep => format!("JSON nested deeper than {MAX_DEPTH} levels"),
        }
    }
}

/// Parses a whole text as one JSON value.
pub fn parse(text: &str) -> Result<Node, JsonError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        pos: 0,
        depth: 0,
    };
    let node = p.value(Expect::Json)?;
    p.skip_space();
    match p.token()? {
        None => Ok(node),
        Some(t) => Err(found(Expect::End, &t.text)),
    }
}

/// What the parser wanted where it failed, for the error's wording.
#[derive(Clone, Copy)]
enum Expect {
    Json,
    ArrayFirst,
    ArrayNext,
    ObjectFirst,
    ObjectNext,
    Colon,
    Key,
    End,
}

fn found(expect: Expect, token: &str) -> JsonError {
    let wanted = match expect {
        Expect::Json => "JSON value",
        Expect::ArrayFirst => "array element or \"]\"",
        Expect::ArrayNext => "\",\" or \"]\"",
        Expect::ObjectFirst => "string or \"}\"",
        Expect::ObjectNext => "\",\" or \"}\"",
        Expect::Colon => "\":\"",
        Expect::Key => "string",
        Expect::End => "end of input",
    };
    JsonError::Syntax(format!("Expected {wanted}, but found \"{token}\"."))
}

fn ended() -> JsonError {
    JsonError::Syntax("The input string ended unexpectedly.".to_string())
}

#[derive(Debug, PartialEq)]
enum Kind {
    Punct(u8),
    String(String),
    Number,
    True,
    False,
    Null,
}

struct Token {
    kind: Kind,
    text: String,
    start: usize,
    end: usize,
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    depth: usize,
}

/// Letters, digits, `_`, `$` and any non-ASCII byte: what PostgreSQL's lexer
/// takes as one (possibly invalid) word.
fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while matches!(self.s.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// The next token, `None` at the end of the text.
    fn token(&mut self) -> Result<Option<Token>, JsonError> {
        self.skip_space();
        let start = self.pos;
        let Some(&b) = self.s.get(start) else {
            return Ok(None);
        };
        let kind = match b {
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                self.pos += 1;
                Kind::Punct(b)
            }
            b'"' => Kind::String(self.string()?),
            b'-' | b'0'..=b'9' => self.number()?,
            _ => {
                let end = self.word_end(start);
                let end = if end == start {
                    start + char_len(b)
                } else {
                    end
                };
                self.pos = end;
                match &self.text[start..end] {
                    "true" => Kind::True,
                    "false" => Kind::False,
                    "null" => Kind::Null,
                    other => return Err(invalid_token(other)),
                }
            }
        };
        Ok(Some(Token {
            kind,
            text: self.text[start..self.pos].to_string(),
            start,
            end: self.pos,
        }))
    }

    fn word_end(&self, mut i: usize) -> usize {
        while self.s.get(i).is_some_and(|&b| word_byte(b)) {
            i += 1;
        }
        i
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and no word
    /// characters straight after it.
    fn number(&mut self) -> Result<Kind, JsonError> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while p.s.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
            p.pos - from
        };
        let mut ok = true;
        if self.s.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match self.s.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => ok = false,
        }
        if ok && self.s.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            ok = digits(self) > 0;
        }
        if ok && matches!(self.s.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.s.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            ok = digits(self) > 0;
        }
        let end = self.word_end(self.pos);
        if !ok || end != self.pos {
            let end = end.max(self.pos).max(start + 1);
            return Err(invalid_token(&self.text[start..end.min(self.s.len())]));
        }
        Ok(Kind::Number)
    }

    /// A string literal at `self.pos` (on its quote), escapes resolved.
    fn string(&mut self) -> Result<String, JsonError> {
        let mut out = String::new();
        let start = self.pos;
        self.pos += 1;
        loop {
            let Some(&b) = self.s.get(self.pos) else {
                return Err(invalid_token(&self.text[start..]));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' => self.escape(&mut out)?,
                b if b < 0x20 => {
                    return Err(JsonError::Syntax(format!(
                        "Character with value 0x{b:02x} must be escaped."
                    )))
                }
                _ => {
                    let len = char_len(b);
                    out.push_str(&self.text[self.pos..self.pos + len]);
                    self.pos += len;
                }
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let Some(&c) = self.s.get(self.pos + 1) else {
            return Err(ended());
        };
        self.pos += 2;
        let ch = match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode(out),
            _ => {
                let len = char_len(c);
                let seq = &self.text[self.pos - 1..(self.pos - 1 + len).min(self.s.len())];
                return Err(JsonError::Syntax(format!(
                    "Escape sequence \"\\{seq}\" is invalid."
                )));
            }
        };
        out.push(ch);
        Ok(())
    }

    /// `\uXXXX`, a surrogate pair taking two of them.
    fn unicode(&mut self, out: &mut String) -> Result<(), JsonError> {
        let unit = self.hex4()?;
        let code = match unit {
            0xD800..=0xDBFF => {
                let low = (self.s.get(self.pos) == Some(&b'\\')
                    && self.s.get(self.pos + 1) == Some(&b'u'))
                .then(|| {
                    self.pos += 2;
                    self.hex4()
                })
                .transpose()?;
                match low {
                    Some(l @ 0xDC00..=0xDFFF) => 0x10000 + ((unit - 0xD800) << 10) + (l - 0xDC00),
                    Some(0xD800..=0xDBFF) => {
                        return Err(JsonError::Syntax(
                            "Unicode high surrogate must not follow a high surrogate.".into(),
                        ))
                    }
                    _ => {
                        return Err(JsonError::Syntax(
                            "Unicode low surrogate must follow a high surrogate.".into(),
                        ))
                    }
                }
            }
            0xDC00..=0xDFFF => {
                return Err(JsonError::Syntax(
                    "Unicode low surrogate must follow a high surrogate.".into(),
                ))
            }
            u => u,
        };
        out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let hex = self
            .s
            .get(self.pos..self.pos + 4)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit));
        let Some(hex) = hex else {
            return Err(JsonError::Syntax(
                "\"\\u\" must be followed by four hexadecimal digits.".into(),
            ));
        };
        let v = u32::from_str_radix(std::str::from_utf8(hex).unwrap_or("0"), 16).unwrap_or(0);
        self.pos += 4;
        Ok(v)
    }

    fn value(&mut self, expect: Expect) -> Result<Node, JsonError> {
        let t = self.token()?.ok_or_else(ended)?;
        self.value_from(t, expect)
    }

    fn value_from(&mut self, t: Token, expect: Expect) -> Result<Node, JsonError> {
        let kind = match t.kind {
            Kind::Null => NodeKind::Null,
            Kind::True => NodeKind::Bool(true),
            Kind::False => NodeKind::Bool(false),
            Kind::Number => NodeKind::Number(t.text),
            Kind::String(s) => NodeKind::String(s),
            Kind::Punct(b'[') => return self.nested(t.start, Self::array),
            Kind::Punct(b'{') => return self.nested(t.start, Self::object),
            Kind::Punct(_) => return Err(found(expect, &t.text)),
        };
        Ok(Node {
            kind,
            start: t.start,
            end: t.end,
        })
    }

    fn nested(
        &mut self,
        start: usize,
        body: fn(&mut Self) -> Result<NodeKind, JsonError>,
    ) -> Result<Node, JsonError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(JsonError::TooDeep);
        }
        let kind = body(self)?;
        self.depth -= 1;
        Ok(Node {
            kind,
            start,
            end: self.pos,
        })
    }

    fn array(&mut self) -> Result<NodeKind, JsonError> {
        let mut items = Vec::new();
        let t = self.token()?.ok_or_else(ended)?;
        if t.kind == Kind::Punct(b']') {
            return Ok(NodeKind::Array(items));
        }
        items.push(self.value_from(t, Expect::ArrayFirst)?);
        loop {
            let t = self.token()?.ok_or_else(ended)?;
            match t.kind {
                Kind::Punct(b']') => return Ok(NodeKind::Array(items)),
                Kind::Punct(b',') => items.push(self.value(Expect::Json)?),
                _ => return Err(found(Expect::ArrayNext, &t.text)),
            }
        }
    }

    fn object(&mut self) -> Result<NodeKind, JsonError> {
        let mut pairs = Vec::new();
        let mut expect = Expect::ObjectFirst;
        loop {
            let t = self.token()?.ok_or_else(ended)?;
            let key = match t.kind {
                Kind::Punct(b'}') if matches!(expect, Expect::ObjectFirst) => {
                    return Ok(NodeKind::Object(pairs))
                }
                Kind::String(k) => k,
                _ => return Err(found(expect, &t.text)),
            };
            let colon = self.token()?.ok_or_else(ended)?;
            if colon.kind != Kind::Punct(b':') {
                return Err(found(Expect::Colon, &colon.text));
            }
            pairs.push((key, self.value(Expect::Json)?));
            let t = self.token()?.ok_or_else(ended)?;
            match t.kind {
                Kind::Punct(b'}') => return Ok(NodeKind::Object(pairs)),
                Kind::Punct(b',') => expect = Expect::Key,
                _ => return Err(found(Expect::ObjectNext, &t.text)),
            }
        }
    }
}

fn invalid_token(t: &str) -> JsonError {
    JsonError::Syntax(format!("Token \"{t}\" is invalid."))
}

/// Bytes of the UTF-8 character starting with `b`.
fn char_len(b: u8) -> usize {
    match b {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}
