//! What kind of code a changed file is, for ordering a paged answer's map and hunks when not
//! all fit: production code first, then tests, then everything else (benches, examples, docs,
//! configuration), then untracked files.

use bstr::ByteSlice;

use crate::manifest::model::FileChange;

/// A file's place in the order hunks are shown in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// Code the program runs.
    Production = 0,
    /// Tests.
    Test = 1,
    /// Benches, examples, documentation, configuration.
    Other = 2,
    /// Untracked files (not part of git's diff).
    Untracked = 3,
}

impl Role {
    /// The word used in answers.
    pub fn label(self) -> &'static str {
        match self {
            Role::Production => "production code",
            Role::Test => "tests",
            Role::Other => "benches, examples, docs and configuration",
            Role::Untracked => "untracked files",
        }
    }
}

/// Directories whose files are not production code.
const OTHER_DIRS: &[&str] = &[
    "bench",
    "benches",
    "benchmarks",
    "example",
    "examples",
    "doc",
    "docs",
    "documentation",
    ".github",
    ".circleci",
    "ci",
    "scripts",
    "fixtures",
    "testdata",
];

/// Language labels that are data, documentation or configuration rather than code.
const NOT_CODE: &[&str] = &[
    "asciidoc",
    "config",
    "csv",
    "gitattributes",
    "gitconfig",
    "gitignore",
    "go-checksum",
    "go-module",
    "image",
    "ini",
    "json",
    "jupyter",
    "latex",
    "lockfile",
    "markdown",
    "mdx",
    "pdf",
    "restructuredtext",
    "svg",
    "text",
    "toml",
    "tsv",
    "xml",
    "yaml",
];

/// Extensions of documentation and configuration files.
const OTHER_EXTENSIONS: &[&str] = &[
    "md", "markdown", "rst", "txt", "adoc", "toml", "yaml", "yml", "json", "ini", "cfg", "conf",
    "lock", "xml", "csv", "svg", "html",
];

/// Returns a file's role.
pub fn of(f: &FileChange) -> Role {
    if f.untracked {
        return Role::Untracked;
    }
    let path = f.path.to_str_lossy();
    if crate::context::is_test_path(&path) {
        return Role::Test;
    }
    let mut parts: Vec<&str> = path.split('/').collect();
    let name = parts.pop().unwrap_or("").to_ascii_lowercase();
    if parts
        .iter()
        .any(|d| OTHER_DIRS.contains(&d.to_ascii_lowercase().as_str()))
    {
        return Role::Other;
    }
    // Production code is code: a file whose language is not known is something else.
    let code = f
        .language
        .is_some_and(|language| !NOT_CODE.contains(&language.label()));
    // Every extension counts: `Cargo.toml.orig` and `setup.cfg.in` are configuration too. A
    // README, changelog or licence is one by its name unless it is code (`licenses.go`).
    if name
        .split('.')
        .skip(1)
        .any(|e| OTHER_EXTENSIONS.contains(&e))
        || (!code
            && (name.starts_with("readme")
                || name.starts_with("changelog")
                || name.starts_with("license")))
        || name == "makefile"
        || name == "dockerfile"
        || name.starts_with('.')
    {
        return Role::Other;
    }
    if code { Role::Production } else { Role::Other }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(path: &str, untracked: bool) -> Role {
        let language = crate::manifest::language::from_path(path.as_bytes());
        let f = FileChange {
            path: path.into(),
            old_path: None,
            status: crate::git::facts::Status::Modified,
            similarity: None,
            mode_before: crate::git::Mode::FILE,
            mode_after: crate::git::Mode::FILE,
            oid_before: None,
            oid_after: None,
            lines: Some((1, 0)),
            binary: false,
            size_before: None,
            size_after: None,
            language,
            generated: None,
            generated_by_change: false,
            generated_shown: None,
            untracked,
            functions: crate::manifest::model::Functions::Off,
            outline: Default::default(),
        };
        of(&f)
    }

    #[test]
    fn roles_follow_conventions() {
        for (path, want) in [
            ("src/lib.rs", Role::Production),
            ("tokio/src/runtime/mod.rs", Role::Production),
            ("app.py", Role::Production),
            ("tests/it.rs", Role::Test),
            ("pkg/test_app.py", Role::Test),
            ("web/a.spec.ts", Role::Test),
            ("benches/speed.rs", Role::Other),
            ("examples/demo.rs", Role::Other),
            ("docs/guide/index.md", Role::Other),
            ("README.md", Role::Other),
            ("Cargo.toml", Role::Other),
            ("rust/syn/Cargo.toml.orig", Role::Other),
            (".github/workflows/ci.yml", Role::Other),
            ("Makefile", Role::Other),
            ("python/attrs/CITATION.cff", Role::Other),
            ("python/attrs/PKG-INFO", Role::Other),
            ("web/index.html", Role::Other),
            ("scripts/build.sh", Role::Other),
            ("tools/gen.sh", Role::Production),
            ("cobra/cmd/licenses.go", Role::Production),
            ("LICENSE", Role::Other),
            ("LICENSE-MIT", Role::Other),
            ("CHANGELOG", Role::Other),
        ] {
            assert_eq!(role(path, false), want, "{path}");
        }
        assert_eq!(role("src/lib.rs", true), Role::Untracked);
    }
}
