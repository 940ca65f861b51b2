//! Version bumps: how far apart two version strings are.
//!
//! Requirements are read leniently: operators and a leading `v` are stripped (`^1.2`, `>=2.0,
//! <3`, `~=1.4`, `v1.2.3`), the first version in the string is taken, and missing components
//! count as zero. Anything without a leading number (a git URL, a path, `*`) compares as
//! `other`.

/// The size of a version change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bump {
    /// The first component changed.
    Major,
    /// The second component changed.
    Minor,
    /// The third component changed.
    Patch,
    /// Something else changed (pre-release, operator, source), or a version did not parse.
    Other,
}

impl Bump {
    /// Returns the label used in the manifest.
    pub fn label(self) -> &'static str {
        match self {
            Bump::Major => "major",
            Bump::Minor => "minor",
            Bump::Patch => "patch",
            Bump::Other => "other",
        }
    }
}

/// Returns the numeric components of the first version in `text`.
pub fn numbers(text: &str) -> Option<[u64; 3]> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let prefix = &text[..start];
    if !prefix
        .chars()
        .all(|c| matches!(c, '^' | '~' | '=' | '>' | '<' | '!' | 'v' | 'V' | ' '))
    {
        return None;
    }
    let mut out = [0u64; 3];
    let rest = &text[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    for (i, part) in rest[..end].split('.').take(3).enumerate() {
        if part.is_empty() {
            break;
        }
        out[i] = part.parse().ok()?;
    }
    Some(out)
}

/// Returns how far apart `old` and `new` are.
pub fn bump(old: &str, new: &str) -> Bump {
    match (numbers(old), numbers(new)) {
        (Some(a), Some(b)) if a[0] != b[0] => Bump::Major,
        (Some(a), Some(b)) if a[1] != b[1] => Bump::Minor,
        (Some(a), Some(b)) if a[2] != b[2] => Bump::Patch,
        _ => Bump::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bumps() {
        for (old, new, want) in [
            ("1.0.0", "2.0.0", Bump::Major),
            ("^1.2", "^1.3", Bump::Minor),
            ("1.0.100", "1.0.200", Bump::Patch),
            ("~=1.4", "~=1.4.2", Bump::Patch),
            (">=2.0,<3", ">=3.0,<4", Bump::Major),
            ("v1.2.3", "v1.2.4", Bump::Patch),
            ("0.1", "0.2", Bump::Minor),
            ("1.0.0-alpha", "1.0.0-beta", Bump::Other),
            ("^1.0", "~1.0", Bump::Other),
            ("git:https://x", "1.0", Bump::Other),
            ("*", "1.0", Bump::Other),
            ("path:../x", "path:../y", Bump::Other),
        ] {
            assert_eq!(bump(old, new), want, "{old} -> {new}");
        }
    }

    #[test]
    fn numbers_read_leniently() {
        assert_eq!(numbers("^1.2"), Some([1, 2, 0]));
        assert_eq!(numbers("==2.31.0"), Some([2, 31, 0]));
        assert_eq!(numbers("1"), Some([1, 0, 0]));
        assert_eq!(numbers("latest"), None);
        assert_eq!(numbers("npm:foo@1.0"), None);
    }
}
