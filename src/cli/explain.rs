//! `git-prism explain`: whether the shim would answer a command line or pass it through, and
//! why (what the session guard would decide is `session check`'s).

use std::ffi::OsString;
use std::time::{Duration, Instant};

use super::Out;
use crate::exit_codes;
use crate::locate::Program;
use crate::shim;

/// Arguments of `explain`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Explain a `gh` command line instead of a `git` one
    #[arg(long)]
    gh: bool,
    /// Decide N times and report the median time
    ///
    /// The median time of one decision is `decide_us`, in microseconds.
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

pub(crate) fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let tool = if args.gh { Program::Gh } else { Program::Git };
    let mut times: Vec<Duration> = Vec::with_capacity(args.repeat as usize);
    let mut decision = shim::decide(tool, &args.args);
    for _ in 0..args.repeat.max(1) {
        let start = Instant::now();
        decision = shim::decide(tool, &args.args);
        times.push(start.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2];
    let decide_us = (median.as_secs_f64() * 1e7).round() / 10.0;
    let explanation = match &decision {
        Ok(structured) => Explanation {
            decide_us,
            decision: "structured",
            reason: None,
            request: Some(structured.to_string()),
        },
        Err(reason) => Explanation {
            decide_us,
            decision: "passthrough",
            reason: Some(reason.to_string()),
            request: None,
        },
    };
    writeln!(out.stdout, "{}", crate::json::to_string(&explanation)?)?;
    Ok(exit_codes::SUCCESS)
}

/// What `explain` prints (fields in alphabetical order, as the output has always had them).
#[derive(serde::Serialize)]
struct Explanation {
    /// The median time of one decision, in microseconds.
    decide_us: f64,
    /// `structured` or `passthrough`.
    decision: &'static str,
    /// Why the call passes through.
    reason: Option<String>,
    /// The request the shim would answer.
    request: Option<String>,
}
