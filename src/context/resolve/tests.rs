use super::*;
use crate::lang::CallSite;

fn p(parts: &[&str]) -> AbsPath {
    parts.iter().map(|s| (*s).to_owned()).collect()
}

fn call(qualifier: &str, name: &str, member: bool) -> Call {
    Call {
        site: CallSite {
            name: name.into(),
            qualifier: qualifier.into(),
            member,
        },
        line: 1,
        caller: None,
        test: false,
    }
}

fn analysis(imports: &[&str]) -> Analysis {
    Analysis {
        imports: imports.iter().map(|s| (*s).to_owned()).collect(),
        ..Analysis::default()
    }
}

fn project() -> Project {
    Project::new(vec![
        (String::new(), "app".into()),
        ("core/".into(), "my_core".into()),
    ])
}

#[test]
fn rust_modules_come_from_paths() {
    let pr = project();
    assert_eq!(module_of(Scheme::Rust, &pr, "src/lib.rs"), p(&["app"]));
    assert_eq!(
        module_of(Scheme::Rust, &pr, "src/a/b.rs"),
        p(&["app", "a", "b"])
    );
    assert_eq!(
        module_of(Scheme::Rust, &pr, "src/a/mod.rs"),
        p(&["app", "a"])
    );
    assert_eq!(
        module_of(Scheme::Rust, &pr, "core/src/x.rs"),
        p(&["my_core", "x"])
    );
    assert_eq!(
        module_of(Scheme::Rust, &pr, "tests/it.rs"),
        p(&["app#tests/it"])
    );
    assert_eq!(
        module_of(Scheme::Rust, &pr, "src/bin/tool.rs"),
        p(&["app#src/bin/tool"])
    );
}

#[test]
fn python_modules_come_from_paths() {
    assert_eq!(
        module_of(Scheme::Python, &Project::default(), "pkg/a.py"),
        p(&["", "pkg", "a"])
    );
    assert_eq!(
        module_of(Scheme::Python, &Project::default(), "pkg/__init__.py"),
        p(&["", "pkg"])
    );
    assert_eq!(
        module_of(Scheme::Python, &Project::default(), "src/pkg/a.py"),
        p(&["", "src", "pkg", "a"])
    );
}

#[test]
fn rust_segments_drop_trait_names() {
    assert_eq!(
        segments(Scheme::Rust, "<Parser as fmt::Debug>::fmt"),
        ["Parser", "fmt"]
    );
    assert_eq!(
        segments(Scheme::Rust, "<Parser<'a> as Tr>::f"),
        ["Parser", "f"]
    );
    assert_eq!(segments(Scheme::Rust, "a::Ty::new"), ["a", "Ty", "new"]);
}

#[test]
fn rust_calls_resolve_through_use() {
    let pr = project();
    let v = view(
        Scheme::Rust,
        &pr,
        "src/cli/run.rs",
        &analysis(&[
            "crate::parse::Parser",
            "super::util",
            "my_core::x::helper as h",
            "crate::prelude::*",
        ]),
    );
    let r = |q: &str, n: &str, m: bool| resolve(Scheme::Rust, &pr, &v, &call(q, n, m), None);
    assert_eq!(
        r("Parser", "new", false),
        Resolution::Paths(vec![p(&["app", "parse", "Parser", "new"])])
    );
    assert_eq!(
        r("util", "f", false),
        Resolution::Paths(vec![p(&["app", "cli", "util", "f"])])
    );
    assert_eq!(
        r("", "h", false),
        Resolution::Paths(vec![
            p(&["my_core", "x", "helper"]),
            p(&["app", "prelude", "h"]),
            p(&["app", "cli", "run", "h"]),
        ])
    );
    assert_eq!(
        r("crate::a", "g", false),
        Resolution::Paths(vec![p(&["app", "a", "g"])])
    );
    assert_eq!(r("x", "go", true), Resolution::Receiver);
}

