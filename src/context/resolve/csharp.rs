//! C#: functions are named with their namespaces (`Ns.Type.Method`), so a function's path is
//! its name under one root for the whole repository. A call is looked up in the `using`
//! namespaces, `using static` types and aliases, and in the namespaces and types enclosing the
//! caller (C#'s own order). A type's file is found by the common convention
//! (`A.B.Parser` in `A/B/Parser.cs` or `src/A/B/Parser.cs`).

use super::{
    AbsPath, Definition, FileView, Imports, Project, Resolution, Rules, dotted_binding,
    dotted_qualified,
};
use crate::lang::CallSite;

pub(super) struct CSharp;

impl Rules for CSharp {
    fn separator(&self) -> &'static str {
        "."
    }

    /// Namespaces are part of C# names: one root for the whole repository.
    fn module(&self, _project: &Project, _file: &str) -> AbsPath {
        vec![String::new()]
    }

    /// `using A.B;` opens a namespace, `using static A.B.C;` a type.
    fn bind(
        &self,
        _project: &Project,
        _file: &str,
        _module: &AbsPath,
        import: &str,
        into: &mut Imports,
    ) {
        dotted_binding(import, true, into);
    }

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

    /// The type's namespace (or enclosing type) is open in the file, or the file names the
    /// type; every file shares the one root, which says nothing.
    fn related(&self, definition: &Definition, view: &FileView) -> bool {
        if view.path == definition.file {
            return true;
        }
        let ty = definition.type_name();
        let q = &definition.qualified;
        let mut scope = definition.module.clone();
        scope.extend(q[..q.len().saturating_sub(2)].iter().cloned());
        view.qualifiers.contains(ty)
            || view
                .bindings
                .iter()
                .any(|(name, path)| name == ty || path.starts_with(&scope))
            || view.globs.contains(&scope)
    }

    fn module_files(&self, _project: &Project, module: &AbsPath) -> Vec<String> {
        let rel = module[1..].join("/");
        if rel.is_empty() {
            return Vec::new();
        }
        vec![format!("{rel}.cs"), format!("src/{rel}.cs")]
    }

    /// A name holds its namespaces: the whole path but its root.
    fn defines(&self, function: &[String], path: &AbsPath, _k: usize) -> bool {
        function == &path[1..]
    }
}
