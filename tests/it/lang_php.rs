//! Function analysis fixtures for PHP: one commit per situation, the exact change list asserted
//! for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const ROUTE: &str = r#"<?php

declare(strict_types=1);

namespace App\Routing;

use App\Interfaces\RouteInterface;
use Psr\Http\Message\ResponseInterface;

function helper(int $x): int
{
    $y = $x * 3;
    $z = $y - 4;
    return $z + 1;
}

class Route implements RouteInterface
{
    public function __construct(private string $pattern)
    {
    }

    public function run(): string
    {
        $sum = 1 + 2;
        return $this->pattern . $sum;
    }

    public static function create(string $pattern): self
    {
        return new self($pattern);
    }

    public function handlers(): array
    {
        $map = array_map(fn ($h) => $h . '!', ['a', 'b']);
        $wrap = function ($x) use ($map) {
            return $x;
        };
        return $map;
    }
}

class Group
{
    public function run(): string
    {
        return 'group';
    }
}
"#;

#[test]
fn php_situations() {
    let env = TestEnv::new();
    let repo = env.repo("php");
    let file = "src/Route.php";
    repo.write(file, ROUTE).commit("base");
    let mut src = Source(ROUTE.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "    public static function create",
        "    public function added(): int\n    {\n        return 7;\n    }\n\n    public static function create",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php added Route::added"]
    );
    let s = edit(
        "    public function added(): int\n    {\n        return 7;\n    }\n\n",
        "",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php deleted Route::added"]
    );
    let s = edit("$sum = 1 + 2;", "$sum = 1 + 3;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php modified Route::run"]
    );
    let s = edit(
        "create(string $pattern): self",
        "create(string $pattern, array $methods = []): self",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php signature_changed Route::create"]
    );
    let s = edit("function helper(int $x)", "function assist(int $x)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php renamed assist (was helper)"]
    );
    let s = edit(
        "function assist(int $x): int\n{\n    $y = $x * 3;",
        "function assist2(int $x): int\n{\n    $y = $x * 5;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php renamed assist2 (was assist) +edited"]
    );
    // Move `Group` to its own file.
    let group = "class Group\n{\n    public function run(): string\n    {\n        return 'group';\n    }\n}\n";
    let s = edit(&format!("\n{group}"), "");
    let group_file = format!("<?php\n\nnamespace App\\Routing;\n\n{group}");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(file, Some(&s)), ("src/Group.php", Some(&group_file))]
        ),
        ["src/Group.php moved Group::run from src/Route.php"]
    );
    // Reordering methods is not a change.
    let run = "    public function run(): string\n    {\n        $sum = 1 + 3;\n        return $this->pattern . $sum;\n    }\n\n";
    edit(run, "");
    let s = edit(
        "    public function handlers",
        &format!("{run}    public function handlers"),
    );
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // What prettier may write either way, and comments, are formatting only; a doc block
    // before a method is none of its text.
    let s = edit(
        "['a', 'b']);",
        "[\n            \"a\",\n            \"b\",\n        ]);",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php formatting_only Route::handlers"]
    );
    let s = edit(
        "    public static function create",
        "    /**\n     * A route for a pattern.\n     */\n    public static function create",
    );
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    let s = edit(
        "        return new self($pattern);",
        "        // One route per pattern.\n        return new self($pattern); # no cache",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php formatting_only Route::create"]
    );
    // The same method name in two classes: only the one that changed.
    let s = Source(group_file.clone()).edit("'group'", "'groups'");
    assert_eq!(
        step(&env, &repo, &[("src/Group.php", Some(&s))]),
        ["src/Group.php modified Group::run"]
    );
    // Closures and arrow functions are part of the method around them.
    let s = edit("$h . '!'", "$h . '?'");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php modified Route::handlers"]
    );
    // A nested function declaration is its own function (and none of the outer one's code).
    let s = edit(
        "        return $map;",
        "        function nested() { return 1; }\n        return $map;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [
            "src/Route.php added Route::handlers::nested",
            "src/Route.php formatting_only Route::handlers"
        ]
    );
    // Attributes are part of the signature.
    let s = edit(
        "    public function handlers",
        "    #[Deprecated]\n    public function handlers",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php signature_changed Route::handlers"]
    );
    // Imports.
    let s = edit(
        "use Psr\\Http\\Message\\ResponseInterface;\n",
        "use Psr\\Http\\Message\\{ResponseInterface, ServerRequestInterface as Request};\n",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/Route.php imports +Psr\\Http\\Message\\ServerRequestInterface as Request -"]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit("class Route", "function broken( {\n}\n\nclass Route");
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(
        got.contains(&"src/Route.php parse_errors".to_owned()),
        "{got:?}"
    );
}

/// PHP's tricky forms and the names they get.
#[test]
fn php_forms_are_named() {
    let env = TestEnv::new();
    let repo = env.repo("php-forms");
    repo.write("README", "x\n").commit("base");
    let forms = r#"<?php
namespace App;

interface Shape { public function area(): float; }

abstract class Base implements Shape
{
    abstract protected function name(): string;
    public function __get(string $key) { return $this->$key; }
    public function __set(string $key, $value): void { $this->$key = $value; }
    public function __invoke() { return fn () => 1; }
    public function area(): float { return 0.0; }
    public function area2(): float { return 0.0; }
}

trait Greets { public function hello() { return 'hi'; } }

enum Suit: string
{
    case Hearts = 'H';
    public function color(): string { return 'Red'; }
    public static function fromChar(string $c): self { return self::from($c); }
}

function make(): Shape
{
    return new class extends Base {
        protected function name(): string { return 'anon'; }
    };
}
"#;
    let got = step(&env, &repo, &[("src/forms.php", Some(forms))]);
    assert_eq!(
        got,
        [
            "src/forms.php added Base::__get",
            "src/forms.php added Base::__invoke",
            "src/forms.php added Base::__set",
            "src/forms.php added Base::area",
            "src/forms.php added Base::area2",
            "src/forms.php added Base::name",
            "src/forms.php added Greets::hello",
            "src/forms.php added Shape::area",
            "src/forms.php added Suit::color",
            "src/forms.php added Suit::fromChar",
            "src/forms.php added make",
            "src/forms.php added make::class@anonymous::name",
        ]
    );
}
