//! Dependency changes: what a range did to the dependencies declared in manifest files and
//! pinned in lockfiles.
//!
//! One parser per file format ([`cargo`], [`python`], [`npm`], [`gomod`]) turns a file's
//! content into declarations; [`diff`] compares the declarations before and after; [`report`]
//! puts a manifest change and its lockfile churn together, so a version bump reads as one entry
//! with its locked versions, and a lockfile's transitive churn as counts plus its most notable
//! changes, never as hundreds of entries. Everything is sorted, so output is deterministic.

pub mod cargo;
pub mod gomod;
pub mod npm;
pub mod python;
pub mod version;

use std::collections::{BTreeMap, BTreeSet};

pub use version::Bump;

/// The dependency file formats understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// `Cargo.toml`.
    CargoToml,
    /// `Cargo.lock`.
    CargoLock,
    /// `pyproject.toml` (PEP 621, PEP 735 groups, Poetry).
    Pyproject,
    /// `requirements*.txt`.
    Requirements,
    /// `package.json`.
    PackageJson,
    /// `package-lock.json` / `npm-shrinkwrap.json`.
    PackageLock,
    /// `go.mod`.
    GoMod,
}

impl Format {
    /// Returns the format of a file from its path, if it is a dependency file.
    pub fn of(path: &[u8]) -> Option<Format> {
        let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
        Some(match name {
            b"Cargo.toml" => Format::CargoToml,
            b"Cargo.lock" => Format::CargoLock,
            b"pyproject.toml" => Format::Pyproject,
            b"package.json" => Format::PackageJson,
            b"package-lock.json" | b"npm-shrinkwrap.json" => Format::PackageLock,
            b"go.mod" => Format::GoMod,
            n if n.starts_with(b"requirements") && n.ends_with(b".txt") => Format::Requirements,
            _ => return None,
        })
    }

    /// Returns whether the format pins versions (a lockfile) rather than declaring them.
    pub fn is_lockfile(self) -> bool {
        matches!(self, Format::CargoLock | Format::PackageLock)
    }

    /// The ecosystem, for pairing manifests with lockfiles.
    fn ecosystem(self) -> &'static str {
        match self {
            Format::CargoToml | Format::CargoLock => "cargo",
            Format::Pyproject | Format::Requirements => "python",
            Format::PackageJson | Format::PackageLock => "npm",
            Format::GoMod => "go",
        }
    }
}

/// The error returned when a dependency file cannot be parsed.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ParseError(pub String);

/// One declared dependency.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Declaration {
    /// The dependency's name as written.
    pub name: String,
    /// `normal`, `dev`, `build`, `peer`, `optional`, `group`, `workspace`, `indirect`,
    /// `toolchain`.
    pub kind: &'static str,
    /// A target (`cfg(unix)`) or group name, when the kind has one.
    pub scope: Option<String>,
    /// The version requirement or source as written (`^1.2`, `>=2,<3`, `path:../x`).
    pub version: Option<String>,
}

/// Parses a file of `format`.
pub fn parse(format: Format, content: &[u8]) -> Result<Vec<Declaration>, ParseError> {
    let text = std::str::from_utf8(content).map_err(|_| ParseError("not UTF-8".into()))?;
    match format {
        Format::CargoToml => cargo::manifest(text),
        Format::CargoLock => cargo::lockfile(text),
        Format::Pyproject => python::pyproject(text),
        Format::Requirements => Ok(python::requirements(text)),
        Format::PackageJson => npm::manifest(text),
        Format::PackageLock => npm::lockfile(text),
        Format::GoMod => Ok(gomod::parse(text)),
    }
}

