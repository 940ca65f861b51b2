//! `git-prism languages`: the language labels git-prism assigns, and which have function
//! analysis.

use super::Out;
use crate::exit_codes;
use crate::lang;
use crate::manifest::language;

/// Arguments of `languages`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the list as JSON
    #[arg(long)]
    json: bool,
    /// Only the languages with function analysis
    #[arg(long)]
    analyzed: bool,
}

pub fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let analyzed = lang::labels();
    let rows: Vec<(&'static str, Vec<String>, bool)> = language::known()
        .into_iter()
        .map(|(label, names)| (label, names, analyzed.contains(&label)))
        .filter(|(_, _, a)| *a || !args.analyzed)
        .collect();
    if args.json {
        let list: Vec<serde_json::Value> = rows
            .iter()
            .map(|(label, names, functions)| {
                serde_json::json!({"language": label, "files": names, "function_analysis": functions})
            })
            .collect();
        writeln!(out.stdout, "{}", serde_json::Value::Array(list))?;
    } else {
        writeln!(
            out.stdout,
            "Function analysis (functions, methods, imports):"
        )?;
        for (label, names, functions) in &rows {
            if *functions {
                writeln!(out.stdout, "  {label:<14} {}", names.join(" "))?;
            }
        }
        if !args.analyzed {
            writeln!(out.stdout, "Recognised (language label only):")?;
            for (label, names, functions) in &rows {
                if !*functions {
                    writeln!(out.stdout, "  {label:<14} {}", names.join(" "))?;
                }
            }
            writeln!(
                out.stdout,
                "Files without a known extension are labelled from their shebang line."
            )?;
        }
    }
    Ok(exit_codes::SUCCESS)
}
