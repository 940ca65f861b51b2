//! The files on the head side of a range: listing them, finding those that can refer to a
//! name, and analysing those, in parallel and through the per-blob cache.
//!
//! Invariants:
//! - Listing goes through the real git with the same hardening as the manifest (no hooks, no
//!   fsmonitor), from the repository's top level; contents are read as stored (no filters).
//! - Working-tree files are read through [`crate::git::worktree`] only: regular files inside
//!   the working tree, reached without following any symlink, at most
//!   [`lang::MAX_FILE_BYTES`]; their cache key is a hash of their content.
//! - Every parse is bounded as in [`crate::lang`]; at most [`MAX_PARSED`] files are analysed
//!   per request.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bstr::{BStr, BString, ByteSlice};
use rayon::prelude::*;

use crate::git::repo::Objects;
use crate::git::revs::{Head, Target};
use crate::git::{GitError, Oid, Repo, worktree};
use crate::lang::{self, Analysis, Language};
use crate::manifest::language;

/// At most this many files are analysed for one request.
pub const MAX_PARSED: usize = 20_000;

/// One file on the head side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadFile {
    /// Path from the repository's top level, as shown (a name that is not UTF-8 is shown
    /// lossily, and is what the file is known by in a context).
    pub path: String,
    /// The path's bytes, as git lists them (to read the file by).
    pub bytes: BString,
    /// Blob id (`None` for working-tree content).
    pub oid: Option<Oid>,
    /// Its language.
    pub language: Language,
}

/// The head side's files in languages with an analyzer.
#[derive(Debug, Default)]
pub struct HeadTree {
    workdir: Option<PathBuf>,
    files: Vec<HeadFile>,
    by_path: HashMap<String, usize>,
    /// Every path on the head side, analysable or not: its bytes and blob id, by shown path.
    all: HashMap<String, (BString, Option<Oid>)>,
}

impl HeadTree {
    /// Lists the head side of `target`.
    pub fn list(repo: &Repo, target: &Target) -> Result<HeadTree, GitError> {
        let mut tree = HeadTree {
            workdir: repo.workdir().map(Path::to_path_buf),
            ..HeadTree::default()
        };
        let entries: Vec<(BString, Option<Oid>)> = match (target.head, &target.head_sha) {
            (Head::Object, Some(sha)) => repo
                .blobs_of_tree(sha)?
                .into_iter()
                .map(|(p, oid)| (p, Some(oid)))
                .collect(),
            (Head::Index, _) => repo
                .blobs_of_index()?
                .into_iter()
                .map(|(p, oid)| (p, Some(oid)))
                .collect(),
            _ => {
                let Some(top) = tree.workdir.clone() else {
                    return Ok(tree);
                };
                repo.worktree_paths()?
                    .into_iter()
                    .filter(|p| {
                        matches!(
                            worktree::open(&top, &p[..]),
                            Ok(Some(worktree::Entry::File { .. }))
                        )
                    })
                    .map(|p| (p, None))
                    .collect()
            }
        };
        for (bytes, oid) in entries {
            // A name that is not UTF-8 is known by its lossy form; the index lists a conflicted
            // path once per stage. Either way the first entry is the file analysed.
            let path = bytes.to_str_lossy().into_owned();
            tree.all.insert(path.clone(), (bytes.clone(), oid.clone()));
            let Some(language) = language::from_path(&bytes) else {
                continue;
            };
            if lang::for_language(language).is_none() || tree.by_path.contains_key(&path) {
                continue;
            }
            tree.by_path.insert(path.clone(), tree.files.len());
            tree.files.push(HeadFile {
                path,
                bytes,
                oid,
                language,
            });
        }
        Ok(tree)
    }

    /// The analysable file at `path`.
    pub fn get(&self, path: &str) -> Option<&HeadFile> {
        self.by_path.get(path).map(|i| &self.files[*i])
    }

    /// Every file (analysable or not) whose name is `name`, with its bytes and blob id, by
    /// path.
    pub fn manifests(&self, name: &str) -> Vec<(String, BString, Option<Oid>)> {
        let mut out: Vec<(String, BString, Option<Oid>)> = self
            .all
            .iter()
            .filter(|(p, _)| p.rsplit('/').next() == Some(name))
            .map(|(p, (bytes, oid))| (p.clone(), bytes.clone(), oid.clone()))
            .collect();
        out.sort();
        out
    }

