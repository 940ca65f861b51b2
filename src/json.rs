//! JSON as every answer writes it: serde_json's output with the characters a terminal or a
//! reader would not show as written escaped too.
//!
//! serde_json escapes what JSON requires (`"`, `\` and the C0 controls). Repository text
//! (messages, names, file contents) can also hold DEL, the C1 controls (U+0080–U+009F, among
//! them U+009B, a terminal's CSI), bidirectional overrides and isolates (U+202A–U+202E,
//! U+2066–U+2069, the marks U+200E, U+200F, U+061C), the other characters Unicode makes
//! invisible by default (zero-width spaces and joiners, the byte-order mark, tag characters,
//! variation selectors, Hangul fillers, the soft hyphen: [`is_invisible`]), and the line and
//! paragraph separators (U+2028, U+2029), which make text read differently from what it is.
//! They can only occur inside JSON strings, so each is written as its `\uXXXX` escape there:
//! the value is the same for any JSON parser, and what an agent or a person reads is what the
//! repository holds.

use serde::Serialize;

/// Writes `value` as compact JSON, with the characters of the module docs escaped.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(value).map(escape_invisible)
}

/// Writes `value` as pretty-printed JSON, with the characters of the module docs escaped.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(value).map(escape_invisible)
}

/// Whether a character is escaped on top of what JSON requires: DEL and the C1 controls, and
/// every character Unicode makes invisible by default — format characters (bidirectional
/// marks, overrides and isolates, zero-width spaces and joiners, the byte-order mark, tag
/// characters that can spell hidden text), variation selectors, Hangul fillers, the soft
/// hyphen — and the line and paragraph separators.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{7f}'..='\u{9f}'
        | '\u{ad}'
        | '\u{34f}'
        | '\u{600}'..='\u{605}'
        | '\u{61c}'
        | '\u{6dd}'
        | '\u{70f}'
        | '\u{890}'..='\u{891}'
        | '\u{8e2}'
        | '\u{115f}'..='\u{1160}'
        | '\u{17b4}'..='\u{17b5}'
        | '\u{180b}'..='\u{180f}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{3164}'
        | '\u{fe00}'..='\u{fe0f}'
        | '\u{feff}'
        | '\u{ffa0}'
        | '\u{fff0}'..='\u{fffb}'
        | '\u{110bd}'
        | '\u{110cd}'
        | '\u{13430}'..='\u{1343f}'
        | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0000}'..='\u{e0fff}')
}

/// Rewrites serde_json's output with every [`is_invisible`] character as `\uXXXX` (a pair of
/// surrogates beyond the first plane, as JSON writes them).
fn escape_invisible(json: String) -> String {
    // Every such character starts with one of these bytes in UTF-8: skip the common case.
    if !json.bytes().any(|b| {
        matches!(
            b,
            0x7f | 0xc2 | 0xcd | 0xd8 | 0xdb | 0xdc | 0xe0..=0xe3 | 0xef | 0xf0 | 0xf3
        )
    }) {
        return json;
    }
    if !json.chars().any(is_invisible) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    let mut units = [0u16; 2];
    for c in json.chars() {
        if is_invisible(c) {
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
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
        let text = "a\u{7f}b\u{9b}c\u{202e}d\u{2066}e\u{200f}f\u{2028}g\u{1b}h é ü 中 \u{200b}\u{feff}\u{e0049}\u{e0047}\u{ad}\u{fe0f}";
        let json = to_string(&text).unwrap();
        for c in json.chars() {
            assert!(!is_invisible(c), "{c:?} left raw in {json}");
        }
        assert!(json.contains("\\u007f") && json.contains("\\u009b") && json.contains("\\u202e"));
        assert!(
            json.contains("\\udb40\\udc49"),
            "a tag character as a surrogate pair: {json}"
        );
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
