//! Rust: a module is its file's path in its crate; `use` with `crate::`, `self::`, `super::`
//! and crate names binds names and globs; `self.m()` and `Self::m()` name the enclosing type's
//! methods; a re-export anywhere up the crate names a definition.

use super::{AbsPath, FileView, Imports, Project, Resolution, Rules, child, reexported, under};
use crate::lang::CallSite;

pub(super) struct Rust;

impl Rules for Rust {
    fn separator(&self) -> &'static str {
        "::"
    }

    fn module(&self, project: &Project, file: &str) -> AbsPath {
        let (dir, name) = project.crate_of(file);
        let rel = &file[dir.len()..];
        let stem = rel.strip_suffix(".rs").unwrap_or(rel);
        let parts: Vec<&str> = stem.split('/').collect();
        match parts.as_slice() {
            ["src", "lib" | "main"] => vec![name],
            ["src", "bin", ..] => vec![format!("{name}#{stem}")],
            ["src", rest @ ..] => {
                let mut out = vec![name];
                out.extend(rest.iter().map(|s| (*s).to_owned()));
                if out.last().is_some_and(|l| l == "mod") {
                    out.pop();
                }
                out
            }
            // Integration tests, benches and examples are crates of their own.
            [dir @ ("tests" | "benches" | "examples"), first, ..] => {
                let first = if parts.len() > 2 {
                    *first
                } else {
                    stem.rsplit('/').next().unwrap_or(first)
                };
                vec![format!("{name}#{dir}/{first}")]
            }
            ["build"] => vec![format!("{name}#build")],
            rest => {
                let mut out = vec![name];
                out.extend(rest.iter().map(|s| (*s).to_owned()));
                if out.last().is_some_and(|l| l == "mod") {
                    out.pop();
                }
                out
            }
        }
    }

    /// `<Type as Trait>` counts as `Type`.
    fn segments(&self, qualified: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut current = String::new();
        let bytes = qualified.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b'<' => depth += 1,
                b'>' => depth = depth.saturating_sub(1),
                b':' if depth == 0 && bytes.get(i + 1) == Some(&b':') => {
                    out.push(std::mem::take(&mut current));
                    i += 2;
                    continue;
                }
                _ => {}
            }
            current.push(c as char);
            i += 1;
        }
        out.push(current);
        out.into_iter()
            .map(|s| match s.strip_prefix('<') {
                Some(inner) => {
                    let ty = inner.split(" as ").next().unwrap_or(inner);
                    ty.split('<')
                        .next()
                        .unwrap_or(ty)
                        .trim_end_matches('>')
                        .to_owned()
                }
                None => s,
            })
            .collect()
    }

    fn bind(
        &self,
        project: &Project,
        _file: &str,
        module: &AbsPath,
        import: &str,
        into: &mut Imports,
    ) {
        if let Some(rest) = import.strip_prefix("extern crate ") {
            let (name, alias) = rest.split_once(" as ").unwrap_or((rest, rest));
            into.bindings
                .insert(alias.to_owned(), vec![name.to_owned()]);
            return;
        }
        let (path, alias) = match import.split_once(" as ") {
            Some((p, a)) => (p, Some(a)),
            None => (import, None),
        };
        let segs: Vec<&str> = path.split("::").collect();
        if segs.last() == Some(&"*") {
            into.globs
                .push(absolute(project, module, &segs[..segs.len() - 1]));
            return;
        }
        let Some(last) = segs.last() else { return };
        let key = alias.unwrap_or(last);
        if key != "_" {
            into.bindings
                .insert(key.to_owned(), absolute(project, module, &segs));
        }
    }

    fn qualified(
        &self,
        project: &Project,
        view: &FileView,
        site: &CallSite,
        enclosing: Option<Vec<String>>,
    ) -> Resolution {
        let name = &site.name;
        if site.member {
            return match (site.qualifier.as_str(), enclosing) {
                ("self", Some(ty)) => Resolution::Paths(vec![under(&view.module, &ty, name)]),
                _ => Resolution::Receiver,
            };
        }
        let segs: Vec<&str> = site.qualifier.split("::").collect();
        if segs.first().is_some_and(|s| s.starts_with('<')) {
            return Resolution::Receiver;
        }
        let base = match (segs[0], &enclosing) {
            ("Self", Some(ty)) => {
                let mut b = view.module.clone();
                b.extend(ty.iter().cloned());
                b.extend(segs[1..].iter().map(|s| (*s).to_owned()));
                b
            }
            (first, _) => match view.bindings.get(first) {
                Some(bound) => {
                    let mut b = bound.clone();
                    b.extend(segs[1..].iter().map(|s| (*s).to_owned()));
                    b
                }
                None => {
                    // A name from a glob import (`use super::*; Cart::new()`), or one
                    // relative to this module.
                    let keyword = matches!(first, "crate" | "$crate" | "self" | "super" | "")
                        || project.is_crate(first);
                    let globs = if keyword { &[][..] } else { &view.globs[..] };
                    let mut paths: Vec<AbsPath> =
                        globs.iter().map(|g| under(g, &segs, name)).collect();
                    paths.push(child(&absolute(project, &view.module, &segs), name));
                    return Resolution::Paths(paths);
                }
            },
        };
        Resolution::Paths(vec![child(&base, name)])
    }

    /// A re-export sits in an enclosing module, the crate's root included.
    fn named_through(&self, qualified: &[String], module: &AbsPath, path: &AbsPath) -> bool {
        reexported(qualified, module, path, true)
    }

    fn module_files(&self, project: &Project, module: &AbsPath) -> Vec<String> {
        let Some(root) = module.first() else {
            return Vec::new();
        };
        let (name, special) = match root.split_once('#') {
            Some((n, s)) => (n, Some(s)),
            None => (root.as_str(), None),
        };
        let dir = project.dir_of(name).unwrap_or("");
        let rel = module[1..].join("/");
        match (special, rel.is_empty()) {
            (Some(s), true) => vec![format!("{dir}{s}.rs"), format!("{dir}{s}/main.rs")],
            (Some(s), false) => vec![
                format!("{dir}{s}/{rel}.rs"),
                format!("{dir}{s}/{rel}/mod.rs"),
            ],
            (None, true) => vec![format!("{dir}src/lib.rs"), format!("{dir}src/main.rs")],
            (None, false) => vec![
                format!("{dir}src/{rel}.rs"),
                format!("{dir}src/{rel}/mod.rs"),
            ],
        }
    }
}

/// Makes a `use` path absolute from the module it appears in.
fn absolute(project: &Project, module: &AbsPath, segs: &[&str]) -> AbsPath {
    let Some(first) = segs.first() else {
        return module.clone();
    };
    let root = || module.first().cloned().unwrap_or_default();
    // A test or example crate's `crate::` is its own root.
    match *first {
        "crate" | "$crate" => std::iter::once(root())
            .chain(segs[1..].iter().map(|s| (*s).to_owned()))
            .collect(),
        "self" => module
            .iter()
            .cloned()
            .chain(segs[1..].iter().map(|s| (*s).to_owned()))
            .collect(),
        "super" => {
            let mut base = module.clone();
            let mut rest = segs;
            while rest.first() == Some(&"super") {
                if base.len() > 1 {
                    base.pop();
                }
                rest = &rest[1..];
            }
            base.extend(rest.iter().map(|s| (*s).to_owned()));
            base
        }
        "" => segs[1..].iter().map(|s| (*s).to_owned()).collect(),
        name if project.is_crate(name) => segs.iter().map(|s| (*s).to_owned()).collect(),
        _ => module
            .iter()
            .cloned()
            .chain(segs.iter().map(|s| (*s).to_owned()))
            .collect(),
    }
}
