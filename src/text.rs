//! Small text helpers for messages: quoting what a caller gave, and printing an error.
//!
//! The error convention (issue 29): an error's `Display` says what failed, its source says why,
//! and whoever prints it prints the chain once ([`chain`]; the CLI's `anyhow` edge with `{:#}`,
//! which is the same). `tests/it/layers.rs` fails on an error whose `Display` prints its source.

use std::borrow::Cow;

/// An error and every error behind it, `what failed: why: why that`, on one line; an
/// operating system's error in words ([`io_words`]).
pub fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut out = words(err);
    let mut next = err.source();
    while let Some(cause) = next {
        let text = words(cause);
        // A wrapper that says the same as what it wraps adds nothing.
        if !out.ends_with(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        next = cause.source();
    }
    out
}

/// One error's own text, an operating system's error in words.
fn words(err: &(dyn std::error::Error + 'static)) -> String {
    match err.downcast_ref::<std::io::Error>() {
        Some(io) => io_words(io),
        None => err.to_string(),
    }
}

/// What an I/O error says, in words a person reads: the system's message without its number
/// (`no such file or directory`, not `No such file or directory (os error 2)`), and an error
/// that has only a kind named by it in words (`entity not found`), never by the kind's name.
pub fn io_words(err: &std::io::Error) -> String {
    let text = err.to_string();
    match err.raw_os_error() {
        Some(code) => {
            let bare = text
                .strip_suffix(&format!(" (os error {code})"))
                .unwrap_or(&text);
            let mut chars = bare.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => bare.to_owned(),
            }
        }
        None => text,
    }
}

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

    #[test]
    fn an_error_prints_what_failed_then_why() {
        #[derive(Debug, thiserror::Error)]
        #[error("cannot read 'x'")]
        struct Read {
            source: std::io::Error,
        }
        let err = Read {
            source: std::io::Error::other("permission denied"),
        };
        assert_eq!(chain(&err), "cannot read 'x': permission denied");
        assert_eq!(chain(&std::io::Error::other("alone")), "alone");
        let missing = Read {
            source: std::io::Error::from_raw_os_error(2),
        };
        assert_eq!(
            chain(&missing),
            "cannot read 'x': no such file or directory"
        );
        let kind_only = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert!(!io_words(&kind_only).contains("NotFound"));
    }
}
