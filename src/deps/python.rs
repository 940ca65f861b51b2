//! `pyproject.toml` (PEP 621 `[project]`, PEP 735 `[dependency-groups]`, `[build-system]`,
//! Poetry's `[tool.poetry.*]`) and `requirements*.txt`.

use toml::{Table, Value};

use super::{Declaration, ParseError};

/// Splits a PEP 508 requirement (`name[extra]>=1.0; marker`) into name and version spec.
pub fn requirement(line: &str) -> Option<(String, Option<String>)> {
    let line = line.split(';').next()?.trim();
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(line.len());
    let name = &line[..end];
    if name.is_empty() {
        return None;
    }
    let mut rest = line[end..].trim_start();
    if rest.starts_with('[') {
        rest = rest.find(']').map_or("", |i| &rest[i + 1..]).trim_start();
    }
    if let Some(url) = rest.strip_prefix('@') {
        let url = url.trim();
        return Some((name.to_owned(), Some(format!("url:{url}"))));
    }
    let spec = rest.trim_start_matches('(').trim_end_matches(')').trim();
    let spec = spec.split_whitespace().collect::<Vec<_>>().join("");
    Some((name.to_owned(), (!spec.is_empty()).then_some(spec)))
}

fn push_list(list: &[Value], kind: &'static str, scope: Option<&str>, out: &mut Vec<Declaration>) {
    for item in list {
        if let Some((name, version)) = item.as_str().and_then(requirement) {
            out.push(Declaration {
                name,
                kind,
                scope: scope.map(str::to_owned),
                version,
            });
        }
    }
}

fn poetry_table(deps: &Table, kind: &'static str, scope: Option<&str>, out: &mut Vec<Declaration>) {
    for (name, spec) in deps {
        if name == "python" {
            continue;
        }
        let version = match spec {
            Value::String(v) => Some(v.clone()),
            Value::Table(t) => t
                .get("version")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .or_else(|| {
                    t.get("path")
                        .and_then(Value::as_str)
                        .map(|p| format!("path:{p}"))
                })
                .or_else(|| {
                    t.get("git")
                        .and_then(Value::as_str)
                        .map(|g| format!("git:{g}"))
                }),
            _ => None,
        };
        out.push(Declaration {
            name: name.clone(),
            kind,
            scope: scope.map(str::to_owned),
            version,
        });
    }
}

/// Parses the declarations of a `pyproject.toml`.
pub fn pyproject(text: &str) -> Result<Vec<Declaration>, ParseError> {
    let doc: Table =
        toml::from_str(text).map_err(|e| ParseError(format!("invalid TOML: {}", e.message())))?;
    let mut out = Vec::new();
    let table = |v: Option<&Value>| v.and_then(Value::as_table).cloned();
    if let Some(project) = table(doc.get("project")) {
        if let Some(Value::Array(list)) = project.get("dependencies") {
            push_list(list, "normal", None, &mut out);
        }
        if let Some(Value::Table(groups)) = project.get("optional-dependencies") {
            for (group, list) in groups {
                if let Value::Array(list) = list {
                    push_list(list, "optional", Some(group), &mut out);
                }
            }
        }
    }
    if let Some(groups) = table(doc.get("dependency-groups")) {
        for (group, list) in &groups {
            if let Value::Array(list) = list {
                push_list(list, "group", Some(group), &mut out);
            }
        }
    }
    if let Some(build) = table(doc.get("build-system")) {
        if let Some(Value::Array(list)) = build.get("requires") {
            push_list(list, "build", None, &mut out);
        }
    }
    let poetry = table(doc.get("tool")).and_then(|t| table(t.get("poetry")));
    if let Some(poetry) = poetry {
        if let Some(Value::Table(deps)) = poetry.get("dependencies") {
            poetry_table(deps, "normal", None, &mut out);
        }
        if let Some(Value::Table(deps)) = poetry.get("dev-dependencies") {
            poetry_table(deps, "dev", None, &mut out);
        }
        if let Some(Value::Table(groups)) = poetry.get("group") {
            for (group, body) in groups {
                if let Some(Value::Table(deps)) = body.get("dependencies") {
                    poetry_table(deps, "group", Some(group), &mut out);
                }
            }
        }
    }
    Ok(out)
}

