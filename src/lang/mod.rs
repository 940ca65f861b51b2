//! Function-level analysis with tree-sitter: one value per language, read by one walk.
//!
//! A language is a [`LanguageConfig`]: its facts as data (grammars, family, import scheme,
//! separator, comments, the node kinds each hook is asked about, the declarations read by
//! rule) and an [`Analyzer`] for what takes code: what its grammar's nodes mean (a function, a
//! scope that qualifies names, an import, a docstring) and what its formatters may write
//! either way ([`Normal`], ADR 9). The walker (`walk::extract`) turns a syntax tree into
//! [`Function`]s with qualified names and a fingerprint of their body tokens as the language
//! reads them (without comments, whitespace, docstrings, trailing commas, optional semicolons,
//! redundant parentheses...), and into import strings; [`compare`] turns two such extractions
//! into function changes.
//!
//! Adding a language is its grammar crate, one file holding its `CONFIG` and its analyzer,
//! and one line in [`REGISTRY`] (see `docs/adding-a-language.md`; a language git-prism does not
//! recognise yet also needs its [`Language`] and its detection in `manifest::language`): the
//! value says which [`Language`]s it reads, which files can call into them
//! ([`LanguageConfig::family`]) and how their imports name things
//! ([`LanguageConfig::import_scheme`]), so nothing else needs to learn the language. It knows
//! no repository: it analyses the bytes it is given, keyed by their blob id in the per-user
//! analysis cache ([`cache`]).
//!
//! Invariants:
//! - Bounded: files over [`MAX_FILE_BYTES`], with lines over [`MAX_LINE_BYTES`] or brackets
//!   nested deeper than [`MAX_NESTING`] are skipped with a stated reason; a parse that exceeds
//!   [`PARSE_BUDGET`] (or the answer's analysis deadline, [`within`]) is abandoned; every tree
//!   walk is iterative; files of [`BIG_PARSE_BYTES`] or more are parsed one at a time; and a
//!   parse runs on a stack grown on demand to what tree-sitter's recursion needs
//!   ([`parse_stack`]), so deep nesting cannot overflow the stack, and a stack that cannot be
//!   reserved (an address-space limit) skips the file rather than failing the answer.
//! - Parsers are created once per thread and language and reused.
//! - A tree with syntax errors still yields what could be extracted, flagged `parse_errors`.
//! - Items a grammar reads as plain tokens (a Rust macro invocation at item position, `cfg_rt!
//!   { pub fn f() {} }`) are read as items where their body parses as items, each body parsed
//!   again alone, nested ones too, within `embed`'s bounds; a body that does not is
//!   [`Opaque`], and says so.

mod analysis;
mod analyzer;
pub mod annotations;
mod bash;
mod c;
pub mod cache;
mod calls;
pub mod compare;
mod cpp;
mod csharp;
mod ecmascript;
pub(crate) mod embed;
mod go;
mod java;
mod javascript;
mod kotlin;
mod languages;
mod lua;
mod nodes;
mod normal;
mod parsing;
mod php;
mod python;
mod ruby;
mod rust;
mod scala;
mod swift;
#[cfg(test)]
pub(crate) mod testing;
mod typescript;
mod walk;

pub use analysis::{Analysis, Call, CallSite, Declared, Function, Opaque, Visibility};
pub use analyzer::{
    Analyzer, Declaration, Declares, FunctionKind, Head, ImportScheme, LanguageConfig, Normal,
    Read, Role, Wrapper,
};
pub use compare::{ChangeType, DeclarationChange, FileFunctions, FunctionChange};
pub use languages::Language;
pub use parsing::{
    BIG_PARSE_BYTES, EXTRACT_BUDGET, MAX_FILE_BYTES, MAX_LINE_BYTES, MAX_NESTING, MAX_SCOPE_DEPTH,
    NO_STACK, OUT_OF_TIME, OVER_BUDGET, PARSE_BUDGET, analyze, analyze_pair, analyze_versions,
    deadline, parse_stack, refuse, within,
};

use python::DEDENT;

/// Every language, one line each.
pub static REGISTRY: &[&LanguageConfig] = &[
    &rust::CONFIG,
    &python::CONFIG,
    &typescript::CONFIG,
    &javascript::CONFIG,
    &go::CONFIG,
    &java::CONFIG,
    &c::CONFIG,
    &cpp::CONFIG,
    &ruby::CONFIG,
    &php::CONFIG,
    &lua::CONFIG,
    &bash::CONFIG,
    &csharp::CONFIG,
    &kotlin::CONFIG,
    &swift::CONFIG,
    &scala::CONFIG,
];

/// Returns the configuration (and analyzer) of a language.
pub fn for_language(language: Language) -> Option<&'static LanguageConfig> {
    REGISTRY.iter().copied().find(|c| c.reads(language))
}

