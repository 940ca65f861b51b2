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
//! Languages without a scheme here are matched by name alone (a full scan).

use std::collections::{HashMap, HashSet};

use crate::lang::{self, Analysis, Call, CallSite, Function, Language};

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
            Scheme::Python => ".",
            Scheme::Ruby => "::",
            Scheme::Php => "\\",
        }
    }

    /// Whether a definition is named by its types alone, wherever its file is (Ruby's global
    /// constants, PHP's namespaced classes), rather than by its file's module.
    fn by_type(self) -> bool {
        matches!(self, Scheme::Ruby | Scheme::Php)
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
        // A Ruby file is named by its path: constants, not files, qualify its definitions.
        Scheme::Ruby => vec![String::new(), file.to_owned()],
        // PSR-4: a PHP file's namespace is its directory's path (under some prefix).
        Scheme::Php => std::iter::once(String::new())
            .chain(
                file.rsplit_once('/')
                    .map(|(dir, _)| dir.split('/').map(str::to_owned).collect::<Vec<_>>())
                    .unwrap_or_default(),
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
        Scheme::Python => qualified.split('.').map(str::to_owned).collect(),
        Scheme::Php => qualified.split("::").map(str::to_owned).collect(),
        // `Foo::Bar#baz` and `Foo::Bar.qux` are both `Foo`, `Bar` and a method.
        Scheme::Ruby => qualified
            .split("::")
            .flat_map(|part| match part.find(['#', '.']) {
                Some(at) if at > 0 => vec![part[..at].to_owned(), part[at + 1..].to_owned()],
                _ => vec![part.to_owned()],
            })
            .collect(),
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
            Scheme::Ruby => globs.extend(ruby_required(path, import)),
            Scheme::Php => php_binding(import, &mut bindings),
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

/// The files a Ruby `require` may load, as modules: `./x` and `../x` from the requiring
/// file's directory, others from the load path (the repository's root or `lib/`).
fn ruby_required(path: &str, import: &str) -> Vec<AbsPath> {
    let file = |p: String| vec![String::new(), format!("{p}.rb")];
    if import.starts_with("./") || import.starts_with("../") {
        let mut parts: Vec<&str> = path.split('/').collect();
        parts.pop();
        for segment in import.split('/') {
            match segment {
                "." | "" => {}
                ".." => {
                    parts.pop();
                }
                s => parts.push(s),
            }
        }
        vec![file(parts.join("/"))]
    } else {
        vec![file(import.to_owned()), file(format!("lib/{import}"))]
    }
}

/// What a PHP `use` binds: a class (or namespace) or a function by its last name or alias.
fn php_binding(import: &str, bindings: &mut HashMap<String, AbsPath>) {
    if import.starts_with("const ") {
        return;
    }
    let import = import.strip_prefix("function ").unwrap_or(import);
    let (path, alias) = match import.split_once(" as ") {
        Some((p, a)) => (p, Some(a)),
        None => (import, None),
    };
    let segs: Vec<&str> = path.split('\\').filter(|s| !s.is_empty()).collect();
    if let Some(last) = alias.or(segs.last().copied()) {
        let absolute = std::iter::once(String::new())
            .chain(segs.iter().map(|s| (*s).to_owned()))
            .collect();
        bindings.insert(last.to_owned(), absolute);
    }
}

/// Whether a name is a Ruby constant (`Base`, not `base` or `@base`).
fn is_constant(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase) && is_identifier(s)
}

/// A Ruby call: a bare or `self.` call names a method of the enclosing class or a top-level
/// one; a constant receiver names a singleton method by its constant path, looked up from the
/// enclosing modules outwards; any other receiver is unknown.
fn ruby_resolve(site: &CallSite, enclosing_type: Option<Vec<String>>) -> Resolution {
    let name = &site.name;
    let path = |parts: &[&[String]]| -> AbsPath {
        std::iter::once(String::new())
            .chain(parts.iter().flat_map(|p| p.iter().cloned()))
            .chain(std::iter::once(name.clone()))
            .collect()
    };
    let enclosing = enclosing_type.unwrap_or_default();
    match site.qualifier.as_str() {
        "" if site.member => Resolution::Receiver,
        "" => {
            let mut paths = Vec::new();
            if !enclosing.is_empty() {
                paths.push(path(&[&enclosing]));
            }
            paths.push(path(&[]));
            Resolution::Paths(paths)
        }
        "self" if !enclosing.is_empty() => Resolution::Paths(vec![path(&[&enclosing])]),
        qualifier => {
            let absolute = qualifier.starts_with("::");
            let segs: Vec<String> = qualifier
                .trim_start_matches("::")
                .split("::")
                .map(str::to_owned)
                .collect();
            if !segs.iter().all(|s| is_constant(s)) {
                return Resolution::Receiver;
            }
            let lexical = if absolute { 0 } else { enclosing.len() };
            Resolution::Paths(
                (0..=lexical)
                    .rev()
                    .map(|k| path(&[&enclosing[..k], &segs]))
                    .collect(),
            )
        }
    }
}

/// A PHP call: `f()` through `use function` or in the file's namespace or the global one;
/// `Name::m()` through `use` or in the file's namespace; `self::`, `static::` and `$this->`
/// on the enclosing class; `parent::` and other receivers unknown.
fn php_resolve(
    view: &FileView,
    site: &CallSite,
    enclosing_type: Option<Vec<String>>,
) -> Resolution {
    let name = site.name.clone();
    let with = |mut base: AbsPath, extra: &[String]| {
        base.extend(extra.iter().cloned());
        base.push(name.clone());
        base
    };
    let enclosing = enclosing_type.unwrap_or_default();
    let qualifier = site.qualifier.as_str();
    if site.member {
        return match qualifier {
            "$this" if !enclosing.is_empty() => {
                Resolution::Paths(vec![with(view.module.clone(), &enclosing)])
            }
            _ => Resolution::Receiver,
        };
    }
    if qualifier.is_empty() {
        let mut paths = Vec::new();
        if let Some(bound) = view.bindings.get(&name) {
            paths.push(bound.clone());
        }
        paths.push(with(view.module.clone(), &[]));
        paths.push(with(vec![String::new()], &[]));
        return Resolution::Paths(paths);
    }
    let segs: Vec<String> = qualifier
        .split('\\')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let Some(first) = segs.first() else {
        return Resolution::Receiver;
    };
    match first.as_str() {
        "self" | "static" if segs.len() == 1 && !enclosing.is_empty() => {
            Resolution::Paths(vec![with(view.module.clone(), &enclosing)])
        }
        "self" | "static" | "parent" => Resolution::Receiver,
        _ => match view.bindings.get(first) {
            Some(bound) => Resolution::Paths(vec![with(bound.clone(), &segs[1..])]),
            None => Resolution::Paths(vec![
                with(view.module.clone(), &segs),
                with(vec![String::new()], &segs),
            ]),
        },
    }
}

/// Whether two namespaces (a call's and a definition's directories) may be one under PSR-4:
/// equal but for letter case, one a suffix of the other (a namespace prefix mapped to a
/// directory: `Slim\Tests\X` and `tests/X`), or equal past their first segments
/// (`App\X` and `src/X`). An empty namespace is the global one, which any file may define.
fn php_namespaces_agree(namespace: &[String], dirs: &[String]) -> bool {
    let lower = |v: &[String]| -> Vec<String> { v.iter().map(|s| s.to_lowercase()).collect() };
    let (n, d) = (lower(namespace), lower(dirs));
    n.is_empty() || n.ends_with(&d) || d.ends_with(&n) || (n.len() == d.len() && n[1..] == d[1..])
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
    match scheme {
        Scheme::Ruby => return ruby_resolve(site, enclosing_type),
        Scheme::Php => return php_resolve(view, site, enclosing_type),
        Scheme::Rust | Scheme::Python => {}
    }
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
        // Resolved above.
        Scheme::Ruby | Scheme::Php => Resolution::Receiver,
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
        if scheme.by_type() {
            // Named by its types: Ruby's constants anywhere, PHP's in an agreeing namespace.
            return path.len() > q
                && path[0].is_empty()
                && path[path.len() - q..] == self.qualified[..]
                && (scheme == Scheme::Ruby && path.len() == q + 1
                    || scheme == Scheme::Php
                        && php_namespaces_agree(&path[1..path.len() - q], &module[1..]));
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
        if view.path == self.file || view.module == self.module {
            return true;
        }
        let ty = &self.qualified[self.qualified.len().saturating_sub(2)];
        let modules = self.module_names(scheme);
        view.qualifiers.contains(ty)
            || view
                .bindings
                .iter()
                .any(|(name, path)| name == ty || modules.iter().any(|m| path.starts_with(m)))
            || view.globs.iter().any(|g| modules.contains(g))
    }
}

/// Whether a function whose qualified name has the segments `function` is what `path` names
/// when its file is one of `module_files(path[..k])`: the rest of the path, or, for schemes
/// that name definitions by their types, the path's end from the type the file is named after.
pub fn defines(scheme: Scheme, function: &[String], path: &AbsPath, k: usize) -> bool {
    if scheme.by_type() {
        function.len() > path.len() - k && path[1..].ends_with(function)
    } else {
        function == &path[k..]
    }
}

/// Ruby's file for a constant (`Sinatra::IndifferentHash`: `sinatra/indifferent_hash`).
fn snake_case(constant: &str) -> String {
    let mut out = String::with_capacity(constant.len() + 4);
    let mut previous_lower = false;
    for c in constant.chars() {
        if c.is_uppercase() {
            if previous_lower {
                out.push('_');
            }
            out.extend(c.to_lowercase());
            previous_lower = false;
        } else {
            out.push(c);
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

/// The files that may define a module.
pub fn module_files(scheme: Scheme, project: &Project, module: &AbsPath) -> Vec<String> {
    match scheme {
        // A class's file by the usual layout (`Foo::BarBaz` in `foo/bar_baz.rb`, under `lib/`
        // or the root).
        Scheme::Ruby => {
            let rel: Vec<String> = module[1..].iter().map(|c| snake_case(c)).collect();
            if rel.is_empty() || !module[1..].iter().all(|c| is_constant(c)) {
                return Vec::new();
            }
            let rel = rel.join("/");
            vec![format!("lib/{rel}.rb"), format!("{rel}.rb")]
        }
        // PSR-4: a class's file is its namespace's directory and its name, under some prefix
        // (the repository's root, `src/`, or the namespace's first segment dropped).
        Scheme::Php => {
            let rel = module[1..].join("/");
            if rel.is_empty() {
                return Vec::new();
            }
            let mut out = vec![format!("{rel}.php"), format!("src/{rel}.php")];
            if module.len() > 2 {
                let rest = module[2..].join("/");
                out.push(format!("src/{rest}.php"));
                out.push(format!("{rest}.php"));
            }
            out
        }
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

    #[test]
    fn ruby_names_requires_and_files() {
        assert_eq!(
            segments(Scheme::Ruby, "Sinatra::Base#call"),
            ["Sinatra", "Base", "call"]
        );
        assert_eq!(segments(Scheme::Ruby, "Foo.bar?"), ["Foo", "bar?"]);
        assert_eq!(segments(Scheme::Ruby, "Foo#=="), ["Foo", "=="]);
        assert_eq!(
            ruby_required("lib/sinatra/base.rb", "../rack/x"),
            [p(&["", "lib/rack/x.rb"])]
        );
        assert_eq!(
            ruby_required("test/a_test.rb", "./helper"),
            [p(&["", "test/helper.rb"])]
        );
        assert_eq!(
            ruby_required("test/a_test.rb", "sinatra/base"),
            [p(&["", "sinatra/base.rb"]), p(&["", "lib/sinatra/base.rb"])]
        );
        assert_eq!(
            module_files(
                Scheme::Ruby,
                &Project::default(),
                &p(&["", "Sinatra", "IndifferentHash"])
            ),
            [
                "lib/sinatra/indifferent_hash.rb",
                "sinatra/indifferent_hash.rb"
            ]
        );
        let d = Definition::new(Scheme::Ruby, &Project::default(), "lib/x.rb", "A::B#m");
        assert!(d.named_by(Scheme::Ruby, &p(&["", "A", "B", "m"])));
        assert!(!d.named_by(Scheme::Ruby, &p(&["", "X", "A", "B", "m"])));
    }

    #[test]
    fn php_namespaces_follow_psr4() {
        let pr = Project::default();
        let v = view(
            Scheme::Php,
            &pr,
            "src/App.php",
            &analysis(&[
                "App\\Routing\\Route",
                "Psr\\Log as L",
                "function App\\util\\f",
            ]),
        );
        let r = |q: &str, n: &str, m: bool| resolve(Scheme::Php, &pr, &v, &call(q, n, m), None);
        assert_eq!(
            r("Route", "create", false),
            Resolution::Paths(vec![p(&["", "App", "Routing", "Route", "create"])])
        );
        assert_eq!(
            r("", "f", false),
            Resolution::Paths(vec![
                p(&["", "App", "util", "f"]),
                p(&["", "src", "f"]),
                p(&["", "f"])
            ])
        );
        assert_eq!(r("$x", "run", true), Resolution::Receiver);
        assert_eq!(r("parent", "run", false), Resolution::Receiver);
        let d = Definition::new(Scheme::Php, &pr, "src/Routing/Route.php", "Route::create");
        assert!(d.named_by(Scheme::Php, &p(&["", "App", "Routing", "Route", "create"])));
        assert!(!d.named_by(Scheme::Php, &p(&["", "App", "Other", "Route", "create"])));
        let slim = Definition::new(Scheme::Php, &pr, "Slim/Routing/Route.php", "Route::run");
        assert!(slim.named_by(Scheme::Php, &p(&["", "Slim", "Routing", "Route", "run"])));
        let test = Definition::new(Scheme::Php, &pr, "tests/Mocks/A.php", "A::f");
        assert!(test.named_by(Scheme::Php, &p(&["", "Slim", "Tests", "Mocks", "A", "f"])));
    }
}
