//! The internal model of a change manifest (the wire format is [`super::schema`]).

use std::path::PathBuf;

use bstr::BString;

use super::generated;
use crate::deps;
use crate::git::facts::Status;
use crate::git::revs::Target;
use crate::git::{Mode, Oid};
use crate::lang::Language;

/// What kind of entry a path is, from its git mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A regular (possibly executable) file.
    File,
    /// A symbolic link.
    Symlink,
    /// A submodule (gitlink).
    Submodule,
}

impl Kind {
    /// Returns the kind of a git mode (an absent side yields `None`).
    pub fn of_mode(mode: Mode) -> Option<Kind> {
        if !mode.exists() {
            None
        } else if mode.is_symlink() {
            Some(Kind::Symlink)
        } else if mode.is_gitlink() {
            Some(Kind::Submodule)
        } else {
            Some(Kind::File)
        }
    }

    /// Returns the kind of a change's entry from its modes: the side after's, else the side
    /// before's, else a file.
    pub fn of_modes(before: Mode, after: Mode) -> Kind {
        Kind::of_mode(after)
            .or_else(|| Kind::of_mode(before))
            .unwrap_or(Kind::File)
    }
}

/// What function analysis says about a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Functions {
    /// Analysis was not requested.
    #[default]
    Off,
    /// No analyzer for the file's language (or not a text file): not analysed.
    Unsupported,
    /// Analysed (possibly skipped for a stated reason).
    Analysed(crate::lang::FileFunctions),
}

/// One changed file with git's facts and what git-prism adds to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// The path (the destination of a rename or copy), as bytes.
    pub path: BString,
    /// The source of a rename or copy.
    pub old_path: Option<BString>,
    /// git's status.
    pub status: Status,
    /// Similarity of a rename or copy (0-100).
    pub similarity: Option<u8>,
    /// Mode before.
    pub mode_before: Mode,
    /// Mode after.
    pub mode_after: Mode,
    /// Object id before.
    pub oid_before: Option<Oid>,
    /// Object id after (`None` for unhashed working-tree content).
    pub oid_after: Option<Oid>,
    /// Lines added and removed, as `git diff --numstat` counts them; `None` for binary files
    /// and unmerged paths.
    pub lines: Option<(u64, u64)>,
    /// Whether git treats the file as binary.
    pub binary: bool,
    /// Size in bytes before.
    pub size_before: Option<u64>,
    /// Size in bytes after.
    pub size_after: Option<u64>,
    /// Language label.
    pub language: Option<Language>,
    /// Why the file counts as generated, if it does.
    pub generated: Option<generated::Reason>,
    /// Whether the change itself made the file count as generated (its base did not: a marker,
    /// an attribute or a name the change chose): such a file keeps its hunks and functions, so
    /// a change cannot hide its own code from its reviewer.
    pub generated_by_change: bool,
    /// Why a file its base already called generated keeps its hunks and functions anyway (a
    /// small edit, or one without a change to what generates it), if it does.
    pub generated_shown: Option<generated::Shown>,
    /// Whether the file is untracked (working-tree targets only).
    pub untracked: bool,
    /// Function-level changes.
    pub functions: Functions,
    /// Where each side's functions lie (analysed files only): places a hunk in its function.
    pub outline: Outline,
}

/// The functions of a file's two sides, with their line spans, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// Before the change.
    pub before: Vec<Span>,
    /// After the change.
    pub after: Vec<Span>,
}

/// One function's qualified name and lines (1-based, inclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// Qualified name.
    pub name: String,
    /// First line.
    pub start: u32,
    /// Last line.
    pub end: u32,
}

impl Outline {
    /// Builds the outline of an analysed side.
    /// An opaque wrapper is a span too, named `opaque macro x!`: a hunk in it says so rather
    /// than take git's header.
    pub fn spans(analysis: Option<&crate::lang::Analysis>) -> Vec<Span> {
        analysis.map_or_else(Vec::new, |a| {
            let functions = a.functions.iter().map(|f| Span {
                name: f.name.clone(),
                start: f.start_line,
                end: f.end_line,
            });
            let opaque = a.opaque.iter().map(|o| Span {
                name: format!("opaque {}", o.name),
                start: o.start_line,
                end: o.end_line,
            });
            functions.chain(opaque).collect()
        })
    }

    /// Returns the innermost function containing `line` of one side.
    pub fn enclosing(spans: &[Span], line: u32) -> Option<&Span> {
        spans
            .iter()
            .filter(|s| s.start <= line && line <= s.end)
            .min_by_key(|s| s.end - s.start)
    }
}

impl FileChange {
    /// Whether the file counts as generated and shows facts only (no hunks, no functions): its
    /// base called it generated too and the change regenerated it (ADR 14).
    pub fn generated_hidden(&self) -> bool {
        self.generated.is_some() && !self.generated_by_change && self.generated_shown.is_none()
    }

    /// Returns the kind of the entry (after the change, or before it for deletions).
    pub fn kind(&self) -> Kind {
        Kind::of_modes(self.mode_before, self.mode_after)
    }
}

/// A change manifest: the two sides, every changed file, and the dependency changes.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The repository's working tree (or git dir, if bare).
    pub repo_path: PathBuf,
    /// The two sides compared.
    pub target: Target,
    /// The pathspecs the diff was limited to.
    pub pathspecs: Vec<String>,
    /// The same pathspecs, byte for byte, for further git calls over the range.
    pub paths: Vec<std::ffi::OsString>,
    /// The caller's options that change the facts (`-M50%`, `-w`, `--diff-filter`...).
    pub diff_options: Vec<std::ffi::OsString>,
    /// Every changed file, in git's order.
    pub files: Vec<FileChange>,
    /// Dependency changes.
    pub dependencies: deps::Report,
    /// Whether functions were analysed.
    pub functions: bool,
    /// How long each phase of building took (for `GIT_PRISM_TRACE=1`).
    pub timings: Vec<(&'static str, std::time::Duration)>,
}
