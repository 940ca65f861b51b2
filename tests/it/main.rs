//! Integration tests: build real repositories in temp dirs and run the real binary.
//!
//! One test binary with a module per area keeps link time low.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::print_stderr,
    reason = "test helpers fail loudly by design"
)]

mod address_space;
mod advice;
mod answers;
mod cli;
mod common;
mod context;
mod corpus;
mod cost_against_git;
mod fidelity;
mod first_page_interface;
mod formatting;
mod functions;
mod guard;
mod guard_attacks;
mod help;
mod history;
mod hooks;
mod housekeeping;
mod lang_bash;
mod lang_c;
mod lang_cpp;
mod lang_csharp;
mod lang_go;
mod lang_java;
mod lang_javascript;
mod lang_kotlin;
mod lang_lua;
mod lang_php;
mod lang_ruby;
mod lang_scala;
mod lang_swift;
mod lang_typescript;
mod layers;
mod line_log;
mod locate;
mod manifest;
mod mcp;
mod mcp_fuzz;
mod oracle;
mod paging;
mod panics;
mod passthrough;
mod readme;
mod real_history;
mod release;
mod security_answers;
mod security_exec;
mod security_fs;
mod security_serve;
mod session_sandbox;
mod session_verify;
mod snapshot;
mod table_of_contents;
mod verify;
