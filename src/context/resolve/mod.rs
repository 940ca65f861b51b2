//! Which function a call refers to, from what the calling file imports.
//!
//! A function's absolute path is its module's path followed by the segments of its qualified
//! name: `[clap_builder, parser, Parser, parse]` for `Parser::parse` in
//! `clap_builder/src/parser.rs`, `["", "pkg", "mod", "C", "m"]` for `C.m` in `pkg/mod.py` (Python's
//! root is empty). A call resolves to the absolute paths it may name, through the calling
//! file's imports, its own definitions and its enclosing type (`self.m()`, `Self::m()`). A call
//! on a receiver whose type cannot be known (`parser.parse()`) resolves to
//! [`Resolution::Receiver`]: a candidate, reported as such, and only from files that import or
//! name the method's type.
//!
//! Each import scheme is one implementation of the rules below, in a file of its own: how a
//! file names its module, what an import binds, what a call names, which definitions a path
//! names and where a module's files are. The functions of this module dispatch to it.
//!
//! - Rust (`rust.rs`): `use` with `crate::`, `self::`, `super::` and crate names.
//! - Python (`python.rs`): `import`, `from ... import`, aliases and relative imports.
//! - Ruby (`ruby.rs`): constant paths are global; `require_relative`/`require` relate files.
//! - PHP (`php.rs`): `use`, the file's namespace (PSR-4, from its directory), `self::`.
//! - C# (`csharp.rs`): names hold their namespaces; `using` opens namespaces and types.
//! - Kotlin (`kotlin.rs`): `import`; a package is known by its directory.
//!
//! Re-exports are followed approximately: a path that lands in the right crate or package, in
//! a module enclosing the definition's, with the right name (`mycrate::Parser::parse` for a
//! `Parser` defined in `mycrate::parser`), matches.
//!
//! Languages without a scheme here are matched by name alone (a full scan).

mod csharp;
mod kotlin;
mod php;
mod python;
mod ruby;
mod rust;

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

/// How one language names modules and resolves imports (its configuration says which:
/// [`crate::lang::LanguageConfig::import_scheme`]).
pub use crate::lang::ImportScheme as Scheme;

impl Scheme {
    /// The import scheme of a language, if it has one.
    pub fn of(language: Language) -> Option<Scheme> {
        lang::for_language(language).and_then(|a| a.import_scheme)
    }

    /// The scheme's implementation: the one place a scheme is tied to its rules.
    fn rules(self) -> &'static dyn Rules {
        match self {
            Scheme::Rust => &rust::Rust,
            Scheme::Python => &python::Python,
            Scheme::Ruby => &ruby::Ruby,
            Scheme::Php => &php::Php,
            Scheme::CSharp => &csharp::CSharp,
            Scheme::Kotlin => &kotlin::Kotlin,
        }
    }

    /// Whether a bare call to a function its own file defines resolves to that file when no
    /// module file is found (a scheme whose modules' files cannot be named from a path).
    pub fn own_file_fallback(self) -> bool {
        self.rules().own_file_fallback()
    }
}

/// One import scheme: how its files name modules, what its imports bind and its calls name,
/// and where a module's files are. The defaults are the common case (dotted names, a bare call
/// through the file's imports and module, a definition named by its module's path).
trait Rules: Sync {
    /// The separator of a call's qualifier (`::` in `a::b::f()`).
    fn separator(&self) -> &'static str;

    /// The module a file defines.
    fn module(&self, project: &Project, file: &str) -> AbsPath;

    /// The segments of a qualified function name.
    fn segments(&self, qualified: &str) -> Vec<String> {
        qualified.split('.').map(str::to_owned).collect()
    }

    /// Records what one import of `file` (whose module is `module`) binds.
    fn bind(
        &self,
        project: &Project,
        file: &str,
        module: &AbsPath,
        import: &str,
        into: &mut Imports,
    );

    /// Whether names are also looked up in the namespaces and types enclosing the file's
    /// definitions (C#, and Kotlin's types).
    fn enclosing_scopes(&self) -> bool {
        false
    }

