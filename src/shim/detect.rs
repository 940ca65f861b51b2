//! Agent detection, from environment variables only.
//!
//! Invariants: detection reads nothing but the variables named here (no files, no process
//! tree), so it costs a few environment lookups on every shimmed call. `CI` set to a
//! non-empty value means "not an agent", whatever else is set: a CI job's git output is read by
//! scripts, never by an agent's context window.

use std::ffi::OsString;

/// An AI agent recognised from the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    /// A short name for the agent (`claude-code`, `codex`, or the value of `AI_AGENT`).
    pub name: String,
    /// The environment variable that identified it; the fidelity check looks for the same
    /// variable in ancestor processes to find the agent's harness.
    pub signal: &'static str,
}

/// Tool-specific marker variables and the agent each one identifies, in priority order.
pub const MARKERS: &[(&str, &str)] = &[
    ("CLAUDECODE", "claude-code"),
    ("CURSOR_AGENT", "cursor"),
    ("GEMINI_CLI", "gemini-cli"),
    ("CODEX_SANDBOX", "codex"),
    ("CODEX_THREAD_ID", "codex"),
    ("CLINE_ACTIVE", "cline"),
    ("AUGMENT_AGENT", "augment"),
    ("OPENCODE_CLIENT", "opencode"),
    ("TRAE_AI_SHELL_ID", "trae"),
];

/// Values of the generic `AGENT` variable that name a known agent. A bare `AGENT=1` (or any
/// other value) is too common a variable name to mean "an AI agent runs this".
pub const AGENT_ALLOW_LIST: &[&str] = &[
    "aider",
    "amp",
    "augment",
    "claude",
    "claude-code",
    "cline",
    "codex",
    "copilot",
    "crush",
    "cursor",
    "devin",
    "gemini",
    "gemini-cli",
    "goose",
    "jules",
    "junie",
    "kilo",
    "kiro",
    "opencode",
    "qwen",
    "roo",
    "trae",
    "warp",
    "windsurf",
];

/// Returns the agent the environment identifies, or `None` for a human, a script, or CI.
///
/// `env` looks a variable up by name (the process environment in production, a table in tests).
pub fn detect(env: impl Fn(&str) -> Option<OsString>) -> Option<Agent> {
    let non_empty = |name: &str| env(name).filter(|v| !v.is_empty());
    if non_empty("CI").is_some() {
        return None;
    }
    if let Some(value) = non_empty("AI_AGENT") {
        return Some(Agent {
            name: value.to_string_lossy().into_owned(),
            signal: "AI_AGENT",
        });
    }
    if let Some(value) = non_empty("AGENT") {
        let value = value.to_string_lossy().to_ascii_lowercase();
        if let Some(known) = AGENT_ALLOW_LIST.iter().find(|k| **k == value) {
            return Some(Agent {
                name: (*known).to_owned(),
                signal: "AGENT",
            });
        }
    }
    MARKERS.iter().find_map(|(var, name)| {
        non_empty(var).map(|_| Agent {
            name: (*name).to_owned(),
            signal: var,
        })
    })
}

/// Returns whether an opt-out variable's value means "on": `1` or `true` in any case.
pub fn is_truthy(value: &std::ffi::OsStr) -> bool {
    let bytes = value.as_encoded_bytes();
    bytes == b"1" || bytes.eq_ignore_ascii_case(b"true")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_in(vars: &[(&str, &str)]) -> Option<(String, &'static str)> {
        detect(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        })
        .map(|a| (a.name, a.signal))
    }

    type Case = (
        &'static [(&'static str, &'static str)],
        Option<(String, &'static str)>,
    );

    #[test]
    fn table() {
        let some = |n: &str, s: &'static str| Some((n.to_owned(), s));
        let cases: &[Case] = &[
            (&[], None),
            (&[("CLAUDECODE", "1")], some("claude-code", "CLAUDECODE")),
            (&[("CLAUDECODE", "")], None),
            (&[("CURSOR_AGENT", "1")], some("cursor", "CURSOR_AGENT")),
            (&[("GEMINI_CLI", "1")], some("gemini-cli", "GEMINI_CLI")),
            (
                &[("CODEX_SANDBOX", "seatbelt")],
                some("codex", "CODEX_SANDBOX"),
            ),
            (
                &[("CODEX_THREAD_ID", "abc")],
                some("codex", "CODEX_THREAD_ID"),
            ),
            (&[("CLINE_ACTIVE", "true")], some("cline", "CLINE_ACTIVE")),
            (&[("AUGMENT_AGENT", "1")], some("augment", "AUGMENT_AGENT")),
            (
                &[("OPENCODE_CLIENT", "cli")],
                some("opencode", "OPENCODE_CLIENT"),
            ),
            (
                &[("TRAE_AI_SHELL_ID", "7")],
                some("trae", "TRAE_AI_SHELL_ID"),
            ),
            (&[("AI_AGENT", "my-bot")], some("my-bot", "AI_AGENT")),
            (&[("AI_AGENT", "")], None),
            (&[("AGENT", "goose")], some("goose", "AGENT")),
            (&[("AGENT", "Amp")], some("amp", "AGENT")),
            (&[("AGENT", "codex")], some("codex", "AGENT")),
            (&[("AGENT", "1")], None),
            (&[("AGENT", "true")], None),
            (&[("AGENT", "jenkins")], None),
            // CI overrides everything.
            (&[("CI", "true"), ("CLAUDECODE", "1")], None),
            (&[("CI", "1"), ("AI_AGENT", "x")], None),
            (
                &[("CI", ""), ("CLAUDECODE", "1")],
                some("claude-code", "CLAUDECODE"),
            ),
            // AI_AGENT is the explicit, tool-neutral signal and wins over markers.
            (
                &[("AI_AGENT", "a"), ("CLAUDECODE", "1")],
                some("a", "AI_AGENT"),
            ),
        ];
        for (vars, want) in cases {
            assert_eq!(&detect_in(vars), want, "{vars:?}");
        }
    }

    #[test]
    fn truthy_values() {
        for v in ["1", "true", "TRUE", "True"] {
            assert!(is_truthy(v.as_ref()), "{v}");
        }
        for v in ["", "0", "false", "yes", "2", " 1"] {
            assert!(!is_truthy(v.as_ref()), "{v}");
        }
    }
}
