//! Small text helpers for messages that quote what a caller gave.

use std::borrow::Cow;

/// Returns `text` cut to at most `max` characters, with `…` and the number of characters left
/// out when it was longer: error messages quote what a caller sent, and a caller can send
/// 100 KB.
pub fn clip(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((end, _)) => {
            let left = text[end..].chars().count();
            Cow::Owned(format!("{}… ({left} more characters)", &text[..end]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("exactly10!", 10), "exactly10!");
        assert_eq!(clip("0123456789abc", 10), "0123456789… (3 more characters)");
        assert_eq!(clip("ééééé", 2), "éé… (3 more characters)");
    }
}
