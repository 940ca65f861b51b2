//! `Cargo.toml` and `Cargo.lock`.
//!
//! Every dependency table counts: `[dependencies]`, `[dev-dependencies]`,
//! `[build-dependencies]` (and their legacy `_` spellings), the same tables under
//! `[target.'<cfg>']`, and `[workspace.dependencies]`. `[dependencies.x]` tables are the same
//! TOML as inline tables. A version is the string form, the `version` key, or a description of
//! the source (`workspace`, `path:<path>`, `git:<url>` with `#tag=`, `#rev=` or `#branch=`).
//! `Cargo.lock` gives every locked package (kind `locked`).

use toml::{Table, Value};

use super::{Declaration, ParseError};

const TABLES: &[(&str, &str)] = &[
    ("dependencies", "normal"),
    ("dev-dependencies", "dev"),
    ("dev_dependencies", "dev"),
    ("build-dependencies", "build"),
    ("build_dependencies", "build"),
];

fn parse_toml(text: &str) -> Result<Table, ParseError> {
    toml::from_str::<Table>(text).map_err(|e| ParseError(format!("invalid TOML: {}", e.message())))
}

/// Parses the declarations of a `Cargo.toml`.
pub fn manifest(text: &str) -> Result<Vec<Declaration>, ParseError> {
    let doc = parse_toml(text)?;
    let mut out = Vec::new();
    for (table, kind) in TABLES {
        if let Some(Value::Table(deps)) = doc.get(*table) {
            collect(deps, kind, None, &mut out);
        }
    }
    if let Some(Value::Table(targets)) = doc.get("target") {
        for (cfg, body) in targets {
            let Value::Table(body) = body else { continue };
            for (table, kind) in TABLES {
                if let Some(Value::Table(deps)) = body.get(*table) {
                    collect(deps, kind, Some(cfg.clone()), &mut out);
                }
            }
        }
    }
    if let Some(Value::Table(ws)) = doc.get("workspace") {
        if let Some(Value::Table(deps)) = ws.get("dependencies") {
            collect(deps, "workspace", None, &mut out);
        }
    }
    Ok(out)
}

fn collect(deps: &Table, kind: &'static str, scope: Option<String>, out: &mut Vec<Declaration>) {
    for (name, spec) in deps {
        out.push(Declaration {
            name: name.clone(),
            kind,
            scope: scope.clone(),
            version: version_of(spec),
        });
    }
}

fn version_of(spec: &Value) -> Option<String> {
    match spec {
        Value::String(v) => Some(v.clone()),
        Value::Table(t) => {
            let s = |k: &str| t.get(k).and_then(Value::as_str);
            if let Some(v) = s("version") {
                return Some(v.to_owned());
            }
            if t.get("workspace").and_then(Value::as_bool) == Some(true) {
                return Some("workspace".into());
            }
            if let Some(p) = s("path") {
                return Some(format!("path:{p}"));
            }
            if let Some(g) = s("git") {
                let pin = ["tag", "rev", "branch"]
                    .iter()
                    .find_map(|k| s(k).map(|v| format!("#{k}={v}")))
                    .unwrap_or_default();
                return Some(format!("git:{g}{pin}"));
            }
            None
        }
        _ => None,
    }
}

/// Parses the locked packages of a `Cargo.lock` (kind `locked`).
///
/// Cargo writes lockfiles in one fixed layout (`[[package]]` followed by `name = "..."` and
/// `version = "..."` lines), which a line scan reads an order of magnitude faster than a TOML
/// parser; anything else (hand-edited or a future layout) goes through the TOML parser.
pub fn lockfile(text: &str) -> Result<Vec<Declaration>, ParseError> {
    if let Some(fast) = scan_lockfile(text) {
        return Ok(fast);
    }
    let doc = parse_toml(text)?;
    let Some(Value::Array(packages)) = doc.get("package") else {
        return Ok(Vec::new());
    };
    Ok(packages
        .iter()
        .filter_map(|p| {
            let name = p.get("name")?.as_str()?;
            let version = p.get("version")?.as_str()?;
            Some(Declaration {
                name: name.to_owned(),
                kind: "locked",
                scope: None,
                version: Some(version.to_owned()),
            })
        })
        .collect())
}

