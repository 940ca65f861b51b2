//! The done-gate's hooks in the agent harnesses' own settings (issue 35): `git-prism hook stop`
//! on the event that ends a turn (Claude Code's and Codex's `Stop`, Gemini CLI's `AfterAgent`)
//! and `git-prism hook session-start` on `SessionStart`, in each harness found on the machine:
//!
//! | harness | file | events |
//! |---|---|---|
//! | Claude Code | `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR`) | `Stop`, `SessionStart` |
//! | Codex | `~/.codex/hooks.json` (`$CODEX_HOME`) | `Stop`, `SessionStart` |
//! | Gemini CLI | `~/.gemini/settings.json` | `AfterAgent`, `SessionStart` |
//!
//! A settings file is JSON, which has no comments to mark a block with: git-prism's entries are
//! the hook commands that run `git-prism hook`, added to the harness's own lists (never
//! replacing another's) and found again by their command. Keys keep their order
//! ([`Json`]); the file is rewritten atomically, as the note's files are. Before the first
//! change git-prism keeps the file as it was (in its data directory), so that uninstall gives
//! back every byte when nothing else changed the file since; otherwise it removes exactly its
//! own entries and says so.

use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use super::{InstallError, Layout};

/// An agent harness whose settings take hooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harness {
    /// Claude Code.
    Claude,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    Gemini,
}

impl Harness {
    /// Every harness, in the order they are reported.
    pub const ALL: [Harness; 3] = [Harness::Claude, Harness::Codex, Harness::Gemini];

    /// Its name, as people know it.
    pub fn name(self) -> &'static str {
        match self {
            Harness::Claude => "Claude Code",
            Harness::Codex => "Codex",
            Harness::Gemini => "Gemini CLI",
        }
    }

    /// The word `--harness` takes.
    pub fn flag(self) -> &'static str {
        match self {
            Harness::Claude => "claude",
            Harness::Codex => "codex",
            Harness::Gemini => "gemini",
        }
    }

    /// The harness `--harness` names.
    pub fn from_flag(word: &str) -> Option<Harness> {
        Harness::ALL.into_iter().find(|h| h.flag() == word)
    }

    /// The event that ends a turn.
    pub fn stop_event(self) -> &'static str {
        match self {
            Harness::Claude | Harness::Codex => "Stop",
            Harness::Gemini => "AfterAgent",
        }
    }

    /// Its directory and settings file.
    fn paths(self, layout: &Layout) -> (PathBuf, PathBuf) {
        let home = &layout.home;
        match self {
            Harness::Claude => {
                let dir = layout
                    .claude_home
                    .clone()
                    .unwrap_or_else(|| home.join(".claude"));
                let file = dir.join("settings.json");
                (dir, file)
            }
            Harness::Codex => {
                let dir = layout
                    .codex_home
                    .clone()
                    .unwrap_or_else(|| home.join(".codex"));
                let file = dir.join("hooks.json");
                (dir, file)
            }
            Harness::Gemini => {
                let dir = home.join(".gemini");
                let file = dir.join("settings.json");
                (dir, file)
            }
        }
    }

    /// The hook entries git-prism adds for this harness (event, entry), running `exe`.
    pub fn entries(self, exe: &Path) -> Vec<(&'static str, Json)> {
        let command = |what: &str| {
            Json::Str(format!(
                "{} hook {what} --harness {}",
                crate::shell::quote(exe.as_os_str()),
                self.flag()
            ))
        };
        let hook = |what: &str| {
            let mut fields = vec![
                ("type".to_owned(), Json::Str("command".into())),
                ("command".to_owned(), command(what)),
            ];
            // Gemini CLI counts its timeout in milliseconds; the others in seconds.
            let timeout = if self == Harness::Gemini { 60_000 } else { 60 };
            fields.push(("timeout".to_owned(), Json::Number(timeout.into())));
            if self == Harness::Gemini {
                fields.push(("name".to_owned(), Json::Str(format!("git-prism-{what}"))));
            }
            Json::Object(fields)
        };
        let group = |matcher: Option<&str>, what: &str| {
            let mut fields = Vec::new();
            if let Some(m) = matcher {
                fields.push(("matcher".to_owned(), Json::Str(m.into())));
            }
            fields.push(("hooks".to_owned(), Json::Array(vec![hook(what)])));
            Json::Object(fields)
        };
        // Gemini CLI compares a lifecycle matcher as an exact string: `*` matches every source.
        let start_matcher = match self {
            Harness::Gemini => Some("*"),
            Harness::Claude | Harness::Codex => Some("startup|resume|clear|compact"),
        };
        let stop_matcher = (self == Harness::Gemini).then_some("*");
        vec![
            (self.stop_event(), group(stop_matcher, "stop")),
            ("SessionStart", group(start_matcher, "session-start")),
        ]
    }
}

