//! The layering of `src/`: dependencies point one way, down.
//!
//! Every `crate::<module>` path in the sources (in `use` items, `use crate::{a, b}` groups and
//! inline paths), and every `super::` chain that climbs out to the crate root, is an edge from
//! the file's top-level module to another. Comments and string literals are skipped, so doc
//! links and test inputs that mention `crate::x` are not edges. The test fails when an edge
//! points to a higher layer, when the top-level modules form a cycle, when a module is missing
//! from [`LAYERS`], or when a gix path appears outside `src/git/` (the one boundary to gix).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first. A module may import its own layer and the layers below.
const LAYERS: &[&[&str]] = &[
    // The request vocabulary (git's and gh's command-line grammar), finding the real binaries,
    // and small utilities.
    &[
        "request",
        "budget",
        "paging",
        "locate",
        "time",
        "shell",
        "exit_codes",
        "text",
        "unwind",
        "fuzz",
    ],
    // The only place gix and the git subprocess are touched.
    &["git"],
    // Pure analyses over bytes.
    &["lang", "deps"],
    &["manifest"],
    &["context"],
    &["answer"],
    // The program's edges.
    &["shim", "serve", "install"],
    &["cli"],
];

/// An import found in a file.
#[derive(Debug)]
struct Edge {
    file: PathBuf,
    line: usize,
    from: String,
    to: String,
}

#[derive(Debug, PartialEq)]
enum Token {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Other,
}

/// Splits Rust source into the tokens that matter for paths, with their lines; comments,
/// string, byte-string, raw-string and char literals are dropped.
fn tokens(src: &str) -> Vec<(Token, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let skip_to = |i: &mut usize, line: &mut usize, end: usize| {
        *line += b[*i..end].iter().filter(|c| **c == b'\n').count();
        *i = end;
    };
    while i < b.len() {
        let c = b[i];
        let rest = &src[i..];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |n| i + n);
            i = end;
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if src[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if src[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            skip_to(&mut i, &mut line, j);
        } else if let Some(hashes) = raw_string_start(rest) {
            let open = rest.find('"').unwrap_or(0);
            let close = format!("\"{}", "#".repeat(hashes));
            let end = src[i + open + 1..]
                .find(&close)
                .map_or(b.len(), |n| i + open + 1 + n + close.len());
            skip_to(&mut i, &mut line, end);
        } else if c == b'"' || (c == b'b' && b.get(i + 1) == Some(&b'"')) {
            let mut j = i + if c == b'b' { 2 } else { 1 };
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            skip_to(&mut i, &mut line, (j + 1).min(b.len()));
        } else if c == b'\'' {
            // A char literal (`'a'`, `'\n'`, `'\u{1F600}'`) or a lifetime (`'a`).
            let body = &b[i + 1..];
            let len = if body.first() == Some(&b'\\') {
                body.iter().position(|c| *c == b'\'').map(|n| n + 2)
            } else {
                let ch = rest[1..].chars().next().map_or(1, char::len_utf8);
                (body.get(ch) == Some(&b'\'')).then_some(ch + 2)
            };
            i += len.unwrap_or(1);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let end = rest
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .map_or(b.len(), |n| i + n);
            out.push((Token::Ident(src[i..end].to_owned()), line));
            i = end;
        } else if rest.starts_with("::") {
            out.push((Token::PathSep, line));
            i += 2;
        } else {
            out.push((
                match c {
                    b'{' => Token::Open,
                    b'}' => Token::Close,
                    b',' => Token::Comma,
                    _ => Token::Other,
                },
                line,
            ));
            i += 1;
        }
    }
    out
}

/// The number of `#` of a raw string starting here (`r"`, `r#"`, `br##"`...).
fn raw_string_start(rest: &str) -> Option<usize> {
    let after = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r'))?;
    let hashes = after.bytes().take_while(|c| *c == b'#').count();
    (after.as_bytes().get(hashes) == Some(&b'"')).then_some(hashes)
}