    /// The absolute paths a call may name; `enclosing` is the caller's type, if any. The
    /// default: a bare call through the file's bindings, globs and module, a call on an
    /// unnamed receiver unknown, a qualified call by [`Rules::qualified`].
    fn resolve(
        &self,
        project: &Project,
        view: &FileView,
        site: &CallSite,
        enclosing: Option<Vec<String>>,
    ) -> Resolution {
        if site.member && site.qualifier.is_empty() {
            return Resolution::Receiver;
        }
        if site.qualifier.is_empty() {
            return bare(view, &site.name);
        }
        self.qualified(project, view, site, enclosing)
    }

    /// What a call with a qualifier names (under the default [`Rules::resolve`]).
    fn qualified(
        &self,
        _project: &Project,
        _view: &FileView,
        _site: &CallSite,
        _enclosing: Option<Vec<String>>,
    ) -> Resolution {
        Resolution::Receiver
    }

    /// The absolute paths a definition's module is imported by.
    fn module_names(&self, module: &AbsPath) -> Vec<AbsPath> {
        vec![module.clone()]
    }

    /// Whether `path` names a definition with the segments `qualified` in `module` (one of
    /// [`Rules::module_names`]): exactly, or through a re-export in an enclosing module.
    fn named_through(&self, qualified: &[String], module: &AbsPath, path: &AbsPath) -> bool {
        reexported(qualified, module, path, false)
    }

    /// Whether a file has reason to hold a value of a method's type: it is the defining file
    /// or module, imports that module or from it, or names the type.
    fn related(&self, definition: &Definition, view: &FileView) -> bool {
        if view.path == definition.file || view.module == definition.module {
            return true;
        }
        let ty = definition.type_name();
        let modules = self.module_names(&definition.module);
        view.qualifiers.contains(ty)
            || view
                .bindings
                .iter()
                .any(|(name, path)| name == ty || modules.iter().any(|m| path.starts_with(m)))
            || view.globs.iter().any(|g| modules.contains(g))
    }

    /// The files that may define a module.
    fn module_files(&self, project: &Project, module: &AbsPath) -> Vec<String>;

    /// Whether a function with the segments `function`, in one of the files of `path[..k]`, is
    /// what `path` names.
    fn defines(&self, function: &[String], path: &AbsPath, k: usize) -> bool {
        function == &path[k..]
    }

    /// See [`Scheme::own_file_fallback`].
    fn own_file_fallback(&self) -> bool {
        false
    }
}

/// What a file's imports bind: names to absolute paths, and glob imports.
#[derive(Debug, Default)]
struct Imports {
    bindings: HashMap<String, AbsPath>,
    globs: Vec<AbsPath>,
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
    scheme.rules().module(project, file)
}

