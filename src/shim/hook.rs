//! git-prism run as one of git's hooks (`core.hooksPath` pointed at links named after them by
//! the shim, for a call that needs the network): the edge around [`crate::guard::hook::wrap`],
//! which confines the process further and checks a push's refs; this prints a refusal or execs
//! the repository's own hook.

use std::ffi::{OsStr, OsString};
use std::io::Write;

use crate::exit_codes;
use crate::guard::hook::{self, HookStep};

/// Runs as the hook `name`, with git's arguments for it; returns only when no hook runs.
pub fn run(name: &str, args: &[OsString]) -> i32 {
    let outcome = crate::unwind::catch(|| hook::wrap(name, args, &mut std::io::stdin().lock()))
        .unwrap_or_else(|panic| {
            HookStep::Refuse(format!(
                "git-prism guard: refused the `{name}` hook (the guard failed: {panic}); ask the user to run the command outside the session"
            ))
        });
    match outcome {
        HookStep::Nothing => exit_codes::SUCCESS,
        HookStep::Refuse(line) => {
            let _ = std::io::stderr()
                .lock()
                .write_all(format!("{line}\n").as_bytes());
            exit_codes::REFUSED
        }
        HookStep::Run(path, input) => {
            if let Some(bytes) = input {
                if let Err(e) = hook::stdin_from(&bytes) {
                    let _ = std::io::stderr().lock().write_all(
                        format!(
                            "git-prism guard: refused the `{name}` hook: {}; ask the user to run the command outside the session\n",
                            crate::text::io_words(&e)
                        )
                        .as_bytes(),
                    );
                    return exit_codes::REFUSED;
                }
            }
            let err = crate::shim::exec::exec(&path, path.as_os_str(), args, &[]);
            let _ = std::io::stderr().lock().write_all(
                format!(
                    "git-prism: cannot run the hook '{}': {}\n",
                    path.display(),
                    crate::text::io_words(&err)
                )
                .as_bytes(),
            );
            exit_codes::NOT_EXECUTABLE
        }
    }
}

/// Whether `argv0`'s file name is a hook's.
pub fn is_hook(argv0: &OsStr) -> Option<String> {
    let name = std::path::Path::new(argv0).file_name()?;
    hook::is_hook(name).then(|| name.to_string_lossy().into_owned())
}
