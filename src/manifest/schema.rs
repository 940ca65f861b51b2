//! The wire format of a change manifest ([`ManifestDoc`]) and of a history of per-commit
//! manifests ([`HistoryDoc`]): serde types with a schema version ([`SCHEMA_VERSION`]),
//! documented field by field, separate from the internal [`super::model`]. The JSON Schema
//! `git-prism schema` prints is generated from [`ManifestDoc`].
//!
//! Compact by design, because agents pay per token: absent, `null` and `false` fields are
//! omitted (`is_binary` absent means `false`), and per-file modes are only given when they
//! change.

use schemars::JsonSchema;
use serde::Serialize;

use crate::git::Oid;

/// The version of this format. Additive changes keep the major number.
pub const SCHEMA_VERSION: &str = "1.0";

/// A change manifest: what changed between two sides of a repository.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ManifestDoc {
    /// Where the data comes from.
    pub metadata: Metadata,
    /// Totals over the whole range (every page carries the same summary).
    pub summary: Summary,
    /// The changed files of this page, in git's order.
    pub files: Vec<File>,
    /// Changes to declared dependencies (first page only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dependency_changes: Vec<DependencyChange>,
    /// Lockfile churn, summarised (first page only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lockfile_changes: Vec<LockfileChange>,
    /// Dependency files that could not be parsed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dependency_errors: Vec<DependencyError>,
    /// Present when the files are split into pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
    /// Present when detail was cut to fit the output budget: what, and how to get the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<Truncation>,
}

/// Where the data comes from.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Metadata {
    /// The version of this format.
    pub schema_version: &'static str,
    /// Always `git-prism`.
    pub tool: &'static str,
    /// The git-prism version that produced it.
    pub version: &'static str,
    /// The repository's working tree (or git directory, if bare).
    pub repo_path: String,
    /// The base as named (`main`, `merge-base(main, HEAD)`, `INDEX`).
    pub base_ref: String,
    /// The head as named (`HEAD`, `INDEX`, `WORKTREE`).
    pub head_ref: String,
    /// The base commit or tree (absent when the base is the index or an unborn branch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_sha: Option<Oid>,
    /// The head commit or tree (absent when the head is the index or working tree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_sha: Option<Oid>,
    /// What the head side is: `commit`, `index` or `worktree`.
    pub head: &'static str,
    /// Pathspecs the range was limited to.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pathspecs: Vec<String>,
    /// When this manifest was generated (UTC, RFC 3339).
    pub generated_at: String,
}

/// Totals over every file of the range (an absent count is zero).
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct Summary {
    /// Number of changed files.
    pub files_changed: usize,
    /// Files added (including untracked files).
    #[serde(skip_serializing_if = "is_zero")]
    pub added: usize,
    /// Files modified.
    #[serde(skip_serializing_if = "is_zero")]
    pub modified: usize,
    /// Files deleted.
    #[serde(skip_serializing_if = "is_zero")]
    pub deleted: usize,
    /// Files renamed.
    #[serde(skip_serializing_if = "is_zero")]
    pub renamed: usize,
    /// Files copied.
    #[serde(skip_serializing_if = "is_zero")]
    pub copied: usize,
    /// Files whose type changed (file, symlink, submodule).
    #[serde(skip_serializing_if = "is_zero")]
    pub type_changed: usize,
    /// Unmerged paths.
    #[serde(skip_serializing_if = "is_zero")]
    pub unmerged: usize,
    /// Untracked files (working-tree targets).
    #[serde(skip_serializing_if = "is_zero")]
    pub untracked: usize,
    /// Lines added (text files).
    pub lines_added: u64,
    /// Lines removed (text files).
    pub lines_removed: u64,
    /// Languages of the changed files, sorted.
    pub languages_affected: Vec<&'static str>,
    /// Files flagged as generated or vendored.
    #[serde(skip_serializing_if = "is_zero")]
    pub generated_files: usize,
    /// Binary files.
    #[serde(skip_serializing_if = "is_zero")]
    pub binary_files: usize,
    /// Submodules whose commit changed.
    #[serde(skip_serializing_if = "is_zero")]
    pub submodules: usize,
    /// Function changes (absent with `--no-functions`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub functions: Option<FunctionSummary>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// git's change type of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChangeType {
    /// New file (`A`).
    Added,
    /// Content or mode changed (`M`).
    Modified,
    /// Removed (`D`).
    Deleted,
    /// Moved, possibly with edits (`R`, see `similarity`).
    Renamed,
    /// Copied, possibly with edits (`C`, only when copy detection is on).
    Copied,
    /// Changed between regular file, symlink and submodule (`T`).
    TypeChanged,
    /// Unmerged path of a conflicted merge (`U`).
    Unmerged,
    /// A status git reports that this version does not know.
    Unknown,
}

