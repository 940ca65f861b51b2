//! Exit codes, named in one place.
//!
//! The shim's own failures use the shell's conventions, so a caller cannot tell a missing
//! git-prism dependency from a missing git: 127 when no real binary exists, 126 when it exists
//! but cannot be executed. Everything else is the exit status of the real program.

/// Success.
pub const SUCCESS: i32 = 0;
/// A command failed (bad revision, not a repository, a broken install found by `status`).
pub const FAILURE: i32 = 1;
/// The session guard refused the call (its `git-prism guard:` line says why).
pub const REFUSED: i32 = 1;
/// The command line could not be parsed (clap's convention).
pub const USAGE: i32 = 2;
/// The real binary was found but cannot be executed.
pub const NOT_EXECUTABLE: i32 = 126;
/// No real binary was found (also: resolution kept coming back to git-prism).
pub const NOT_FOUND: i32 = 127;