#[test]
fn python_calls_resolve_through_imports() {
    let pr = Project::default();
    let v = view(
        Scheme::Python,
        &pr,
        "pkg/sub/mod.py",
        &analysis(&["os", "pkg.util as u", ".sibling", "..top.thing", "a.b"]),
    );
    let r = |q: &str, n: &str| resolve(Scheme::Python, &pr, &v, &call(q, n, !q.is_empty()), None);
    assert_eq!(
        r("u", "f"),
        Resolution::Paths(vec![p(&["", "pkg", "util", "f"])])
    );
    assert_eq!(
        r("sibling", "g"),
        Resolution::Paths(vec![p(&["", "pkg", "sub", "sibling", "g"])])
    );
    assert_eq!(
        r("", "thing"),
        Resolution::Paths(vec![
            p(&["", "pkg", "top", "thing"]),
            p(&["", "pkg", "sub", "mod", "thing"])
        ])
    );
    assert_eq!(
        r("a.b", "c"),
        Resolution::Paths(vec![p(&["", "a", "b", "c"])])
    );
    assert_eq!(r("obj", "m"), Resolution::Receiver);
    assert_eq!(
        r("Local", "m"),
        Resolution::Paths(vec![p(&["", "pkg", "sub", "mod", "Local", "m"])])
    );
}

#[test]
fn definitions_match_exactly_or_through_a_reexport() {
    let pr = project();
    let d = Definition::new(Scheme::Rust, &pr, "src/parse.rs", "Parser::new");
    assert!(d.named_by(Scheme::Rust, &p(&["app", "parse", "Parser", "new"])));
    assert!(d.named_by(Scheme::Rust, &p(&["app", "Parser", "new"])));
    assert!(!d.named_by(Scheme::Rust, &p(&["app", "other", "Parser", "new"])));
    assert!(!d.named_by(Scheme::Rust, &p(&["my_core", "parse", "Parser", "new"])));
    let f = Definition::new(Scheme::Python, &pr, "pkg/a.py", "f");
    assert!(f.named_by(Scheme::Python, &p(&["", "pkg", "a", "f"])));
    assert!(f.named_by(Scheme::Python, &p(&["", "pkg", "f"])));
    assert!(!f.named_by(Scheme::Python, &p(&["", "f"])));
    assert!(!f.named_by(Scheme::Python, &p(&["", "other", "f"])));
    // A src layout is imported without `src`, a `src` package with it.
    let s = Definition::new(Scheme::Python, &pr, "src/pkg/a.py", "f");
    assert!(s.named_by(Scheme::Python, &p(&["", "pkg", "a", "f"])));
    assert!(s.named_by(Scheme::Python, &p(&["", "src", "pkg", "a", "f"])));
    assert!(!s.named_by(Scheme::Python, &p(&["", "a", "f"])));
}

fn with_functions(imports: &[&str], functions: &[&str]) -> Analysis {
    let mut a = analysis(imports);
    a.functions = functions
        .iter()
        .map(|name| Function {
            name: (*name).to_owned(),
            leaf: name.rsplit('.').next().unwrap_or(name).to_owned(),
            kind: crate::lang::FunctionKind::Method,
            test: false,
            start_line: 1,
            end_line: 1,
            signature: String::new(),
            signature_hash: 0,
            body_hash: 0,
            shape_hash: 0,
            text_hash: 0,
            tokens: Vec::new(),
            visibility: crate::lang::Visibility::Public,
        })
        .collect();
    a
}

