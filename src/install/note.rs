//! The note that tells an agent what its git now answers, and where it goes: a marked block in
//! the user-level instruction file of each agent found on the machine (Claude Code's
//! `CLAUDE.md`, Codex's and OpenCode's `AGENTS.md`, Gemini CLI's `GEMINI.md`), so that agents
//! read it in every session without a manual step.
//!
//! An agent counts as found when its own directory exists (`~/.claude`, `~/.codex`,
//! `~/.gemini`, `~/.config/opencode`): git-prism never creates an agent's directory. The block
//! is written and removed with the same care as the shell start-up blocks ([`super::block`]).

use std::path::PathBuf;

use super::block::{self, Edit, Marks};
use super::{InstallError, Layout};

/// What an agent is told: that no answer costs more than git's own output, what each answer
/// holds, that the first page of a range is its table of contents with the interface in it,
/// and when a pipe is the cheaper read.
pub const NOTE: &str = "\
## git in this environment (git-prism)
`git diff`, `git show`, `git log`, `git blame` and `gh pr diff` answer you in compact JSON, never larger than git's own output (else you get git's). A page is at most 20,000 bytes (about 6,000 tokens) and says what its next pages hold: stop once you have what you need.
- A commit or an uncommitted change (`git show <commit>`, `git diff`): git's changed lines without context (`-U3` or `-W` adds it), each hunk headed by the functions it changes. `git show -s` is its header and message, `--stat` its files; narrow with `-- <path>`.
- A range (`git diff <a>..<b>`): page 1 is its table of contents, about 2,500 tokens: every public function, type and constant added, removed or re-signed, with its signature; other functions by name. The hunks come on later pages (`next`).
- History: `git log [-n N] [-- path]`, `git log -L :<function>:<file>` (each commit's changed lines of it; reformatting marked), `git log -S <term>` or `-G <regex>` (the changed lines holding it), `git blame -L a,b <file>`.
- For one slice of a large patch a pipe is cheaper: `git diff -U0 <a>..<b> -- <path> | grep <pattern>`. Pipes, redirects and format options get git's own output; `GIT_PRISM_INSIDE_SHIM=1 git ...` always does.";

/// The notes earlier releases wrote (0.1.0), and development builds since: recognised as ours,
/// so that install replaces them and uninstall removes them.
const PREVIOUS: &[&str] = &[NOTE_0_1_0, NOTE_BEFORE_36];

/// The note of development builds before issue 36 (`git show -s` with files and functions).
const NOTE_BEFORE_36: &str = "\
## git in this environment (git-prism)
`git diff`, `git show`, `git log`, `git blame` and `gh pr diff` answer you in compact JSON. A page is at most 20,000 bytes (about 6,000 tokens) and says what its next pages hold and how large they are: stop once you have what you need.
- A commit or an uncommitted change (`git show <commit>`, `git diff`): git's changed lines without context (`-U3` or `-W` adds it), each hunk headed by the functions it changes; about as large as `git diff -U0`. `git show -s <commit>` is its message, files, functions and types, without code: read it first when you need only part, then narrow with `-- <path>`.
- A range (`git diff <a>..<b>`): page 1 is its table of contents, about 2,500 tokens: every public function, type and constant added, removed or re-signed, with its signature; the other changed functions by name; tests and docs counted. The hunks come on later pages (`next` prints the next one).
- History: `git log [-n N] [-- path]` (each commit's files, functions and message), `git log -S <term>` or `-G <regex>` (the changed lines holding it, in their functions), `git blame -L a,b <file>`.
- For one slice of a large patch a pipe is cheaper: `git diff -U0 <a>..<b> -- <path> | grep <pattern>`. Pipes, redirects and format options (`--stat`, `--name-only`, `--format=...`) get git's own output, unchanged; `GIT_PRISM_INSIDE_SHIM=1 git ...` always does.";

/// The note of 0.1.0.
const NOTE_0_1_0: &str = "\
## git in this environment (git-prism)
`git diff`, `git show`, `git log`, `git blame` and `gh pr diff` answer you in compact JSON when that costs fewer tokens than git's own output; every answer is at most 20,000 bytes (about 6,000 tokens), so even a big range is safe to ask for.
- A whole commit or range (`git show <commit>`, `git diff <a>..<b>`): git's hunks, each headed by the function it changes (`added Map::get`, `signature parse`). A change too large for one answer starts with its map (every file, every changed function, the signature of each added one: the new API in one call), then hunks; `next` is the command for the next page. `-U3` or `-W` adds context, `-- <path>` narrows.
- History: `git log [-n N] [-- path]` gives each commit's id, day, author, files and functions changed, and whole message; `git log -S <term>` (or `-G <regex>`) each commit's message and the changed lines that hold the term, in their functions; `git blame -L a,b <file>` each commit once, then the lines.
- For a slice, use git as you would anyway: pipes (`| grep`, `| head`), redirects and format options (`--stat`, `--name-only`, `--oneline`, `--format=...`) get git's own output, unchanged. `GIT_PRISM_INSIDE_SHIM=1 git ...` always does.";

/// The block's first line.
pub const BEGIN: &str = "<!-- >>> git-prism note >>> -->";
/// The block's last line.
pub const END: &str = "<!-- <<< git-prism note <<< -->";

/// The note block's marks.
pub const MARKS: Marks = Marks {
    begin: BEGIN,
    end: END,
    is_ours: is_our_note,
};

/// One agent's user-level instruction file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentFile {
    /// The agent.
    pub agent: &'static str,
    /// Its instruction file.
    pub file: PathBuf,
    /// Whether the agent's directory exists (the agent is installed).
    pub found: bool,
}

/// The instruction files of every agent git-prism knows, found or not.
pub fn agent_files(layout: &Layout) -> Vec<AgentFile> {
    let home = &layout.home;
    let config = layout
        .config_home
        .clone()
        .unwrap_or_else(|| home.join(".config"));
    let entry = |agent: &'static str, dir: PathBuf, name: &str| AgentFile {
        agent,
        file: dir.join(name),
        found: dir.is_dir(),
    };
    vec![
        entry(
            "Claude Code",
            layout
                .claude_home
                .clone()
                .unwrap_or_else(|| home.join(".claude")),
            "CLAUDE.md",
        ),
        entry(
            "Codex",
            layout
                .codex_home
                .clone()
                .unwrap_or_else(|| home.join(".codex")),
            "AGENTS.md",
        ),
        entry("Gemini CLI", home.join(".gemini"), "GEMINI.md"),
        entry("OpenCode", config.join("opencode"), "AGENTS.md"),
    ]
}

