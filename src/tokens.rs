//! An estimate of how many tokens a text costs a model: what an answer is weighed by against
//! git's own output (issue 36: no answer may cost more than git prints for the same command
//! line).
//!
//! The estimate follows cl100k_base, the tokenizer `make bench` measures with: the text is cut
//! into the pieces its pre-tokenizer makes (words with one leading character, runs of up to
//! three digits, runs of punctuation, runs of whitespace), and each piece is priced: a word of
//! up to seven characters one token, a longer one a token per five; punctuation a token per
//! three characters, plus one for each backslash (JSON's `\n`, `\t` and `\"` are tokens of
//! their own, where git's raw line breaks and tabs merge into the whitespace around them);
//! whitespace and digits one. Bytes past ASCII count as letters.
//!
//! Invariants: pure over bytes, linear, no allocation. It is an estimate: the comparison it
//! serves keeps a margin ([`crate::answer`]), measured in `make bench` against the real
//! tokenizer (bench/RESULTS.md, "Token economy").

/// Returns the estimated number of tokens of `text`.
pub fn estimate(text: &[u8]) -> usize {
    let n = text.len();
    let mut tokens = 0;
    let mut i = 0;
    while i < n {
        let c = text[i];
        if let Some(len) = contraction(&text[i..]) {
            tokens += 1;
            i += len;
            continue;
        }
        // A word, with one leading character that is not a letter, digit or line break.
        let start = if !letter(c) && !c.is_ascii_digit() && c != b'\r' && c != b'\n' {
            i + 1
        } else {
            i
        };
        if start < n && letter(text[start]) {
            let mut end = start;
            while end < n && letter(text[end]) {
                end += 1;
            }
            let len = end - i;
            tokens += if len <= 7 { 1 } else { len.div_ceil(5) };
            if c == b'\\' {
                tokens += 1;
            }
            i = end;
            continue;
        }
        if c.is_ascii_digit() {
            let mut end = i;
            while end < n && end - i < 3 && text[end].is_ascii_digit() {
                end += 1;
            }
            tokens += 1;
            i = end;
            continue;
        }
        // Punctuation, with one leading space, and the line breaks right after it.
        let from = if c == b' ' && i + 1 < n && punctuation(text[i + 1]) {
            i + 1
        } else {
            i
        };
        if from < n && punctuation(text[from]) {
            let mut end = from;
            while end < n && punctuation(text[end]) {
                end += 1;
            }
            let marks = &text[from..end];
            let backslashes = marks.iter().filter(|b| **b == b'\\').count();
            tokens += marks.len().div_ceil(3).max(1) + backslashes;
            while end < n && matches!(text[end], b'\r' | b'\n') {
                end += 1;
            }
            i = end;
            continue;
        }
        // Whitespace: up to its last line break; else all of it but the space that leads the
        // next piece.
        let mut end = i;
        while end < n && text[end].is_ascii_whitespace() {
            end += 1;
        }
        let run = &text[i..end];
        tokens += 1;
        i = match run.iter().rposition(|b| matches!(b, b'\r' | b'\n')) {
            Some(last) => i + last + 1,
            None if end < n && run.len() > 1 => end - 1,
            None => end,
        };
    }
    tokens
}

/// A letter: ASCII letters and every byte past ASCII (the parts of letters of other scripts).
fn letter(b: u8) -> bool {
    b.is_ascii_alphabetic() || b >= 0x80
}

/// Neither a letter, a digit nor whitespace.
fn punctuation(b: u8) -> bool {
    !letter(b) && !b.is_ascii_digit() && !b.is_ascii_whitespace()
}

/// The length of an English contraction at the start of `text` (`'s`, `'re`, ...).
fn contraction(text: &[u8]) -> Option<usize> {
    if text.first() != Some(&b'\'') {
        return None;
    }
    let lower = |i: usize| text.get(i).map(u8::to_ascii_lowercase);
    match (lower(1), lower(2)) {
        (Some(b'r'), Some(b'e')) | (Some(b'v'), Some(b'e')) | (Some(b'l'), Some(b'l')) => Some(3),
        (Some(b's' | b't' | b'm' | b'd'), next) if !next.is_some_and(letter) => Some(2),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The values of the model this estimate was fitted with (over 528 answers and git outputs
    // of four corpora, against cl100k_base).
    #[test]
    fn estimates_match_the_fitted_model() {
        assert_eq!(estimate(b""), 0);
        assert_eq!(
            estimate(br#"{"commit":"abab9aa52a69","message":"vgo - add\n\tif x {\n"}"#),
            24
        );
        assert_eq!(
            estimate(
                b"commit abab9aa52a698bb6fcb945b10968695ec52379aa\nAuthor: jharshman <joshgreyhat@gmail.com>\n\n    vgo - add Create method\n"
            ),
            38
        );
        assert_eq!(
            estimate(b"it's   a   test\n\n\n  of_the_estimator_123456 (x) => {}"),
            20
        );
    }

    #[test]
    fn json_escapes_cost_more_than_git_s_raw_whitespace() {
        assert!(estimate(br#"\t\t\treturn x\n\t\t}"#) > estimate(b"\t\t\treturn x\n\t\t}"));
    }
}
