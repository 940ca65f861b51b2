//! Language labels for paths: by file name, by extension, and by shebang.
//!
//! Labels are short lowercase names (`rust`, `python`, `typescript`, `shell`...). They describe
//! what a file is, whether or not a function analyzer exists for it.

use bstr::ByteSlice;

/// Well-known file names whose language their extension does not tell.
const FILE_NAMES: &[(&str, &str)] = &[
    ("Makefile", "makefile"),
    ("makefile", "makefile"),
    ("GNUmakefile", "makefile"),
    ("Dockerfile", "dockerfile"),
    ("Containerfile", "dockerfile"),
    ("CMakeLists.txt", "cmake"),
    ("Rakefile", "ruby"),
    ("Gemfile", "ruby"),
    ("Podfile", "ruby"),
    ("Vagrantfile", "ruby"),
    ("Justfile", "just"),
    ("justfile", "just"),
    ("BUILD", "starlark"),
    ("BUILD.bazel", "starlark"),
    ("WORKSPACE", "starlark"),
    ("Jenkinsfile", "groovy"),
    ("go.mod", "go-module"),
    ("go.sum", "go-checksum"),
    ("Cargo.lock", "toml"),
    (".bashrc", "shell"),
    (".bash_profile", "shell"),
    (".profile", "shell"),
    (".zshrc", "shell"),
    (".zshenv", "shell"),
    (".gitignore", "gitignore"),
    (".gitattributes", "gitattributes"),
    (".gitmodules", "gitconfig"),
    (".editorconfig", "ini"),
    ("LICENSE", "text"),
    ("COPYING", "text"),
];

/// Extensions (lowercase, without the dot) and their language.
const EXTENSIONS: &[(&str, &str)] = &[
    ("rs", "rust"),
    ("py", "python"),
    ("pyi", "python"),
    ("pyw", "python"),
    ("pyx", "cython"),
    ("js", "javascript"),
    ("mjs", "javascript"),
    ("cjs", "javascript"),
    ("jsx", "jsx"),
    ("ts", "typescript"),
    ("mts", "typescript"),
    ("cts", "typescript"),
    ("tsx", "tsx"),
    ("go", "go"),
    ("java", "java"),
    ("kt", "kotlin"),
    ("kts", "kotlin"),
    ("scala", "scala"),
    ("sc", "scala"),
    ("groovy", "groovy"),
    ("gradle", "groovy"),
    ("c", "c"),
    ("h", "c"),
    ("cc", "cpp"),
    ("cpp", "cpp"),
    ("cxx", "cpp"),
    ("c++", "cpp"),
    ("hh", "cpp"),
    ("hpp", "cpp"),
    ("hxx", "cpp"),
    ("h++", "cpp"),
    ("ipp", "cpp"),
    ("m", "objective-c"),
    ("mm", "objective-cpp"),
    ("cs", "csharp"),
    ("fs", "fsharp"),
    ("fsx", "fsharp"),
    ("vb", "visual-basic"),
    ("swift", "swift"),
    ("rb", "ruby"),
    ("erb", "erb"),
    ("php", "php"),
    ("pl", "perl"),
    ("pm", "perl"),
    ("t", "perl"),
    ("lua", "lua"),
    ("r", "r"),
    ("jl", "julia"),
    ("dart", "dart"),
    ("ex", "elixir"),
    ("exs", "elixir"),
    ("erl", "erlang"),
    ("hrl", "erlang"),
    ("hs", "haskell"),
    ("lhs", "haskell"),
    ("ml", "ocaml"),
    ("mli", "ocaml"),
    ("clj", "clojure"),
    ("cljs", "clojure"),
    ("cljc", "clojure"),
    ("edn", "clojure"),
    ("el", "emacs-lisp"),
    ("lisp", "common-lisp"),
    ("scm", "scheme"),
    ("rkt", "racket"),
    ("zig", "zig"),
    ("nim", "nim"),
    ("v", "v"),
    ("sol", "solidity"),
    ("cu", "cuda"),
    ("f90", "fortran"),
    ("f", "fortran"),
    ("pas", "pascal"),
    ("d", "d"),
    ("cr", "crystal"),
    ("elm", "elm"),
    ("purs", "purescript"),
    ("vue", "vue"),
    ("svelte", "svelte"),
    ("astro", "astro"),
    ("sh", "shell"),
    ("bash", "shell"),
    ("zsh", "shell"),
    ("ksh", "shell"),
    ("fish", "fish"),
    ("ps1", "powershell"),
    ("psm1", "powershell"),
    ("bat", "batch"),
    ("cmd", "batch"),
    ("html", "html"),
    ("htm", "html"),
    ("xhtml", "html"),
    ("css", "css"),
    ("scss", "scss"),
    ("sass", "sass"),
    ("less", "less"),
    ("json", "json"),
    ("jsonc", "json"),
    ("json5", "json"),
    ("ndjson", "json"),
    ("yaml", "yaml"),
    ("yml", "yaml"),
    ("toml", "toml"),
    ("ini", "ini"),
    ("cfg", "ini"),
    ("conf", "config"),
    ("xml", "xml"),
    ("xsd", "xml"),
    ("xsl", "xml"),
    ("svg", "svg"),
    ("plist", "xml"),
    ("csv", "csv"),
    ("tsv", "tsv"),
    ("md", "markdown"),
    ("markdown", "markdown"),
    ("mdx", "mdx"),
    ("rst", "restructuredtext"),
    ("adoc", "asciidoc"),
    ("tex", "latex"),
    ("txt", "text"),
    ("sql", "sql"),
    ("graphql", "graphql"),
    ("gql", "graphql"),
    ("proto", "protobuf"),
    ("thrift", "thrift"),
    ("tf", "terraform"),
    ("hcl", "hcl"),
    ("nix", "nix"),
    ("cmake", "cmake"),
    ("mk", "makefile"),
    ("dockerfile", "dockerfile"),
    ("bzl", "starlark"),
    ("star", "starlark"),
    ("lock", "lockfile"),
    ("ipynb", "jupyter"),
    ("png", "image"),
    ("jpg", "image"),
    ("jpeg", "image"),
    ("gif", "image"),
    ("webp", "image"),
    ("ico", "image"),
    ("bmp", "image"),
    ("pdf", "pdf"),
    ("wasm", "webassembly"),
];

