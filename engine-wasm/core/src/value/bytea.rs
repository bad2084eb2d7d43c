//! `bytea`, PostgreSQL's binary strings: input (`byteain`), and the `encode`
//! / `decode` formats of encode.c (`hex`, `escape`, `base64`).

/// `byteain`: `\x` followed by hex digit pairs (whitespace between pairs
/// allowed), else the escape format.
pub fn parse(text: &str) -> Result<Vec<u8>, String> {
    match text.strip_prefix("\\x") {
        Some(hex) => decode_hex(hex),
        None => decode_escape(text).map_err(|_| "invalid input syntax for type bytea".into()),
    }
}

/// `encode(bytes, format)`.
pub fn encode(bytes: &[u8], format: &str) -> Result<String, String> {
    Ok(match format.to_ascii_lowercase().as_str() {
        "hex" => bytes.iter().map(|b| format!("{b:02x}")).collect(),
        "escape" => encode_escape(bytes),
        "base64" => encode_base64(bytes),
        other => return Err(format!("unrecognized encoding: \"{other}\"")),
    })
}

/// `decode(text, format)`.
pub fn decode(text: &str, format: &str) -> Result<Vec<u8>, String> {
    match format.to_ascii_lowercase().as_str() {
        "hex" => decode_hex(text),
        "escape" => decode_escape(text).map_err(|_| "invalid input syntax for type bytea".into()),
        "base64" => decode_base64(text),
        other => Err(format!("unrecognized encoding: \"{other}\"")),
    }
}

/// hex_decode: pairs of hex digits; whitespace between pairs is skipped.
fn decode_hex(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 2);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, ' ' | '\n' | '\t' | '\r') {
            continue;
        }
        let hi = hex_digit(c)?;
        let lo = match chars.next() {
            Some(d) => hex_digit(d)?,
            None => return Err("invalid hexadecimal data: odd number of digits".into()),
        };
        out.push(hi << 4 | lo);
    }
    Ok(out)
}

fn hex_digit(c: char) -> Result<u8, String> {
    c.to_digit(16)
        .map(|d| d as u8)
        .ok_or_else(|| format!("invalid hexadecimal digit: \"{c}\""))
}

/// esc_enc: NUL and bytes with the high bit set as `\ooo`, a backslash
/// doubled, any other byte as itself.
fn encode_escape(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        if b == 0 || b >= 0x80 {
            s.push_str(&format!("\\{b:03o}"));
        } else if b == b'\\' {
            s.push_str("\\\\");
        } else {
            s.push(b as char);
        }
    }
    s
}

/// esc_dec: `\\` is a backslash, `\ooo` an octal byte, anything else itself.
fn decode_escape(text: &str) -> Result<Vec<u8>, ()> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
        } else if bytes.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else {
            let octal = bytes.get(i + 1..i + 4).ok_or(())?;
            let ok = octal[0].is_ascii_digit()
                && (b'0'..=b'3').contains(&octal[0])
                && octal[1..].iter().all(|d| (b'0'..=b'7').contains(d));
            if !ok {
                return Err(());
            }
            out.push(octal.iter().fold(0u8, |n, d| n * 8 + (d - b'0')));
            i += 4;
        }
    }
    Ok(out)
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// pg_base64_encode: 76 characters per line.
fn encode_base64(bytes: &[u8]) -> String {
    let mut s = String::new();
    let mut line = 0;
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| n << 8 | u32::from(*b)) << (8 * (3 - chunk.len()));
        for k in 0..4 {
            s.push(if k <= chunk.len() {
                BASE64[(n >> (18 - 6 * k) & 63) as usize] as char
            } else {
                '='
            });
        }
        line += 4;
        if line >= 76 {
            s.push('\n');
            line = 0;
        }
    }
    if s.ends_with('\n') {
        s.pop();
    }
    s
}

fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let (mut buf, mut bits, mut ended) = (0u32, 0, false);
    for c in text.chars() {
        if c.is_ascii_whitespace() {
            continue;
        }
        if c == '=' {
            ended = true;
            continue;
        }
        let Some(v) = BASE64.iter().position(|&b| b as char == c) else {
            return Err(format!(
                "invalid symbol \"{c}\" found while decoding base64 sequence"
            ));
        };
        if ended {
            return Err("unexpected \"=\" while decoding base64 sequence".into());
        }
        buf = buf << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_escape_round_trip_as_postgres_prints_them() {
        let bytes = decode("13 61 40 65 78", "hex").unwrap();
        assert_eq!(bytes, b"\x13a@ex");
        assert_eq!(encode(&bytes, "escape").unwrap(), "\x13a@ex");
        assert_eq!(
            encode(&[0, 200, b'\\'], "escape").unwrap(),
            "\\000\\310\\\\"
        );
        assert_eq!(
            decode("\\000\\310\\\\", "escape").unwrap(),
            vec![0, 200, b'\\']
        );
        assert!(decode("abc", "hex").unwrap_err().contains("odd number"));
        assert!(decode("zz", "hex")
            .unwrap_err()
            .contains("invalid hexadecimal digit"));
        assert_eq!(encode(b"hello", "base64").unwrap(), "aGVsbG8=");
        assert_eq!(decode("aGVsbG8=", "base64").unwrap(), b"hello");
        assert_eq!(parse("\\x0102").unwrap(), vec![1, 2]);
    }
}
