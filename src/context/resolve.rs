//! Which function a call refers to, from what the calling file imports.
//!
//! A function's absolute path is its module's path followed by the segments of its qualified
//! name: `[clap_builder, parser, Parser, parse]` for `Parser::parse` in
//! `clap_builder/src/parser.rs`, `["", "pkg", "mod", "C", "m"]` for `C.m` in `pkg/mod.py` (Python's
//! root is empty). A call resolves to the absolute paths it may name, through the calling
//! file's imports (Rust `use` with `crate::`, `self::`, `super::` and crate names; Python
//! `import`, `from ... import`, aliases and relative imports), its own definitions and its
//! enclosing type (`self.m()`, `Self::m()`). A call on a receiver whose type cannot be known
//! (`parser.parse()`) resolves to [`Resolution::Receiver`]: a candidate, reported as such, and
//! only from files that import or name the method's type.
//!
//! Re-exports are followed approximately: a path that lands in the right crate or package, in
//! a module enclosing the definition's, with the right name (`mycrate::Parser::parse` for a
//! `Parser` defined in `mycrate::parser`), matches.
//!
//! C# names functions with their namespaces (`Ns.Type.Method`), so a function's path is its
//! name under one root: `using` adds namespaces (and static types) to look names up in, as do
//! the namespaces and types enclosing the call, as C#'s own lookup does. Kotlin's names leave
//! the package out, and a package is known by its directory: a file's module is its directory,
//! and an imported package names a definition's directory when one ends with the other or they
//! end with the same two segments (`com.x.core` in `src/main/kotlin/com/x/core/`, or in
//! `src/main/kotlin/x/core/` with the common root left out, as Kotlin's conventions allow).
//!
//! Languages without a scheme here are matched by name alone (a full scan).

use std::collections::{HashMap, HashSet};

use crate::lang::{self, Analysis, Call, Function, Language};

/// An absolute path: a root (a crate name for Rust, empty for Python) and segments.
pub type AbsPath = Vec<String>;

/// What a call may refer to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// One of these absolute paths.
    Paths(Vec<AbsPath>),
    /// A method of a value whose type is unknown.
    Receiver,
}

/// How one language names modules and resolves imports (its analyzer says which:
/// [`crate::lang::Analyzer::import_scheme`]).
pub use crate::lang::ImportScheme as Scheme;

impl Scheme {
    /// The import scheme of a language, if it has one.
    pub fn of(language: Language) -> Option<Scheme> {
        lang::for_language(language).and_then(|a| a.import_scheme())
    }

    fn separator(self) -> &'static str {
        match self {
            Scheme::Rust => "::",
            Scheme::Python | Scheme::CSharp | Scheme::Kotlin => ".",
        }
    }
}

/// The crates of a repository: the directory of each `Cargo.toml` and its library's name.
#[derive(Clone, Debug, Default)]
pub struct Project {
    /// `(directory with a trailing slash or empty, crate name with `-` as `_`)`, longest first.
    crates: Vec<(String, String)>,
}

impl Project {
    /// A project with these crates.
    pub fn new(mut crates: Vec<(String, String)>) -> Project {
        crates.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        Project { crates }
    }

    /// The crate holding `file`: its directory and name (the directory's name, or `crate`,
    /// when there is no manifest).
    fn crate_of(&self, file: &str) -> (String, String) {
        for (dir, name) in &self.crates {
            if file.starts_with(dir.as_str()) {
                return (dir.clone(), name.clone());
            }
        }
        (String::new(), "crate".into())
    }

    fn is_crate(&self, name: &str) -> bool {
        self.crates.iter().any(|(_, n)| n == name)
    }

    fn dir_of(&self, name: &str) -> Option<&str> {
        self.crates
            .iter()
            .find(|(_, n)| n == name)
            .map(|(d, _)| d.as_str())
    }
}

/// The name a `Cargo.toml` gives its library (`[lib] name`, else `[package] name`), with `-`
/// as `_`.
pub fn crate_name(manifest: &str) -> Option<String> {
    let doc: toml::Table = manifest.parse().ok()?;
    let name = doc
        .get("lib")
        .and_then(|l| l.get("name"))
        .or_else(|| doc.get("package").and_then(|p| p.get("name")))?
        .as_str()?;
    Some(name.replace('-', "_"))
}

/// A file as call resolution sees it.
#[derive(Clone, Debug)]
pub struct FileView {
    /// Its path.
    pub path: String,
    /// The module it defines.
    pub module: AbsPath,
    /// What its imports bind: a name to an absolute path.
    bindings: HashMap<String, AbsPath>,
    /// Glob imports.
    globs: Vec<AbsPath>,
    /// Type names it uses as call qualifiers (`Parser` in `Parser::new()`).
    qualifiers: HashSet<String>,
}

