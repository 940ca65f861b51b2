//! What a table of contents counts instead of naming: the files of tests, benches, examples,
//! docs and configuration, per directory (the path up to the directory that says their role).

use bstr::ByteSlice;

use super::analysed;
use super::names::counts;
use crate::answer::overview::Ordered;
use crate::answer::role::Role;
use crate::lang::FunctionChange;
use crate::manifest::hunks::display_path;
use crate::manifest::model::FileChange;

/// The most directories [`super::Toc::elsewhere`] names; the rest are counted together.
const MAX_ELSEWHERE: usize = 16;

/// A directory's files are named in its count line when it has at most this many.
const NAMED_FILES: usize = 4;

/// Directory names that say what their files are for: a file under one is counted with it.
const ROLE_DIRS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "__tests__",
    "spec",
    "specs",
    "testdata",
    "fixtures",
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
];

/// The directory a file other than production code is counted under: the path up to the first
/// directory that says its role (`tokio/tests/`), else its top-level directory, else `(top)`.
fn count_dir(path: &[u8]) -> String {
    let text = path.to_str_lossy();
    let parts: Vec<&str> = text.split('/').collect();
    let dirs = &parts[..parts.len().saturating_sub(1)];
    if let Some(at) = dirs
        .iter()
        .position(|d| ROLE_DIRS.contains(&d.to_ascii_lowercase().as_str()))
    {
        return format!("{}/", dirs[..=at].join("/"));
    }
    match dirs.first() {
        Some(d) => format!("{d}/"),
        None => "(top)".to_owned(),
    }
}

/// Files other than production code counted per directory: `14 files +900 -200; tests: 52
/// added, 3 modified`, the files named when a directory has few.
pub(super) fn elsewhere(files: &[FileChange], order: &[usize], roles: &[Role]) -> Ordered<String> {
    let mut dirs: Vec<(String, Count)> = Vec::new();
    for &i in order.iter().filter(|&&i| roles[i] != Role::Production) {
        let f = &files[i];
        let dir = count_dir(&f.path);
        let at = match dirs.iter().position(|(d, _)| *d == dir) {
            Some(at) => at,
            None => {
                dirs.push((dir, Count::default()));
                dirs.len() - 1
            }
        };
        dirs[at].1.add(i, f, roles[i] == Role::Test);
    }
    let rest = dirs.split_off(dirs.len().min(MAX_ELSEWHERE));
    let mut out: Vec<(String, String)> = dirs
        .iter()
        .map(|(d, c)| (d.clone(), c.line(files, d)))
        .collect();
    if !rest.is_empty() {
        let total = Count {
            files: rest
                .iter()
                .flat_map(|(_, c)| c.files.iter().copied())
                .collect(),
            added: rest
                .iter()
                .fold(0u64, |s, (_, c)| s.saturating_add(c.added)),
            removed: rest
                .iter()
                .fold(0u64, |s, (_, c)| s.saturating_add(c.removed)),
            tests: rest.iter().any(|(_, c)| c.tests),
        };
        let key = format!("({} other directories)", rest.len());
        out.push((key.clone(), total.line(files, &key)));
    }
    Ordered(out)
}

/// A directory's files as they are counted.
#[derive(Default)]
struct Count {
    /// The files, as indices into the change's files.
    files: Vec<usize>,
    /// Lines added.
    added: u64,
    /// Lines removed.
    removed: u64,
    /// Whether any of the files is a test.
    tests: bool,
}

impl Count {
    /// Counts the file `f`, the change's file `i`.
    fn add(&mut self, i: usize, f: &FileChange, test: bool) {
        self.files.push(i);
        let (a, r) = f.lines.unwrap_or((0, 0));
        self.added = self.added.saturating_add(a);
        self.removed = self.removed.saturating_add(r);
        self.tests |= test;
    }

    /// The count's line under `dir`, its functions counted, its files named when few.
    fn line(&self, files: &[FileChange], dir: &str) -> String {
        let n = self.files.len();
        let mut line = format!(
            "{n} file{} +{} -{}",
            if n == 1 { "" } else { "s" },
            self.added,
            self.removed
        );
        let changes: Vec<&FunctionChange> = self
            .files
            .iter()
            .filter_map(|&i| analysed(&files[i]))
            .flat_map(|a| &a.changed)
            .collect();
        let counted = counts(changes.into_iter());
        if !counted.is_empty() {
            let word = if self.tests { "tests" } else { "functions" };
            line.push_str(&format!("; {word}: {counted}"));
        }
        if n <= NAMED_FILES {
            let names: Vec<String> = self
                .files
                .iter()
                .map(|&i| {
                    let path = display_path(&files[i].path);
                    match path.strip_prefix(dir) {
                        Some(rest) if !rest.is_empty() => rest.to_owned(),
                        _ => path,
                    }
                })
                .collect();
            line.push_str(&format!(": {}", names.join(", ")));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_directories_end_at_the_one_that_says_the_role() {
        assert_eq!(count_dir(b"tokio/tests/io.rs"), "tokio/tests/");
        assert_eq!(count_dir(b"tests/ui/x.rs"), "tests/");
        assert_eq!(count_dir(b"README.md"), "(top)");
        assert_eq!(count_dir(b"src/lib.md"), "src/");
    }
}
