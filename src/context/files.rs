//! The files on the head side of a range: listing them, finding those that can refer to a
//! name, and analysing those, in parallel and through the per-blob cache.
//!
//! Invariants:
//! - Listing goes through the real git with the same hardening as the manifest (no hooks, no
//!   fsmonitor), from the repository's top level; contents are read as stored (no filters).
//! - Working-tree files are read from disk only when they are regular files (a symlink is
//!   never followed out of the repository); their cache key is a hash of their content.
//! - Every parse is bounded as in [`crate::lang`]; at most [`MAX_PARSED`] files are analysed
//!   per request.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::git::repo::Objects;
use crate::git::revs::{Head, Target};
use crate::git::{GitError, Repo};
use crate::lang::{self, Analysis};
use crate::manifest::language;

/// At most this many files are analysed for one request.
pub const MAX_PARSED: usize = 20_000;

/// One file on the head side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadFile {
    /// Path from the repository's top level.
    pub path: String,
    /// Blob id (`None` for working-tree content).
    pub oid: Option<String>,
    /// Language label.
    pub label: &'static str,
}

/// The head side's files in languages with an analyzer.
#[derive(Debug, Default)]
pub struct HeadTree {
    workdir: Option<PathBuf>,
    files: Vec<HeadFile>,
    by_path: HashMap<String, usize>,
    /// Every path on the head side, analysable or not, with its blob id.
    all: HashMap<String, Option<String>>,
}

impl HeadTree {
    /// Lists the head side of `target`.
    pub fn list(repo: &Repo, target: &Target) -> Result<HeadTree, GitError> {
        let mut tree = HeadTree {
            workdir: repo.workdir().map(Path::to_path_buf),
            ..HeadTree::default()
        };
        let entries: Vec<(String, Option<String>)> = match (target.head, &target.head_sha) {
            (Head::Object, Some(sha)) => {
                let out = repo
                    .git
                    .output(["ls-tree", "-r", "-z", "--full-tree", sha.as_str()])?;
                records(&out)
                    .filter_map(|r| {
                        // `<mode> <type> <oid>\t<path>`
                        let (meta, path) = r.split_once('\t')?;
                        let mut parts = meta.split(' ');
                        let (mode, kind, oid) = (parts.next()?, parts.next()?, parts.next()?);
                        (kind == "blob" && mode != "120000")
                            .then(|| (path.to_owned(), Some(oid.to_owned())))
                    })
                    .collect()
            }
            (Head::Index, _) => {
                let out = repo
                    .git
                    .output(["ls-files", "-s", "-z", "--full-name", ":(top)"])?;
                records(&out)
                    .filter_map(|r| {
                        // `<mode> <oid> <stage>\t<path>`
                        let (meta, path) = r.split_once('\t')?;
                        let mut parts = meta.split(' ');
                        let (mode, oid) = (parts.next()?, parts.next()?);
                        (mode != "120000" && mode != "160000")
                            .then(|| (path.to_owned(), Some(oid.to_owned())))
                    })
                    .collect()
            }
            _ => {
                let Some(top) = tree.workdir.clone() else {
                    return Ok(tree);
                };
                let out = repo.git.output([
                    "ls-files",
                    "-z",
                    "--full-name",
                    "--cached",
                    "--others",
                    "--exclude-standard",
                    ":(top)",
                ])?;
                records(&out)
                    .filter(|p| {
                        std::fs::symlink_metadata(top.join(p))
                            .is_ok_and(|m| m.file_type().is_file())
                    })
                    .map(|p| (p.to_owned(), None))
                    .collect()
            }
        };
        for (path, oid) in entries {
            tree.all.insert(path.clone(), oid.clone());
            let Some(label) = language::from_path(path.as_bytes()) else {
                continue;
            };
            if lang::for_label(label).is_none() || tree.by_path.contains_key(&path) {
                continue;
            }
            tree.by_path.insert(path.clone(), tree.files.len());
            tree.files.push(HeadFile { path, oid, label });
        }
        Ok(tree)
    }

    /// The analysable file at `path`.
    pub fn get(&self, path: &str) -> Option<&HeadFile> {
        self.by_path.get(path).map(|i| &self.files[*i])
    }

    /// Every file (analysable or not) whose name is `name`, with its blob id, by path.
    pub fn manifests(&self, name: &str) -> Vec<(String, Option<String>)> {
        let mut out: Vec<(String, Option<String>)> = self
            .all
            .iter()
            .filter(|(p, _)| p.rsplit('/').next() == Some(name))
            .map(|(p, o)| (p.clone(), o.clone()))
            .collect();
        out.sort();
        out
    }

    /// Reads any file on the head side (by blob id, or from the working tree).
    pub fn read(&self, objects: &Objects, path: &str, oid: Option<&str>) -> Option<Vec<u8>> {
        match oid {
            Some(oid) => objects.blob(oid).ok(),
            None => {
                let path = self.workdir.as_ref()?.join(path);
                let meta = std::fs::symlink_metadata(&path).ok()?;
                if !meta.file_type().is_file() || meta.len() > lang::MAX_FILE_BYTES as u64 {
                    return None;
                }
                std::fs::read(path).ok()
            }
        }
    }