/// One dependency that changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The file that declares it.
    pub file: String,
    /// The dependency's name.
    pub name: String,
    /// Its kind (see [`Declaration::kind`]).
    pub kind: &'static str,
    /// Target or group.
    pub scope: Option<String>,
    /// The version before (`None`: added).
    pub old_version: Option<String>,
    /// The version after (`None`: removed).
    pub new_version: Option<String>,
    /// How big the version change is, when both versions parse.
    pub bump: Option<Bump>,
    /// Locked versions before and after, from a lockfile changed in the same range.
    pub locked: Option<(Option<String>, Option<String>)>,
}

/// A dependency's identity within a file: name, kind and scope.
type Key = (String, &'static str, Option<String>);

/// Compares declarations before and after; `file` names the file in the result.
pub fn diff(file: &str, before: &[Declaration], after: &[Declaration]) -> Vec<Change> {
    let index = |list: &'_ [Declaration]| -> BTreeMap<Key, BTreeSet<Option<String>>> {
        let mut map = BTreeMap::new();
        for d in list {
            map.entry((d.name.clone(), d.kind, d.scope.clone()))
                .or_insert_with(BTreeSet::new)
                .insert(d.version.clone());
        }
        map
    };
    let (old, new) = (index(before), index(after));
    let keys: BTreeSet<&(String, &'static str, Option<String>)> =
        old.keys().chain(new.keys()).collect();
    let mut changes = Vec::new();
    for key in keys {
        let empty = BTreeSet::new();
        let was = old.get(key).unwrap_or(&empty);
        let now = new.get(key).unwrap_or(&empty);
        if was == now {
            continue;
        }
        let gone: Vec<&Option<String>> = was.difference(now).collect();
        let came: Vec<&Option<String>> = now.difference(was).collect();
        let mut push = |old_version: Option<String>, new_version: Option<String>| {
            let bump = match (&old_version, &new_version) {
                (Some(a), Some(b)) => Some(version::bump(a, b)),
                _ => None,
            };
            changes.push(Change {
                file: file.to_owned(),
                name: key.0.clone(),
                kind: key.1,
                scope: key.2.clone(),
                old_version,
                new_version,
                bump,
                locked: None,
            });
        };
        let present = |v: &&Option<String>| (*v).clone();
        match (gone.len(), came.len()) {
            (0, _) if !was.is_empty() => {
                // More versions of the same name (a lockfile holding two majors).
                for v in &came {
                    push(None, present(v));
                }
            }
            (0, _) => {
                let v = came.first().and_then(present);
                push(None, v);
            }
            (_, 0) if !now.is_empty() => {
                for v in &gone {
                    push(present(v), None);
                }
            }
            (_, 0) => {
                let v = gone.first().and_then(present);
                push(v, None);
            }
            _ => {
                // Pair removed and added versions in order; extras are removals/additions.
                for i in 0..gone.len().max(came.len()) {
                    push(gone.get(i).and_then(present), came.get(i).and_then(present));
                }
            }
        }
    }
    changes
}

/// One side of a changed dependency file: absent, or its parsed declarations (or why it could
/// not be parsed).
pub type Parsed = Option<Result<Vec<Declaration>, ParseError>>;

/// A dependency file that changed, parsed before and after.
pub struct ChangedFile {
    /// Its path.
    pub path: String,
    /// Its format.
    pub format: Format,
    /// Declarations before (`None`: the file did not exist).
    pub before: Parsed,
    /// Declarations after (`None`: the file no longer exists).
    pub after: Parsed,
}

/// The churn of one lockfile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockfileSummary {
    /// The lockfile.
    pub file: String,
    /// Packages whose locked version changed.
    pub updated: usize,
    /// Packages newly locked.
    pub added: usize,
    /// Packages no longer locked.
    pub removed: usize,
    /// Changes already reported on a manifest entry's `locked` versions.
    pub direct: usize,
    /// The most notable other changes (major bumps first), at most [`NOTABLE`].
    pub notable: Vec<Change>,
    /// How many other changes are not listed in `notable`.
    pub omitted: usize,
}

/// How many transitive lockfile changes are listed per lockfile.
pub const NOTABLE: usize = 10;

