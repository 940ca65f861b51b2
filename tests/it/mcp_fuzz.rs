//! Property test of the MCP server: every tool, fed random and extreme arguments, answers each
//! call (a result or an error) in bounded time, and the server keeps serving.
//!
//! Speaks newline-delimited JSON-RPC to `git-prism serve` directly, like any client.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use git_prism::fuzz::Rng;
use serde_json::{Value, json};

use crate::common::TestEnv;

struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    next_id: u64,
}

impl Client {
    fn start(env: &TestEnv, dir: &std::path::Path) -> Client {
        let mut child = env
            .command(crate::common::bin(), &env.plain_path())
            .arg("serve")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            lines,
            next_id: 1,
        };
        let init = client.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "fuzz", "version": "0"}
            }),
            Duration::from_secs(20),
        );
        assert!(init.get("result").is_some(), "{init}");
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.stdin.write_all(&line).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and waits for the response with its id.
    fn request(&mut self, method: &str, params: Value, timeout: Duration) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {method} {params} within {timeout:?}"));
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A hostile JSON value for an argument.
fn value(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => Value::Null,
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(1e308),
        4 => json!(true),
        5 => json!([rng.string(), rng.string()]),
        6 => json!({"start": rng.number(), "end": rng.number()}),
        7 => json!(
            (0..rng.below(3000))
                .map(|i| format!("p{i}"))
                .collect::<Vec<_>>()
        ),
        8 => json!("x".repeat(100_000)),
        9 => json!(rng.pick(&[
            "HEAD",
            "HEAD~1",
            "main",
            "--output=/tmp/x",
            "../..",
            "/etc",
            "compact",
            "full",
            "gl1-0-1",
        ])),
        _ => json!(rng.string()),
    }
}

const TOOLS: &[(&str, &[&str])] = &[
    (
        "get_change_manifest",
        &[
            "repo_path",
            "base_ref",
            "head_ref",
            "include_patterns",
            "exclude_patterns",
            "include_function_analysis",
            "format",
            "context_lines",
            "cursor",
            "page_size",
            "max_response_tokens",
        ],
    ),
    (
        "get_file_snapshots",
        &[
            "repo_path",
            "base_ref",
            "head_ref",
            "paths",
            "include_before",
            "include_after",
            "line_range",
            "max_file_size_bytes",
            "include_diff_hunks",
            "max_response_tokens",
        ],
    ),
    (
        "get_commit_history",
        &[
            "repo_path",
            "base_ref",
            "head_ref",
            "format",
            "cursor",
            "page_size",
            "max_response_tokens",
        ],
    ),
    (
        "get_function_context",
        &[
            "repo_path",
            "base_ref",
            "head_ref",
            "function_names",
            "cursor",
            "page_size",
            "max_response_tokens",
        ],
    ),
    (
        "review_change",
        &[
            "repo_path",
            "base_ref",
            "head_ref",
            "include_patterns",
            "exclude_patterns",
            "function_names",
            "manifest_cursor",
            "context_cursor",
            "page_size",
            "max_response_tokens",
        ],
    ),
];

/// Calls `tool` with `args`: the server must answer (a result or an error) within `limit`.
fn call_within(client: &mut Client, tool: &str, args: &Value, limit: Duration) {
    let started = Instant::now();
    let answer = client.request(
        "tools/call",
        json!({"name": tool, "arguments": args}),
        Duration::from_secs(60),
    );
    assert!(
        answer.get("result").is_some() || answer.get("error").is_some(),
        "{tool}: {answer}"
    );
    assert!(
        started.elapsed() < limit,
        "{tool} took {:?} with {args}",
        started.elapsed()
    );
}

// One oversized `include_patterns` aborted the server for every client (`panic = "abort"` and a
// pager that indexed an empty page); 100 function names of 100k characters took 26 s.
#[test]
fn every_tool_survives_random_and_extreme_arguments() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("src/lib.rs", "pub fn a() -> u8 {\n    1\n}\n")
        .write("app.py", "def f():\n    return 1\n");
    repo.commit("one");
    repo.write(
        "src/lib.rs",
        "pub fn a() -> u8 {\n    2\n}\npub fn b() {}\n",
    );
    repo.commit("two");
    let mut client = Client::start(&env, &repo.dir);
    let mut rng = Rng::new(0x5eed);
    let mut calls = 0;
    for round in 0..60 {
        let (tool, fields) = TOOLS[round % TOOLS.len()];
        let mut args = serde_json::Map::new();
        // Mostly valid revisions, so calls get past validation into the code behind it.
        args.insert("base_ref".into(), json!("HEAD~1"));
        args.insert("head_ref".into(), json!("HEAD"));
        args.insert("paths".into(), json!(["src/lib.rs"]));
        for _ in 0..1 + rng.below(3) {
            let field = *rng.pick(fields);
            args.insert(field.into(), value(&mut rng));
        }
        call_within(&mut client, tool, &json!(args), Duration::from_secs(20));
        calls += 1;
    }
    // Extremes the random walk may miss.
    let long_names: Vec<String> = (0..100)
        .map(|i| format!("{i}{}", "n".repeat(100_000)))
        .collect();
    let many_patterns: Vec<String> = (0..20_000).map(|i| format!("dir{i}/**")).collect();
    for (tool, args) in [
        (
            "get_function_context",
            json!({"base_ref": "HEAD~1", "function_names": long_names}),
        ),
        (
            "review_change",
            json!({"base_ref": "HEAD~1", "include_patterns": many_patterns}),
        ),
        (
            "get_change_manifest",
            json!({"base_ref": "HEAD~1", "include_patterns": ["x".repeat(25_000)]}),
        ),
        (
            "get_change_manifest",
            json!({"base_ref": "HEAD~1", "max_response_tokens": 1}),
        ),
        (
            "get_file_snapshots",
            json!({"base_ref": "HEAD~1", "paths": ["src/lib.rs"], "line_range": {"start": u64::MAX, "end": 1}}),
        ),
        (
            "get_commit_history",
            json!({"base_ref": "HEAD~1", "head_ref": "HEAD", "cursor": "gp1-ffffffffffffffff-18446744073709551615"}),
        ),
    ] {
        call_within(&mut client, tool, &args, Duration::from_secs(10));
        calls += 1;
    }
    // Still serving.
    let listed = client.request("tools/list", json!({}), Duration::from_secs(20));
    assert_eq!(
        listed["result"]["tools"].as_array().map(Vec::len),
        Some(5),
        "after {calls} calls"
    );
    let ok = client.request(
        "tools/call",
        json!({"name": "get_change_manifest", "arguments": {"base_ref": "HEAD~1", "head_ref": "HEAD"}}),
        Duration::from_secs(30),
    );
    assert_eq!(ok["result"]["isError"], json!(false), "{ok}");
}
