//! Turning a panic into an ordinary failure.
//!
//! No panic may end a process: the shim must still be able to run the real git (nothing has
//! been written yet when an answer is being built), the server must keep serving its other
//! clients, and the CLI must say what failed in one line. [`catch`] runs a closure and returns
//! the panic's message as an error ([`catch_within`] on a thread of its own, waiting at most a
//! given time); [`quiet_hook`] replaces the default hook, which would print several lines to
//! stderr — bytes the real git's stderr must not gain on a passthrough.
//!
//! A stack overflow is not a panic: it ends the process. Threads keep Rust's default stack; the
//! one deep recursion, tree-sitter's, runs on a segment reserved for the parse whenever the
//! current stack lacks the room the file may need (`lang::parse_stack`); a segment that cannot
//! be reserved skips the file.
//!
//! Invariant: the release profile unwinds (`panic = "unwind"`), or none of this works.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Installs a panic hook that prints nothing: whoever catches the panic reports it.
pub fn quiet_hook() {
    std::panic::set_hook(Box::new(|_| {}));
}

/// Runs `f`; a panic becomes `Err` with the panic's message.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| message(payload.as_ref()))
}

/// How a bounded run ended without a value.
#[derive(Debug)]
pub enum Stopped {
    /// It panicked (the message), or its thread could not start.
    Panicked(String),
    /// It was still running at the limit.
    TimedOut,
}

/// Like [`catch`], on a thread of its own, waiting at most `limit`. On [`Stopped::TimedOut`]
/// the thread is left running: the caller is about to replace or end the process (the shim
/// `exec`s git). A thread that cannot be started is [`Stopped::Panicked`] with the reason.
pub fn catch_within<T: Send + 'static>(
    limit: std::time::Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Stopped> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("git-prism".into())
        .spawn(move || {
            let _ = tx.send(catch(f));
        })
        .map_err(|e| Stopped::Panicked(format!("cannot start a thread: {e}")))?;
    match rx.recv_timeout(limit) {
        Ok(done) => done.map_err(Stopped::Panicked),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(Stopped::TimedOut),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(Stopped::Panicked(
            "the answer's thread ended without a result".into(),
        )),
    }
}

/// Returns the message of a panic payload.
pub fn message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The release profile had `panic = "abort"`: every `catch` above was dead code there, and
    // one panic in the pager ended the server for every client and the shim with status 134.
    #[test]
    fn the_release_profile_unwinds() {
        let manifest: toml::Table =
            toml::from_str(include_str!("../Cargo.toml")).expect("Cargo.toml parses");
        let panic = manifest["profile"]["release"]
            .get("panic")
            .and_then(toml::Value::as_str);
        assert_ne!(panic, Some("abort"));
    }

    #[test]
    #[allow(clippy::panic, reason = "the test panics on purpose")]
    fn a_panic_becomes_its_message() {
        quiet_hook();
        assert_eq!(catch(|| 7), Ok(7));
        assert_eq!(
            catch(|| -> u8 { panic!("boom {}", 1) }),
            Err("boom 1".into())
        );
        let v: Vec<u8> = Vec::new();
        let err = catch(|| v[3]).unwrap_err();
        assert!(err.contains("index out of bounds"), "{err}");
        let _ = std::panic::take_hook();
    }
}
