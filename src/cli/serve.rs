//! `git-prism serve`: the MCP server over stdio. This edge owns the async runtime (nowhere else
//! has one), the stderr log, and the exit when the client closes stdin or the parent dies.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use crate::exit_codes;
use crate::serve;

/// Arguments of `serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Also answer for repositories under DIR
    ///
    /// Repeatable. The client's MCP roots are always allowed; with neither, only the current
    /// directory is.
    #[arg(long, value_name = "DIR")]
    pub allow: Vec<PathBuf>,
    /// Default budget of a tool call
    ///
    /// In tokens, for a tool call that gives no `max_response_tokens`.
    #[arg(long, value_name = "N", default_value_t = serve::tools::DEFAULT_MAX_TOKENS)]
    pub max_response_tokens: usize,
}

/// One lifecycle line on stderr (stdout belongs to the protocol).
#[allow(clippy::print_stderr, reason = "the server's log is its stderr")]
fn log(line: &str) {
    eprintln!("git-prism serve: {line}");
}

/// Exits when the process that started the server is gone (an orphaned server would wait on
/// a stdin nobody closes).
fn watch_parent() {
    let parent = rustix::process::Pid::as_raw(rustix::process::getppid());
    if parent <= 1 {
        return;
    }
    std::thread::Builder::new()
        .name("parent-watch".into())
        .spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(250));
                let now = rustix::process::Pid::as_raw(rustix::process::getppid());
                if now != parent {
                    log(&format!("parent process {parent} exited; stopping"));
                    #[allow(clippy::exit, reason = "the runtime may be blocked on stdin")]
                    std::process::exit(exit_codes::SUCCESS);
                }
            }
        })
        .ok();
}

pub(crate) fn run(args: Args) -> anyhow::Result<i32> {
    for name in serve::confine::clear_inherited_repository() {
        log(&format!(
            "ignoring {name}: each call's repo_path names the repository"
        ));
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let options = serve::Options::new(cwd, &args.allow, args.max_response_tokens)?;
    log(&format!(
        "started (version {}, pid {}, allowed: {})",
        crate::version::VERSION,
        std::process::id(),
        options.allowed()
    ));
    watch_parent();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let stopped = runtime.block_on(serve::serve(options, Arc::new(log)));
    let code = match stopped {
        serve::Stopped::Closed => {
            log("client closed the connection; stopping");
            exit_codes::SUCCESS
        }
        serve::Stopped::Failed(reason) => {
            log(&format!("stopping: {reason}"));
            exit_codes::FAILURE
        }
    };
    // Blocking reads of stdin may still hold the runtime's pool: leave now.
    #[allow(clippy::exit, reason = "dropping the runtime would wait on stdin")]
    std::process::exit(code);
}
