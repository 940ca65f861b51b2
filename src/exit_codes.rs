//! Exit codes, named in one place.
//!
//! The shim's own failures use the shell's conventions, so a caller cannot tell a missing
//! git-prism dependency from a missing git: 127 when no real binary exists, 126 when it exists
//! but cannot be executed. A call the session guard refuses exits 1 (its `git-prism guard:`
//! line says why). Everything else the shim runs exits with the real program's status. The CLI
//! uses 1 for a failure, 2 for a command line it cannot parse, and `verify` 10 to 15, one per
//! check, for the first check that failed.

/// Success.
pub const SUCCESS: i32 = 0;
/// A command failed (bad revision, not a repository, a broken install found by `status`).
pub const FAILURE: i32 = 1;
/// The session guard refused the call (its `git-prism guard:` line says why).
pub const REFUSED: i32 = 1;
/// The command line could not be parsed (clap's convention).
pub const USAGE: i32 = 2;
/// `verify`: something is not committed (staged, unstaged or untracked).
pub const VERIFY_COMMITTED: i32 = 10;
/// `verify`: no commit since the start, or the commit named is not in HEAD's history.
pub const VERIFY_COMMIT: i32 = 11;
/// `verify --pushed`: the branch's commits are not on its remote.
pub const VERIFY_PUSHED: i32 = 12;
/// `verify --merged-into`: the commit is not reachable from that branch.
pub const VERIFY_MERGED: i32 = 13;
/// `verify`: a commit or push of the session skipped its hooks.
pub const VERIFY_HOOKS: i32 = 14;
/// `verify`: a protected path was changed.
pub const VERIFY_PROTECTED: i32 = 15;
/// The real binary was found but cannot be executed.
pub const NOT_EXECUTABLE: i32 = 126;
/// No real binary was found (also: resolution kept coming back to git-prism).
pub const NOT_FOUND: i32 = 127;