/// One harness's settings file, as found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HarnessFile {
    /// The harness.
    pub harness: Harness,
    /// Its settings file.
    pub file: PathBuf,
    /// Whether the harness's directory exists (it is installed).
    pub found: bool,
}

/// The settings files of every harness, found or not.
pub fn harness_files(layout: &Layout) -> Vec<HarnessFile> {
    Harness::ALL
        .into_iter()
        .map(|harness| {
            let (dir, file) = harness.paths(layout);
            HarnessFile {
                harness,
                file,
                found: dir.is_dir(),
            }
        })
        .collect()
}

/// A JSON value whose objects keep their keys in the order written.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(serde_json::Number),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, in order.
    Object(Vec<(String, Json)>),
}

impl Json {
    fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(fields) => fields.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The object field `key`, inserted (as `make()`) at the end when missing; `None` when
    /// this is not an object.
    fn entry(&mut self, key: &str, make: impl FnOnce() -> Json) -> Option<&mut Json> {
        let Json::Object(fields) = self else {
            return None;
        };
        let at = match fields.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                fields.push((key.to_owned(), make()));
                fields.len() - 1
            }
        };
        Some(&mut fields[at].1)
    }

    /// Whether this value holds a command that runs `git-prism hook`.
    fn runs_our_hook(&self) -> bool {
        match self {
            Json::Str(s) => is_our_command(s),
            Json::Array(items) => items.iter().any(Json::runs_our_hook),
            Json::Object(fields) => fields.iter().any(|(_, v)| v.runs_our_hook()),
            _ => false,
        }
    }
}

/// Whether a hook command is git-prism's.
fn is_our_command(command: &str) -> bool {
    command.contains(" hook stop --harness ") || command.contains(" hook session-start --harness ")
}

