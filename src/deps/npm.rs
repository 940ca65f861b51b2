//! `package.json` and `package-lock.json` / `npm-shrinkwrap.json` (lockfile versions 1-3).

use serde_json::{Map, Value};

use super::{Declaration, ParseError};

const TABLES: &[(&str, &str)] = &[
    ("dependencies", "normal"),
    ("devDependencies", "dev"),
    ("peerDependencies", "peer"),
    ("optionalDependencies", "optional"),
];

fn parse_json(text: &str) -> Result<Map<String, Value>, ParseError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ParseError("not a JSON object".into())),
        Err(e) => Err(ParseError(format!("invalid JSON: {e}"))),
    }
}

/// Parses the declarations of a `package.json`.
pub fn manifest(text: &str) -> Result<Vec<Declaration>, ParseError> {
    let doc = parse_json(text)?;
    let mut out = Vec::new();
    for (table, kind) in TABLES {
        if let Some(Value::Object(deps)) = doc.get(*table) {
            for (name, version) in deps {
                out.push(Declaration {
                    name: name.clone(),
                    kind,
                    scope: None,
                    version: version.as_str().map(str::to_owned),
                });
            }
        }
    }
    Ok(out)
}

/// Parses the locked packages of a `package-lock.json` (kind `locked`).
pub fn lockfile(text: &str) -> Result<Vec<Declaration>, ParseError> {
    let doc = parse_json(text)?;
    let mut out = Vec::new();
    let locked = |name: &str, version: &str| Declaration {
        name: name.to_owned(),
        kind: "locked",
        scope: None,
        version: Some(version.to_owned()),
    };
    if let Some(Value::Object(packages)) = doc.get("packages") {
        // Lockfile versions 2 and 3: keys are install paths, `""` is the project itself.
        for (path, entry) in packages {
            let Some(at) = path.rfind("node_modules/") else {
                continue;
            };
            let name = &path[at + "node_modules/".len()..];
            if let Some(version) = entry.get("version").and_then(Value::as_str) {
                out.push(locked(name, version));
            }
        }
    } else if let Some(Value::Object(deps)) = doc.get("dependencies") {
        // Lockfile version 1: nested `dependencies` objects.
        let mut stack: Vec<&Map<String, Value>> = vec![deps];
        while let Some(level) = stack.pop() {
            for (name, entry) in level {
                if let Some(version) = entry.get("version").and_then(Value::as_str) {
                    out.push(locked(name, version));
                }
                if let Some(Value::Object(nested)) = entry.get("dependencies") {
                    stack.push(nested);
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_json_kinds() {
        let text = r#"{"name":"x","dependencies":{"react":"^18.2.0"},"devDependencies":{"vitest":"^1"},"peerDependencies":{"react-dom":"*"},"optionalDependencies":{"fsevents":"2"}}"#;
        let got: Vec<(String, &str)> = manifest(text)
            .unwrap()
            .into_iter()
            .map(|d| (d.name, d.kind))
            .collect();
        assert_eq!(
            got,
            vec![
                ("react".into(), "normal"),
                ("vitest".into(), "dev"),
                ("react-dom".into(), "peer"),
                ("fsevents".into(), "optional"),
            ]
        );
        assert!(manifest("[]").is_err());
    }

    #[test]
    fn lockfile_versions() {
        let v3 = r#"{"lockfileVersion":3,"packages":{"":{"name":"x"},"node_modules/a":{"version":"1.0.0"},"node_modules/a/node_modules/@s/b":{"version":"2.0.0"}}}"#;
        let got: Vec<(String, Option<String>)> = lockfile(v3)
            .unwrap()
            .into_iter()
            .map(|d| (d.name, d.version))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a".into(), Some("1.0.0".into())),
                ("@s/b".into(), Some("2.0.0".into()))
            ]
        );
        let v1 = r#"{"lockfileVersion":1,"dependencies":{"a":{"version":"1.0.0","dependencies":{"b":{"version":"0.1.0"}}}}}"#;
        assert_eq!(lockfile(v1).unwrap().len(), 2);
    }
}