/// Reads a lockfile in cargo's own layout; `None` when the text does not follow it.
fn scan_lockfile(text: &str) -> Option<Vec<Declaration>> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    let quoted = |line: &str, key: &str| -> Option<String> {
        let value = line
            .strip_prefix(key)?
            .strip_prefix(" = \"")?
            .strip_suffix('"')?;
        (!value.contains(['"', '\\'])).then(|| value.to_owned())
    };
    while let Some(line) = lines.next() {
        if line != "[[package]]" {
            if line.starts_with("[[") || (line.starts_with('[') && line != "[metadata]") {
                return None;
            }
            continue;
        }
        let name = quoted(lines.next()?, "name")?;
        let version = quoted(lines.next()?, "version")?;
        out.push(Declaration {
            name,
            kind: "locked",
            scope: None,
            version: Some(version),
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dependency_table() {
        let text = r#"
[package]
name = "x"

[dependencies]
serde = "1.0"
tokio = { version = "1.38", features = ["rt"] }
local = { path = "../local" }
pinned = { git = "https://example.com/p.git", tag = "v2" }
shared = { workspace = true }

[dependencies.regex]
version = "1.10"
default-features = false

[dev-dependencies]
tempfile = "3"

[build-dependencies]
cc = "1.0"

[target.'cfg(unix)'.dependencies]
libc = "0.2"

[workspace.dependencies]
anyhow = "1"
"#;
        let got: Vec<(String, &str, Option<String>, Option<String>)> = manifest(text)
            .unwrap()
            .into_iter()
            .map(|d| (d.name, d.kind, d.scope, d.version))
            .collect();
        let want = |n: &str, k: &'static str, s: Option<&str>, v: &str| {
            (n.to_owned(), k, s.map(str::to_owned), Some(v.to_owned()))
        };
        for item in [
            want("serde", "normal", None, "1.0"),
            want("tokio", "normal", None, "1.38"),
            want("local", "normal", None, "path:../local"),
            want(
                "pinned",
                "normal",
                None,
                "git:https://example.com/p.git#tag=v2",
            ),
            want("shared", "normal", None, "workspace"),
            want("regex", "normal", None, "1.10"),
            want("tempfile", "dev", None, "3"),
            want("cc", "build", None, "1.0"),
            want("libc", "normal", Some("cfg(unix)"), "0.2"),
            want("anyhow", "workspace", None, "1"),
        ] {
            assert!(got.contains(&item), "missing {item:?} in {got:?}");
        }
        assert_eq!(got.len(), 10);
    }

    #[test]
    fn the_fast_scan_agrees_with_the_toml_parser() {
        let text = "# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\ndependencies = [\n \"b\",\n]\n\n[[package]]\nname = \"b\"\nversion = \"0.2.0\"\n";
        let fast = scan_lockfile(text).expect("cargo's layout");
        let doc = parse_toml(text).unwrap();
        let slow: Vec<(String, String)> = doc["package"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["name"].as_str().unwrap().to_owned(),
                    p["version"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let fast: Vec<(String, String)> = fast
            .into_iter()
            .map(|d| (d.name, d.version.unwrap()))
            .collect();
        assert_eq!(fast, slow);
        // Not cargo's layout: the scan declines and the parser decides.
        assert!(scan_lockfile("[[package]]\nversion = \"1\"\nname = \"a\"\n").is_none());
        assert_eq!(
            lockfile("[[package]]\nversion = \"1\"\nname = \"a\"\n")
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn lockfile_packages() {
        let text = "version = 3\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\n[[package]]\nname = \"a\"\nversion = \"2.0.0\"\n";
        let got = lockfile(text).unwrap();
        assert_eq!(got.len(), 2);
        assert!(manifest("[dependencies\n").is_err());
    }
}
