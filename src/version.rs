//! Which build this is: the package version and the commit it was built from (`build.rs`).

/// `0.1.0 (0123456789ab)`, with `-dirty` when the tree had changes; the version alone when
/// built outside a git checkout.
pub const VERSION: &str = env!("GIT_PRISM_VERSION");

/// The commit's date (`YYYY-MM-DD`), or empty.
pub const DATE: &str = env!("GIT_PRISM_DATE");

/// The commit (12 hex digits, maybe `-dirty`), or empty.
pub const COMMIT: &str = env!("GIT_PRISM_COMMIT");

/// The version as semver with the commit as build metadata (`0.1.0+0123456789ab`), for
/// protocols that expect one word (the MCP server's `serverInfo`).
pub fn semver() -> String {
    if COMMIT.is_empty() {
        env!("CARGO_PKG_VERSION").to_owned()
    } else {
        format!(
            "{}+{}",
            env!("CARGO_PKG_VERSION"),
            COMMIT.replace("-dirty", ".dirty")
        )
    }
}