/// The block as install writes it.
pub fn block() -> String {
    block_of(NOTE)
}

/// The block holding `note`.
fn block_of(note: &str) -> String {
    format!(
        "{BEGIN}\n<!-- Added by `git-prism shim install`; `git-prism shim uninstall` removes it. -->\n{note}\n{END}\n"
    )
}

/// Whether the lines from BEGIN to END are the block this install writes, or one an earlier
/// release wrote.
fn is_our_note(body: &[&[u8]]) -> bool {
    std::iter::once(NOTE)
        .chain(PREVIOUS.iter().copied())
        .any(|note| {
            let wanted = block_of(note);
            let wanted: Vec<&[u8]> = wanted.lines().map(str::as_bytes).collect();
            wanted.as_slice() == body
        })
}

/// Plans adding the note to every found agent's file; the edits, nothing written. Every file
/// is checked before any is written by the caller.
pub fn plan_add(layout: &Layout) -> Result<Vec<Edit>, InstallError> {
    let mut edits = Vec::new();
    for a in agent_files(layout).into_iter().filter(|a| a.found) {
        if let Some(edit) = block::plan_add(&a.file, &MARKS, &block())? {
            edits.push(edit);
        }
    }
    Ok(edits)
}

/// Plans removing the note from every agent's file that has it (a file that held only the
/// note is deleted: install created it).
pub fn plan_remove(layout: &Layout) -> Result<Vec<Edit>, InstallError> {
    let mut edits = Vec::new();
    for a in agent_files(layout) {
        if let Some(edit) = block::plan_remove(&a.file, &MARKS, true)? {
            edits.push(edit);
        }
    }
    Ok(edits)
}

