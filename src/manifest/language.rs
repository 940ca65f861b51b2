//! Language labels for paths: by file name, by extension, and by shebang.
//!
//! Labels are short lowercase names (`rust`, `python`, `typescript`, `shell`...), the labels of
//! [`Language`]. They describe what a file is, whether or not a function analyzer exists for it.

use bstr::ByteSlice;

use crate::lang::Language::{self, *};

/// Well-known file names whose language their extension does not tell.
const FILE_NAMES: &[(&str, Language)] = &[
    ("Makefile", Makefile),
    ("makefile", Makefile),
    ("GNUmakefile", Makefile),
    ("Dockerfile", Dockerfile),
    ("Containerfile", Dockerfile),
    ("CMakeLists.txt", CMake),
    ("Rakefile", Ruby),
    ("Gemfile", Ruby),
    ("Podfile", Ruby),
    ("Vagrantfile", Ruby),
    ("Guardfile", Ruby),
    ("Brewfile", Ruby),
    ("Justfile", Just),
    ("justfile", Just),
    ("BUILD", Starlark),
    ("BUILD.bazel", Starlark),
    ("WORKSPACE", Starlark),
    ("Jenkinsfile", Groovy),
    ("go.mod", GoModule),
    ("go.sum", GoChecksum),
    ("Cargo.lock", Toml),
    (".bashrc", Shell),
    (".bash_profile", Shell),
    (".profile", Shell),
    (".zshrc", Shell),
    (".zshenv", Shell),
    (".gitignore", GitIgnore),
    (".gitattributes", GitAttributes),
    (".gitmodules", GitConfig),
    (".editorconfig", Ini),
    ("LICENSE", Text),
    ("COPYING", Text),
];