/// The module a file defines.
pub fn module_of(scheme: Scheme, project: &Project, file: &str) -> AbsPath {
    match scheme {
        Scheme::Rust => rust_module(project, file),
        Scheme::Python => python_module(file),
        // Namespaces are part of C# names: one root for the whole repository.
        Scheme::CSharp => vec![String::new()],
        // A Kotlin package is known by its directory.
        Scheme::Kotlin => std::iter::once(String::new())
            .chain(
                file.rsplit_once('/')
                    .map_or("", |(dir, _)| dir)
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned),
            )
            .collect(),
    }
}

fn rust_module(project: &Project, file: &str) -> AbsPath {
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

fn python_module(file: &str) -> AbsPath {
    let stem = file
        .strip_suffix(".py")
        .or_else(|| file.strip_suffix(".pyi"))
        .unwrap_or(file);
    let mut parts: Vec<&str> = stem.split('/').collect();
    if parts.last() == Some(&"__init__") {
        parts.pop();
    }
    std::iter::once(String::new())
        .chain(parts.into_iter().map(str::to_owned))
        .collect()
}

/// The segments of a qualified function name; Rust's `<Type as Trait>` counts as `Type`.
pub fn segments(scheme: Scheme, qualified: &str) -> Vec<String> {
    match scheme {
        Scheme::Python | Scheme::CSharp | Scheme::Kotlin => {
            qualified.split('.').map(str::to_owned).collect()
        }
        Scheme::Rust => {
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
    }
}

impl FileView {
    /// The names its imports give to things under another name, with that name (`sum` and
    /// `total` for `use crate::price::total as sum`).
    pub fn aliases(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.bindings.iter().filter_map(|(name, path)| {
            let last = path.last()?;
            (last != name).then_some((name.as_str(), last.as_str()))
        })
    }
}

/// The segments naming the type (or class) a method belongs to: the qualified name without
/// its last segment.
fn enclosing(scheme: Scheme, function: &Function) -> Vec<String> {
    let mut s = segments(scheme, &function.name);
    s.pop();
    s
}

/// Builds a file's view: its module, what its imports bind, and the qualifiers its calls use.
pub fn view(scheme: Scheme, project: &Project, path: &str, analysis: &Analysis) -> FileView {
    let module = module_of(scheme, project, path);
    let mut bindings = HashMap::new();
    let mut globs = Vec::new();
    for import in &analysis.imports {
        match scheme {
            Scheme::Rust => rust_binding(project, &module, import, &mut bindings, &mut globs),
            Scheme::Python => python_binding(path, &module, import, &mut bindings, &mut globs),
            Scheme::CSharp | Scheme::Kotlin => {
                dotted_binding(scheme, import, &mut bindings, &mut globs);
            }
        }
    }
    if matches!(scheme, Scheme::CSharp | Scheme::Kotlin) {
        // Names are looked up in the namespaces and types that enclose the call (C#), and in
        // the types enclosing it in the file's package (Kotlin).
        for f in &analysis.functions {
            let segs = segments(scheme, &f.name);
            for k in 0..segs.len() {
                let mut g = module.clone();
                g.extend(segs[..k].iter().cloned());
                if !globs.contains(&g) {
                    globs.push(g);
                }
            }
        }
    }
    let separator = scheme.separator();
    let qualifiers = analysis
        .calls
        .iter()
        .flat_map(|c| c.site.qualifier.split(separator).map(str::to_owned))
        .filter(|q| !q.is_empty())
        .collect();
    FileView {
        path: path.to_owned(),
        module,
        bindings,
        globs,
        qualifiers,
    }
}

fn rust_binding(
    project: &Project,
    module: &AbsPath,
    import: &str,
    bindings: &mut HashMap<String, AbsPath>,
    globs: &mut Vec<AbsPath>,
) {
    if let Some(rest) = import.strip_prefix("extern crate ") {
        let (name, alias) = rest.split_once(" as ").unwrap_or((rest, rest));
        bindings.insert(alias.to_owned(), vec![name.to_owned()]);
        return;
    }
    let (path, alias) = match import.split_once(" as ") {
        Some((p, a)) => (p, Some(a)),
        None => (import, None),
    };
    let segs: Vec<&str> = path.split("::").collect();
    if segs.last() == Some(&"*") {
        globs.push(rust_absolute(project, module, &segs[..segs.len() - 1]));
        return;
    }
    let Some(last) = segs.last() else { return };
    let key = alias.unwrap_or(last);
    if key != "_" {
        bindings.insert(key.to_owned(), rust_absolute(project, module, &segs));
    }
}

/// Makes a `use` path absolute from the module it appears in.
fn rust_absolute(project: &Project, module: &AbsPath, segs: &[&str]) -> AbsPath {
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

fn python_binding(
    path: &str,
    module: &AbsPath,
    import: &str,
    bindings: &mut HashMap<String, AbsPath>,
    globs: &mut Vec<AbsPath>,
) {
    let (dotted, alias) = match import.split_once(" as ") {
        Some((p, a)) => (p, Some(a)),
        None => (import, None),
    };
    let dots = dotted.bytes().take_while(|b| *b == b'.').count();
    let rest: Vec<&str> = dotted[dots..]
        .split('.')
        .filter(|s| !s.is_empty())
        .collect();
    let absolute: AbsPath = if dots > 0 {
        // The package of the importing module, then one level up per extra dot.
        let mut base = module.clone();
        let is_package = path.ends_with("__init__.py") || path.ends_with("__init__.pyi");
        if !is_package && base.len() > 1 {
            base.pop();
        }
        for _ in 1..dots {
            if base.len() > 1 {
                base.pop();
            }
        }
        base.extend(rest.iter().map(|s| (*s).to_owned()));
        base
    } else {
        std::iter::once(String::new())
            .chain(rest.iter().map(|s| (*s).to_owned()))
            .collect()
    };
    if rest.last() == Some(&"*") {
        let mut g = absolute;
        g.pop();
        globs.push(g);
        return;
    }
    match alias {
        Some(a) => {
            bindings.insert(a.to_owned(), absolute);
        }
        None => {
            if let Some(last) = rest.last() {
                // `from x import y` binds `y`; `import a.b` binds `a` (and `a.b` is written out).
                if dots == 0 && rest.len() > 1 {
                    bindings
                        .entry(rest[0].to_owned())
                        .or_insert_with(|| vec![String::new(), rest[0].to_owned()]);
                }
                bindings.insert((*last).to_owned(), absolute);
            }
        }
    }
}

/// A C# `using` or Kotlin `import`: a namespace or star import is a glob (`using static` too:
/// its members are named bare), a name or alias a binding. C# type arguments are dropped.
fn dotted_binding(
    scheme: Scheme,
    import: &str,
    bindings: &mut HashMap<String, AbsPath>,
    globs: &mut Vec<AbsPath>,
) {
    let (path, alias) = match import.split_once(" as ") {
        Some((p, a)) => (p, Some(a)),
        None => (import, None),
    };
    let path = path.strip_prefix("static ").unwrap_or(path);
    let path = path.split('<').next().unwrap_or(path);
    let mut absolute: AbsPath = std::iter::once(String::new())
        .chain(path.split('.').map(str::to_owned))
        .collect();
    if absolute.last().is_some_and(|l| l == "*") {
        absolute.pop();
        globs.push(absolute);
        return;
    }
    match (scheme, alias) {
        (_, Some(alias)) => {
            bindings.insert(alias.to_owned(), absolute);
        }
        // `using A.B;` opens a namespace, `using static A.B.C;` a type.
        (Scheme::CSharp, None) => globs.push(absolute),
        (_, None) => {
            if let Some(last) = absolute.last().cloned() {
                bindings.insert(last, absolute);
            }
        }
    }
}

/// The absolute paths a call may name.
pub fn resolve(
    scheme: Scheme,
    project: &Project,
    view: &FileView,
    call: &Call,
    caller: Option<&Function>,
) -> Resolution {
    let site = &call.site;
    let name = site.name.clone();
    let with = |mut base: AbsPath, extra: &[&str]| {
        base.extend(extra.iter().map(|s| (*s).to_owned()));
        base.push(name.clone());
        base
    };
    let enclosing_type = caller
        .map(|f| enclosing(scheme, f))
        .filter(|t| !t.is_empty());
    if site.member && site.qualifier.is_empty() {
        return Resolution::Receiver;
    }
    if site.qualifier.is_empty() {
        let mut paths = Vec::new();
        if let Some(b) = view.bindings.get(&name) {
            paths.push(b.clone());
        }
        for g in &view.globs {
            paths.push(with(g.clone(), &[]));
        }
        paths.push(with(view.module.clone(), &[]));
        return Resolution::Paths(paths);
    }
    match scheme {
        Scheme::Rust => {
            if site.member {
                return match (site.qualifier.as_str(), enclosing_type) {
                    ("self", Some(ty)) => {
                        let ty: Vec<&str> = ty.iter().map(String::as_str).collect();
                        Resolution::Paths(vec![with(view.module.clone(), &ty)])
                    }
                    _ => Resolution::Receiver,
                };
            }
            let segs: Vec<&str> = site.qualifier.split("::").collect();
            if segs.first().is_some_and(|s| s.starts_with('<')) {
                return Resolution::Receiver;
            }
            let base = match (segs[0], &enclosing_type) {
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
                        let mut paths: Vec<AbsPath> = globs
                            .iter()
                            .map(|g| {
                                let mut b = g.clone();
                                b.extend(segs.iter().map(|s| (*s).to_owned()));
                                with(b, &[])
                            })
                            .collect();
                        paths.push(with(rust_absolute(project, &view.module, &segs), &[]));
                        return Resolution::Paths(paths);
                    }
                },
            };
            Resolution::Paths(vec![with(base, &[])])
        }
        Scheme::CSharp | Scheme::Kotlin => {
            let segs: Vec<&str> = site.qualifier.split('.').collect();
            match segs[0] {
                "this" if segs.len() == 1 => match enclosing_type {
                    Some(ty) => {
                        let ty: Vec<&str> = ty.iter().map(String::as_str).collect();
                        Resolution::Paths(vec![with(view.module.clone(), &ty)])
                    }
                    None => Resolution::Receiver,
                },
                first => match view.bindings.get(first) {
                    Some(bound) => Resolution::Paths(vec![with(bound.clone(), &segs[1..])]),
                    None if first.chars().next().is_some_and(char::is_uppercase)
                        && segs.iter().all(|s| is_identifier(s)) =>
                    {
                        // A type's static member or companion, or a nested type's: looked up
                        // where bare names are.
                        let mut paths: Vec<AbsPath> =
                            view.globs.iter().map(|g| with(g.clone(), &segs)).collect();
                        let own = with(view.module.clone(), &segs);
                        if !paths.contains(&own) {
                            paths.push(own);
                        }
                        Resolution::Paths(paths)
                    }
                    None => Resolution::Receiver,
                },
            }
        }
        Scheme::Python => {
            let segs: Vec<&str> = site.qualifier.split('.').collect();
            match segs[0] {
                "self" | "cls" if segs.len() == 1 => match enclosing_type {
                    Some(ty) => {
                        let ty: Vec<&str> = ty.iter().map(String::as_str).collect();
                        Resolution::Paths(vec![with(view.module.clone(), &ty)])
                    }
                    None => Resolution::Receiver,
                },
                first => match view.bindings.get(first) {
                    Some(bound) => Resolution::Paths(vec![with(bound.clone(), &segs[1..])]),
                    None if first.chars().next().is_some_and(char::is_uppercase)
                        && segs.iter().all(|s| is_identifier(s)) =>
                    {
                        // A class of this module (`Config.load()`).
                        Resolution::Paths(vec![with(view.module.clone(), &segs)])
                    }
                    None => Resolution::Receiver,
                },
            }
        }
    }
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A function a caller may mean: where it lives and what it is called.
#[derive(Clone, Debug)]
pub struct Definition {
    /// Its module's absolute path.
    pub module: AbsPath,
    /// The segments of its qualified name.
    pub qualified: Vec<String>,
    /// Its file.
    pub file: String,
}

impl Definition {
    /// The definition of `function` in `file`.
    pub fn new(scheme: Scheme, project: &Project, file: &str, function: &str) -> Definition {
        Definition {
            module: module_of(scheme, project, file),
            qualified: segments(scheme, function),
            file: file.to_owned(),
        }
    }

    /// Whether it is a method (its qualified name has a type before the name).
    pub fn is_method(&self) -> bool {
        self.qualified.len() > 1
    }

    /// Whether an absolute path names it: exactly, or through a re-export in an enclosing
    /// module of the same crate or package.
    pub fn named_by(&self, scheme: Scheme, path: &AbsPath) -> bool {
        self.module_names(scheme)
            .iter()
            .any(|module| self.named_through(scheme, module, path))
    }

    /// The absolute paths its module is imported by. Python imports a module from wherever its
    /// package root is on `sys.path`: a project in a subdirectory
    /// (`python/requests/src/requests/models.py` is `requests.models`), a src layout, or `src`
    /// itself a package. Any enclosing directories may be dropped as long as a package and a
    /// module remain, or the last one dropped is `src`.
    fn module_names(&self, scheme: Scheme) -> Vec<AbsPath> {
        let mut names = vec![self.module.clone()];
        if scheme == Scheme::Python {
            for k in 2..self.module.len() {
                let remaining = self.module.len() - k;
                if remaining >= 2 || (self.module[k - 1] == "src" && remaining >= 1) {
                    names.push(
                        std::iter::once(self.module[0].clone())
                            .chain(self.module[k..].iter().cloned())
                            .collect(),
                    );
                }
            }
        }
        names
    }

    fn named_through(&self, scheme: Scheme, module: &AbsPath, path: &AbsPath) -> bool {
        let q = self.qualified.len();
        if scheme == Scheme::Kotlin {
            return path.len() > q
                && path[0] == module[0]
                && path[path.len() - q..] == self.qualified[..]
                && package_in(&path[1..path.len() - q], &module[1..]);
        }
        if path.len() < q + 1
            || path[0] != module[0]
            || path[path.len() - q..] != self.qualified[..]
        {
            return false;
        }
        let middle = &path[1..path.len() - q];
        let module = &module[1..];
        if middle == module {
            return true;
        }
        // A re-export sits in an enclosing module; Python's root is no package of its own.
        let root_counts = scheme == Scheme::Rust || !middle.is_empty();
        root_counts && middle.len() < module.len() && module.starts_with(middle)
    }

    /// Whether a file has reason to hold a value of this method's type: it is the defining
    /// file or module, imports that module or from it, or names the type.
    pub fn related(&self, scheme: Scheme, view: &FileView) -> bool {
        if view.path == self.file || view.module == self.module && scheme != Scheme::CSharp {
            return true;
        }
        let ty = &self.qualified[self.qualified.len().saturating_sub(2)];
        match scheme {
            // The type's namespace (or enclosing type) is open in the file, or it names the type.
            Scheme::CSharp => {
                let mut scope = self.module.clone();
                scope.extend(
                    self.qualified[..self.qualified.len().saturating_sub(2)]
                        .iter()
                        .cloned(),
                );
                return view.qualifiers.contains(ty)
                    || view
                        .bindings
                        .iter()
                        .any(|(name, path)| name == ty || path.starts_with(&scope))
                    || view.globs.contains(&scope);
            }
            Scheme::Kotlin => {
                let dirs = &self.module[1..];
                return view.qualifiers.contains(ty)
                    || view.bindings.iter().any(|(name, path)| {
                        name == ty || (path.len() > 1 && package_in(&path[1..path.len() - 1], dirs))
                    })
                    || view
                        .globs
                        .iter()
                        .any(|g| g.len() > 1 && package_in(&g[1..], dirs));
            }
            Scheme::Rust | Scheme::Python => {}
        }
        let modules = self.module_names(scheme);
        view.qualifiers.contains(ty)
            || view
                .bindings
                .iter()
                .any(|(name, path)| name == ty || modules.iter().any(|m| path.starts_with(m)))
            || view.globs.iter().any(|g| modules.contains(g))
    }
}

/// Whether an imported Kotlin package names a directory: the same, one ends with the other,
/// or they end with the same two segments (the common root of a project left out).
fn package_in(package: &[String], dirs: &[String]) -> bool {
    if package == dirs {
        return true;
    }
    if package.is_empty() || dirs.is_empty() {
        return false;
    }
    let common = package
        .iter()
        .rev()
        .zip(dirs.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    common == package.len() || common == dirs.len() || common >= 2
}

/// The files that may define a module.
pub fn module_files(scheme: Scheme, project: &Project, module: &AbsPath) -> Vec<String> {
    match scheme {
        // By the common convention: a type in a file of its name, in its namespace's
        // directories (`A.B.Parser` in `A/B/Parser.cs` or `src/A/B/Parser.cs`).
        Scheme::CSharp => {
            let rel = module[1..].join("/");
            if rel.is_empty() {
                return Vec::new();
            }
            vec![format!("{rel}.cs"), format!("src/{rel}.cs")]
        }
        // A module is a directory, whose files' names say nothing of what they define.
        Scheme::Kotlin => Vec::new(),
        Scheme::Python => {
            let rel = module[1..].join("/");
            if rel.is_empty() {
                return Vec::new();
            }
            ["", "src/"]
                .iter()
                .flat_map(|prefix| {
                    [
                        format!("{prefix}{rel}.py"),
                        format!("{prefix}{rel}/__init__.py"),
                    ]
                })
                .collect()
        }
        Scheme::Rust => {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::CallSite;

    fn p(parts: &[&str]) -> AbsPath {
        parts.iter().map(|s| (*s).to_owned()).collect()
    }

    fn call(qualifier: &str, name: &str, member: bool) -> Call {
        Call {
            site: CallSite {
                name: name.into(),
                qualifier: qualifier.into(),
                member,
            },
            line: 1,
            caller: None,
        }
    }

    fn analysis(imports: &[&str]) -> Analysis {
        Analysis {
            imports: imports.iter().map(|s| (*s).to_owned()).collect(),
            ..Analysis::default()
        }
    }

    fn project() -> Project {
        Project::new(vec![
            (String::new(), "app".into()),
            ("core/".into(), "my_core".into()),
        ])
    }

    #[test]
    fn rust_modules_come_from_paths() {
        let pr = project();
        assert_eq!(module_of(Scheme::Rust, &pr, "src/lib.rs"), p(&["app"]));
        assert_eq!(
            module_of(Scheme::Rust, &pr, "src/a/b.rs"),
            p(&["app", "a", "b"])
        );
        assert_eq!(
            module_of(Scheme::Rust, &pr, "src/a/mod.rs"),
            p(&["app", "a"])
        );
        assert_eq!(
            module_of(Scheme::Rust, &pr, "core/src/x.rs"),
            p(&["my_core", "x"])
        );
        assert_eq!(
            module_of(Scheme::Rust, &pr, "tests/it.rs"),
            p(&["app#tests/it"])
        );
        assert_eq!(
            module_of(Scheme::Rust, &pr, "src/bin/tool.rs"),
            p(&["app#src/bin/tool"])
        );
    }

    #[test]
    fn python_modules_come_from_paths() {
        assert_eq!(
            module_of(Scheme::Python, &Project::default(), "pkg/a.py"),
            p(&["", "pkg", "a"])
        );
        assert_eq!(
            module_of(Scheme::Python, &Project::default(), "pkg/__init__.py"),
            p(&["", "pkg"])
        );
        assert_eq!(
            module_of(Scheme::Python, &Project::default(), "src/pkg/a.py"),
            p(&["", "src", "pkg", "a"])
        );
    }

    #[test]
    fn rust_segments_drop_trait_names() {
        assert_eq!(
            segments(Scheme::Rust, "<Parser as fmt::Debug>::fmt"),
            ["Parser", "fmt"]
        );
        assert_eq!(
            segments(Scheme::Rust, "<Parser<'a> as Tr>::f"),
            ["Parser", "f"]
        );
        assert_eq!(segments(Scheme::Rust, "a::Ty::new"), ["a", "Ty", "new"]);
    }

    #[test]
    fn rust_calls_resolve_through_use() {
        let pr = project();
        let v = view(
            Scheme::Rust,
            &pr,
            "src/cli/run.rs",
            &analysis(&[
                "crate::parse::Parser",
                "super::util",
                "my_core::x::helper as h",
                "crate::prelude::*",
            ]),
        );
        let r = |q: &str, n: &str, m: bool| resolve(Scheme::Rust, &pr, &v, &call(q, n, m), None);
        assert_eq!(
            r("Parser", "new", false),
            Resolution::Paths(vec![p(&["app", "parse", "Parser", "new"])])
        );
        assert_eq!(
            r("util", "f", false),
            Resolution::Paths(vec![p(&["app", "cli", "util", "f"])])
        );
        assert_eq!(
            r("", "h", false),
            Resolution::Paths(vec![
                p(&["my_core", "x", "helper"]),
                p(&["app", "prelude", "h"]),
                p(&["app", "cli", "run", "h"]),
            ])
        );
        assert_eq!(
            r("crate::a", "g", false),
            Resolution::Paths(vec![p(&["app", "a", "g"])])
        );
        assert_eq!(r("x", "go", true), Resolution::Receiver);
    }

    #[test]
    fn python_calls_resolve_through_imports() {
        let pr = Project::default();
        let v = view(
            Scheme::Python,
            &pr,
            "pkg/sub/mod.py",
            &analysis(&["os", "pkg.util as u", ".sibling", "..top.thing", "a.b"]),
        );
        let r =
            |q: &str, n: &str| resolve(Scheme::Python, &pr, &v, &call(q, n, !q.is_empty()), None);
        assert_eq!(
            r("u", "f"),
            Resolution::Paths(vec![p(&["", "pkg", "util", "f"])])
        );
        assert_eq!(
            r("sibling", "g"),
            Resolution::Paths(vec![p(&["", "pkg", "sub", "sibling", "g"])])
        );
        assert_eq!(
            r("", "thing"),
            Resolution::Paths(vec![
                p(&["", "pkg", "top", "thing"]),
                p(&["", "pkg", "sub", "mod", "thing"])
            ])
        );
        assert_eq!(
            r("a.b", "c"),
            Resolution::Paths(vec![p(&["", "a", "b", "c"])])
        );
        assert_eq!(r("obj", "m"), Resolution::Receiver);
        assert_eq!(
            r("Local", "m"),
            Resolution::Paths(vec![p(&["", "pkg", "sub", "mod", "Local", "m"])])
        );
    }

    #[test]
    fn definitions_match_exactly_or_through_a_reexport() {
        let pr = project();
        let d = Definition::new(Scheme::Rust, &pr, "src/parse.rs", "Parser::new");
        assert!(d.named_by(Scheme::Rust, &p(&["app", "parse", "Parser", "new"])));
        assert!(d.named_by(Scheme::Rust, &p(&["app", "Parser", "new"])));
        assert!(!d.named_by(Scheme::Rust, &p(&["app", "other", "Parser", "new"])));
        assert!(!d.named_by(Scheme::Rust, &p(&["my_core", "parse", "Parser", "new"])));
        let f = Definition::new(Scheme::Python, &pr, "pkg/a.py", "f");
        assert!(f.named_by(Scheme::Python, &p(&["", "pkg", "a", "f"])));
        assert!(f.named_by(Scheme::Python, &p(&["", "pkg", "f"])));
        assert!(!f.named_by(Scheme::Python, &p(&["", "f"])));
        assert!(!f.named_by(Scheme::Python, &p(&["", "other", "f"])));
        // A src layout is imported without `src`, a `src` package with it.
        let s = Definition::new(Scheme::Python, &pr, "src/pkg/a.py", "f");
        assert!(s.named_by(Scheme::Python, &p(&["", "pkg", "a", "f"])));
        assert!(s.named_by(Scheme::Python, &p(&["", "src", "pkg", "a", "f"])));
        assert!(!s.named_by(Scheme::Python, &p(&["", "a", "f"])));
    }

    fn with_functions(imports: &[&str], functions: &[&str]) -> Analysis {
        let mut a = analysis(imports);
        a.functions = functions
            .iter()
            .map(|name| Function {
                name: (*name).to_owned(),
                leaf: name.rsplit('.').next().unwrap_or(name).to_owned(),
                kind: crate::lang::FunctionKind::Method,
                test: false,
                start_line: 1,
                end_line: 1,
                signature: String::new(),
                signature_hash: 0,
                body_hash: 0,
                text_hash: 0,
                tokens: Vec::new(),
            })
            .collect();
        a
    }

    #[test]
    fn csharp_calls_resolve_through_using_and_enclosing_namespaces() {
        let pr = Project::default();
        let caller = with_functions(
            &[
                "CommandLine.Core",
                "static System.Math",
                "CommandLine.Text.HelpText as H",
            ],
            &["CommandLine.App.Program.Main"],
        );
        let v = view(Scheme::CSharp, &pr, "src/App/Program.cs", &caller);
        let main = &caller.functions[0];
        let r = |q: &str, n: &str| {
            resolve(
                Scheme::CSharp,
                &pr,
                &v,
                &call(q, n, !q.is_empty()),
                Some(main),
            )
        };
        let parse = Definition::new(
            Scheme::CSharp,
            &pr,
            "src/Core/Parser.cs",
            "CommandLine.Core.Parser.Parse",
        );
        let Resolution::Paths(paths) = r("Parser", "Parse") else {
            panic!()
        };
        assert!(
            paths.iter().any(|p| parse.named_by(Scheme::CSharp, p)),
            "{paths:?}"
        );
        // The same name in a namespace the file does not open is not the one called.
        let other = Definition::new(
            Scheme::CSharp,
            &pr,
            "src/Other/Parser.cs",
            "Other.Parser.Parse",
        );
        assert!(!paths.iter().any(|p| other.named_by(Scheme::CSharp, p)));
        // A sibling method, a static import, an alias, `this`.
        let helper = Definition::new(
            Scheme::CSharp,
            &pr,
            "src/App/Program.cs",
            "CommandLine.App.Program.Helper",
        );
        let Resolution::Paths(paths) = r("", "Helper") else {
            panic!()
        };
        assert!(paths.iter().any(|p| helper.named_by(Scheme::CSharp, p)));
        let Resolution::Paths(paths) = r("this", "Helper") else {
            panic!()
        };
        assert!(paths.iter().any(|p| helper.named_by(Scheme::CSharp, p)));
        let max = Definition::new(Scheme::CSharp, &pr, "Math.cs", "System.Math.Max");
        let Resolution::Paths(paths) = r("", "Max") else {
            panic!()
        };
        assert!(paths.iter().any(|p| max.named_by(Scheme::CSharp, p)));
        let help = Definition::new(
            Scheme::CSharp,
            &pr,
            "src/Text/HelpText.cs",
            "CommandLine.Text.HelpText.AutoBuild",
        );
        let Resolution::Paths(paths) = r("H", "AutoBuild") else {
            panic!()
        };
        assert!(paths.iter().any(|p| help.named_by(Scheme::CSharp, p)));
        // A variable: a candidate, from files that open the type's namespace.
        assert_eq!(r("parser", "Parse"), Resolution::Receiver);
        assert!(parse.related(Scheme::CSharp, &v));
        let unrelated = view(
            Scheme::CSharp,
            &pr,
            "src/X.cs",
            &with_functions(&["Other"], &["X.Y.M"]),
        );
        assert!(!parse.related(Scheme::CSharp, &unrelated));
        assert_eq!(
            module_files(
                Scheme::CSharp,
                &pr,
                &p(&["", "CommandLine", "Core", "Parser"])
            ),
            [
                "CommandLine/Core/Parser.cs",
                "src/CommandLine/Core/Parser.cs"
            ]
        );
    }

    #[test]
    fn kotlin_calls_resolve_through_imports_and_directories() {
        let pr = Project::default();
        let caller = with_functions(
            &[
                "com.x.core.Context",
                "com.x.util.*",
                "com.x.output.render as draw",
            ],
            &["App.run"],
        );
        let v = view(
            Scheme::Kotlin,
            &pr,
            "app/src/main/kotlin/com/x/app/App.kt",
            &caller,
        );
        let run = &caller.functions[0];
        let r = |q: &str, n: &str| {
            resolve(
                Scheme::Kotlin,
                &pr,
                &v,
                &call(q, n, !q.is_empty()),
                Some(run),
            )
        };
        let named = |d: &Definition, res: Resolution| match res {
            Resolution::Paths(paths) => paths.iter().any(|p| d.named_by(Scheme::Kotlin, p)),
            Resolution::Receiver => false,
        };
        // A companion or object call through an import; the package is the directory's tail.
        let create = Definition::new(
            Scheme::Kotlin,
            &pr,
            "core/src/main/kotlin/com/x/core/Context.kt",
            "Context.Companion.create",
        );
        assert!(named(&create, r("Context.Companion", "create")));
        let elsewhere = Definition::new(
            Scheme::Kotlin,
            &pr,
            "core/src/main/kotlin/com/y/other/Context.kt",
            "Context.Companion.create",
        );
        assert!(!named(&elsewhere, r("Context.Companion", "create")));
        // A star import, with the project's common root left out of the directories.
        let slug = Definition::new(
            Scheme::Kotlin,
            &pr,
            "src/main/kotlin/x/util/Strings.kt",
            "slug",
        );
        assert!(named(&slug, r("", "slug")));
        // An alias, a function of the same package (directory), a sibling method.
        let render = Definition::new(Scheme::Kotlin, &pr, "src/com/x/output/Render.kt", "render");
        assert!(named(&render, r("", "draw")));
        let local = Definition::new(
            Scheme::Kotlin,
            &pr,
            "app/src/main/kotlin/com/x/app/Main.kt",
            "main",
        );
        assert!(named(&local, r("", "main")));
        let sibling = Definition::new(
            Scheme::Kotlin,
            &pr,
            "app/src/main/kotlin/com/x/app/App.kt",
            "App.stop",
        );
        assert!(named(&sibling, r("", "stop")));
        assert!(named(&sibling, r("this", "stop")));
        let unimported = Definition::new(
            Scheme::Kotlin,
            &pr,
            "lib/src/main/kotlin/org/z/Tools.kt",
            "helper",
        );
        assert!(!named(&unimported, r("", "helper")));
        // A receiver: related when the file imports the type's package.
        assert_eq!(r("ctx", "create"), Resolution::Receiver);
        let method = Definition::new(
            Scheme::Kotlin,
            &pr,
            "core/src/main/kotlin/com/x/core/Context.kt",
            "Context.fail",
        );
        assert!(method.related(Scheme::Kotlin, &v));
        assert!(!elsewhere.related(
            Scheme::Kotlin,
            &view(
                Scheme::Kotlin,
                &pr,
                "a/B.kt",
                &with_functions(&["q.r.S"], &["B.m"])
            )
        ));
    }

    #[test]
    fn module_files_are_where_modules_live() {
        let pr = project();
        assert_eq!(
            module_files(Scheme::Rust, &pr, &p(&["app"])),
            ["src/lib.rs", "src/main.rs"]
        );
        assert_eq!(
            module_files(Scheme::Rust, &pr, &p(&["my_core", "x"])),
            ["core/src/x.rs", "core/src/x/mod.rs"]
        );
        assert_eq!(
            module_files(Scheme::Python, &pr, &p(&["", "pkg", "a"])),
            [
                "pkg/a.py",
                "pkg/a/__init__.py",
                "src/pkg/a.py",
                "src/pkg/a/__init__.py"
            ]
        );
    }
}
