//! The table of contents of a change too large for one answer (ADR 18): what the first page of
//! a paged answer holds, ranked for what is asked of a range, and what the map's later pages
//! hold.
//!
//! A range is asked for its new interface (release notes, an upgrade review), then for what
//! else changed in the code that ships, and only then for its tests and documentation. So:
//!
//! - **The interface first** ([`Part::Api`]): every public function or declaration (type,
//!   trait, interface, enum, constant) of production code that was added, deleted, re-signed or
//!   renamed, with its signature; members of an interface implemented elsewhere (a Rust trait
//!   impl) by name, their signatures being the interface's. A shape repeated on several types
//!   (`get_ref`, `get_mut` on nine adapters) is said once: the members, the types, then each
//!   signature.
//! - **Production code by name** ([`Part::File`], one per file): modified functions, private
//!   ones added, deleted or re-signed, moves and reformatting, members of one scope written
//!   once (`Deserializer::{peek, parse}`); the file's own tests counted.
//! - **Everything else counted** ([`Toc::elsewhere`]): tests, benches, examples, docs and
//!   configuration per directory (`tests/: 14 files +900 -200; tests: 52 added`), their names
//!   on a later page, after production code.
//!
//! Every changed function of the change is named in some part: the table of contents and the
//! map's later pages together are the whole map.

mod api;
mod elsewhere;
mod names;

use std::collections::HashSet;

use api::{api_lines, shapes};
use names::{other_names, production_names, test_names};

use super::overview::{self, MapEntry, Ordered};
use super::role::{self, Role};
use crate::lang::{ChangeType, FunctionChange, Visibility};
use crate::manifest::hunks::display_path;
use crate::manifest::model::{FileChange, Functions};

/// One piece of the map, in page order.
#[derive(Clone, Debug)]
pub enum Part {
    /// Interface changes under a key: a file's path, or the directory of several files that
    /// share a shape.
    Api {
        /// The file's path, or `dir/ (n files)`.
        key: String,
        /// One line per change (or per shape).
        lines: Vec<String>,
    },
    /// One file of the map with the names of its changed functions.
    File {
        /// The file's line and names.
        entry: MapEntry,
        /// What kind of code it is (a production file's tests count as tests).
        role: Role,
    },
}

impl Part {
    /// What kind of code the part describes.
    pub fn role(&self) -> Role {
        match self {
            Part::Api { .. } => Role::Production,
            Part::File { role, .. } => *role,
        }
    }
}

/// A change's table of contents and the rest of its map.
#[derive(Clone, Debug, Default)]
pub struct Toc {
    /// The interface, then production code, then tests of production files and the files of
    /// other roles.
    pub parts: Vec<Part>,
    /// How many of `parts` are the interface.
    pub api_parts: usize,
    /// How many of `parts` are the interface and production code: what the first page holds
    /// when it has room.
    pub first: usize,
    /// Public functions and declarations the interface lists with their signatures.
    pub api_items: usize,
    /// Files other than production code, counted per directory.
    pub elsewhere: Ordered<String>,
}

/// A change to the interface, found in one file.
struct Candidate<'a> {
    /// Index into the change's files.
    file: usize,
    change: &'a FunctionChange,
}

/// Builds the table of contents of `files`, taken in `order` (production code first).
pub fn build(files: &[FileChange], order: &[usize]) -> Toc {
    let roles: Vec<Role> = files.iter().map(role::of).collect();
    let production: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| roles[i] == Role::Production)
        .collect();
    let (mut parts, api_items) = interface(files, &production);
    let api_parts = parts.len();
    let entries = overview::map_entries(files, order);
    let (code, others): (Vec<&MapEntry>, Vec<&MapEntry>) = entries
        .iter()
        .partition(|e| roles[e.index] == Role::Production);
    let file_part = |e: &MapEntry, functions: Vec<String>, role: Role| {
        let mut entry = e.clone();
        entry.functions = functions;
        Part::File { entry, role }
    };
    for e in &code {
        parts.push(file_part(
            e,
            production_names(&files[e.index]),
            Role::Production,
        ));
    }
    let first = parts.len();
    for e in &code {
        let tests = test_names(&files[e.index]);
        if !tests.is_empty() {
            parts.push(file_part(e, tests, Role::Test));
        }
    }
    for e in &others {
        parts.push(file_part(e, other_names(&files[e.index]), roles[e.index]));
    }
    Toc {
        parts,
        api_parts,
        first,
        api_items,
        elsewhere: elsewhere::elsewhere(files, order, &roles),
    }
}