/// Returns every language that has an analyzer, sorted by label.
pub fn analyzed() -> Vec<Language> {
    let mut all: Vec<Language> = REGISTRY.iter().flat_map(|c| c.languages()).collect();
    all.sort_unstable();
    all
}

/// Hashes bytes with FNV-1a (stable across runs and versions).
pub const fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use tree_sitter::Parser;

    use super::*;

    #[test]
    fn items_inside_wrappers_are_read_in_every_language() {
        let cases: &[(Language, &str, &str)] = &[
            (Language::Rust, "m! {\n    fn f() {}\n}\n", "f"),
            (
                Language::C,
                "#ifdef X\nint f(void) { return 1; }\n#endif\n",
                "f",
            ),
            (
                Language::Cpp,
                "class A {\n#ifdef X\n  void f() {}\n#endif\n};\n",
                "A::f",
            ),
            (
                Language::CSharp,
                "class A {\n#if DEBUG\n  void F() {}\n#endif\n}\n",
                "A.F",
            ),
            (
                Language::Swift,
                "class A {\n#if os(Linux)\n  func f() {}\n#endif\n}\n",
                "A.f",
            ),
            (
                Language::Python,
                "if TYPE_CHECKING:\n    def f():\n        pass\n",
                "f",
            ),
        ];
        for &(language, source, name) in cases {
            let names: Vec<String> = testing::functions(language, source)
                .into_iter()
                .map(|f| f.name)
                .collect();
            assert_eq!(names, [name], "{language}");
        }
        let wrappers: Vec<Language> = REGISTRY
            .iter()
            .filter(|a| !a.wrapper_kinds.is_empty())
            .flat_map(|a| a.languages())
            .collect();
        assert_eq!(wrappers, [Language::Rust]);
    }

    #[test]
    fn every_registered_language_builds_a_parser() {
        for analyzer in REGISTRY {
            for language in analyzer.languages() {
                let mut parser = Parser::new();
                assert!(
                    parser
                        .set_language(&analyzer.grammar(language).unwrap())
                        .is_ok(),
                    "{language}"
                );
                assert!(for_language(language).is_some());
                let analysis = analyze(language, b"").unwrap();
                assert!(analysis.functions.is_empty(), "{language}");
                // A language calls into itself, and its family agrees on who is in it.
                assert!(analyzer.family.contains(&language), "{language}");
                for &kin in analyzer.family {
                    let other = for_language(kin).expect("a family member has an analyzer");
                    assert!(other.family.contains(&language), "{language} and {kin}");
                }
            }
        }
    }

    #[test]
    fn deeply_nested_definitions_are_bounded_in_every_language() {
        // Definitions nested as deep as a file under the size limit allows: names stop
        // growing at the depth limit and the walk stays within its time budget.
        let cases: &[(Language, &str, &str, &str)] = &[
            (Language::Rust, "", "fn a() {\n", "}\n"),
            (Language::TypeScript, "", "function a() {\n", "}\n"),
            (Language::JavaScript, "", "const a = () => {\n", "}\n"),
            (Language::Go, "func a() {\n", "{\n", "}\n"),
            (Language::Java, "", "class A {\n", "}\n"),
            (Language::C, "", "int a() {\n", "}\n"),
            (Language::Cpp, "", "namespace a {\n", "}\n"),
            (Language::Ruby, "", "def a\n", "end\n"),
            (Language::Php, "<?php\n", "function a() {\n", "}\n"),
            (Language::Lua, "", "function a()\n", "end\n"),
            (Language::Shell, "", "a() {\n", "}\n"),
            (Language::CSharp, "", "class A {\n", "}\n"),
            (Language::Kotlin, "", "fun a() {\n", "}\n"),
            (Language::Swift, "", "func a() {\n", "}\n"),
            (Language::Scala, "", "object A {\n", "}\n"),
        ];
        for &(label, head, open, close) in cases {
            let depth = (MAX_FILE_BYTES - 64) / (open.len() + close.len());
            let source = format!("{head}{}{}", open.repeat(depth), close.repeat(depth));
            let started = Instant::now();
            let analysis = analyze(label, source.as_bytes()).unwrap();
            let elapsed = started.elapsed();
            // Parse and walk budgets plus slack for a slow machine: minutes would mean an
            // unbounded walk.
            assert!(elapsed < Duration::from_secs(20), "{label}: {elapsed:?}");
            let separator = for_language(label).unwrap().separator;
            for f in &analysis.functions {
                assert!(
                    f.name.matches(separator).count() <= MAX_SCOPE_DEPTH + 1,
                    "{label}: {}",
                    f.name.len()
                );
            }
        }
    }
}
