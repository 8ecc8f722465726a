//! `lackpy spec`: print the language spec.

use clap::Args;

use super::error::CliError;

/// Arguments of `lackpy spec`.
#[derive(Debug, Args)]
pub struct SpecArgs {
    /// Print the spec as JSON.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print every list of the spec (node kinds, names, attributes) as
    /// Markdown, instead of the prose.
    #[arg(long)]
    pub markdown: bool,
}

/// Runs `lackpy spec`.
pub fn run(args: SpecArgs) -> Result<u8, CliError> {
    let spec = lackpy_lang::spec();
    if args.json {
        super::common::print_json(&spec)?;
    } else if args.markdown {
        super::output::out(&spec.to_markdown());
    } else {
        super::output::out(&format!("{}{}", spec.to_prose(), limits()));
    }
    Ok(0)
}

/// The default limits of a run, in words (a profile, the config or a
/// caller may tighten them).
fn limits() -> String {
    let l = lackpy_lang::Limits::default();
    format!(
        "\n## Limits\n\nBy default a run stops after {} s, {} steps, {} MiB of memory, \
         {} levels of nesting or {} KiB of printed output; a profile, the configuration or the \
         caller may set tighter limits.\n",
        l.timeout.as_secs(),
        l.max_steps,
        l.max_memory / (1024 * 1024),
        l.max_depth,
        l.max_stdout / 1024
    )
}
