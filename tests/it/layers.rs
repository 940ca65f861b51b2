//! The layering of `src/`: dependencies point one way, down.
//!
//! Every `crate::<module>` path in the sources (in `use` items, `use crate::{a, b}` groups and
//! inline paths), and every `super::` chain that climbs out to the crate root, is an edge from
//! the file's top-level module to another. Comments and string literals are skipped, so doc
//! links and test inputs that mention `crate::x` are not edges. The test fails when an edge
//! points to a higher layer, when the top-level modules form a cycle, when the files of one
//! module import each other round (`manifest/hunks.rs` and `manifest/snapshot.rs` did), when a
//! module is missing from [`LAYERS`], when a gix path appears outside `src/git/` (the one
//! boundary to gix), when a git argument is spelled outside the git layer and the request
//! grammar, when an error's message prints its source, or when the layer table of
//! `docs/ARCHITECTURE.md` differs from [`LAYERS`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first. A module may import its own layer and the layers below.
const LAYERS: &[&[&str]] = &[
    // The request vocabulary (git's and gh's command-line grammar), finding the real binaries,
    // object ids, and small utilities.
    &[
        "oid",
        "request",
        "confine",
        "budget",
        "paging",
        "paths",
        "locate",
        "time",
        "shell",
        "exit_codes",
        "text",
        "json",
        "unwind",
        "version",
        "fuzz",
        "tokens",
    ],
    // Pure analyses over bytes: they know object ids, not repositories (issue 29: `lang`
    // imported `git` for `Oid`).
    &["lang", "deps"],
    // The only place gix and the git subprocess are touched.
    &["git"],
    &["manifest"],
    &["context"],
    &["answer"],
    // One function per use case, shared by the edges.
    &["query"],
    // The session guard: the scope, and where a call acts (below the shim that enforces it).
    &["guard", "broker"],
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
    /// A string literal's text (escapes left as written); byte strings included.
    Str(String),
    Other(u8),
}

