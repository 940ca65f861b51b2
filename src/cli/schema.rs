//! `git-prism schema`: the JSON Schema of the manifest.

use super::Out;
use crate::exit_codes;
use crate::manifest::schema::ManifestDoc;

/// Arguments of `schema`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

pub(crate) fn run(_args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let schema = schemars::schema_for!(ManifestDoc);
    writeln!(out.stdout, "{}", crate::json::to_string_pretty(&schema)?)?;
    Ok(exit_codes::SUCCESS)
}
