//! Function analysis fixtures for Go: one commit per situation, the exact change list asserted
//! for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const SERVER: &str = r#"package server

import (
	"fmt"
	"strings"
)

type Server struct {
	name string
}

func (s *Server) Start() string {
	return fmt.Sprintf("start %s", s.name)
}

type Client struct{}

func (c Client) Start() string {
	return "client"
}

func Compute(a, b int) int {
	s := a + b
	return s * 2
}

func Helper(x int) int {
	y := x * 3
	z := y - 4
	return z + 1
}

func Fetch() string {
	return strings.ToUpper("one")
}

func Outer() int {
	inner := func() int {
		return 1
	}
	return inner() + 1
}
"#;

#[test]
fn go_situations() {
    let env = TestEnv::new();
    let repo = env.repo("go");
    repo.write("server/server.go", SERVER).commit("base");
    let file = "server/server.go";
    let mut src = Source(SERVER.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "func Fetch()",
        "func Added() int {\n\treturn 7\n}\n\nfunc Fetch()",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go added Added"]
    );
    let s = edit("func Added() int {\n\treturn 7\n}\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go deleted Added"]
    );
    let s = edit("return s * 2", "return s * 3");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go modified Compute"]
    );
    let s = edit(
        "func Compute(a, b int) int",
        "func Compute(a, b int64) int64",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go signature_changed Compute"]
    );
    let s = edit("func Helper(x int)", "func Assist(x int)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go renamed Assist (was Helper)"]
    );
    let s = edit(
        "func Assist(x int) int {\n\ty := x * 3",
        "func Assist2(x int) int {\n\ty := x * 5",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go renamed Assist2 (was Assist) +edited"]
    );
    // Move `Compute` to another file of the package.
    let compute = "func Compute(a, b int64) int64 {\n\ts := a + b\n\treturn s * 3\n}\n";
    let s = edit(&format!("{compute}\n"), "");
    let math = format!("package server\n\n{compute}");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(file, Some(&s)), ("server/math.go", Some(&math))]
        ),
        ["server/math.go moved Compute from server/server.go"]
    );
    // Reordering declarations is not a change.
    let client =
        "type Client struct{}\n\nfunc (c Client) Start() string {\n\treturn \"client\"\n}\n\n";
    edit(client, "");
    let s = edit(
        "type Server struct {",
        &format!("{client}type Server struct {{"),
    );
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Reformatting and comments are formatting only.
    let s = edit(
        "fmt.Sprintf(\"start %s\", s.name)",
        "fmt.Sprintf(\"start %s\",\n\t\ts.name)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go formatting_only Server.Start"]
    );
    let s = edit(
        "\treturn inner() + 1",
        "\t// the closure's value, plus one\n\treturn inner() + 1",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go formatting_only Outer"]
    );
    // The same method name on two types: only the one that changed.
    let s = edit("return \"client\"", "return \"client!\"");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go modified Client.Start"]
    );
    // The receiver is part of the signature.
    let s = edit("func (c Client) Start()", "func (c *Client) Start()");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go signature_changed Client.Start"]
    );
    // A function literal is part of the function around it.
    let s = edit("\t\treturn 1\n", "\t\treturn 2\n");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["server/server.go modified Outer"]
    );
    // Imports, aliases included.
    edit("\t\"strings\"\n", "\tstr \"strings\"\n\t_ \"embed\"\n");
    let s = edit("strings.ToUpper", "str.ToUpper");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [
            "server/server.go imports +embed as _,strings as str -strings",
            "server/server.go modified Fetch",
        ]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit("func Outer()", "func Broken( {\n}\n\nfunc Outer()");
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(
        got.contains(&"server/server.go parse_errors".to_owned()),
        "{got:?}"
    );
}
