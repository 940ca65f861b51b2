//! `git config` and `-c`: keys as git compares them, whether a `git config` command line only
//! reads, and the settings it writes.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use super::super::scan::Line;
use super::super::table::Means;

/// `name=value` of `-c` (a name alone means `true`); the name's section and key are
/// case-insensitive to git, so they are lowered (a subsection keeps its case).
pub(crate) fn setting_of(setting: &OsStr) -> (String, Option<OsString>) {
    let bytes = setting.as_bytes();
    let (name, value) = match bytes.iter().position(|b| *b == b'=') {
        Some(eq) => (
            &bytes[..eq],
            Some(OsStr::from_bytes(&bytes[eq + 1..]).to_owned()),
        ),
        None => (bytes, None),
    };
    (config_key(&String::from_utf8_lossy(name)), value)
}

/// A configuration key as git compares it: section and name lowered, subsection kept.
pub fn config_key(key: &str) -> String {
    match (key.find('.'), key.rfind('.')) {
        (Some(first), Some(last)) if first != last => format!(
            "{}{}{}",
            key[..first].to_ascii_lowercase(),
            &key[first..last],
            key[last..].to_ascii_lowercase()
        ),
        _ => key.to_ascii_lowercase(),
    }
}

/// `git config` reads: `--get*`/`--list` or the `get`/`list` subcommands, or one key alone,
/// with no option that writes (the scope options count as reads: a read of another file
/// writes nothing; a write to one is [`Means::Elsewhere`]'s, weighed after this).
pub(super) fn reads(line: &Line) -> bool {
    if !line.only(&[Means::Reads, Means::Mode, Means::Elsewhere]) {
        return false;
    }
    let mut positionals = line.positionals();
    match positionals.next().map(|p| p.as_bytes()) {
        Some(b"get" | b"list") => true,
        Some(b"set" | b"unset" | b"rename-section" | b"remove-section" | b"edit") => false,
        _ => line.has(Means::Mode) || line.positionals().count() <= 1,
    }
}

/// The settings a `git config` command line writes (key as git compares it, value), as far as
/// they can be told (a renamed section or an edit is refused before this is asked).
pub(super) fn writes(line: &Line) -> Vec<(String, Option<OsString>)> {
    let mut positionals: Vec<&OsString> = line.positionals().collect();
    match positionals.first().map(|p| p.as_bytes()) {
        Some(b"set") => {
            positionals.remove(0);
        }
        Some(b"get" | b"list" | b"unset" | b"remove-section") => return Vec::new(),
        _ if line.has(Means::Removes) => return Vec::new(),
        _ => {}
    }
    match positionals.as_slice() {
        [key, value, ..] => vec![(config_key(&key.to_string_lossy()), Some((*value).clone()))],
        _ => Vec::new(),
    }
}