    /// Every analysable file.
    pub fn files(&self) -> &[HeadFile] {
        &self.files
    }

    /// Reads a file's content on the head side.
    pub fn content(&self, objects: &Objects, file: &HeadFile) -> Option<Vec<u8>> {
        self.read(objects, &file.path, file.oid.as_deref())
    }
}

/// Splits NUL-terminated records, skipping non-UTF-8 ones (paths git-prism cannot name in
/// JSON without loss are left out of the scan).
fn records(out: &[u8]) -> impl Iterator<Item = &str> {
    out.split(|b| *b == 0)
        .filter(|r| !r.is_empty())
        .filter_map(|r| std::str::from_utf8(r).ok())
}

/// The cache key of content without a blob id: its FNV-1a hash and length, 24 hex digits
/// (never a git object id, which has 40 or 64).
pub fn content_key(content: &[u8]) -> String {
    format!("{:016x}{:08x}", lang::fnv(content), content.len() as u32)
}

/// Analyses one blob or content through the cache.
pub fn analyse(
    label: &'static str,
    oid: Option<&str>,
    read: impl FnOnce() -> Option<Vec<u8>>,
) -> Option<Analysis> {
    if let Some(hit) = oid.and_then(|o| lang::cache::get(o, label)) {
        return Some(hit);
    }
    let content = read()?;
    let key = match oid {
        Some(o) => o.to_owned(),
        None => content_key(&content),
    };
    if oid.is_none() {
        if let Some(hit) = lang::cache::get(&key, label) {
            return Some(hit);
        }
    }
    let analysis = lang::analyze(label, &content)?;
    if !analysis
        .skipped
        .as_deref()
        .is_some_and(|r| r.contains(lang::OVER_BUDGET))
    {
        lang::cache::put(&key, label, &analysis);
    }
    Some(analysis)
}

/// The analyses of the head-side files in `labels` that can refer to one of `names`, found in
/// parallel: a file analysed before (cached by blob id) refers to a name when one of its calls
/// or imports has it; any other file is read and searched for the names as whole words (one
/// pass for all names), and analysed only when it has one.
pub fn mentioning(
    repo: &Repo,
    tree: &HeadTree,
    names: &[&str],
    labels: &[&'static str],
) -> HashMap<String, Analysis> {
    if names.is_empty() {
        return HashMap::new();
    }
    let Ok(searcher) = aho_corasick::AhoCorasick::new(names) else {
        return HashMap::new();
    };
    let files: Vec<&HeadFile> = tree
        .files
        .iter()
        .filter(|f| labels.contains(&f.label))
        .collect();
    let found: Vec<(String, Analysis)> = files
        .into_par_iter()
        .map_init(
            || repo.objects(),
            |objects, file| {
                if let Some(hit) = file
                    .oid
                    .as_deref()
                    .and_then(|o| lang::cache::get(o, file.label))
                {
                    return refers(&hit, names).then(|| (file.path.clone(), hit));
                }
                let content = tree.content(objects, file)?;
                if !has_word(&searcher, &content) {
                    return None;
                }
                let analysis = analyse(file.label, file.oid.as_deref(), || Some(content))?;
                Some((file.path.clone(), analysis))
            },
        )
        .flatten()
        .collect();
    found.into_iter().take(MAX_PARSED).collect()
}

/// Whether an analysis has a call or an import naming one of `names`.
fn refers(analysis: &Analysis, names: &[&str]) -> bool {
    analysis
        .calls
        .iter()
        .any(|c| names.contains(&c.site.name.as_str()))
        || analysis.imports.iter().any(|i| {
            i.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .any(|w| names.contains(&w))
        })
}

/// Whether `content` holds one of the searcher's names as a whole word.
fn has_word(searcher: &aho_corasick::AhoCorasick, content: &[u8]) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    searcher.find_overlapping_iter(content).any(|m| {
        let before = m.start().checked_sub(1).map(|i| content[i]);
        let after = content.get(m.end()).copied();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// Analyses the head-side files at `paths` in parallel; files that cannot be read or
/// analysed are left out.
pub fn analyse_all(repo: &Repo, tree: &HeadTree, paths: &[String]) -> HashMap<String, Analysis> {
    let files: Vec<&HeadFile> = paths
        .iter()
        .filter_map(|p| tree.get(p))
        .take(MAX_PARSED)
        .collect();
    files
        .into_par_iter()
        .map_init(
            || repo.objects(),
            |objects, file| {
                let analysis = analyse(file.label, file.oid.as_deref(), || {
                    tree.content(objects, file)
                })?;
                Some((file.path.clone(), analysis))
            },
        )
        .flatten()
        .collect()
}
