//! Python: a module is its file's dotted path under an empty root; `import`, `from ...
//! import`, aliases and relative imports bind names; `self.m()`/`cls.m()` name the enclosing
//! class's methods; a module is imported from wherever its package root is on `sys.path`.

use super::{AbsPath, FileView, Imports, Project, Resolution, Rules, is_identifier, under};
use crate::lang::CallSite;

pub(super) struct Python;

impl Rules for Python {
    fn separator(&self) -> &'static str {
        "."
    }

    fn module(&self, _project: &Project, file: &str) -> AbsPath {
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

    fn bind(
        &self,
        _project: &Project,
        path: &str,
        module: &AbsPath,
        import: &str,
        into: &mut Imports,
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
            into.globs.push(g);
            return;
        }
        match alias {
            Some(a) => {
                into.bindings.insert(a.to_owned(), absolute);
            }
            None => {
                if let Some(last) = rest.last() {
                    // `from x import y` binds `y`; `import a.b` binds `a` (and `a.b` is
                    // written out).
                    if dots == 0 && rest.len() > 1 {
                        into.bindings
                            .entry(rest[0].to_owned())
                            .or_insert_with(|| vec![String::new(), rest[0].to_owned()]);
                    }
                    into.bindings.insert((*last).to_owned(), absolute);
                }
            }
        }
    }

    fn qualified(
        &self,
        _project: &Project,
        view: &FileView,
        site: &CallSite,
        enclosing: Option<Vec<String>>,
    ) -> Resolution {
        let name = &site.name;
        let segs: Vec<&str> = site.qualifier.split('.').collect();
        match segs[0] {
            "self" | "cls" if segs.len() == 1 => match enclosing {
                Some(ty) => Resolution::Paths(vec![under(&view.module, &ty, name)]),
                None => Resolution::Receiver,
            },
            first => match view.bindings.get(first) {
                Some(bound) => Resolution::Paths(vec![under(bound, &segs[1..], name)]),
                None if first.chars().next().is_some_and(char::is_uppercase)
                    && segs.iter().all(|s| is_identifier(s)) =>
                {
                    // A class of this module (`Config.load()`).
                    Resolution::Paths(vec![under(&view.module, &segs, name)])
                }
                None => Resolution::Receiver,
            },
        }
    }

    /// Python imports a module from wherever its package root is on `sys.path`: a project in
    /// a subdirectory (`python/requests/src/requests/models.py` is `requests.models`), a src
    /// layout, or `src` itself a package. Any enclosing directories may be dropped as long as a
    /// package and a module remain, or the last one dropped is `src`.
    fn module_names(&self, module: &AbsPath) -> Vec<AbsPath> {
        let mut names = vec![module.clone()];
        for k in 2..module.len() {
            let remaining = module.len() - k;
            if remaining >= 2 || (module[k - 1] == "src" && remaining >= 1) {
                names.push(
                    std::iter::once(module[0].clone())
                        .chain(module[k..].iter().cloned())
                        .collect(),
                );
            }
        }
        names
    }

    fn module_files(&self, _project: &Project, module: &AbsPath) -> Vec<String> {
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
}