/// Parses the requirements of a `requirements*.txt` (options, includes and URLs-only lines are
/// skipped; `\` continuations are joined).
pub fn requirements(text: &str) -> Vec<Declaration> {
    let joined = text.replace("\\\n", " ");
    joined
        .lines()
        .map(|l| l.split(" #").next().unwrap_or(l).trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('-'))
        .filter(|l| !l.contains("://") || l.contains('@'))
        .filter_map(|l| {
            let l = l.split(" --").next().unwrap_or(l);
            requirement(l)
        })
        .map(|(name, version)| Declaration {
            name,
            kind: "normal",
            scope: None,
            version,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pep508() {
        let r = |s: &str| requirement(s);
        assert_eq!(
            r("requests>=2.0"),
            Some(("requests".into(), Some(">=2.0".into())))
        );
        assert_eq!(
            r("foo[bar, baz] == 1.2 ; python_version < '3.8'"),
            Some(("foo".into(), Some("==1.2".into())))
        );
        assert_eq!(r("attrs"), Some(("attrs".into(), None)));
        assert_eq!(
            r("pkg @ https://x/y.whl"),
            Some(("pkg".into(), Some("url:https://x/y.whl".into())))
        );
        assert_eq!(
            r("zope.interface (>=5)"),
            Some(("zope.interface".into(), Some(">=5".into())))
        );
        assert_eq!(r(""), None);
    }

    #[test]
    fn pyproject_tables() {
        let text = r#"
[build-system]
requires = ["setuptools>=61"]

[project]
dependencies = ["requests>=2.31", "click"]

[project.optional-dependencies]
test = ["pytest>=7"]

[dependency-groups]
lint = ["ruff==0.5.0"]

[tool.poetry.dependencies]
python = "^3.9"
httpx = "^0.27"
local = { path = "../local" }

[tool.poetry.group.docs.dependencies]
mkdocs = { version = "^1.5" }
"#;
        let got: Vec<(String, &str, Option<String>, Option<String>)> = pyproject(text)
            .unwrap()
            .into_iter()
            .map(|d| (d.name, d.kind, d.scope, d.version))
            .collect();
        let s = |x: &str| Some(x.to_owned());
        for item in [
            ("setuptools".to_owned(), "build", None, s(">=61")),
            ("requests".to_owned(), "normal", None, s(">=2.31")),
            ("click".to_owned(), "normal", None, None),
            ("pytest".to_owned(), "optional", s("test"), s(">=7")),
            ("ruff".to_owned(), "group", s("lint"), s("==0.5.0")),
            ("httpx".to_owned(), "normal", None, s("^0.27")),
            ("local".to_owned(), "normal", None, s("path:../local")),
            ("mkdocs".to_owned(), "group", s("docs"), s("^1.5")),
        ] {
            assert!(got.contains(&item), "missing {item:?} in {got:?}");
        }
        assert_eq!(got.len(), 8, "python itself is not a dependency");
    }

    #[test]
    fn requirements_file() {
        let text = "# pinned\nrequests==2.31.0  # http\n-r base.txt\n--index-url https://x\n-e .\nflask>=2 \\\n  ,<3\nnumpy ; python_version>'3'\n";
        let got: Vec<(String, Option<String>)> = requirements(text)
            .into_iter()
            .map(|d| (d.name, d.version))
            .collect();
        assert_eq!(
            got,
            vec![
                ("requests".into(), Some("==2.31.0".into())),
                ("flask".into(), Some(">=2,<3".into())),
                ("numpy".into(), None),
            ]
        );
    }
}
