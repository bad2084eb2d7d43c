//! A script file is UTF-8 text, as PostgreSQL's UTF8 client encoding expects.
//!
//! The engine works on `&str`; a file read from disk may hold any bytes (a
//! Latin-1 file, a truncated download). Rather than refusing it with no place
//! to look, the reader names the first bad byte's line and column, with
//! PostgreSQL's own message.

use super::ScriptError;
use crate::sql::error::Position;

/// `bytes` as text, or where and why they are not UTF-8.
pub fn decode_script(bytes: &[u8]) -> Result<&str, ScriptError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = e.valid_up_to();
        // The bytes PostgreSQL would name: the broken sequence (at most the 4
        // bytes of a character), or whatever is left when the text ends inside one.
        let len = e.error_len().unwrap_or(bytes.len() - valid).min(4);
        let shown: Vec<String> = bytes[valid..valid + len]
            .iter()
            .map(|b| format!("0x{b:02x}"))
            .collect();
        // Everything before `valid` is UTF-8, so the position counts characters.
        let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let at = Position::START.advance(prefix, valid);
        ScriptError {
            message: format!(
                "invalid byte sequence for encoding \"UTF8\": {}",
                shown.join(" ")
            ),
            line: at.line,
            column: at.column,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_text_passes_through() {
        assert_eq!(decode_script("select 'é';".as_bytes()), Ok("select 'é';"));
    }

    #[test]
    fn the_first_bad_byte_is_named_by_line_and_character_column() {
        let e = decode_script(b"select 1;\nselect '\xc3\xa9\xff';").unwrap_err();
        assert_eq!(
            e.message,
            "invalid byte sequence for encoding \"UTF8\": 0xff"
        );
        // "select 'é" is 9 characters (10 bytes): the bad byte is column 10.
        assert_eq!((e.line, e.column), (2, 10));
    }

    #[test]
    fn a_character_cut_at_the_end_names_its_bytes() {
        let e = decode_script(b"select '\xe2\x82").unwrap_err();
        assert_eq!(
            e.message,
            "invalid byte sequence for encoding \"UTF8\": 0xe2 0x82"
        );
        assert_eq!((e.line, e.column), (1, 9));
    }

    #[test]
    fn a_latin1_byte_inside_a_word() {
        // "café" written in Latin-1: 0xe9 then a space is not a UTF-8 sequence.
        let e = decode_script(b"-- caf\xe9 au lait\nselect 1;").unwrap_err();
        assert_eq!(
            e.message,
            "invalid byte sequence for encoding \"UTF8\": 0xe9"
        );
        assert_eq!((e.line, e.column), (1, 7));
    }
}
