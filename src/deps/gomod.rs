//! `go.mod`: `require` lines and blocks (`// indirect` marks indirect dependencies), plus the
//! `go` and `toolchain` directives as kind `toolchain`.

use super::Declaration;

/// Parses the declarations of a `go.mod`.
pub fn parse(text: &str) -> Vec<Declaration> {
    let mut out = Vec::new();
    let mut in_require = false;
    for raw in text.lines() {
        let (code, comment) = match raw.find("//") {
            Some(i) => (&raw[..i], &raw[i..]),
            None => (raw, ""),
        };
        let line = code.trim();
        let indirect = comment.contains("indirect");
        if in_require {
            if line == ")" {
                in_require = false;
            } else if let Some(d) = require(line, indirect) {
                out.push(d);
            }
            continue;
        }
        let mut words = line.split_whitespace();
        match words.next() {
            Some("require") => {
                let rest = line["require".len()..].trim();
                if rest == "(" {
                    in_require = true;
                } else if let Some(d) = require(rest, indirect) {
                    out.push(d);
                }
            }
            Some(directive @ ("go" | "toolchain")) => {
                if let Some(version) = words.next() {
                    out.push(Declaration {
                        name: directive.to_owned(),
                        kind: "toolchain",
                        scope: None,
                        version: Some(version.to_owned()),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

fn require(line: &str, indirect: bool) -> Option<Declaration> {
    let mut words = line.split_whitespace();
    let module = words.next()?;
    let version = words.next()?;
    Some(Declaration {
        name: module.to_owned(),
        kind: if indirect { "indirect" } else { "normal" },
        scope: None,
        version: Some(version.to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn require_forms() {
        let text = "module example.com/x\n\ngo 1.22\ntoolchain go1.22.3\n\nrequire github.com/a/b v1.2.3\n\nrequire (\n\tgithub.com/c/d v0.4.0 // indirect\n\tgolang.org/x/text v0.14.0\n)\n\nreplace github.com/a/b => ../b\n";
        let got: Vec<(String, &str, Option<String>)> = parse(text)
            .into_iter()
            .map(|d| (d.name, d.kind, d.version))
            .collect();
        let s = |x: &str| Some(x.to_owned());
        assert_eq!(
            got,
            vec![
                ("go".into(), "toolchain", s("1.22")),
                ("toolchain".into(), "toolchain", s("go1.22.3")),
                ("github.com/a/b".into(), "normal", s("v1.2.3")),
                ("github.com/c/d".into(), "indirect", s("v0.4.0")),
                ("golang.org/x/text".into(), "normal", s("v0.14.0")),
            ]
        );
    }
}
