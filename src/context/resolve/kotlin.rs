//! Kotlin: names leave the package out (`Receiver.fun`), and nothing but its directory tells a
//! file's package, so a file's module is its directory, and an imported package names a
//! definition's directory when one ends with the other or they end with the same two segments
//! (`com.x.core` in `src/main/kotlin/com/x/core/`, or in `src/main/kotlin/x/core/` with the
//! common root left out, as Kotlin's conventions allow). A module's files cannot be named, so
//! a callee is resolved to a file only when the caller's own file defines it.

use super::{
    AbsPath, Definition, FileView, Imports, Project, Resolution, Rules, dotted_binding,
    dotted_qualified,
};
use crate::lang::CallSite;

pub(super) struct Kotlin;

impl Rules for Kotlin {
    fn separator(&self) -> &'static str {
        "."
    }

    /// A Kotlin package is known by its directory.
    fn module(&self, _project: &Project, file: &str) -> AbsPath {
        std::iter::once(String::new())
            .chain(
                file.rsplit_once('/')
                    .map_or("", |(dir, _)| dir)
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned),
            )
            .collect()
    }

    fn bind(
        &self,
        _project: &Project,
        _file: &str,
        _module: &AbsPath,
        import: &str,
        into: &mut Imports,
    ) {
        dotted_binding(import, false, into);
    }

    /// The types enclosing a call, in the file's package.
    fn enclosing_scopes(&self) -> bool {
        true
    }

    fn qualified(
        &self,
        _project: &Project,
        view: &FileView,
        site: &CallSite,
        enclosing: Option<Vec<String>>,
    ) -> Resolution {
        dotted_qualified(view, site, enclosing)
    }

    fn named_through(&self, qualified: &[String], module: &AbsPath, path: &AbsPath) -> bool {
        let q = qualified.len();
        path.len() > q
            && path[0] == module[0]
            && path[path.len() - q..] == qualified[..]
            && package_in(&path[1..path.len() - q], &module[1..])
    }

    /// The defining file or directory, an import from the type's package, or the type named.
    fn related(&self, definition: &Definition, view: &FileView) -> bool {
        if view.path == definition.file || view.module == definition.module {
            return true;
        }
        let ty = definition.type_name();
        let dirs = &definition.module[1..];
        view.qualifiers.contains(ty)
            || view.bindings.iter().any(|(name, path)| {
                name == ty || (path.len() > 1 && package_in(&path[1..path.len() - 1], dirs))
            })
            || view
                .globs
                .iter()
                .any(|g| g.len() > 1 && package_in(&g[1..], dirs))
    }

    /// A module is a directory, whose files' names say nothing of what they define.
    fn module_files(&self, _project: &Project, _module: &AbsPath) -> Vec<String> {
        Vec::new()
    }

    fn own_file_fallback(&self) -> bool {
        true
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