/// The module path of a file: `src/context/resolve.rs` is `[context, resolve]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The top-level modules a file's paths name.
fn edges_of(src: &Path, file: &Path) -> Vec<Edge> {
    let text = std::fs::read_to_string(file).unwrap();
    let base = module_path(src, file);
    let from = base[0].clone();
    let toks = tokens(&text);
    let mut edges = Vec::new();
    let mut push = |to: &str, line: usize| {
        if to != from && to != "self" && to != "super" {
            edges.push(Edge {
                file: file.to_owned(),
                line,
                from: from.clone(),
                to: to.to_owned(),
            });
        }
    };
    // Inline `mod x { ... }` blocks deepen the module path for `super::`.
    let mut braces: Vec<bool> = Vec::new();
    let ident = |k: usize| match toks.get(k) {
        Some((Token::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    let sep = |k: usize| matches!(toks.get(k), Some((Token::PathSep, _)));
    let mut k = 0;
    while k < toks.len() {
        let line = toks[k].1;
        match &toks[k].0 {
            Token::Open => {
                let inline_mod = k >= 2 && ident(k - 2) == Some("mod") && ident(k - 1).is_some();
                braces.push(inline_mod);
            }
            Token::Close => {
                braces.pop();
            }
            Token::Ident(word) if word == "crate" && sep(k + 1) && !(k > 0 && sep(k - 1)) => {
                match &toks.get(k + 2).map(|t| &t.0) {
                    Some(Token::Ident(to)) => push(to, line),
                    Some(Token::Open) => {
                        // `crate::{a, b::c, d::{e, f}}`: the first name of each item.
                        let mut depth = 0;
                        let mut first = true;
                        for (tok, l) in &toks[k + 2..] {
                            match tok {
                                Token::Open => {
                                    depth += 1;
                                    first = depth == 1;
                                }
                                Token::Close => {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                }
                                Token::Comma if depth == 1 => first = true,
                                Token::Ident(to) if first && depth == 1 => {
                                    push(to, *l);
                                    first = false;
                                }
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            Token::Ident(word) if word == "super" && !(k > 0 && sep(k - 1)) => {
                let mut supers = 0;
                let mut j = k;
                while ident(j) == Some("super") && sep(j + 1) {
                    supers += 1;
                    j += 2;
                }
                let depth = base.len() + braces.iter().filter(|m| **m).count();
                if supers >= depth {
                    if let Some(to) = ident(j) {
                        push(to, line);
                    }
                }
                k = j.max(k + 1);
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    edges
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level modules of the crate, as `src/lib.rs` declares them.
fn declared_modules(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let toks = tokens(&lib);
    toks.windows(3)
        .filter_map(|w| match (&w[0].0, &w[1].0, &w[2].0) {
            (Token::Ident(m), Token::Ident(name), Token::Other) if m == "mod" => Some(name.clone()),
            _ => None,
        })
        .collect()
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every edge between top-level modules, from every module file (the crate root and the
/// binary's entry point are not modules of a layer).
fn all_edges() -> Vec<Edge> {
    let src = src_dir();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .iter()
        .filter(|f| {
            !matches!(
                f.strip_prefix(&src).ok().and_then(Path::to_str),
                Some("lib.rs" | "main.rs")
            )
        })
        .flat_map(|f| edges_of(&src, f))
        .collect()
}

#[test]
fn every_module_has_a_layer() {
    let modules = declared_modules(&src_dir());
    assert!(modules.len() > 5, "lib.rs declares {modules:?}");
    let missing: Vec<&String> = modules.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        missing.is_empty(),
        "modules without a layer in LAYERS: {missing:?}"
    );
}

#[test]
fn no_module_imports_a_layer_above_it() {
    let upward: Vec<String> = all_edges()
        .into_iter()
        .filter(|e| match (layer_of(&e.from), layer_of(&e.to)) {
            (Some(from), Some(to)) => to > from,
            _ => false,
        })
        .map(|e| {
            format!(
                "{}:{}: `{}` imports `{}`",
                e.file.strip_prefix(src_dir()).unwrap_or(&e.file).display(),
                e.line,
                e.from,
                e.to
            )
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports that cross a layer upward:\n{}",
        upward.join("\n")
    );
}

#[test]
fn top_level_modules_form_no_cycle() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in all_edges() {
        graph.entry(e.from).or_default().insert(e.to);
    }
    // Depth-first search for a back edge.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, stack, done) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, &graph, &mut Vec::new(), &mut done) {
            panic!("a cycle among top-level modules: {}", cycle.join(" → "));
        }
    }
}

#[test]
fn gix_is_named_only_in_the_git_module() {
    let src = src_dir();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut leaks = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(src.join("git"))) {
        let toks = tokens(&std::fs::read_to_string(file).unwrap());
        for w in toks.windows(2) {
            if let (Token::Ident(name), Token::PathSep) = (&w[0].0, &w[1].0) {
                if name == "gix" {
                    leaks.push(format!(
                        "{}:{}",
                        file.strip_prefix(&src).unwrap_or(file).display(),
                        w[0].1
                    ));
                }
            }
        }
    }
    assert!(leaks.is_empty(), "gix named outside src/git/: {leaks:?}");
}

/// The scanner itself: what counts as an edge and what does not.
#[test]
fn the_scanner_finds_paths_and_skips_comments_and_strings() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("low/deep")).unwrap();
    let file = src.join("low/deep/x.rs");
    std::fs::write(
        &file,
        r##"//! Doc link to [`crate::cli`], not an edge.
use crate::git::Repo;
use crate::{manifest::page, lang, deps::{self, Format}};
fn f() -> usize {
    let _ = "crate::answer";
    let _ = r#"crate::shim"#;
    let _c = '"';
    crate::context::build();
    super::super::super::serve::x();
    super::super::sibling();
    /* crate::install */
    0
}
mod tests {
    use super::super::super::super::request;
    use super::super::super::not_an_edge;
}
"##,
    )
    .unwrap();
    let mut found: Vec<(String, usize)> = edges_of(&src, &file)
        .into_iter()
        .map(|e| (e.to, e.line))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("context".to_owned(), 8),
            ("deps".to_owned(), 3),
            ("git".to_owned(), 2),
            ("lang".to_owned(), 3),
            ("manifest".to_owned(), 3),
            ("request".to_owned(), 15),
            ("serve".to_owned(), 9),
        ]
    );
}
