//! JSON as every answer writes it: serde_json's output with the characters a terminal or a
//! reader would not show as written escaped too.
//!
//! serde_json escapes what JSON requires (`"`, `\` and the C0 controls). Repository text
//! (messages, names, file contents) can also hold DEL, the C1 controls (U+0080–U+009F, among
//! them U+009B, a terminal's CSI), bidirectional overrides and isolates (U+202A–U+202E,
//! U+2066–U+2069, the marks U+200E, U+200F, U+061C), and the line and paragraph separators
//! (U+2028, U+2029), which make text read differently from what it is. They can only occur
//! inside JSON strings, so each is written as its `\uXXXX` escape there: the value is the same
//! for any JSON parser, and what an agent or a person reads is what the repository holds.

use serde::Serialize;

/// Writes `value` as compact JSON, with the characters of the module docs escaped.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(value).map(escape_invisible)
}

/// Writes `value` as pretty-printed JSON, with the characters of the module docs escaped.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(value).map(escape_invisible)
}

/// Whether a character is escaped on top of what JSON requires.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{7f}'..='\u{9f}'
        | '\u{061c}'
        | '\u{200e}' | '\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// Rewrites serde_json's output with every [`is_invisible`] character as `\uXXXX`.
fn escape_invisible(json: String) -> String {
    // Every such character starts with one of these bytes in UTF-8: skip the common case.
    if !json.bytes().any(|b| matches!(b, 0x7f | 0xc2 | 0xd8 | 0xe2)) {
        return json;
    }
    if !json.chars().any(is_invisible) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_invisible(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_escaped_and_read_back_the_same() {
        let text = "a\u{7f}b\u{9b}c\u{202e}d\u{2066}e\u{200f}f\u{2028}g\u{1b}h é ü 中";
        let json = to_string(&text).unwrap();
        for c in json.chars() {
            assert!(!is_invisible(c), "{c:?} left raw in {json}");
        }
        assert!(json.contains("\\u007f") && json.contains("\\u009b") && json.contains("\\u202e"));
        assert!(json.contains("\\u001b"), "serde_json's own escapes stay");
        assert!(json.contains("é ü 中"), "other text is written as it is");
        let back: String = serde_json::from_str(&json).unwrap();
        assert_eq!(back, text);
        let pretty = to_string_pretty(&[text]).unwrap();
        assert_eq!(
            serde_json::from_str::<Vec<String>>(&pretty).unwrap(),
            [text]
        );
        assert!(!pretty.chars().any(is_invisible));
    }

    #[test]
    fn plain_text_is_serde_json_s() {
        let doc = serde_json::json!({"k": ["x\"y", "\\", "\n", "ok"]});
        assert_eq!(
            to_string(&doc).unwrap(),
            serde_json::to_string(&doc).unwrap()
        );
    }
}
