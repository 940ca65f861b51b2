//! Wall-clock timing of whole commands, interleaved and summarised by medians.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

/// Runs `make()`'s command once with output discarded and returns its wall time.
pub fn time_once(mut command: Command) -> Result<Duration> {
    command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .stdin(Stdio::null());
    let start = Instant::now();
    let status = command.status()?;
    let elapsed = start.elapsed();
    if !status.success() {
        bail!("{command:?} failed: {status}");
    }
    Ok(elapsed)
}

/// Measures several variants of a command `runs` times each, interleaved (the order rotates
/// every round so no variant always runs right after another), and returns per-variant samples.
pub fn interleaved(runs: usize, variants: &[&dyn Fn() -> Command]) -> Result<Vec<Vec<Duration>>> {
    let mut samples = vec![Vec::with_capacity(runs); variants.len()];
    // Warm the page cache and the dynamic loader before measuring.
    for make in variants {
        time_once(make())?;
    }
    for round in 0..runs {
        for k in 0..variants.len() {
            let i = (round + k) % variants.len();
            samples[i].push(time_once(variants[i]())?);
        }
    }
    Ok(samples)
}

/// Returns the median of `samples`.
pub fn median(samples: &[Duration]) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort();
    match sorted.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
    }
}

/// Formats a duration in milliseconds with three decimals.
pub fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}
