//! `lackpy spec`: print the language spec.

use clap::Args;

use super::CliError;

/// Arguments of `lackpy spec`.
#[derive(Debug, Args)]
pub struct SpecArgs {
    /// Print the spec as JSON.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the spec as Markdown (the default).
    #[arg(long)]
    pub markdown: bool,
}

/// Runs `lackpy spec`.
pub fn run(args: SpecArgs) -> Result<u8, CliError> {
    let spec = lackpy_lang::spec();
    if args.json {
        super::output::out_line(&spec.to_json().to_string());
    } else {
        super::output::out(&spec.to_markdown());
    }
    Ok(0)
}