/// Splits Rust source into the tokens that matter for paths and literals, with their lines;
/// comments and char literals are dropped.
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
            let body = i + open + 1;
            let end = src[body..]
                .find(&close)
                .map_or(b.len(), |n| body + n + close.len());
            let text = src[body..end.saturating_sub(close.len()).max(body)].to_owned();
            out.push((Token::Str(text), line));
            skip_to(&mut i, &mut line, end);
        } else if c == b'"' || (c == b'b' && b.get(i + 1) == Some(&b'"')) {
            let start = i + if c == b'b' { 2 } else { 1 };
            let mut j = start;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push((Token::Str(src[start..j.min(b.len())].to_owned()), line));
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
                    other => Token::Other(other),
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
    if base.is_empty() {
        return Vec::new();
    }
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

/// The pseudo-module of items defined in the crate root itself (`src/lib.rs`): above every
/// layer, since the root ties the program together.
const ROOT: &str = "(crate root)";

/// What a `crate::<name>` path names when `name` is not a module: the module a `pub use` in
/// `src/lib.rs` re-exports it from, or [`ROOT`] for an item the root defines.
fn root_names(src: &Path) -> BTreeMap<String, String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let toks = tokens(&lib);
    let ident = |k: usize| match toks.get(k) {
        Some((Token::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    let mut names = BTreeMap::new();
    let mut k = 0;
    while k < toks.len() {
        match ident(k) {
            // `pub use <module>::...::Name;` and `pub use <module>::{A, B as C};`
            Some("use") => {
                let mut j = k + 1;
                if ident(j) == Some("crate") || ident(j) == Some("self") {
                    j += 2;
                }
                let module = ident(j).unwrap_or_default().to_owned();
                let mut last: Option<String> = None;
                while j < toks.len() && toks[j].0 != Token::Other(b';') {
                    if let Some(name) = ident(j) {
                        if name != "as" && name != "self" {
                            last = Some(name.to_owned());
                        }
                    }
                    if matches!(toks[j].0, Token::Comma | Token::Close) {
                        if let Some(name) = last.take() {
                            names.insert(name, module.clone());
                        }
                    }
                    j += 1;
                }
                if let Some(name) = last {
                    names.insert(name, module.clone());
                }
                k = j;
            }
            Some("fn" | "struct" | "enum" | "trait" | "const" | "static" | "type") => {
                if let Some(name) = ident(k + 1) {
                    names.insert(name.to_owned(), ROOT.to_owned());
                }
            }
            _ => {}
        }
        k += 1;
    }
    names
}

/// An edge's target as a module: the module itself, the module a root re-export points to,
/// or [`ROOT`].
fn target_module(to: &str, root: &BTreeMap<String, String>) -> String {
    if layer_of(to).is_some() {
        to.to_owned()
    } else {
        root.get(to).cloned().unwrap_or_else(|| to.to_owned())
    }
}

/// Where an edge's target sits: a module's layer, or above every layer for the crate root.
fn target_layer(to: &str) -> Option<usize> {
    if to == ROOT {
        Some(LAYERS.len())
    } else {
        layer_of(to)
    }
}

/// The top-level modules of the crate, as `src/lib.rs` declares them.
fn declared_modules(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let toks = tokens(&lib);
    toks.windows(3)
        .filter_map(|w| match (&w[0].0, &w[1].0, &w[2].0) {
            (Token::Ident(m), Token::Ident(name), Token::Other(b';')) if m == "mod" => {
                Some(name.clone())
            }
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
    edges_in(&src_dir())
}

/// Every edge between top-level modules of the tree under `src`.
fn edges_in(src: &Path) -> Vec<Edge> {
    let src = src.to_path_buf();
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

/// An import between two parts of one top-level module: `src/manifest/hunks.rs` naming
/// `super::snapshot` (or `crate::manifest::snapshot`) is `manifest`: `hunks` → `snapshot`. A
/// part is a file or directory right under the module's directory; `mod.rs` ties the parts
/// together and is not one.
fn part_edges(src: &Path) -> Vec<(String, String, String, String)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in &files {
        let path = module_path(src, file);
        if path.len() < 2 {
            continue;
        }
        let (module, part) = (&path[0], &path[1]);
        let parts_dir = src.join(module);
        let is_part = |name: &str| {
            name != part.as_str()
                && (parts_dir.join(format!("{name}.rs")).is_file() || parts_dir.join(name).is_dir())
        };
        let toks = tokens(&std::fs::read_to_string(file).unwrap());
        let ident = |k: usize| match toks.get(k) {
            Some((Token::Ident(s), _)) => Some(s.as_str()),
            _ => None,
        };
        let sep = |k: usize| matches!(toks.get(k), Some((Token::PathSep, _)));
        let mut braces: Vec<bool> = Vec::new();
        let mut k = 0;
        while k < toks.len() {
            let line = toks[k].1;
            let mut target: Option<Vec<String>> = None;
            match &toks[k].0 {
                Token::Open => {
                    braces.push(k >= 2 && ident(k - 2) == Some("mod") && ident(k - 1).is_some());
                }
                Token::Close => {
                    braces.pop();
                }
                Token::Ident(w) if w == "crate" && sep(k + 1) && !(k > 0 && sep(k - 1)) => {
                    if let (Some(m), true, Some(p)) = (ident(k + 2), sep(k + 3), ident(k + 4)) {
                        target = Some(vec![m.to_owned(), p.to_owned()]);
                    }
                }
                Token::Ident(w) if w == "super" && !(k > 0 && sep(k - 1)) => {
                    let mut supers = 0;
                    let mut j = k;
                    while ident(j) == Some("super") && sep(j + 1) {
                        supers += 1;
                        j += 2;
                    }
                    // The file's module path, deepened by the inline modules it is in.
                    let depth = path.len() + braces.iter().filter(|m| **m).count();
                    if supers < depth {
                        let mut at = path.clone();
                        at.extend(std::iter::repeat_n(String::new(), depth - path.len()));
                        at.truncate(depth - supers);
                        if let Some(name) = ident(j) {
                            at.push(name.to_owned());
                        }
                        target = Some(at);
                    }
                    k = j.max(k + 1);
                }
                _ => {}
            }
            if let Some(t) = target {
                if t.len() >= 2 && t[0] == *module && is_part(&t[1]) {
                    out.push((
                        module.clone(),
                        part.clone(),
                        t[1].clone(),
                        format!(
                            "{}:{line}",
                            file.strip_prefix(src).unwrap_or(file).display()
                        ),
                    ));
                }
            }
            if !matches!(&toks[k].0, Token::Ident(w) if w == "super") {
                k += 1;
            }
        }
    }
    out
}

/// The cycles among the parts of each top-level module, each as `module: a → b → a (where)`.
fn part_cycles(src: &Path) -> Vec<String> {
    let mut graph: BTreeMap<(String, String), BTreeMap<String, String>> = BTreeMap::new();
    for (module, from, to, at) in part_edges(src) {
        graph
            .entry((module, from))
            .or_default()
            .entry(to)
            .or_insert(at);
    }
    let mut cycles = Vec::new();
    for ((module, a), targets) in &graph {
        for (b, at) in targets {
            // Two parts importing each other, or a longer round through others.
            let mut seen = BTreeSet::new();
            let mut todo = vec![(b.clone(), vec![a.clone(), b.clone()], vec![at.clone()])];
            while let Some((node, trail, wheres)) = todo.pop() {
                if node == *a {
                    if trail.iter().min() == Some(a) {
                        cycles.push(format!(
                            "{module}: {} ({})",
                            trail.join(" → "),
                            wheres.join(", ")
                        ));
                    }
                    continue;
                }
                if !seen.insert(node.clone()) {
                    continue;
                }
                for (next, at) in graph
                    .get(&(module.clone(), node.clone()))
                    .into_iter()
                    .flatten()
                {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    let mut w = wheres.clone();
                    w.push(at.clone());
                    todo.push((next.clone(), t, w));
                }
            }
        }
    }
    cycles.sort();
    cycles.dedup();
    cycles
}

#[test]
fn the_parts_of_a_module_import_each_other_one_way() {
    let cycles = part_cycles(&src_dir());
    assert!(
        cycles.is_empty(),
        "files of one module that import each other round:\n{}",
        cycles.join("\n")
    );
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

/// The layer table of `docs/ARCHITECTURE.md`: each row's layer number and module.
fn documented_layers(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .filter_map(|line| {
            let mut cells = line.strip_prefix('|')?.split('|').map(str::trim);
            let layer = cells.next()?.parse().ok()?;
            let module = cells.next()?.strip_prefix('`')?.strip_suffix('`')?;
            Some((layer, module.to_owned()))
        })
        .collect()
}

// The page that shows the layers must show these: every module, in its layer, in this order.
#[test]
fn the_architecture_page_shows_every_layer_in_order() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md");
    let documented = documented_layers(&std::fs::read_to_string(page).unwrap());
    let expected: Vec<(usize, String)> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, layer)| layer.iter().map(move |m| (i, (*m).to_owned())))
        .collect();
    assert_eq!(
        documented, expected,
        "docs/ARCHITECTURE.md's layer table differs from LAYERS"
    );
}

#[test]
fn no_module_imports_a_layer_above_it() {
    let upward = upward_edges(&src_dir());
    assert!(
        upward.is_empty(),
        "imports that cross a layer upward:\n{}",
        upward.join("\n")
    );
}

/// Every edge of the tree under `src` that points to a higher layer, a root re-export
/// resolved to the module it comes from.
fn upward_edges(src: &Path) -> Vec<String> {
    let root = root_names(src);
    edges_in(src)
        .into_iter()
        .map(|mut e| {
            e.to = target_module(&e.to, &root);
            e
        })
        .filter(|e| match (layer_of(&e.from), target_layer(&e.to)) {
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
        .collect()
}

#[test]
fn top_level_modules_form_no_cycle() {
    let root = root_names(&src_dir());
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in all_edges() {
        let to = target_module(&e.to, &root);
        graph.entry(e.from).or_default().insert(to);
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

/// The string literals of a file outside its test code (`#[cfg(test)] mod ... { ... }` blocks),
/// with their lines.
fn literals_outside_tests(text: &str) -> Vec<(String, usize)> {
    let toks = tokens(text);
    let mut out = Vec::new();
    let mut k = 0;
    let is = |k: usize, t: &Token| toks.get(k).is_some_and(|(x, _)| x == t);
    let ident = |k: usize, name: &str| is(k, &Token::Ident(name.to_owned()));
    while k < toks.len() {
        // `# [ cfg ( test ) ]`, an optional visibility, then `mod name {`: skip the block.
        if is(k, &Token::Other(b'#'))
            && is(k + 1, &Token::Other(b'['))
            && ident(k + 2, "cfg")
            && is(k + 3, &Token::Other(b'('))
            && ident(k + 4, "test")
        {
            let mut j = k + 7;
            if ident(j, "pub") {
                j += 1;
                if is(j, &Token::Other(b'(')) {
                    j += 3;
                }
            }
            if ident(j, "mod") && is(j + 2, &Token::Open) {
                let mut depth = 0;
                j += 2;
                while j < toks.len() {
                    match toks[j].0 {
                        Token::Open => depth += 1,
                        Token::Close => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                k = j + 1;
                continue;
            }
        }
        if let (Token::Str(text), line) = &toks[k] {
            out.push((text.clone(), *line));
        }
        k += 1;
    }
    out
}

/// git subcommands the git layer runs whose names mean nothing else.
const GIT_SUBCOMMANDS: &[&str] = &[
    "diff-tree",
    "ls-tree",
    "ls-files",
    "cat-file",
    "rev-parse",
    "merge-base",
    "for-each-ref",
    "rev-list",
];

/// Literals outside the git layer that are not git arguments although they look like one,
/// each with its file and why.
const NOT_GIT_ARGUMENTS: &[(&str, &str, &str)] = &[(
    "install/rc.rs",
    "-c",
    "a shell's -c, running the user's shell to read its start-up file",
)];

/// The options git-prism's own command line defines (a next page repeats them).
fn own_options() -> BTreeSet<String> {
    use clap::CommandFactory;
    fn walk(cmd: &clap::Command, out: &mut BTreeSet<String>) {
        for arg in cmd.get_arguments() {
            if let Some(long) = arg.get_long() {
                out.insert(format!("--{long}"));
            }
            if let Some(short) = arg.get_short() {
                out.insert(format!("-{short}"));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut out = BTreeSet::new();
    walk(&git_prism::cli::Cli::command(), &mut out);
    out.insert("--".into());
    out
}

/// The git options the git layer and the request grammar spell (the vocabulary of git's
/// command line): every literal there that starts with `-`, up to a `=`.
fn git_vocabulary(src: &Path) -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(&src.join("git"), &mut files);
    rust_files(&src.join("request"), &mut files);
    let mut out = BTreeSet::new();
    for file in files {
        for (lit, _) in literals_outside_tests(&std::fs::read_to_string(&file).unwrap()) {
            if lit.len() < 2 || !lit.starts_with('-') || lit == "--" {
                continue;
            }
            // The model of git's command line writes several options to a literal, as git's
            // usage does (`--format= --[no-]color? -v`).
            for word in lit.split(' ').filter(|w| w.starts_with('-')) {
                let name = word.split('=').next().unwrap_or(word).trim_end_matches('?');
                let names = match name.strip_prefix("--[no-]") {
                    Some(base) => vec![format!("--{base}"), format!("--no-{base}")],
                    None => vec![name.to_owned()],
                };
                out.extend(names.into_iter().filter(|n| n.len() >= 2 && n != "--"));
            }
        }
    }
    out
}

/// Whether `literal` spells the git option `option`: the option itself, with `=<value>`, or a
/// one-letter option with its value attached (`-U1`, `-U{n}`, `-L {a},{b}`).
fn spells(literal: &str, option: &str) -> bool {
    if literal == option {
        return true;
    }
    let Some(rest) = literal.strip_prefix(option) else {
        return false;
    };
    rest.starts_with('=')
        || (option.len() == 2
            && !option.starts_with("--")
            && rest
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit() || c == '{' || c == ' '))
}

/// Every git argument spelled outside the git layer and the request grammar (test code
/// excepted): `path:line: literal`.
fn git_argument_leaks(src: &Path) -> Vec<String> {
    let vocabulary = git_vocabulary(src);
    let own = own_options();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut leaks = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(src).unwrap_or(file);
        let rel_text = rel.to_string_lossy();
        if rel.starts_with("git") || rel.starts_with("request") {
            continue;
        }
        for (lit, line) in literals_outside_tests(&std::fs::read_to_string(file).unwrap()) {
            let allowed = NOT_GIT_ARGUMENTS
                .iter()
                .any(|(f, l, _)| *f == rel_text && *l == lit);
            let name = lit.split(['=', ' ']).next().unwrap_or(&lit);
            let option = lit.starts_with('-')
                && !own.contains(name)
                && vocabulary.iter().any(|o| spells(&lit, o));
            if !allowed && (option || GIT_SUBCOMMANDS.contains(&lit.as_str())) {
                leaks.push(format!("{rel_text}:{line}: \"{lit}\""));
            }
        }
    }
    leaks
}

#[test]
fn git_arguments_are_spelled_only_in_the_git_layer() {
    let leaks = git_argument_leaks(&src_dir());
    assert!(
        leaks.is_empty(),
        "git arguments spelled outside src/git/ (ask the git layer for the fact instead):\n{}",
        leaks.join("\n")
    );
}

/// The error variants (and error structs) of one file whose message prints their own source,
/// as `file:line: Name`: the error convention is that `Display` says what failed, the source
/// says why, and the chain is printed once by whoever reports it (`text::chain`, or `{:#}` at
/// the CLI's edge), so a message that prints its source prints it twice.
///
/// A source is a field named `source` or marked `#[source]` or `#[from]` (as thiserror reads
/// them); a message prints it when its format string names it (`{source}`, `{0}`, `{0:?}`) or
/// an argument reads it (`.source`, `.0`). `#[error(transparent)]` forwards both and is fine.
fn errors_printing_their_source(rel: &str, text: &str) -> Vec<String> {
    let toks = tokens(text);
    let is = |k: usize, t: &Token| toks.get(k).is_some_and(|(x, _)| x == t);
    let ident = |k: usize| match toks.get(k) {
        Some((Token::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    // The end of the bracketed group opening at `k` (`(`, `[` or `{`).
    let close = |k: usize| -> usize {
        let mut depth = 0i32;
        let mut j = k;
        while j < toks.len() {
            match toks[j].0 {
                Token::Open | Token::Other(b'(') | Token::Other(b'[') => depth += 1,
                Token::Close | Token::Other(b')') | Token::Other(b']') => {
                    depth -= 1;
                    if depth == 0 {
                        return j;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        toks.len()
    };
    let mut found = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        // `# [ error ( ... ) ]`
        if !(is(k, &Token::Other(b'#'))
            && is(k + 1, &Token::Other(b'['))
            && ident(k + 2) == Some("error")
            && is(k + 3, &Token::Other(b'(')))
        {
            k += 1;
            continue;
        }
        let line = toks[k].1;
        let args_end = close(k + 3);
        let format: String = toks[k + 4..args_end]
            .iter()
            .find_map(|(t, _)| match t {
                Token::Str(s) => Some(s.clone()),
                _ => None,
            })
            .unwrap_or_default();
        // Fields read by the extra arguments: `.name` / `.0`.
        let mut read: BTreeSet<String> = BTreeSet::new();
        for j in k + 4..args_end {
            if is(j, &Token::Other(b'.')) {
                match toks.get(j + 1) {
                    Some((Token::Ident(name), _)) => {
                        read.insert(name.clone());
                    }
                    Some((Token::Other(d), _)) if d.is_ascii_digit() => {
                        read.insert(char::from(*d).to_string());
                    }
                    _ => {}
                }
            }
        }
        // Past the attribute and any others, to the variant or struct and its fields.
        let mut j = close(k + 1) + 1;
        while is(j, &Token::Other(b'#')) {
            j = close(j + 1) + 1;
        }
        while matches!(ident(j), Some("pub" | "struct" | "enum")) {
            j += 1;
            if is(j, &Token::Other(b'(')) {
                j = close(j) + 1;
            }
        }
        let name = ident(j).unwrap_or("?").to_owned();
        j += 1;
        let mut sources: Vec<String> = Vec::new();
        if is(j, &Token::Open) || is(j, &Token::Other(b'(')) {
            let tuple = is(j, &Token::Other(b'('));
            let end = close(j);
            let mut index = 0;
            let mut attrs = String::new();
            let mut m = j + 1;
            let mut field_start = true;
            while m < end {
                if is(m, &Token::Other(b'#')) {
                    let attr_end = close(m + 1);
                    for (t, _) in &toks[m..attr_end] {
                        if let Token::Ident(s) = t {
                            attrs.push_str(s);
                            attrs.push(' ');
                        }
                    }
                    m = attr_end + 1;
                    continue;
                }
                if field_start && !matches!(ident(m), Some("pub")) {
                    let field = if tuple {
                        index.to_string()
                    } else {
                        ident(m).unwrap_or_default().to_owned()
                    };
                    let marked = attrs.split(' ').any(|a| a == "source" || a == "from");
                    if marked || (!tuple && field == "source") {
                        sources.push(field);
                    }
                    field_start = false;
                }
                match toks[m].0 {
                    Token::Comma => {
                        field_start = true;
                        attrs.clear();
                        index += 1;
                    }
                    Token::Open | Token::Other(b'(') | Token::Other(b'[') | Token::Other(b'<') => {
                        if !matches!(toks[m].0, Token::Other(b'<')) {
                            m = close(m);
                        } else {
                            // Generic arguments: skip to the matching `>`.
                            let mut depth = 0;
                            while m < end {
                                match toks[m].0 {
                                    Token::Other(b'<') => depth += 1,
                                    Token::Other(b'>') => {
                                        depth -= 1;
                                        if depth == 0 {
                                            break;
                                        }
                                    }
                                    _ => {}
                                }
                                m += 1;
                            }
                        }
                    }
                    _ => {}
                }
                m += 1;
            }
        }
        let prints = |field: &str| {
            read.contains(field)
                || format.contains(&format!("{{{field}}}"))
                || format.contains(&format!("{{{field}:"))
        };
        if sources.iter().any(|s| prints(s)) {
            found.push(format!("{rel}:{line}: {name}"));
        }
        k = args_end;
    }
    found
}

/// [`errors_printing_their_source`] over every file of the tree under `src`.
fn source_printed_twice(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            let rel = f.strip_prefix(src).unwrap_or(f).display().to_string();
            errors_printing_their_source(&rel, &std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

#[test]
fn errors_print_what_failed_and_leave_why_to_their_source() {
    let twice = source_printed_twice(&src_dir());
    assert!(
        twice.is_empty(),
        "errors whose message prints their source (say what failed; the chain says why):\n{}",
        twice.join("\n")
    );
}

/// A copy of the crate's `src/` with one file planted in it.
fn planted(path: &str, text: &str) -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    copy(&src_dir(), &src);
    let file = src.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
    dir
}

// Planted violations of each kind must be found, so that the tests above cannot pass by
// seeing nothing.
#[test]
fn each_kind_of_violation_is_found_when_planted() {
    let flags = planted(
        "manifest/planted.rs",
        "fn f(a: &mut Vec<&str>) { a.push(\"--no-textconv\"); }\n",
    );
    let leaks = git_argument_leaks(&flags.path().join("src"));
    assert!(
        leaks.iter().any(|l| l.contains("--no-textconv")),
        "{leaks:?}"
    );
    for spelled in ["\"-U{n}\"", "\"ls-tree\"", "\"--format=%H\""] {
        let dir = planted(
            "answer/planted.rs",
            &format!("fn f() -> &'static str {{ {spelled} }}\n"),
        );
        let leaks = git_argument_leaks(&dir.path().join("src"));
        assert!(!leaks.is_empty(), "{spelled} not found");
    }
    // The same literal in test code is not a leak.
    let in_tests = planted(
        "manifest/planted.rs",
        "#[cfg(test)]\nmod tests {\n    const X: &str = \"--no-textconv\";\n}\n",
    );
    assert!(git_argument_leaks(&in_tests.path().join("src")).is_empty());
    // An upward import through a re-export of the crate root.
    let reexport = planted(
        "lib.rs",
        &(std::fs::read_to_string(src_dir().join("lib.rs")).unwrap()
            + "\npub use cli::Cli as PlantedCli;\n"),
    );
    std::fs::write(
        reexport.path().join("src/git/planted.rs"),
        "use crate::PlantedCli;\n",
    )
    .unwrap();
    let upward = upward_edges(&reexport.path().join("src"));
    assert!(
        upward.iter().any(|e| e.contains("`git` imports `cli`")),
        "{upward:?}"
    );
    // The analyses importing the git layer (issue 29).
    let analyses = planted("lang/planted.rs", "use crate::git::Repo;\n");
    let upward = upward_edges(&analyses.path().join("src"));
    assert!(
        upward.iter().any(|e| e.contains("`lang` imports `git`")),
        "{upward:?}"
    );
    // Two files of one module importing each other (issue 29: `manifest/hunks.rs` and
    // `manifest/snapshot.rs`), one through a `super::` path and one through `crate::`.
    let round = planted(
        "manifest/planted_a.rs",
        "use super::planted_b::B;\npub struct A;\n",
    );
    std::fs::write(
        round.path().join("src/manifest/planted_b.rs"),
        "pub struct B;\nfn f() -> crate::manifest::planted_a::A { crate::manifest::planted_a::A }\n",
    )
    .unwrap();
    let cycles = part_cycles(&round.path().join("src"));
    assert!(
        cycles
            .iter()
            .any(|c| c.contains("manifest: planted_a → planted_b → planted_a")),
        "{cycles:?}"
    );
    // Errors whose message prints their source: a named `source`, a `#[source]` field read by
    // an argument, a tuple's `#[from]` as `{0}`; a message that names other fields, a
    // transparent one and a `{0}` that is not the source are fine.
    let twice = planted(
        "git/planted.rs",
        r#"
#[derive(Debug, thiserror::Error)]
pub enum PlantedError {
    #[error("cannot read '{}': {source}", path.display())]
    Read { path: std::path::PathBuf, source: std::io::Error },
    #[error("cannot parse {}", .cause)]
    Parse {
        #[source]
        cause: std::num::ParseIntError,
    },
    #[error("cannot decode: {0}")]
    Decode(#[from] std::str::Utf8Error),
    #[error("bad value {0}")]
    Value(String),
    #[error("cannot open '{}'", path.display())]
    Open { path: std::path::PathBuf, #[source] error: std::io::Error },
    #[error(transparent)]
    Other(#[from] std::fmt::Error),
}
#[derive(Debug, thiserror::Error)]
#[error("cannot write: {0:?}")]
pub struct PlantedStruct(#[source] pub std::io::Error);
"#,
    );
    let found = source_printed_twice(&twice.path().join("src"));
    let names: Vec<&str> = found
        .iter()
        .filter(|f| f.starts_with("git/planted.rs"))
        .filter_map(|f| f.rsplit(' ').next())
        .collect();
    assert_eq!(
        names,
        ["Read", "Parse", "Decode", "PlantedStruct"],
        "{found:?}"
    );
    // An upward import of an item the crate root defines.
    let root_item = planted("lang/planted.rs", "use crate::run;\n");
    let upward = upward_edges(&root_item.path().join("src"));
    assert!(
        upward.iter().any(|e| e.contains("(crate root)")),
        "{upward:?}"
    );
}