#[test]
fn csharp_calls_resolve_through_using_and_enclosing_namespaces() {
    let pr = Project::default();
    let caller = with_functions(
        &[
            "CommandLine.Core",
            "static System.Math",
            "CommandLine.Text.HelpText as H",
        ],
        &["CommandLine.App.Program.Main"],
    );
    let v = view(Scheme::CSharp, &pr, "src/App/Program.cs", &caller);
    let main = &caller.functions[0];
    let r = |q: &str, n: &str| {
        resolve(
            Scheme::CSharp,
            &pr,
            &v,
            &call(q, n, !q.is_empty()),
            Some(main),
        )
    };
    let parse = Definition::new(
        Scheme::CSharp,
        &pr,
        "src/Core/Parser.cs",
        "CommandLine.Core.Parser.Parse",
    );
    let Resolution::Paths(paths) = r("Parser", "Parse") else {
        panic!()
    };
    assert!(
        paths.iter().any(|p| parse.named_by(Scheme::CSharp, p)),
        "{paths:?}"
    );
    // The same name in a namespace the file does not open is not the one called.
    let other = Definition::new(
        Scheme::CSharp,
        &pr,
        "src/Other/Parser.cs",
        "Other.Parser.Parse",
    );
    assert!(!paths.iter().any(|p| other.named_by(Scheme::CSharp, p)));
    // A sibling method, a static import, an alias, `this`.
    let helper = Definition::new(
        Scheme::CSharp,
        &pr,
        "src/App/Program.cs",
        "CommandLine.App.Program.Helper",
    );
    let Resolution::Paths(paths) = r("", "Helper") else {
        panic!()
    };
    assert!(paths.iter().any(|p| helper.named_by(Scheme::CSharp, p)));
    let Resolution::Paths(paths) = r("this", "Helper") else {
        panic!()
    };
    assert!(paths.iter().any(|p| helper.named_by(Scheme::CSharp, p)));
    let max = Definition::new(Scheme::CSharp, &pr, "Math.cs", "System.Math.Max");
    let Resolution::Paths(paths) = r("", "Max") else {
        panic!()
    };
    assert!(paths.iter().any(|p| max.named_by(Scheme::CSharp, p)));
    let help = Definition::new(
        Scheme::CSharp,
        &pr,
        "src/Text/HelpText.cs",
        "CommandLine.Text.HelpText.AutoBuild",
    );
    let Resolution::Paths(paths) = r("H", "AutoBuild") else {
        panic!()
    };
    assert!(paths.iter().any(|p| help.named_by(Scheme::CSharp, p)));
    // A variable: a candidate, from files that open the type's namespace.
    assert_eq!(r("parser", "Parse"), Resolution::Receiver);
    assert!(parse.related(Scheme::CSharp, &v));
    let unrelated = view(
        Scheme::CSharp,
        &pr,
        "src/X.cs",
        &with_functions(&["Other"], &["X.Y.M"]),
    );
    assert!(!parse.related(Scheme::CSharp, &unrelated));
    assert_eq!(
        module_files(
            Scheme::CSharp,
            &pr,
            &p(&["", "CommandLine", "Core", "Parser"])
        ),
        [
            "CommandLine/Core/Parser.cs",
            "src/CommandLine/Core/Parser.cs"
        ]
    );
}

#[test]
fn kotlin_calls_resolve_through_imports_and_directories() {
    let pr = Project::default();
    let caller = with_functions(
        &[
            "com.x.core.Context",
            "com.x.util.*",
            "com.x.output.render as draw",
        ],
        &["App.run"],
    );
    let v = view(
        Scheme::Kotlin,
        &pr,
        "app/src/main/kotlin/com/x/app/App.kt",
        &caller,
    );
    let run = &caller.functions[0];
    let r = |q: &str, n: &str| {
        resolve(
            Scheme::Kotlin,
            &pr,
            &v,
            &call(q, n, !q.is_empty()),
            Some(run),
        )
    };
    let named = |d: &Definition, res: Resolution| match res {
        Resolution::Paths(paths) => paths.iter().any(|p| d.named_by(Scheme::Kotlin, p)),
        Resolution::Receiver => false,
    };
    // A companion or object call through an import; the package is the directory's tail.
    let create = Definition::new(
        Scheme::Kotlin,
        &pr,
        "core/src/main/kotlin/com/x/core/Context.kt",
        "Context.Companion.create",
    );
    assert!(named(&create, r("Context.Companion", "create")));
    let elsewhere = Definition::new(
        Scheme::Kotlin,
        &pr,
        "core/src/main/kotlin/com/y/other/Context.kt",
        "Context.Companion.create",
    );
    assert!(!named(&elsewhere, r("Context.Companion", "create")));
    // A star import, with the project's common root left out of the directories.
    let slug = Definition::new(
        Scheme::Kotlin,
        &pr,
        "src/main/kotlin/x/util/Strings.kt",
        "slug",
    );
    assert!(named(&slug, r("", "slug")));
    // An alias, a function of the same package (directory), a sibling method.
    let render = Definition::new(Scheme::Kotlin, &pr, "src/com/x/output/Render.kt", "render");
    assert!(named(&render, r("", "draw")));
    let local = Definition::new(
        Scheme::Kotlin,
        &pr,
        "app/src/main/kotlin/com/x/app/Main.kt",
        "main",
    );
    assert!(named(&local, r("", "main")));
    let sibling = Definition::new(
        Scheme::Kotlin,
        &pr,
        "app/src/main/kotlin/com/x/app/App.kt",
        "App.stop",
    );
    assert!(named(&sibling, r("", "stop")));
    assert!(named(&sibling, r("this", "stop")));
    let unimported = Definition::new(
        Scheme::Kotlin,
        &pr,
        "lib/src/main/kotlin/org/z/Tools.kt",
        "helper",
    );
    assert!(!named(&unimported, r("", "helper")));
    // A receiver: related when the file imports the type's package.
    assert_eq!(r("ctx", "create"), Resolution::Receiver);
    let method = Definition::new(
        Scheme::Kotlin,
        &pr,
        "core/src/main/kotlin/com/x/core/Context.kt",
        "Context.fail",
    );
    assert!(method.related(Scheme::Kotlin, &v));
    assert!(!elsewhere.related(
        Scheme::Kotlin,
        &view(
            Scheme::Kotlin,
            &pr,
            "a/B.kt",
            &with_functions(&["q.r.S"], &["B.m"])
        )
    ));
}