/// Every dependency change of a range.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Changes to declared dependencies (with their locked versions when a lockfile changed).
    pub changes: Vec<Change>,
    /// Lockfile churn, summarised.
    pub lockfiles: Vec<LockfileSummary>,
    /// Files that could not be parsed, and why.
    pub errors: Vec<(String, String)>,
}

/// Builds the report for the dependency files changed in a range.
pub fn report(files: &[ChangedFile]) -> Report {
    let mut report = Report::default();
    let mut lock_changes: Vec<(String, &'static str, Vec<Change>)> = Vec::new();
    for file in files {
        let side = |parsed: &Parsed| -> Result<Vec<Declaration>, ParseError> {
            match parsed {
                None => Ok(Vec::new()),
                Some(result) => result.clone(),
            }
        };
        let (before, after) = match (side(&file.before), side(&file.after)) {
            (Ok(b), Ok(a)) => (b, a),
            (Err(e), _) | (_, Err(e)) => {
                report.errors.push((file.path.clone(), e.0));
                continue;
            }
        };
        let changes = diff(&file.path, &before, &after);
        if file.format.is_lockfile() {
            lock_changes.push((file.path.clone(), file.format.ecosystem(), changes));
        } else {
            report.changes.extend(changes);
        }
    }
    let manifest_ecosystems: Vec<(String, &'static str)> = files
        .iter()
        .filter(|f| !f.format.is_lockfile())
        .map(|f| (f.path.clone(), f.format.ecosystem()))
        .collect();
    for (file, ecosystem, changes) in lock_changes {
        let mut summary = LockfileSummary {
            file,
            updated: 0,
            added: 0,
            removed: 0,
            direct: 0,
            notable: Vec::new(),
            omitted: 0,
        };
        let mut others = Vec::new();
        for change in changes {
            match (&change.old_version, &change.new_version) {
                (Some(_), Some(_)) => summary.updated += 1,
                (None, Some(_)) => summary.added += 1,
                _ => summary.removed += 1,
            }
            let direct = report.changes.iter_mut().find(|m| {
                m.name == change.name
                    && m.locked.is_none()
                    && manifest_ecosystems
                        .iter()
                        .any(|(p, e)| *p == m.file && *e == ecosystem)
            });
            match direct {
                Some(m) => {
                    m.locked = Some((change.old_version.clone(), change.new_version.clone()));
                    summary.direct += 1;
                }
                None => others.push(change),
            }
        }
        others.sort_by(|a, b| {
            severity(a.bump)
                .cmp(&severity(b.bump))
                .then_with(|| a.name.cmp(&b.name))
        });
        summary.omitted = others.len().saturating_sub(NOTABLE);
        others.truncate(NOTABLE);
        summary.notable = others;
        report.lockfiles.push(summary);
    }
    report.changes.sort_by(|a, b| {
        (&a.file, a.kind, &a.scope, &a.name).cmp(&(&b.file, b.kind, &b.scope, &b.name))
    });
    report.lockfiles.sort_by(|a, b| a.file.cmp(&b.file));
    report.errors.sort();
    report
}

/// Orders bumps for "most notable first": major, minor, other, patch, then additions/removals.
fn severity(bump: Option<Bump>) -> u8 {
    match bump {
        Some(Bump::Major) => 0,
        Some(Bump::Minor) => 1,
        Some(Bump::Other) => 2,
        Some(Bump::Patch) => 3,
        None => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl ChangedFile {
        /// Parses both sides from their content.
        pub fn from_content(
            path: String,
            format: Format,
            before: Option<&[u8]>,
            after: Option<&[u8]>,
        ) -> ChangedFile {
            ChangedFile {
                path,
                format,
                before: before.map(|c| parse(format, c)),
                after: after.map(|c| parse(format, c)),
            }
        }
    }

    fn decl(name: &str, kind: &'static str, version: &str) -> Declaration {
        Declaration {
            name: name.into(),
            kind,
            scope: None,
            version: Some(version.into()),
        }
    }

    #[test]
    fn formats_from_paths() {
        assert_eq!(Format::of(b"Cargo.toml"), Some(Format::CargoToml));
        assert_eq!(Format::of(b"crates/x/Cargo.toml"), Some(Format::CargoToml));
        assert_eq!(
            Format::of(b"requirements-dev.txt"),
            Some(Format::Requirements)
        );
        assert_eq!(
            Format::of(b"web/package-lock.json"),
            Some(Format::PackageLock)
        );
        assert_eq!(Format::of(b"src/lib.rs"), None);
        assert_eq!(Format::of(b"my-requirements.txt"), None);
    }

    #[test]
    fn diff_reports_added_removed_and_bumped() {
        let before = [
            decl("serde", "normal", "1.0.100"),
            decl("old", "normal", "0.1"),
            decl("x", "dev", "1"),
        ];
        let after = [
            decl("serde", "normal", "1.0.200"),
            decl("new", "normal", "2.0"),
            decl("x", "dev", "1"),
        ];
        let changes = diff("Cargo.toml", &before, &after);
        type Row = (String, Option<String>, Option<String>, Option<Bump>);
        let summary: Vec<Row> = changes
            .into_iter()
            .map(|c| (c.name, c.old_version, c.new_version, c.bump))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("new".into(), None, Some("2.0".into()), None),
                ("old".into(), Some("0.1".into()), None, None),
                (
                    "serde".into(),
                    Some("1.0.100".into()),
                    Some("1.0.200".into()),
                    Some(Bump::Patch)
                ),
            ]
        );
    }

    #[test]
    fn lockfile_churn_is_folded_into_the_manifest_change() {
        let toml_before = b"[dependencies]\nserde = \"1.0.100\"\n";
        let toml_after = b"[dependencies]\nserde = \"1.0.200\"\n";
        let lock = |serde: &str, extra: &[(&str, &str)]| {
            let mut s =
                format!("version = 3\n\n[[package]]\nname = \"serde\"\nversion = \"{serde}\"\n");
            for (n, v) in extra {
                s.push_str(&format!(
                    "\n[[package]]\nname = \"{n}\"\nversion = \"{v}\"\n"
                ));
            }
            s
        };
        let lock_before = lock(
            "1.0.100",
            &[("itoa", "1.0.0"), ("ryu", "1.0.0"), ("gone", "0.1.0")],
        );
        let lock_after = lock(
            "1.0.210",
            &[("itoa", "2.0.0"), ("ryu", "1.0.5"), ("fresh", "0.3.0")],
        );
        let files = [
            ChangedFile::from_content(
                "Cargo.toml".into(),
                Format::CargoToml,
                Some(toml_before),
                Some(toml_after),
            ),
            ChangedFile::from_content(
                "Cargo.lock".into(),
                Format::CargoLock,
                Some(lock_before.as_bytes()),
                Some(lock_after.as_bytes()),
            ),
        ];
        let r = report(&files);
        assert_eq!(r.changes.len(), 1);
        assert_eq!(
            r.changes[0].locked,
            Some((Some("1.0.100".into()), Some("1.0.210".into())))
        );
        let lf = &r.lockfiles[0];
        assert_eq!((lf.updated, lf.added, lf.removed, lf.direct), (3, 1, 1, 1));
        let notable: Vec<&str> = lf.notable.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            notable,
            ["itoa", "ryu", "fresh", "gone"],
            "major first, then patch, then adds/removes"
        );
    }

    #[test]
    fn unparsable_files_are_reported_not_dropped() {
        let files = [ChangedFile::from_content(
            "package.json".into(),
            Format::PackageJson,
            Some(b"{"),
            Some(b"{}"),
        )];
        let r = report(&files);
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].0, "package.json");
    }
}