/// The segments of a qualified function name; Rust's `<Type as Trait>` counts as `Type`.
pub fn segments(scheme: Scheme, qualified: &str) -> Vec<String> {
    scheme.rules().segments(qualified)
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
    let rules = scheme.rules();
    let module = rules.module(project, path);
    let mut imports = Imports::default();
    for import in &analysis.imports {
        rules.bind(project, path, &module, import, &mut imports);
    }
    let Imports {
        bindings,
        mut globs,
    } = imports;
    if rules.enclosing_scopes() {
        for f in &analysis.functions {
            let segs = rules.segments(&f.name);
            for k in 0..segs.len() {
                let mut g = module.clone();
                g.extend(segs[..k].iter().cloned());
                if !globs.contains(&g) {
                    globs.push(g);
                }
            }
        }
    }
    let separator = rules.separator();
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

/// The absolute paths a call may name.
pub fn resolve(
    scheme: Scheme,
    project: &Project,
    view: &FileView,
    call: &Call,
    caller: Option<&Function>,
) -> Resolution {
    let enclosing_type = caller
        .map(|f| enclosing(scheme, f))
        .filter(|t| !t.is_empty());
    scheme
        .rules()
        .resolve(project, view, &call.site, enclosing_type)
}

/// A bare call (`f()`): what the file's imports bind to its name, the name in each glob
/// import, and the name in the file's own module.
fn bare(view: &FileView, name: &str) -> Resolution {
    let mut paths = Vec::new();
    if let Some(b) = view.bindings.get(name) {
        paths.push(b.clone());
    }
    for g in &view.globs {
        paths.push(child(g, name));
    }
    paths.push(child(&view.module, name));
    Resolution::Paths(paths)
}

/// `base`, then `name`.
fn child(base: &AbsPath, name: &str) -> AbsPath {
    under(base, &[] as &[&str], name)
}

/// `base`, then `extra`, then `name`.
fn under<S: AsRef<str>>(base: &AbsPath, extra: &[S], name: &str) -> AbsPath {
    let mut out = base.clone();
    out.extend(extra.iter().map(|s| s.as_ref().to_owned()));
    out.push(name.to_owned());
    out
}

/// Whether `path` names the definition `qualified` of `module` exactly, or through a
/// re-export in an enclosing module of the same root; `root_counts`: whether the root itself
/// is such a module (a Rust crate; Python's root is no package of its own).
fn reexported(qualified: &[String], module: &AbsPath, path: &AbsPath, root_counts: bool) -> bool {
    let q = qualified.len();
    if path.len() < q + 1 || path[0] != module[0] || path[path.len() - q..] != qualified[..] {
        return false;
    }
    let middle = &path[1..path.len() - q];
    let module = &module[1..];
    if middle == module {
        return true;
    }
    (root_counts || !middle.is_empty()) && middle.len() < module.len() && module.starts_with(middle)
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A C# `using` or Kotlin `import`: a star import is a glob, an alias a binding; an unaliased
/// name is opened as a glob when `opens` (C#: `using A.B;` opens a namespace, `using static
/// A.B.C;` a type, whose members are named bare), else bound by its last segment. Type
/// arguments are dropped.
fn dotted_binding(import: &str, opens: bool, into: &mut Imports) {
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
        into.globs.push(absolute);
        return;
    }
    match alias {
        Some(alias) => {
            into.bindings.insert(alias.to_owned(), absolute);
        }
        None if opens => into.globs.push(absolute),
        None => {
            if let Some(last) = absolute.last().cloned() {
                into.bindings.insert(last, absolute);
            }
        }
    }
}

/// A qualified call in C# or Kotlin: `this.m()` on the enclosing type, a bound name's member,
/// or a type's static member, companion or nested type's, looked up where bare names are.
fn dotted_qualified(
    view: &FileView,
    site: &CallSite,
    enclosing: Option<Vec<String>>,
) -> Resolution {
    let segs: Vec<&str> = site.qualifier.split('.').collect();
    match segs[0] {
        "this" if segs.len() == 1 => match enclosing {
            Some(ty) => Resolution::Paths(vec![under(&view.module, &ty, &site.name)]),
            None => Resolution::Receiver,
        },
        first => match view.bindings.get(first) {
            Some(bound) => Resolution::Paths(vec![under(bound, &segs[1..], &site.name)]),
            None if first.chars().next().is_some_and(char::is_uppercase)
                && segs.iter().all(|s| is_identifier(s)) =>
            {
                let mut paths: Vec<AbsPath> = view
                    .globs
                    .iter()
                    .map(|g| under(g, &segs, &site.name))
                    .collect();
                let own = under(&view.module, &segs, &site.name);
                if !paths.contains(&own) {
                    paths.push(own);
                }
                Resolution::Paths(paths)
            }
            None => Resolution::Receiver,
        },
    }
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

    /// The name of its type: the segment before its own.
    fn type_name(&self) -> &String {
        &self.qualified[self.qualified.len().saturating_sub(2)]
    }

    /// Whether an absolute path names it: exactly, or through a re-export in an enclosing
    /// module of the same crate or package.
    pub fn named_by(&self, scheme: Scheme, path: &AbsPath) -> bool {
        let rules = scheme.rules();
        rules
            .module_names(&self.module)
            .iter()
            .any(|module| rules.named_through(&self.qualified, module, path))
    }

    /// Whether a file has reason to hold a value of this method's type (by the scheme's
    /// imports: the defining file or module, an import of it, the type named).
    pub fn related(&self, scheme: Scheme, view: &FileView) -> bool {
        scheme.rules().related(self, view)
    }
}

/// Whether a function whose qualified name has the segments `function` is what `path` names
/// when its file is one of `module_files(path[..k])`: the rest of the path, or whatever the
/// scheme makes of it (a name that holds its namespaces, a definition named by its types).
pub fn defines(scheme: Scheme, function: &[String], path: &AbsPath, k: usize) -> bool {
    scheme.rules().defines(function, path, k)
}

/// The files that may define a module.
pub fn module_files(scheme: Scheme, project: &Project, module: &AbsPath) -> Vec<String> {
    scheme.rules().module_files(project, module)
}

#[cfg(test)]
mod tests;
