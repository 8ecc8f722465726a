//! `lackpy validate`: check a program without running it.

use clap::Args;
use lackpy_lang::{Rule, validate};

use super::input::{params, read_program, tool_list};
use super::{CliError, EXIT_FAILED};

/// Arguments of `lackpy validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The program file; `-` or nothing reads stdin.
    pub file: Option<String>,
    /// Comma-separated tool names the program may call.
    #[arg(long)]
    pub tools: Option<String>,
    /// Params as a JSON object; their names are callable too.
    #[arg(long = "params-json", value_name = "JSON")]
    pub params_json: Option<String>,
    /// A param as NAME=VALUE (a string); repeatable.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub param: Vec<String>,
    /// An extra rule (`no_loops`, `max_depth:N`, `max_calls:N`, `no_nested_calls`); repeatable.
    #[arg(long = "rule", value_name = "RULE")]
    pub rule: Vec<String>,
    /// The workspace directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy validate`.
pub fn run(args: ValidateArgs) -> Result<u8, CliError> {
    let program = read_program(args.file.as_deref())?;
    let rules = args
        .rule
        .iter()
        .map(|r| r.parse::<Rule>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::usage(e.to_string()))?;
    let mut allowed = tool_list(args.tools.as_deref());
    allowed.extend(
        params(args.params_json.as_deref(), &args.param)?
            .into_iter()
            .map(|(name, _)| name),
    );
    let result = validate(&program, &allowed, &rules);
    if args.json {
        let text = serde_json::to_string(&result)
            .map_err(|e| CliError::usage(format!("cannot encode the result: {e}")))?;
        println!("{text}");
    } else if result.valid {
        println!("valid");
    } else {
        for e in &result.errors {
            println!("{e}");
        }
    }
    Ok(if result.valid { 0 } else { EXIT_FAILED })
}
