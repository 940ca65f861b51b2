//! Entry point of the `git-prism` binary.
//!
//! The binary is multi-call: the stem of `argv[0]` picks the personality (`git` and `gh` are
//! the PATH shims, the name of one of git's hooks is the session guard's hook wrapper,
//! anything else is the `git-prism` CLI). See [`git_prism::run`].
//!
//! It defines the C `main` itself (`no_main`) instead of using Rust's runtime entry, because
//! that runtime changes the process before `main` runs: it ignores `SIGPIPE` and reopens
//! closed standard descriptors on `/dev/null`. A shim that `exec`s the real git must hand git
//! the process exactly as its caller built it, so none of that may happen here.
#![cfg_attr(not(test), no_main)]

#[cfg(not(test))]
use std::ffi::{CStr, OsString, c_char, c_int};
#[cfg(not(test))]
use std::os::unix::ffi::OsStringExt;

/// The process entry point called by the C runtime.
///
/// # Safety
/// Called once by the C runtime with the process's `argc`/`argv`.
#[allow(
    unsafe_code,
    reason = "the C entry point reads argv from the C runtime"
)]
#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(argc: c_int, argv: *const *const c_char) -> c_int {
    let count = usize::try_from(argc).unwrap_or(0);
    let mut args = Vec::with_capacity(count);
    for i in 0..count {
        // SAFETY: the C runtime passes `argc` valid, NUL-terminated strings in `argv`.
        let arg = unsafe { CStr::from_ptr(*argv.add(i)) };
        args.push(OsString::from_vec(arg.to_bytes().to_vec()));
    }
    git_prism::run(args)
}
