//! PHP: a file's namespace is its directory (PSR-4, under some prefix); `use` binds classes,
//! namespaces and functions; `self::`, `static::` and `$this->` name the enclosing class's
//! methods; a definition is named by its class in any namespace that agrees with its
//! directory. `composer.json` is not read.

use super::{AbsPath, FileView, Imports, Project, Resolution, Rules, child, under};
use crate::lang::CallSite;

pub(super) struct Php;

impl Rules for Php {
    fn separator(&self) -> &'static str {
        "\\"
    }

    /// PSR-4: a PHP file's namespace is its directory's path (under some prefix).
    fn module(&self, _project: &Project, file: &str) -> AbsPath {
        std::iter::once(String::new())
            .chain(
                file.rsplit_once('/')
                    .map(|(dir, _)| dir.split('/').map(str::to_owned).collect::<Vec<_>>())
                    .unwrap_or_default(),
            )
            .collect()
    }

    fn segments(&self, qualified: &str) -> Vec<String> {
        qualified.split("::").map(str::to_owned).collect()
    }

    /// A class (or namespace) or a function by its last name or alias.
    fn bind(
        &self,
        _project: &Project,
        _file: &str,
        _module: &AbsPath,
        import: &str,
        into: &mut Imports,
    ) {
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
            into.bindings.insert(last.to_owned(), absolute);
        }
    }

    /// `f()` through `use function` or in the file's namespace or the global one; `Name::m()`
    /// through `use` or in the file's namespace; `self::`, `static::` and `$this->` on the
    /// enclosing class; `parent::` and other receivers unknown.
    fn resolve(
        &self,
        _project: &Project,
        view: &FileView,
        site: &CallSite,
        enclosing: Option<Vec<String>>,
    ) -> Resolution {
        let name = &site.name;
        let root = vec![String::new()];
        let enclosing = enclosing.unwrap_or_default();
        let qualifier = site.qualifier.as_str();
        if site.member {
            return match qualifier {
                "$this" if !enclosing.is_empty() => {
                    Resolution::Paths(vec![under(&view.module, &enclosing, name)])
                }
                _ => Resolution::Receiver,
            };
        }
        if qualifier.is_empty() {
            let mut paths = Vec::new();
            if let Some(bound) = view.bindings.get(name) {
                paths.push(bound.clone());
            }
            paths.push(child(&view.module, name));
            paths.push(child(&root, name));
            return Resolution::Paths(paths);
        }
        let segs: Vec<&str> = qualifier.split('\\').filter(|s| !s.is_empty()).collect();
        let Some(first) = segs.first() else {
            return Resolution::Receiver;
        };
        match *first {
            "self" | "static" if segs.len() == 1 && !enclosing.is_empty() => {
                Resolution::Paths(vec![under(&view.module, &enclosing, name)])
            }
            "self" | "static" | "parent" => Resolution::Receiver,
            _ => match view.bindings.get(*first) {
                Some(bound) => Resolution::Paths(vec![under(bound, &segs[1..], name)]),
                None => Resolution::Paths(vec![
                    under(&view.module, &segs, name),
                    under(&root, &segs, name),
                ]),
            },
        }
    }

    /// Named by its class (and method) in a namespace that agrees with its directory.
    fn named_through(&self, qualified: &[String], module: &AbsPath, path: &AbsPath) -> bool {
        let q = qualified.len();
        path.len() > q
            && path[0].is_empty()
            && path[path.len() - q..] == qualified[..]
            && namespaces_agree(&path[1..path.len() - q], &module[1..])
    }

    /// PSR-4: a class's file is its namespace's directory and its name, under some prefix (the
    /// repository's root, `src/`, or the namespace's first segment dropped).
    fn module_files(&self, _project: &Project, module: &AbsPath) -> Vec<String> {
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

    /// The path's end from the class the file is named after.
    fn defines(&self, function: &[String], path: &AbsPath, k: usize) -> bool {
        function.len() > path.len() - k && path[1..].ends_with(function)
    }
}

/// Whether two namespaces (a call's and a definition's directories) may be one under PSR-4:
/// equal but for letter case, one a suffix of the other (a namespace prefix mapped to a
/// directory: `Slim\Tests\X` and `tests/X`), or equal past their first segments
/// (`App\X` and `src/X`). An empty namespace is the global one, which any file may define.
fn namespaces_agree(namespace: &[String], dirs: &[String]) -> bool {
    let lower = |v: &[String]| -> Vec<String> { v.iter().map(|s| s.to_lowercase()).collect() };
    let (n, d) = (lower(namespace), lower(dirs));
    n.is_empty() || n.ends_with(&d) || d.ends_with(&n) || (n.len() == d.len() && n[1..] == d[1..])
}