/// One changed file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct File {
    /// The path (after a rename), relative to the top of the working tree. Not valid UTF-8
    /// bytes are replaced with U+FFFD; `path_quoted` then has the exact bytes.
    pub path: String,
    /// The exact path, C-quoted like git quotes it (`"\377.txt"`), when `path` is lossy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_quoted: Option<String>,
    /// The path before a rename or copy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// `old_path`'s exact bytes, C-quoted, when it is lossy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path_quoted: Option<String>,
    /// git's change type.
    pub change_type: ChangeType,
    /// Similarity of a rename or copy, in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<u8>,
    /// With `-B`: how much of a rewritten file changed, in percent (git's `M<score>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dissimilarity: Option<u8>,
    /// Lines added, as `git diff --numstat` counts them (absent for binary files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_added: Option<u64>,
    /// Lines removed, as `git diff --numstat` counts them (absent for binary files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_removed: Option<u64>,
    /// Whether git treats the file as binary (absent means false).
    #[serde(skip_serializing_if = "is_false")]
    pub is_binary: bool,
    /// Whether the file is generated or vendored (absent means false).
    #[serde(skip_serializing_if = "is_false")]
    pub is_generated: bool,
    /// Why it counts as generated: `gitattributes`, `lockfile`, `vendored`, `minified`,
    /// `protobuf`, `name`, `marker`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated_reason: Option<&'static str>,
    /// The change itself made the file count as generated (its base did not): its hunks and
    /// functions are kept, since a change's author must not hide code from its reviewer.
    #[serde(skip_serializing_if = "is_false")]
    pub generated_by_change: bool,
    /// Why a file its base already called generated keeps its hunks anyway: `small edit` (at
    /// most 40 lines changed) or `changed without its source` (nothing else the change touches
    /// regenerates it). Large regenerations show facts only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated_shown: Option<&'static str>,
    /// Language label (`rust`, `python`, `typescript`...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'static str>,
    /// Size in bytes before the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_before: Option<u64>,
    /// Size in bytes after the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_after: Option<u64>,
    /// Octal mode before, when the mode changed (`100644`, `100755`, `120000`, `160000`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode_before: Option<String>,
    /// Octal mode after, when the mode changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode_after: Option<String>,
    /// `symlink` or `submodule`; absent for regular files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// The commits of a submodule before and after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub submodule: Option<Submodule>,
    /// Whether the file is untracked (working-tree targets; absent means false).
    #[serde(skip_serializing_if = "is_false")]
    pub untracked: bool,
    /// Functions and methods that changed: a list for a file in an analysed language (empty
    /// when no function changed), `null` when the file was not analysed (no analyzer for its
    /// language, binary, too large: see `analysis_skipped`). Absent with `--no-functions`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub functions_changed: Option<Option<Vec<FunctionChangeDoc>>>,
    /// Imports added and removed (`null` when not analysed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imports_changed: Option<Option<ImportsChanged>>,
    /// Functions whose only changes are whitespace, comments or docstrings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub formatting_only: Vec<String>,
    /// Item-position wrappers whose body is not items, added, deleted or changed (`macro
    /// forward_to_deserialize_any!`): opaque, what changed inside them is not analysed. The
    /// items of a wrapper whose body is items (`cfg_rt! { pub fn f() {} }`) are reported as
    /// if written outside it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opaque_changed: Vec<String>,
    /// The file has syntax errors on one side; what could be extracted is reported.
    #[serde(skip_serializing_if = "is_false")]
    pub parse_errors: bool,
    /// Why an analysable file was not analysed (too large, minified, parse time budget).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis_skipped: Option<String>,
}