#[test]
fn module_files_are_where_modules_live() {
    let pr = project();
    assert_eq!(
        module_files(Scheme::Rust, &pr, &p(&["app"])),
        ["src/lib.rs", "src/main.rs"]
    );
    assert_eq!(
        module_files(Scheme::Rust, &pr, &p(&["my_core", "x"])),
        ["core/src/x.rs", "core/src/x/mod.rs"]
    );
    assert_eq!(
        module_files(Scheme::Python, &pr, &p(&["", "pkg", "a"])),
        [
            "pkg/a.py",
            "pkg/a/__init__.py",
            "src/pkg/a.py",
            "src/pkg/a/__init__.py"
        ]
    );
}

#[test]
fn ruby_names_requires_and_files() {
    assert_eq!(
        segments(Scheme::Ruby, "Sinatra::Base#call"),
        ["Sinatra", "Base", "call"]
    );
    assert_eq!(segments(Scheme::Ruby, "Foo.bar?"), ["Foo", "bar?"]);
    assert_eq!(segments(Scheme::Ruby, "Foo#=="), ["Foo", "=="]);
    assert_eq!(
        ruby::required("lib/sinatra/base.rb", "../rack/x"),
        [p(&["", "lib/rack/x.rb"])]
    );
    assert_eq!(
        ruby::required("test/a_test.rb", "./helper"),
        [p(&["", "test/helper.rb"])]
    );
    assert_eq!(
        ruby::required("test/a_test.rb", "sinatra/base"),
        [p(&["", "sinatra/base.rb"]), p(&["", "lib/sinatra/base.rb"])]
    );
    assert_eq!(
        module_files(
            Scheme::Ruby,
            &Project::default(),
            &p(&["", "Sinatra", "IndifferentHash"])
        ),
        [
            "lib/sinatra/indifferent_hash.rb",
            "sinatra/indifferent_hash.rb"
        ]
    );
    let d = Definition::new(Scheme::Ruby, &Project::default(), "lib/x.rb", "A::B#m");
    assert!(d.named_by(Scheme::Ruby, &p(&["", "A", "B", "m"])));
    assert!(!d.named_by(Scheme::Ruby, &p(&["", "X", "A", "B", "m"])));
}

#[test]
fn php_namespaces_follow_psr4() {
    let pr = Project::default();
    let v = view(
        Scheme::Php,
        &pr,
        "src/App.php",
        &analysis(&[
            "App\\Routing\\Route",
            "Psr\\Log as L",
            "function App\\util\\f",
        ]),
    );
    let r = |q: &str, n: &str, m: bool| resolve(Scheme::Php, &pr, &v, &call(q, n, m), None);
    assert_eq!(
        r("Route", "create", false),
        Resolution::Paths(vec![p(&["", "App", "Routing", "Route", "create"])])
    );
    assert_eq!(
        r("", "f", false),
        Resolution::Paths(vec![
            p(&["", "App", "util", "f"]),
            p(&["", "src", "f"]),
            p(&["", "f"])
        ])
    );
    assert_eq!(r("$x", "run", true), Resolution::Receiver);
    assert_eq!(r("parent", "run", false), Resolution::Receiver);
    let d = Definition::new(Scheme::Php, &pr, "src/Routing/Route.php", "Route::create");
    assert!(d.named_by(Scheme::Php, &p(&["", "App", "Routing", "Route", "create"])));
    assert!(!d.named_by(Scheme::Php, &p(&["", "App", "Other", "Route", "create"])));
    let slim = Definition::new(Scheme::Php, &pr, "Slim/Routing/Route.php", "Route::run");
    assert!(slim.named_by(Scheme::Php, &p(&["", "Slim", "Routing", "Route", "run"])));
    let test = Definition::new(Scheme::Php, &pr, "tests/Mocks/A.php", "A::f");
    assert!(test.named_by(Scheme::Php, &p(&["", "Slim", "Tests", "Mocks", "A", "f"])));
}
