//! `git-prism agent-detect`: which agent the environment identifies.

use super::Out;
use crate::exit_codes;
use crate::shim::detect;

/// Arguments of `agent-detect`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

pub(crate) fn run(_args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let agent = detect::detect(|name| std::env::var_os(name));
    let detected = Detected {
        agent: agent.as_ref().map(|a| a.name.as_str()),
        signal: agent.as_ref().map(|a| a.signal),
    };
    writeln!(out.stdout, "{}", crate::json::to_string(&detected)?)?;
    Ok(exit_codes::SUCCESS)
}

/// What `agent-detect` prints.
#[derive(serde::Serialize)]
struct Detected<'a> {
    /// The agent's name, or null.
    agent: Option<&'a str>,
    /// The environment variable that identified it, or null.
    signal: Option<&'a str>,
}
