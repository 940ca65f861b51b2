//! The languages git-prism recognises: one enum, one label each.
//!
//! A [`Language`] says what a file is (`rust`, `markdown`, `dockerfile`), whether or not an
//! analyzer exists for it; which files are which is decided in `manifest::language` (by name,
//! extension and shebang). The label is the name on the wire (`language` in the manifest) and in
//! the analysis cache's paths, so a label never changes once released.

use std::cmp::Ordering;

/// Defines [`Language`] from `Variant => "label"` pairs.
macro_rules! languages {
    ($($variant:ident => $label:literal,)*) => {
        /// A language label: what a file is, whether or not a function analyzer exists for it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Language {
            $(
                #[doc = concat!("`", $label, "`")]
                $variant,
            )*
        }

        impl Language {
            /// Every language.
            pub const ALL: &'static [Language] = &[$(Language::$variant,)*];

            /// The label (`rust`, `objective-c`): the name on the wire and in the cache.
            pub fn label(self) -> &'static str {
                match self {
                    $(Language::$variant => $label,)*
                }
            }

            /// The language with this label.
            pub fn from_label(label: &str) -> Option<Language> {
                match label {
                    $($label => Some(Language::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

languages! {
    AsciiDoc => "asciidoc",
    Astro => "astro",
    Awk => "awk",
    Batch => "batch",
    C => "c",
    Clojure => "clojure",
    CMake => "cmake",
    CommonLisp => "common-lisp",
    Config => "config",
    Cpp => "cpp",
    Crystal => "crystal",
    CSharp => "csharp",
    Css => "css",
    Csv => "csv",
    Cuda => "cuda",
    Cython => "cython",
    D => "d",
    Dart => "dart",
    Dockerfile => "dockerfile",
    Elixir => "elixir",
    Elm => "elm",
    EmacsLisp => "emacs-lisp",
    Erb => "erb",
    Erlang => "erlang",
    Fish => "fish",
    Fortran => "fortran",
    FSharp => "fsharp",
    GitAttributes => "gitattributes",
    GitConfig => "gitconfig",
    GitIgnore => "gitignore",
    Go => "go",
    GoChecksum => "go-checksum",
    GoModule => "go-module",
    GraphQl => "graphql",
    Groovy => "groovy",
    Haskell => "haskell",
    Hcl => "hcl",
    Html => "html",
    Image => "image",
    Ini => "ini",
    Java => "java",
    JavaScript => "javascript",
    Json => "json",
    Jsx => "jsx",
    Julia => "julia",
    Jupyter => "jupyter",
    Just => "just",
    Kotlin => "kotlin",
    LaTeX => "latex",
    Less => "less",
    Lockfile => "lockfile",
    Lua => "lua",
    Makefile => "makefile",
    Markdown => "markdown",
    Mdx => "mdx",
    Nim => "nim",
    Nix => "nix",
    ObjectiveC => "objective-c",
    ObjectiveCpp => "objective-cpp",
    OCaml => "ocaml",
    Pascal => "pascal",
    Pdf => "pdf",
    Perl => "perl",
    Php => "php",
    PowerShell => "powershell",
    Protobuf => "protobuf",
    PureScript => "purescript",
    Python => "python",
    R => "r",
    Racket => "racket",
    ReStructuredText => "restructuredtext",
    Ruby => "ruby",
    Rust => "rust",
    Sass => "sass",
    Scala => "scala",
    Scheme => "scheme",
    Scss => "scss",
    Shell => "shell",
    Solidity => "solidity",
    Sql => "sql",
    Starlark => "starlark",
    Svelte => "svelte",
    Svg => "svg",
    Swift => "swift",
    Tcl => "tcl",
    Terraform => "terraform",
    Text => "text",
    Thrift => "thrift",
    Toml => "toml",
    Tsv => "tsv",
    Tsx => "tsx",
    TypeScript => "typescript",
    V => "v",
    VisualBasic => "visual-basic",
    Vue => "vue",
    WebAssembly => "webassembly",
    Xml => "xml",
    Yaml => "yaml",
    Zig => "zig",
}

/// Languages sort by label, as they are listed on the wire.
impl Ord for Language {
    fn cmp(&self, other: &Self) -> Ordering {
        self.label().cmp(other.label())
    }
}

impl PartialOrd for Language {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_unique_lowercase_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for &language in Language::ALL {
            let label = language.label();
            assert!(seen.insert(label), "{label} twice");
            assert!(
                label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{label}"
            );
            assert_eq!(Language::from_label(label), Some(language));
        }
        assert_eq!(Language::from_label("klingon"), None);
        assert!(Language::Python < Language::Rust && Language::C < Language::Cpp);
    }
}