/// Extensions (lowercase, without the dot) and their language.
const EXTENSIONS: &[(&str, Language)] = &[
    ("rs", Rust),
    ("py", Python),
    ("pyi", Python),
    ("pyw", Python),
    ("pyx", Cython),
    ("js", JavaScript),
    ("mjs", JavaScript),
    ("cjs", JavaScript),
    ("jsx", Jsx),
    ("ts", TypeScript),
    ("mts", TypeScript),
    ("cts", TypeScript),
    ("tsx", Tsx),
    ("go", Go),
    ("java", Java),
    ("kt", Kotlin),
    ("kts", Kotlin),
    ("scala", Scala),
    ("sc", Scala),
    ("groovy", Groovy),
    ("gradle", Groovy),
    ("c", C),
    ("h", C),
    ("cc", Cpp),
    ("cpp", Cpp),
    ("cxx", Cpp),
    ("c++", Cpp),
    ("hh", Cpp),
    ("hpp", Cpp),
    ("hxx", Cpp),
    ("h++", Cpp),
    ("ipp", Cpp),
    ("m", ObjectiveC),
    ("mm", ObjectiveCpp),
    ("cs", CSharp),
    ("fs", FSharp),
    ("fsx", FSharp),
    ("vb", VisualBasic),
    ("swift", Swift),
    ("rb", Ruby),
    ("rake", Ruby),
    ("gemspec", Ruby),
    ("ru", Ruby),
    ("erb", Erb),
    ("php", Php),
    ("phtml", Php),
    ("pl", Perl),
    ("pm", Perl),
    ("t", Perl),
    ("lua", Lua),
    ("rockspec", Lua),
    ("r", R),
    ("jl", Julia),
    ("dart", Dart),
    ("ex", Elixir),
    ("exs", Elixir),
    ("erl", Erlang),
    ("hrl", Erlang),
    ("hs", Haskell),
    ("lhs", Haskell),
    ("ml", OCaml),
    ("mli", OCaml),
    ("clj", Clojure),
    ("cljs", Clojure),
    ("cljc", Clojure),
    ("edn", Clojure),
    ("el", EmacsLisp),
    ("lisp", CommonLisp),
    ("scm", Scheme),
    ("rkt", Racket),
    ("zig", Zig),
    ("nim", Nim),
    ("v", V),
    ("sol", Solidity),
    ("cu", Cuda),
    ("f90", Fortran),
    ("f", Fortran),
    ("pas", Pascal),
    ("d", D),
    ("cr", Crystal),
    ("elm", Elm),
    ("purs", PureScript),
    ("vue", Vue),
    ("svelte", Svelte),
    ("astro", Astro),
    ("sh", Shell),
    ("bash", Shell),
    ("bats", Shell),
    ("zsh", Shell),
    ("ksh", Shell),
    ("fish", Fish),
    ("ps1", PowerShell),
    ("psm1", PowerShell),
    ("bat", Batch),
    ("cmd", Batch),
    ("html", Html),
    ("htm", Html),
    ("xhtml", Html),
    ("css", Css),
    ("scss", Scss),
    ("sass", Sass),
    ("less", Less),
    ("json", Json),
    ("jsonc", Json),
    ("json5", Json),
    ("ndjson", Json),
    ("yaml", Yaml),
    ("yml", Yaml),
    ("toml", Toml),
    ("ini", Ini),
    ("cfg", Ini),
    ("conf", Config),
    ("xml", Xml),
    ("xsd", Xml),
    ("xsl", Xml),
    ("svg", Svg),
    ("plist", Xml),
    ("csv", Csv),
    ("tsv", Tsv),
    ("md", Markdown),
    ("markdown", Markdown),
    ("mdx", Mdx),
    ("rst", ReStructuredText),
    ("adoc", AsciiDoc),
    ("tex", LaTeX),
    ("txt", Text),
    ("sql", Sql),
    ("graphql", GraphQl),
    ("gql", GraphQl),
    ("proto", Protobuf),
    ("thrift", Thrift),
    ("tf", Terraform),
    ("hcl", Hcl),
    ("nix", Nix),
    ("cmake", CMake),
    ("mk", Makefile),
    ("dockerfile", Dockerfile),
    ("bzl", Starlark),
    ("star", Starlark),
    ("lock", Lockfile),
    ("ipynb", Jupyter),
    ("png", Image),
    ("jpg", Image),
    ("jpeg", Image),
    ("gif", Image),
    ("webp", Image),
    ("ico", Image),
    ("bmp", Image),
    ("pdf", Pdf),
    ("wasm", WebAssembly),
];

/// Returns every language with the extensions and file names that give it, sorted by label.
pub fn known() -> Vec<(Language, Vec<String>)> {
    let mut out: std::collections::BTreeMap<Language, Vec<String>> =
        std::collections::BTreeMap::new();
    for (ext, lang) in EXTENSIONS {
        out.entry(*lang).or_default().push(format!(".{ext}"));
    }
    for (name, lang) in FILE_NAMES {
        out.entry(*lang).or_default().push((*name).to_owned());
    }
    out.into_iter().collect()
}

/// Returns the language of `path` from its name or extension.
pub fn from_path(path: &[u8]) -> Option<Language> {
    let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
    if let Some((_, lang)) = FILE_NAMES.iter().find(|(n, _)| n.as_bytes() == name) {
        return Some(*lang);
    }
    if name.starts_with(b"Dockerfile.") {
        return Some(Dockerfile);
    }
    let dot = name.rfind_byte(b'.')?;
    if dot == 0 {
        return None;
    }
    let ext = name[dot + 1..].to_ascii_lowercase();
    EXTENSIONS
        .iter()
        .find(|(e, _)| e.as_bytes() == ext.as_slice())
        .map(|(_, lang)| *lang)
}