/// Returns every language label with the extensions and file names that give it, sorted.
pub fn known() -> Vec<(&'static str, Vec<String>)> {
    let mut out: std::collections::BTreeMap<&'static str, Vec<String>> =
        std::collections::BTreeMap::new();
    for (ext, lang) in EXTENSIONS {
        out.entry(lang).or_default().push(format!(".{ext}"));
    }
    for (name, lang) in FILE_NAMES {
        out.entry(lang).or_default().push((*name).to_owned());
    }
    out.into_iter().collect()
}

/// Returns the language of `path` from its name or extension.
pub fn from_path(path: &[u8]) -> Option<&'static str> {
    let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
    if let Some((_, lang)) = FILE_NAMES.iter().find(|(n, _)| n.as_bytes() == name) {
        return Some(lang);
    }
    if name.starts_with(b"Dockerfile.") {
        return Some("dockerfile");
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
pub fn from_shebang(content: &[u8]) -> Option<&'static str> {
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
        b"python" | b"pypy" => "python",
        b"sh" | b"bash" | b"dash" | b"zsh" | b"ksh" | b"ash" => "shell",
        b"fish" => "fish",
        b"node" | b"nodejs" | b"deno" | b"bun" => "javascript",
        b"ts-node" | b"tsx" => "typescript",
        b"ruby" => "ruby",
        b"perl" => "perl",
        b"php" => "php",
        b"lua" | b"luajit" => "lua",
        b"Rscript" => "r",
        b"julia" => "julia",
        b"pwsh" => "powershell",
        b"make" => "makefile",
        b"awk" | b"gawk" => "awk",
        b"tclsh" | b"wish" => "tcl",
        b"elixir" => "elixir",
        b"escript" => "erlang",
        b"swift" => "swift",
        b"rust-script" => "rust",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_path() {
        for (path, want) in [
            ("src/main.rs", Some("rust")),
            ("a/b/c.PY", Some("python")),
            ("x.tsx", Some("tsx")),
            ("Makefile", Some("makefile")),
            ("docker/Dockerfile.prod", Some("dockerfile")),
            ("lib/foo.d.ts", Some("typescript")),
            ("README", None),
            (".hidden", None),
            (".gitignore", Some("gitignore")),
            ("deep/.bashrc", Some("shell")),
            ("weird.unknownext", None),
            ("Cargo.lock", Some("toml")),
        ] {
            assert_eq!(from_path(path.as_bytes()), want, "{path}");
        }
    }

    #[test]
    fn by_shebang() {
        for (content, want) in [
            ("#!/usr/bin/env python3\nprint()", Some("python")),
            ("#!/usr/bin/python3.11", Some("python")),
            ("#!/bin/sh\n", Some("shell")),
            ("#! /bin/bash -e\n", Some("shell")),
            ("#!/usr/bin/env -S node --flag\n", Some("javascript")),
            ("#!/usr/bin/env ruby", Some("ruby")),
            ("#!/opt/weird\n", None),
            ("no shebang", None),
            ("", None),
        ] {
            assert_eq!(from_shebang(content.as_bytes()), want, "{content:?}");
        }
    }
}
