//! `git-prism agent-detect`: which agent the environment identifies.

use super::Out;
use crate::exit_codes;
use crate::shim::detect;

/// Arguments of `agent-detect`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let agent = detect::detect(|name| std::env::var_os(name));
    let value = serde_json::json!({
        "agent": agent.as_ref().map(|a| a.name.as_str()),
        "signal": agent.as_ref().map(|a| a.signal),
    });
    writeln!(out.stdout, "{value}")?;
    Ok(exit_codes::SUCCESS)
}
