//! `git-prism languages`: the language labels git-prism assigns, and which have function
//! analysis.

use super::Out;
use crate::exit_codes;
use crate::lang;
use crate::manifest::language;

/// Arguments of `languages`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Print the list as JSON
    #[arg(long)]
    json: bool,
    /// Only the languages with function analysis
    #[arg(long)]
    analyzed: bool,
}

pub(crate) fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let analyzed = lang::analyzed();
    let rows: Vec<(&'static str, Vec<String>, bool)> = language::known()
        .into_iter()
        .map(|(language, names)| (language.label(), names, analyzed.contains(&language)))
        .filter(|(_, _, a)| *a || !args.analyzed)
        .collect();
    if args.json {
        let list: Vec<LanguageRow<'_>> = rows
            .iter()
            .map(|(label, names, functions)| LanguageRow {
                files: names,
                function_analysis: *functions,
                language: label,
            })
            .collect();
        writeln!(out.stdout, "{}", crate::json::to_string(&list)?)?;
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

/// One language of `languages --json` (fields in alphabetical order, as the output has always
/// had them).
#[derive(serde::Serialize)]
struct LanguageRow<'a> {
    /// The extensions (`.rs`) and file names (`Makefile`) that give the language.
    files: &'a [String],
    /// Whether functions, methods and imports are analysed.
    function_analysis: bool,
    /// The label.
    language: &'a str,
}