/// The interface parts of the `production` files, in order: each shape (the same member with
/// the same signature on several scopes) before the file it is first found in, then that
/// file's own lines; and how many public items they list.
fn interface(files: &[FileChange], production: &[usize]) -> (Vec<Part>, usize) {
    let mut public: Vec<Candidate<'_>> = Vec::new();
    for &i in production {
        for c in analysed(&files[i]).map_or(&[][..], |a| &a.changed[..]) {
            if is_api(c) && c.visibility == Visibility::Public {
                public.push(Candidate { file: i, change: c });
            }
        }
    }
    let shapes = shapes(&public);
    let shaped: HashSet<*const FunctionChange> = shapes
        .iter()
        .flat_map(|s| s.members.iter().map(|c| std::ptr::from_ref(c.change)))
        .collect();
    let (mut parts, mut items) = (Vec::new(), 0);
    let mut shown_shapes = vec![false; shapes.len()];
    for &i in production {
        for (n, shape) in shapes.iter().enumerate() {
            if !shown_shapes[n] && shape.members.first().is_some_and(|c| c.file == i) {
                shown_shapes[n] = true;
                items += shape.members.len();
                parts.push(Part::Api {
                    key: shape.key(files),
                    lines: vec![shape.line()],
                });
            }
        }
        let (lines, file_items) = api_lines(&files[i], &shaped);
        if !lines.is_empty() {
            items += file_items;
            let key = display_path(&files[i].path);
            // A shape of this file alone went first under the same key: one part.
            match parts.last_mut() {
                Some(Part::Api {
                    key: last,
                    lines: shape,
                }) if *last == key => shape.extend(lines),
                _ => parts.push(Part::Api { key, lines }),
            }
        }
    }
    (parts, items)
}

/// A file's analysis, when it was analysed.
fn analysed(f: &FileChange) -> Option<&crate::lang::FileFunctions> {
    match &f.functions {
        Functions::Analysed(a) => Some(a),
        _ => None,
    }
}

/// Whether a function's change is one of the interface (when it is visible): new, gone,
/// re-signed or renamed, outside tests.
fn is_api(c: &FunctionChange) -> bool {
    !c.test
        && matches!(
            c.change_type,
            ChangeType::Added
                | ChangeType::Deleted
                | ChangeType::SignatureChanged
                | ChangeType::Renamed
        )
}

/// Whether a change moves a public function to another file (an interface change: where it
/// is imported from).
fn public_move(c: &FunctionChange) -> bool {
    !c.test && c.change_type == ChangeType::Moved && c.visibility == Visibility::Public
}