impl serde::Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => n.serialize(s),
            Json::Str(v) => s.serialize_str(v),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
                Ok(Json::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
                Ok(Json::Number(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
                Ok(Json::Number(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
                serde_json::Number::from_f64(v)
                    .map(Json::Number)
                    .ok_or_else(|| E::custom("not a JSON number"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
                Ok(Json::Str(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
                Ok(Json::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut fields: Vec<(String, Json)> = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Json>()? {
                    // A repeated key: the last one wins, as JSON readers take it.
                    fields.retain(|(existing, _)| *existing != k);
                    fields.push((k, v));
                }
                Ok(Json::Object(fields))
            }
        }
        d.deserialize_any(V)
    }
}

/// The largest settings file read.
const MAX_BYTES: u64 = 4 << 20;

fn read_json(file: &Path) -> Result<Option<(Vec<u8>, Json)>, InstallError> {
    let bytes = match crate::paths::read_regular(file, MAX_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(InstallError::Io {
                action: "read",
                path: file.to_owned(),
                source,
            });
        }
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Some((bytes, Json::Object(Vec::new()))));
    }
    let json: Json = serde_json::from_slice(&bytes).map_err(|e| InstallError::Io {
        action: "read the JSON of",
        path: file.to_owned(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })?;
    if !matches!(json, Json::Object(_)) {
        return Err(InstallError::Io {
            action: "read the JSON of",
            path: file.to_owned(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, "not a JSON object"),
        });
    }
    Ok(Some((bytes, json)))
}

fn render(json: &Json) -> Result<Vec<u8>, InstallError> {
    let mut out = serde_json::to_vec_pretty(json).map_err(|e| InstallError::Io {
        action: "write",
        path: PathBuf::from("settings"),
        source: std::io::Error::other(e),
    })?;
    out.push(b'\n');
    Ok(out)
}

/// Removes git-prism's entries from `json`'s hook lists (and lists and the `hooks` object
/// left empty by that); whether anything was removed.
fn strip(json: &mut Json) -> bool {
    let Some(Json::Object(events)) = json.get_mut("hooks") else {
        return false;
    };
    let mut removed = false;
    for (_, groups) in events.iter_mut() {
        if let Json::Array(items) = groups {
            let before = items.len();
            items.retain(|g| !g.runs_our_hook());
            removed |= items.len() != before;
        }
    }
    events.retain(|(_, groups)| !matches!(groups, Json::Array(items) if items.is_empty()));
    let empty = events.is_empty();
    if empty && removed {
        if let Json::Object(fields) = json {
            fields.retain(|(k, _)| k != "hooks");
        }
    }
    removed
}

/// A change to a harness's settings.
#[derive(Debug)]
pub struct Change {
    /// The file.
    pub file: PathBuf,
    /// Its new bytes (`None`: removed, install having created it).
    pub content: Option<Vec<u8>>,
    /// The file as it was before git-prism's first change, kept for a byte-for-byte
    /// uninstall (`None`: nothing to keep).
    pub keep: Option<Vec<u8>>,
}

/// Where the file as it was before install is kept.
fn kept_copy(layout: &Layout, harness: Harness) -> PathBuf {
    layout
        .bin_dir
        .parent()
        .map_or_else(|| layout.bin_dir.clone(), Path::to_owned)
        .join("hooks-before")
        .join(format!("{}.json", harness.flag()))
}

/// Plans adding the hooks to every harness found; nothing where they are already there.
pub fn plan_add(layout: &Layout) -> Result<Vec<Change>, InstallError> {
    let mut changes = Vec::new();
    for hf in harness_files(layout).into_iter().filter(|h| h.found) {
        let existing = read_json(&hf.file)?;
        let (bytes, mut json) = existing
            .clone()
            .unwrap_or_else(|| (Vec::new(), Json::Object(Vec::new())));
        let mut wanted = json.clone();
        strip(&mut wanted);
        for (event, entry) in hf.harness.entries(&layout.exe) {
            let hooks = wanted
                .entry("hooks", || Json::Object(Vec::new()))
                .ok_or_else(|| not_object(&hf.file))?;
            let list = hooks
                .entry(event, || Json::Array(Vec::new()))
                .ok_or_else(|| not_object(&hf.file))?;
            match list {
                Json::Array(items) => items.push(entry),
                _ => return Err(not_object(&hf.file)),
            }
        }
        if wanted == json {
            continue;
        }
        let keep = (!kept_copy(layout, hf.harness).exists() && !json.runs_our_hook())
            .then(|| bytes.clone());
        json = wanted;
        changes.push(Change {
            file: hf.file,
            content: Some(render(&json)?),
            keep: keep.map(|b| if existing.is_some() { b } else { Vec::new() }),
        });
    }
    Ok(changes)
}

fn not_object(file: &Path) -> InstallError {
    InstallError::Io {
        action: "add hooks to",
        path: file.to_owned(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "its `hooks` is not an object of lists",
        ),
    }
}

/// Plans removing the hooks from every harness's settings: the file as it was before install
/// when nothing else changed it since, else the file without git-prism's entries.
pub fn plan_remove(layout: &Layout) -> Result<Vec<Change>, InstallError> {
    let mut changes = Vec::new();
    for hf in harness_files(layout) {
        let Some((_, mut json)) = read_json(&hf.file)? else {
            continue;
        };
        if !strip(&mut json) {
            continue;
        }
        let kept = kept_copy(layout, hf.harness);
        let before = std::fs::read(&kept).ok();
        // The file as install left it: what install would write over the kept copy.
        let untouched = before.as_ref().is_some_and(|b| {
            let mut reinstalled = if b.iter().all(u8::is_ascii_whitespace) {
                Json::Object(Vec::new())
            } else {
                serde_json::from_slice(b).unwrap_or(Json::Null)
            };
            strip(&mut reinstalled);
            reinstalled == json
        });
        let content = match (&before, untouched) {
            (Some(b), true) if b.is_empty() => None,
            (Some(b), true) => Some(b.clone()),
            _ => Some(render(&json)?),
        };
        changes.push(Change {
            file: hf.file,
            content,
            keep: None,
        });
    }
    Ok(changes)
}

/// Applies `changes` (keeping the originals first), removing the kept copies after an
/// uninstall.
pub fn apply(layout: &Layout, changes: &[Change], removing: bool) -> Result<(), InstallError> {
    for c in changes {
        let harness = harness_files(layout)
            .into_iter()
            .find(|h| h.file == c.file)
            .map(|h| h.harness);
        if let (Some(keep), Some(h)) = (&c.keep, harness) {
            let path = kept_copy(layout, h);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|source| InstallError::Io {
                    action: "create",
                    path: dir.to_owned(),
                    source,
                })?;
            }
            std::fs::write(&path, keep).map_err(|source| InstallError::Io {
                action: "write",
                path: path.clone(),
                source,
            })?;
        }
        super::block::replace_file(&c.file, c.content.as_deref())?;
        if removing {
            if let Some(h) = harness {
                let _ = std::fs::remove_file(kept_copy(layout, h));
            }
        }
    }
    Ok(())
}

/// The settings files that hold git-prism's hooks.
pub fn files_with_hooks(layout: &Layout) -> Vec<(Harness, PathBuf)> {
    harness_files(layout)
        .into_iter()
        .filter(|h| {
            read_json(&h.file)
                .ok()
                .flatten()
                .is_some_and(|(_, j)| j.runs_our_hook())
        })
        .map(|h| (h.harness, h.file))
        .collect()
}

/// The JSON settings `git-prism session` gives the harness it starts, through the harness's
/// own per-run override (Claude Code's `--settings`, Gemini CLI's system settings file): the
/// two hooks, and nothing else.
pub fn session_settings(harness: Harness, exe: &Path) -> Result<Vec<u8>, InstallError> {
    let mut json = Json::Object(Vec::new());
    for (event, entry) in harness.entries(exe) {
        let hooks = json
            .entry("hooks", || Json::Object(Vec::new()))
            .ok_or_else(|| not_object(Path::new("settings")))?;
        if let Some(Json::Array(items)) = hooks.entry(event, || Json::Array(Vec::new())) {
            items.push(entry);
        }
    }
    render(&json)
}

/// `base` (a settings file's bytes) with the hook lists of `ours` added.
pub fn merge_settings(base: &[u8], ours: &[u8]) -> Result<Vec<u8>, InstallError> {
    let invalid = |e: serde_json::Error| InstallError::Io {
        action: "read the JSON of",
        path: PathBuf::from("settings"),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    };
    let mut json: Json = if base.iter().all(u8::is_ascii_whitespace) {
        Json::Object(Vec::new())
    } else {
        serde_json::from_slice(base).map_err(invalid)?
    };
    let ours: Json = serde_json::from_slice(ours).map_err(invalid)?;
    if let Some(Json::Object(events)) = match &ours {
        Json::Object(f) => f.iter().find(|(k, _)| k == "hooks").map(|(_, v)| v),
        _ => None,
    } {
        for (event, groups) in events {
            let Json::Array(groups) = groups else {
                continue;
            };
            let hooks = json
                .entry("hooks", || Json::Object(Vec::new()))
                .ok_or_else(|| not_object(Path::new("settings")))?;
            if let Some(Json::Array(items)) = hooks.entry(event, || Json::Array(Vec::new())) {
                items.extend(groups.iter().cloned());
            }
        }
    }
    render(&json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Json {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn keys_keep_their_order_and_our_entries_are_found_again() {
        let mut json = parse(
            r#"{"zeta": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "other"}]}]}, "alpha": true}"#,
        );
        let text = String::from_utf8(render(&json).unwrap()).unwrap();
        assert!(
            text.find("zeta").unwrap() < text.find("alpha").unwrap(),
            "{text}"
        );
        assert!(!json.runs_our_hook());
        let ours = Harness::Claude.entries(Path::new("/bin/git-prism"));
        if let Some(Json::Object(events)) = json.get_mut("hooks") {
            if let Some((_, Json::Array(items))) = events.iter_mut().find(|(k, _)| k == "Stop") {
                items.push(ours[0].1.clone());
            }
        }
        assert!(json.runs_our_hook());
        assert!(strip(&mut json));
        // The user's own hook stays.
        assert_eq!(
            json,
            parse(
                r#"{"zeta": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "other"}]}]}, "alpha": true}"#
            )
        );
    }

    #[test]
    fn each_harness_gets_its_own_events_and_units() {
        let exe = Path::new("/opt/git prism/git-prism");
        let gemini = Harness::Gemini.entries(exe);
        assert_eq!(gemini[0].0, "AfterAgent");
        let text = String::from_utf8(render(&gemini[0].1).unwrap()).unwrap();
        assert!(
            text.contains("60000")
                && text.contains("'/opt/git prism/git-prism' hook stop --harness gemini"),
            "{text}"
        );
        let codex = Harness::Codex.entries(exe);
        assert_eq!(codex[0].0, "Stop");
        assert_eq!(codex[1].0, "SessionStart");
    }
}
