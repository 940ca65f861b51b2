//! `git-prism explain`: what the shim would decide for a command line, and why.

use std::ffi::OsString;
use std::time::{Duration, Instant};

use super::Out;
use crate::exit_codes;
use crate::shim::{self, Tool};

/// Arguments of `explain`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Explain a `gh` command line instead of a `git` one
    #[arg(long)]
    gh: bool,
    /// Decide this many times and report the median time of one decision
    #[arg(long, value_name = "N", default_value_t = 1)]
    repeat: u32,
    /// The arguments after `git` (or `gh`), e.g. `-- diff main..HEAD`
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    args: Vec<OsString>,
}

pub fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let tool = if args.gh { Tool::Gh } else { Tool::Git };
    let mut times: Vec<Duration> = Vec::with_capacity(args.repeat as usize);
    let mut decision = shim::decide(tool, &args.args);
    for _ in 0..args.repeat.max(1) {
        let start = Instant::now();
        decision = shim::decide(tool, &args.args);
        times.push(start.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2];
    let value = match &decision {
        Ok(structured) => serde_json::json!({
            "decision": "structured",
            "request": structured.to_string(),
            "reason": null,
            "decide_us": (median.as_secs_f64() * 1e7).round() / 10.0,
        }),
        Err(reason) => serde_json::json!({
            "decision": "passthrough",
            "request": null,
            "reason": reason.to_string(),
            "decide_us": (median.as_secs_f64() * 1e7).round() / 10.0,
        }),
    };
    writeln!(out.stdout, "{value}")?;
    Ok(exit_codes::SUCCESS)
}