/// One function's change.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FunctionChangeDoc {
    /// Qualified name (`Type::method`, `<Type as Trait>::method`, `Class.method`,
    /// `outer.inner`).
    pub name: String,
    /// The name before a rename (or a move that also renamed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    /// `function` or `method`.
    pub kind: &'static str,
    /// `added`, `deleted`, `modified` (body), `signature_changed`, `renamed`, `moved`.
    pub change_type: &'static str,
    /// First line (new version; old version for deletions), decorators/attributes included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    /// Last line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// The signature, whitespace collapsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The file a moved function came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// A renamed, moved or signature-changed function whose body changed too.
    #[serde(skip_serializing_if = "is_false")]
    pub edited: bool,
}

/// Imports added and removed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ImportsChanged {
    /// Imports added (`crate::a::B`, `os.path`, `x.y as z`); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// Imports removed; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
}

/// Function changes over the whole range.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct FunctionSummary {
    /// Files whose functions were analysed.
    pub files_analyzed: usize,
    /// Functions added.
    #[serde(skip_serializing_if = "is_zero")]
    pub added: usize,
    /// Functions deleted.
    #[serde(skip_serializing_if = "is_zero")]
    pub deleted: usize,
    /// Functions whose body changed.
    #[serde(skip_serializing_if = "is_zero")]
    pub modified: usize,
    /// Functions whose signature changed.
    #[serde(skip_serializing_if = "is_zero")]
    pub signature_changed: usize,
    /// Functions renamed.
    #[serde(skip_serializing_if = "is_zero")]
    pub renamed: usize,
    /// Functions moved between files.
    #[serde(skip_serializing_if = "is_zero")]
    pub moved: usize,
    /// Functions changed only in formatting, comments or docstrings.
    #[serde(skip_serializing_if = "is_zero")]
    pub formatting_only: usize,
}

/// A submodule's commits.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Submodule {
    /// The commit before (absent when added).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_commit: Option<Oid>,
    /// The commit after (absent when removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_commit: Option<Oid>,
}

/// One changed dependency.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DependencyChange {
    /// The file declaring it.
    pub file: String,
    /// The dependency's name.
    pub name: String,
    /// `normal`, `dev`, `build`, `peer`, `optional`, `group`, `workspace`, `indirect`, `toolchain`.
    pub kind: &'static str,
    /// Target (`cfg(unix)`) or group name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Version requirement before (absent: added).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_version: Option<String>,
    /// Version requirement after (absent: removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_version: Option<String>,
    /// `major`, `minor`, `patch` or `other`, when both versions exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bump: Option<&'static str>,
    /// Locked version before, from a lockfile changed in the same range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locked_old: Option<String>,
    /// Locked version after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locked_new: Option<String>,
}

/// One lockfile's churn.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LockfileChange {
    /// The lockfile.
    pub file: String,
    /// Packages whose locked version changed.
    pub updated: usize,
    /// Packages newly locked.
    pub added: usize,
    /// Packages no longer locked.
    pub removed: usize,
    /// Changes already shown as `locked_old`/`locked_new` of a dependency change.
    pub direct: usize,
    /// The most notable other changes (major bumps first).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notable: Vec<LockedChange>,
    /// Other changes not listed.
    #[serde(skip_serializing_if = "is_zero")]
    pub omitted: usize,
}

/// One locked package's change.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LockedChange {
    /// The package.
    pub name: String,
    /// Locked before (absent: added).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_version: Option<String>,
    /// Locked after (absent: removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_version: Option<String>,
    /// `major`, `minor`, `patch` or `other`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bump: Option<&'static str>,
}