/// The agents' files that hold the note.
pub fn files_with_note(layout: &Layout) -> Vec<PathBuf> {
    agent_files(layout)
        .into_iter()
        .map(|a| a.file)
        .filter(|f| block::has_block(f, &MARKS))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn layout(home: &Path) -> Layout {
        Layout {
            bin_dir: home.join("bin"),
            data_dir: None,
            exe: home.join("git-prism"),
            home: home.to_owned(),
            shell: super::super::rc::Shell::Bash,
            zdotdir: None,
            config_home: None,
            claude_home: None,
            codex_home: None,
            path_var: None,
        }
    }

    #[test]
    fn the_note_goes_to_found_agents_once_and_comes_out_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        std::fs::write(home.join(".claude/CLAUDE.md"), "# My rules\n\nBe brief.\n").unwrap();
        let l = layout(home);
        let edits = plan_add(&l).unwrap();
        assert_eq!(
            edits.len(),
            2,
            "Claude Code and Codex, not the missing Gemini"
        );
        for e in &edits {
            e.apply().unwrap();
        }
        assert!(plan_add(&l).unwrap().is_empty(), "idempotent");
        assert!(
            !home.join(".gemini").exists(),
            "no agent directory is created"
        );
        let claude = std::fs::read_to_string(home.join(".claude/CLAUDE.md")).unwrap();
        assert!(claude.starts_with("# My rules\n\nBe brief.\n\n<!-- >>> git-prism note"));
        assert_eq!(files_with_note(&l).len(), 2);
        for e in plan_remove(&l).unwrap() {
            e.apply().unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(home.join(".claude/CLAUDE.md")).unwrap(),
            "# My rules\n\nBe brief.\n"
        );
        assert!(
            !home.join(".codex/AGENTS.md").exists(),
            "a file that held only the note is gone"
        );
    }

    #[test]
    fn an_edited_note_is_left_alone_and_nothing_changes() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        std::fs::create_dir_all(home.join(".gemini")).unwrap();
        let edited = block().replace("A page is at most", "Pages are at most");
        let content = format!("mine\n\n{edited}");
        std::fs::write(home.join(".gemini/GEMINI.md"), &content).unwrap();
        let l = layout(home);
        assert!(matches!(
            plan_remove(&l),
            Err(InstallError::EditedBlock { .. })
        ));
        assert!(plan_add(&l).is_err());
        assert_eq!(
            std::fs::read_to_string(home.join(".gemini/GEMINI.md")).unwrap(),
            content
        );
    }

    #[test]
    fn the_note_of_an_earlier_release_is_replaced_and_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        let old = format!("# Mine\n\n{}", block_of(NOTE_0_1_0));
        std::fs::write(home.join(".claude/CLAUDE.md"), &old).unwrap();
        let l = layout(home);
        assert_eq!(files_with_note(&l).len(), 1);
        for e in plan_add(&l).unwrap() {
            e.apply().unwrap();
        }
        let now = std::fs::read_to_string(home.join(".claude/CLAUDE.md")).unwrap();
        assert_eq!(now, format!("# Mine\n\n{}", block()));
        std::fs::write(home.join(".claude/CLAUDE.md"), &old).unwrap();
        for e in plan_remove(&l).unwrap() {
            e.apply().unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(home.join(".claude/CLAUDE.md")).unwrap(),
            "# Mine\n"
        );
    }

    #[test]
    fn the_note_stays_short() {
        // What every session of every agent pays to read.
        assert!(NOTE.len() <= 1_400, "{}", NOTE.len());
    }

    #[test]
    fn the_readme_shows_the_note_as_it_is() {
        assert!(
            include_str!("../../README.md").contains(NOTE),
            "README.md's copy of the note differs from NOTE"
        );
    }
}