/// The word a change is said with.
fn verb(t: ChangeType) -> &'static str {
    match t {
        ChangeType::Added => "added",
        ChangeType::Deleted => "deleted",
        ChangeType::SignatureChanged => "signature",
        ChangeType::Renamed => "renamed",
        ChangeType::Modified => "modified",
        ChangeType::Moved => "moved",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::facts::Status;
    use crate::lang::{DeclarationChange, FileFunctions, FunctionKind};

    fn file(
        path: &str,
        changed: Vec<FunctionChange>,
        declarations: Vec<DeclarationChange>,
    ) -> FileChange {
        FileChange {
            path: path.into(),
            old_path: None,
            status: Status::Modified,
            similarity: None,
            mode_before: crate::git::Mode::FILE,
            mode_after: crate::git::Mode::FILE,
            oid_before: None,
            oid_after: None,
            lines: Some((10, 2)),
            binary: false,
            size_before: None,
            size_after: None,
            language: crate::manifest::language::from_path(path.as_bytes()),
            generated: None,
            generated_by_change: false,
            generated_shown: None,
            untracked: false,
            functions: Functions::Analysed(FileFunctions {
                changed,
                declarations,
                ..FileFunctions::default()
            }),
            outline: Default::default(),
        }
    }

    fn change(
        name: &str,
        t: ChangeType,
        visibility: Visibility,
        signature: &str,
    ) -> FunctionChange {
        FunctionChange {
            name: name.into(),
            old_name: (t == ChangeType::Renamed).then(|| format!("{name}_old")),
            kind: FunctionKind::Method,
            change_type: t,
            start_line: 1,
            end_line: 2,
            signature: signature.into(),
            old_path: None,
            edited: false,
            visibility,
            test: false,
        }
    }

    #[test]
    fn the_interface_comes_first_with_shapes_said_once() {
        use ChangeType::*;
        use Visibility::*;
        let adapter = |ty: &str| {
            file(
                &format!("src/stream_ext/{}.rs", ty.to_ascii_lowercase()),
                vec![
                    change(
                        &format!("{ty}::get_ref"),
                        Added,
                        Public,
                        "pub fn get_ref(&self) -> &St",
                    ),
                    change(
                        &format!("{ty}::into_inner"),
                        Added,
                        Public,
                        "pub fn into_inner(self) -> St",
                    ),
                    change(
                        &format!("<{ty} as Stream>::poll_next"),
                        Modified,
                        Implementation,
                        "",
                    ),
                ],
                Vec::new(),
            )
        };
        let mut test_fn = change("tests::it_works", Added, Private, "fn it_works()");
        test_fn.test = true;
        let files = vec![
            adapter("Filter"),
            file(
                "src/map.rs",
                vec![
                    change(
                        "Map::shift_insert",
                        Added,
                        Public,
                        "#[inline] pub fn shift_insert(&mut self)",
                    ),
                    change("Map::grow", Added, Private, "fn grow(&mut self)"),
                    change("Map::len", Modified, Public, "pub fn len(&self) -> usize"),
                    change(
                        "<Map as Hash>::hash",
                        Added,
                        Implementation,
                        "fn hash<H>(&self, h: &mut H)",
                    ),
                    change("Map::retain", Renamed, Public, "pub fn retain(&mut self)"),
                    test_fn,
                ],
                vec![DeclarationChange {
                    name: "IntoValues".into(),
                    kind: "struct".into(),
                    change_type: Added,
                    signature: "pub struct IntoValues".into(),
                    visibility: Public,
                    test: false,
                    start_line: 9,
                }],
            ),
            adapter("Map2"),
            file(
                "tests/map.rs",
                vec![change("test_shift", Added, Private, "fn test_shift()")],
                Vec::new(),
            ),
            file("README.md", Vec::new(), Vec::new()),
        ];
        let order: Vec<usize> = (0..files.len()).collect();
        let toc = build(&files, &order);
        let api: Vec<(String, Vec<String>)> = toc
            .parts
            .iter()
            .take(toc.api_parts)
            .map(|p| match p {
                Part::Api { key, lines } => (key.clone(), lines.clone()),
                Part::File { .. } => unreachable!(),
            })
            .collect();
        assert_eq!(
            api,
            [
                (
                    "src/stream_ext/ (2 files)".to_owned(),
                    vec!["added get_ref, into_inner on Filter, Map2: pub fn get_ref(&self) -> &St; pub fn into_inner(self) -> St".to_owned()]
                ),
                (
                    "src/map.rs".to_owned(),
                    vec![
                        "added pub fn Map::shift_insert(&mut self)".to_owned(),
                        "renamed Map::retain_old -> pub fn Map::retain(&mut self)".to_owned(),
                        "added pub struct IntoValues".to_owned(),
                        "added <Map as Hash>::hash".to_owned(),
                    ]
                ),
            ]
        );
        assert_eq!(toc.api_items, 4 + 2 + 1);
        let names: Vec<(String, Vec<String>)> = toc.parts[toc.api_parts..]
            .iter()
            .map(|p| match p {
                Part::File { entry, .. } => (entry.path.clone(), entry.functions.clone()),
                Part::Api { .. } => unreachable!(),
            })
            .collect();
        assert_eq!(
            names,
            [
                (
                    "src/stream_ext/filter.rs".to_owned(),
                    vec!["modified <Filter as Stream>::poll_next".to_owned()]
                ),
                (
                    "src/map.rs".to_owned(),
                    vec![
                        "modified Map::len".to_owned(),
                        "private: added Map::grow".to_owned(),
                        "tests: 1 added".to_owned(),
                    ]
                ),
                (
                    "src/stream_ext/map2.rs".to_owned(),
                    vec!["modified <Map2 as Stream>::poll_next".to_owned()]
                ),
                // Later pages: the production file's tests by name, then the other files.
                (
                    "src/map.rs".to_owned(),
                    vec!["tests: added tests::it_works".to_owned()]
                ),
                (
                    "tests/map.rs".to_owned(),
                    vec!["added test_shift".to_owned()]
                ),
                ("README.md".to_owned(), Vec::new()),
            ]
        );
        assert_eq!(toc.first, toc.api_parts + 3);
        assert_eq!(
            toc.elsewhere.0,
            [
                (
                    "tests/".to_owned(),
                    "1 file +10 -2; tests: 1 added: map.rs".to_owned()
                ),
                ("(top)".to_owned(), "1 file +10 -2: README.md".to_owned()),
            ]
        );
    }

    #[test]
    fn a_shape_within_one_file_shares_the_file_s_entry() {
        use ChangeType::*;
        use Visibility::*;
        let files = vec![file(
            "src/join.rs",
            vec![
                change(
                    "Rotator::num_skip",
                    Added,
                    Public,
                    "pub fn num_skip(&mut self) -> u32",
                ),
                change(
                    "Biased::num_skip",
                    Added,
                    Public,
                    "pub fn num_skip(&mut self) -> u32",
                ),
                change("Rotator::new", Added, Public, "pub fn new() -> Self"),
            ],
            Vec::new(),
        )];
        let toc = build(&files, &[0]);
        assert_eq!(toc.api_parts, 1);
        match &toc.parts[0] {
            Part::Api { key, lines } => {
                assert_eq!(key, "src/join.rs");
                assert_eq!(
                    lines,
                    &[
                        "added num_skip on Rotator, Biased: pub fn num_skip(&mut self) -> u32",
                        "added pub fn Rotator::new() -> Self",
                    ]
                );
            }
            Part::File { .. } => unreachable!(),
        }
    }

    #[test]
    fn a_signature_carries_its_qualified_name() {
        assert_eq!(
            overview::signed("Map::get", "pub fn get(&self) -> u8"),
            "pub fn Map::get(&self) -> u8"
        );
        assert_eq!(
            overview::signed("get", "pub fn get(&self)"),
            "pub fn get(&self)"
        );
        assert_eq!(
            overview::signed("Option.flag", "@property def flag(self) -> bool"),
            "@property def Option.flag(self) -> bool"
        );
        assert_eq!(
            overview::signed("Command.Run", "func (c *Command) Run() error"),
            "func (c *Command) Run() error"
        );
        assert_eq!(
            overview::signed("<A as B>::x", "fn x(&self)"),
            "fn <A as B>::x(&self)"
        );
        assert_eq!(overview::signed("a::b", "fn bb()"), "a::b: fn bb()");
        assert_eq!(overview::signed("f", ""), "f");
    }
}