/// Returns the language named by a `#!` line at the start of `content`.
pub fn from_shebang(content: &[u8]) -> Option<Language> {
    let line = content.strip_prefix(b"#!")?;
    let line = &line[..line.find_byte(b'\n').unwrap_or(line.len())];
    let mut words = line.fields();
    let mut program = words.next()?;
    if program.ends_with(b"/env") {
        program = words.find(|w| !w.starts_with(b"-"))?;
    }
    let name = program.rsplit(|b| *b == b'/').next().unwrap_or(program);
    let name = name.trim_end_with(|c| c.is_ascii_digit() || c == '.');
    Some(match name {
        b"python" | b"pypy" => Python,
        b"sh" | b"bash" | b"dash" | b"zsh" | b"ksh" | b"ash" | b"bats" => Shell,
        b"fish" => Fish,
        b"node" | b"nodejs" | b"deno" | b"bun" => JavaScript,
        b"ts-node" | b"tsx" => TypeScript,
        b"ruby" => Ruby,
        b"perl" => Perl,
        b"php" => Php,
        b"lua" | b"luajit" => Lua,
        b"Rscript" => R,
        b"julia" => Julia,
        b"pwsh" => PowerShell,
        b"make" => Makefile,
        b"awk" | b"gawk" => Awk,
        b"tclsh" | b"wish" => Tcl,
        b"elixir" => Elixir,
        b"escript" => Erlang,
        b"swift" => Swift,
        b"rust-script" => Rust,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_path() {
        for (path, want) in [
            ("src/main.rs", Some(Rust)),
            ("a/b/c.PY", Some(Python)),
            ("x.tsx", Some(Tsx)),
            ("Makefile", Some(Makefile)),
            ("docker/Dockerfile.prod", Some(Dockerfile)),
            ("lib/foo.d.ts", Some(TypeScript)),
            ("README", None),
            (".hidden", None),
            (".gitignore", Some(GitIgnore)),
            ("deep/.bashrc", Some(Shell)),
            ("weird.unknownext", None),
            ("Cargo.lock", Some(Toml)),
            ("Gemfile", Some(Ruby)),
            ("lib/tasks/db.rake", Some(Ruby)),
            ("sinatra.gemspec", Some(Ruby)),
            ("test/bats.bats", Some(Shell)),
            ("lib/bats-core/test_functions.bash", Some(Shell)),
            ("busted-2.2.0-1.rockspec", Some(Lua)),
            ("Slim/App.php", Some(Php)),
        ] {
            assert_eq!(from_path(path.as_bytes()), want, "{path}");
        }
    }

    #[test]
    fn by_shebang() {
        for (content, want) in [
            ("#!/usr/bin/env python3\nprint()", Some(Python)),
            ("#!/usr/bin/python3.11", Some(Python)),
            ("#!/bin/sh\n", Some(Shell)),
            ("#! /bin/bash -e\n", Some(Shell)),
            ("#!/usr/bin/env -S node --flag\n", Some(JavaScript)),
            ("#!/usr/bin/env ruby", Some(Ruby)),
            ("#!/usr/bin/env bats\n", Some(Shell)),
            ("#!/usr/bin/env lua5.4\n", Some(Lua)),
            ("#!/usr/bin/php -q\n", Some(Php)),
            ("#!/opt/weird\n", None),
            ("no shebang", None),
            ("", None),
        ] {
            assert_eq!(from_shebang(content.as_bytes()), want, "{content:?}");
        }
    }

    #[test]
    fn every_language_is_recognised_by_name_extension_or_shebang() {
        let known: Vec<Language> = known().into_iter().map(|(l, _)| l).collect();
        let unnamed: Vec<Language> = Language::ALL
            .iter()
            .copied()
            .filter(|l| !known.contains(l))
            .collect();
        assert_eq!(unnamed, [Awk, Tcl], "only shebangs give these");
        assert_eq!(from_shebang(b"#!/usr/bin/awk -f\n"), Some(Awk));
        assert_eq!(from_shebang(b"#!/usr/bin/env tclsh\n"), Some(Tcl));
    }
}
