//! The session's broker (issue 34, ADR 19): the git and gh calls a sandboxed agent cannot make
//! itself — a write into a git directory, a push or fetch with the user's credentials, a gh
//! call with the user's token — go from the shim inside the sandbox ([`client`]) over a UNIX
//! socket to `git-prism session` outside it ([`server`]), which runs them again through the
//! shim, with the user's environment, and gives back what git gave: its bytes (the caller's
//! own descriptors are passed, so git writes to them directly), its exit status and the signal
//! that ended it.
//!
//! The broker never trusts the sandboxed side: what it runs is the shim (`git`, `gh` or
//! `git-prism session verify`) started anew as the broker's child ([`BROKERED_VAR`]), which
//! judges the call with both layers of the guard — the command line, then the kernel — as if
//! nothing had judged it before, refuses a call that has no business with the broker (a plain
//! read, which runs inside the sandbox; an argument naming a path the agent may not read), and
//! runs git under that call's own Landlock domain. Only the session's processes are served: a
//! peer must share the sandbox's mount namespace (or descend from the agent, for a sandbox
//! without one) and be the same user.
//!
//! [`wire`] is the protocol.

pub mod client;
pub mod server;
pub mod wire;

pub use crate::guard::sandbox::{BROKER_VAR, BROKERED_VAR, is_brokered, socket};