/// A dependency file that could not be parsed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DependencyError {
    /// The file.
    pub file: String,
    /// Why.
    pub error: String,
}

/// Where this page sits in the whole list of files.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Pagination {
    /// Index of this page's first file in the whole list.
    pub offset: usize,
    /// Files on this page.
    pub returned: usize,
    /// Files in the whole range.
    pub total_files: usize,
    /// `functions_first` when the pages list files whose functions changed first, then the
    /// other files, then generated and binary ones (git's order within each group); absent
    /// when they follow git's order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<&'static str>,
    /// Cursor for the next page (absent on the last page). Bound to the resolved commits: a
    /// cursor from before the branch moved is refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// What was cut to fit the output budget.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Truncation {
    /// Each cut, in the order applied.
    pub cut: Vec<String>,
    /// Files not on this page (they are on the next pages, never dropped).
    pub files_not_shown: usize,
    /// The command that returns the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page: Option<String>,
}

/// Per-commit manifests of a `git log` range.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HistoryDoc {
    /// Where the data comes from.
    pub metadata: HistoryMetadata,
    /// Totals over every listed commit (every page carries the same summary).
    pub summary: HistorySummary,
    /// The commits of this page, in git's order (newest first unless the options say
    /// otherwise).
    pub commits: Vec<CommitDoc>,
    /// Present when the commits are split into pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagination: Option<HistoryPagination>,
    /// Present when detail was cut to fit the output budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<HistoryTruncation>,
}

/// Where this page sits in the whole list of commits.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HistoryPagination {
    /// Index of this page's first commit in the whole list.
    pub offset: usize,
    /// Commits on this page.
    pub returned: usize,
    /// Commits in the whole range.
    pub total_commits: usize,
    /// Cursor for the next page (absent on the last page).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// What was cut from a history to fit the output budget.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HistoryTruncation {
    /// Each cut, in the order applied.
    pub cut: Vec<String>,
    /// Commits not on this page (they are on the next pages, never dropped).
    pub commits_not_shown: usize,
    /// The command that returns the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page: Option<String>,
}

/// Where a history comes from.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HistoryMetadata {
    /// The version of this format.
    pub schema_version: &'static str,
    /// Always `git-prism`.
    pub tool: &'static str,
    /// The git-prism version that produced it.
    pub version: &'static str,
    /// The repository's working tree (or git directory, if bare).
    pub repo_path: String,
    /// The revision range and options, as given.
    pub range: String,
    /// When this was generated (UTC, RFC 3339).
    pub generated_at: String,
}

/// Totals over every listed commit.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct HistorySummary {
    /// Commits listed.
    pub commits: usize,
    /// Of which merges.
    pub merges: usize,
    /// File changes over all commits (a file changed by two commits counts twice).
    pub file_changes: usize,
    /// Lines added over all commits.
    pub lines_added: u64,
    /// Lines removed over all commits.
    pub lines_removed: u64,
    /// Distinct authors, in order of first appearance.
    pub authors: Vec<String>,
}

/// One commit and its changes against its first parent.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CommitDoc {
    /// Full commit id.
    pub sha: Oid,
    /// Parent ids, first parent first (empty for a root commit).
    pub parents: Vec<Oid>,
    /// `Name <email>` (mailmap applied).
    pub author: String,
    /// Author date, ISO 8601.
    pub date: String,
    /// The subject line.
    pub subject: String,
    /// The rest of the message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub body: String,
    /// A merge: `files` are against the first parent.
    #[serde(skip_serializing_if = "is_false")]
    pub is_merge: bool,
    /// Totals of this commit.
    pub files_changed: usize,
    /// Lines added by this commit.
    pub lines_added: u64,
    /// Lines removed by this commit.
    pub lines_removed: u64,
    /// The changed files.
    pub files: Vec<File>,
    /// Files of this commit left out to fit the output budget.
    #[serde(skip_serializing_if = "is_zero")]
    pub files_not_shown: usize,
    /// Dependency changes of this commit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dependency_changes: Vec<DependencyChange>,
}
