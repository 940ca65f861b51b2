//! `git-prism completions <shell>`: generated from the clap definitions, so they never drift
//! from the command line they describe (the manual is [`super::manual`]'s).

use super::Out;
use crate::exit_codes;

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompletionArgs {
    /// The shell to write completions for
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

pub(crate) fn completions(args: CompletionArgs, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let mut command = super::command();
    clap_complete::generate(args.shell, &mut command, "git-prism", out.stdout);
    Ok(exit_codes::SUCCESS)
}
