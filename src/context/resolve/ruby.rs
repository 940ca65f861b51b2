//! Ruby: constant paths are global, so a definition is named by its constants wherever its
//! file is (`Sinatra::Base.helpers`), and a call on a constant path is looked up from the
//! enclosing modules outwards; `require_relative` and `require` tell which files a file has
//! loaded (what relates it to their classes for candidate callers). A file's module is its
//! path; a class's file is found by the usual layout (`Foo::BarBaz` in `lib/foo/bar_baz.rb`).

use super::{AbsPath, FileView, Imports, Project, Resolution, Rules, is_identifier};
use crate::lang::CallSite;

pub(super) struct Ruby;

impl Rules for Ruby {
    fn separator(&self) -> &'static str {
        "::"
    }

    /// A Ruby file is named by its path: constants, not files, qualify its definitions.
    fn module(&self, _project: &Project, file: &str) -> AbsPath {
        vec![String::new(), file.to_owned()]
    }

    /// `Foo::Bar#baz` and `Foo::Bar.qux` are both `Foo`, `Bar` and a method.
    fn segments(&self, qualified: &str) -> Vec<String> {
        qualified
            .split("::")
            .flat_map(|part| match part.find(['#', '.']) {
                Some(at) if at > 0 => vec![part[..at].to_owned(), part[at + 1..].to_owned()],
                _ => vec![part.to_owned()],
            })
            .collect()
    }

    fn bind(
        &self,
        _project: &Project,
        file: &str,
        _module: &AbsPath,
        import: &str,
        into: &mut Imports,
    ) {
        into.globs.extend(required(file, import));
    }

    /// A bare or `self.` call names a method of the enclosing class or a top-level one; a
    /// constant receiver names a singleton method by its constant path, looked up from the
    /// enclosing modules outwards; any other receiver is unknown.
    fn resolve(
        &self,
        _project: &Project,
        _view: &FileView,
        site: &CallSite,
        enclosing: Option<Vec<String>>,
    ) -> Resolution {
        let name = &site.name;
        let path = |parts: &[&[String]]| -> AbsPath {
            std::iter::once(String::new())
                .chain(parts.iter().flat_map(|p| p.iter().cloned()))
                .chain(std::iter::once(name.clone()))
                .collect()
        };
        let enclosing = enclosing.unwrap_or_default();
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

    /// Named by its constant path alone, from the root.
    fn named_through(&self, qualified: &[String], _module: &AbsPath, path: &AbsPath) -> bool {
        let q = qualified.len();
        path.len() == q + 1 && path[0].is_empty() && path[1..] == qualified[..]
    }

    /// A class's file by the usual layout (`Foo::BarBaz` in `foo/bar_baz.rb`, under `lib/` or
    /// the root).
    fn module_files(&self, _project: &Project, module: &AbsPath) -> Vec<String> {
        let rel: Vec<String> = module[1..].iter().map(|c| snake_case(c)).collect();
        if rel.is_empty() || !module[1..].iter().all(|c| is_constant(c)) {
            return Vec::new();
        }
        let rel = rel.join("/");
        vec![format!("lib/{rel}.rb"), format!("{rel}.rb")]
    }

    /// The path's end from the class the file is named after.
    fn defines(&self, function: &[String], path: &AbsPath, k: usize) -> bool {
        function.len() > path.len() - k && path[1..].ends_with(function)
    }
}

/// The files a Ruby `require` may load, as modules: `./x` and `../x` from the requiring
/// file's directory, others from the load path (the repository's root or `lib/`).
pub(super) fn required(path: &str, import: &str) -> Vec<AbsPath> {
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

/// Whether a name is a Ruby constant (`Base`, not `base` or `@base`).
fn is_constant(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase) && is_identifier(s)
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
