//! `git-prism completions <shell>` and `git-prism man`: generated from the clap definitions,
//! so they never drift from the command line they describe.

use clap::CommandFactory;

use super::{Cli, Out};
use crate::exit_codes;

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompletionArgs {
    /// The shell to write completions for
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Arguments of `man`.
#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {}

pub(crate) fn completions(args: CompletionArgs, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let mut command = Cli::command();
    clap_complete::generate(args.shell, &mut command, "git-prism", out.stdout);
    Ok(exit_codes::SUCCESS)
}

pub(crate) fn man(_args: ManArgs, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let command = Cli::command();
    let mut man = clap_mangen::Man::new(command).section("1");
    if !crate::version::DATE.is_empty() {
        man = man.date(crate::version::DATE);
    }
    man.render(out.stdout)?;
    Ok(exit_codes::SUCCESS)
}