    /// Reads any file on the head side (by blob id, or from the working tree by its bytes).
    pub fn read(&self, objects: &Objects, path: &BStr, oid: Option<&Oid>) -> Option<Vec<u8>> {
        match oid {
            Some(oid) => objects.blob(oid).ok(),
            None => match worktree::read(self.workdir.as_ref()?, path, lang::MAX_FILE_BYTES as u64)
            {
                Ok(Some(worktree::Content::File(bytes))) => Some(bytes),
                _ => None,
            },
        }
    }

    /// Every analysable file.
    pub fn files(&self) -> &[HeadFile] {
        &self.files
    }

    /// Reads a file's content on the head side.
    pub fn content(&self, objects: &Objects, file: &HeadFile) -> Option<Vec<u8>> {
        self.read(objects, file.bytes.as_bstr(), file.oid.as_ref())
    }
}

/// Analyses one blob or content through the cache.
pub fn analyse(
    language: Language,
    oid: Option<&str>,
    read: impl FnOnce() -> Option<Vec<u8>>,
) -> Option<Analysis> {
    let label = language.label();
    if let Some(hit) = oid.and_then(|o| lang::cache::get(o, label)) {
        return Some(hit);
    }
    let content = read()?;
    // The key is the id git gives this content: a committed blob's id when the content is
    // what it names, the same computation for working-tree content (see `lang::cache`).
    let key = match oid.map(Oid::parse) {
        Some(Ok(id)) if id.names_blob(&content) => Some(id),
        Some(_) => None,
        None => Oid::of_blob(&content),
    };
    if oid.is_none() {
        if let Some(hit) = key.as_ref().and_then(|k| lang::cache::get(k, label)) {
            return Some(hit);
        }
    }
    let analysis = lang::analyze(language, &content)?;
    if let Some(key) = key.filter(|_| !analysis.of_the_call()) {
        lang::cache::put(&key, label, &analysis);
    }
    Some(analysis)
}

/// The analyses of the head-side files in `languages` that can refer to one of `names`, found in
/// parallel: a file analysed before (cached by blob id) refers to a name when one of its calls
/// or imports has it; any other file is read and searched for the names as whole words (one
/// pass for all names), and analysed only when it has one.
pub fn mentioning(
    repo: &Repo,
    tree: &HeadTree,
    names: &[&str],
    languages: &[Language],
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
        .filter(|f| languages.contains(&f.language))
        .collect();
    let deadline = lang::deadline();
    let found: Vec<(String, Analysis)> = files
        .into_par_iter()
        .map_init(
            || repo.objects(),
            |objects, file| {
                lang::within(deadline, || {
                    if let Some(hit) = file
                        .oid
                        .as_deref()
                        .and_then(|o| lang::cache::get(o, file.language.label()))
                    {
                        return refers(&hit, names).then(|| (file.path.clone(), hit));
                    }
                    let content = tree.content(objects, file)?;
                    if !has_word(&searcher, &content) {
                        return None;
                    }
                    let analysis = analyse(file.language, file.oid.as_deref(), || Some(content))?;
                    Some((file.path.clone(), analysis))
                })
            },
        )
        .flatten()
        .collect();
    found.into_iter().take(MAX_PARSED).collect()
}

/// Whether an analysis defines, calls or imports one of `names` (a cached analysis stands for
/// the word search of the file's text, which would have found any of them).
fn refers(analysis: &Analysis, names: &[&str]) -> bool {
    let leaf = |name: &str| {
        name.rsplit(['.', ':', '#'])
            .next()
            .unwrap_or(name)
            .to_owned()
    };
    analysis
        .calls
        .iter()
        .any(|c| names.contains(&c.site.name.as_str()))
        || analysis
            .functions
            .iter()
            .any(|f| names.contains(&leaf(&f.name).as_str()))
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
    let deadline = lang::deadline();
    files
        .into_par_iter()
        .map_init(
            || repo.objects(),
            |objects, file| {
                lang::within(deadline, || {
                    let analysis = analyse(file.language, file.oid.as_deref(), || {
                        tree.content(objects, file)
                    })?;
                    Some((file.path.clone(), analysis))
                })
            },
        )
        .flatten()
        .collect()
}
