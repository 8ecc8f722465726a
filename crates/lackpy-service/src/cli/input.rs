//! Reading a program, its tool list and its params from the command line.

use std::io::Read;

use lackpy_lang::parse_bytes;
use lackpy_lang::{Data, ParseError, Rule};

use clap::Args;

use super::error::CliError;
use lackpy_service::params_from_json;

/// A program that could not be read: a usage error, with the Python
/// exception name `run --json` reports it under.
#[derive(Debug)]
pub struct ReadError {
    /// One line for stderr (and the JSON result's `error`).
    pub message: String,
    /// `FileNotFoundError`, `PermissionError`, `IsADirectoryError` or `OSError`.
    pub error_type: &'static str,
}

impl From<ReadError> for CliError {
    fn from(e: ReadError) -> CliError {
        CliError::usage(e.message)
    }
}

/// The Python exception a failed read raises, as `open()` would.
fn io_error_type(e: &std::io::Error) -> &'static str {
    match e.kind() {
        std::io::ErrorKind::NotFound => "FileNotFoundError",
        std::io::ErrorKind::PermissionDenied => "PermissionError",
        std::io::ErrorKind::IsADirectory => "IsADirectoryError",
        _ => "OSError",
    }
}

/// Reads the program from FILE, or from stdin for `-` or no FILE. Bytes
/// that are not UTF-8 are a program that does not parse (the inner `Err`,
/// CPython's message and line), reported like any other invalid program;
/// a file that cannot be read is a usage error.
pub fn read_program(file: Option<&str>) -> Result<Result<String, ParseError>, ReadError> {
    let bytes = match file {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| ReadError {
                    message: format!("cannot read the program from stdin: {e}"),
                    error_type: io_error_type(&e),
                })?;
            buf
        }
        Some(path) => std::fs::read(path).map_err(|e| ReadError {
            message: format!("cannot read program file '{path}': {e}"),
            error_type: io_error_type(&e),
        })?,
    };
    Ok(String::from_utf8(bytes).map_err(|e| {
        // Bytes that are not UTF-8 never parse; the fallback is not reached.
        parse_bytes(e.as_bytes())
            .err()
            .unwrap_or_else(|| ParseError {
                message: "the program is not valid UTF-8".to_string(),
                line: 1,
            })
    }))
}

/// Splits `--tools a,b` into names (blank entries dropped); `None` when absent.
pub fn tool_list(tools: Option<&str>) -> Option<Vec<String>> {
    tools.map(|t| {
        t.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    })
}

/// Params from `--params-json` (typed) then `--param k=v` (strings), in order.
pub fn params(
    params_json: Option<&str>,
    pairs: &[String],
) -> Result<Vec<(String, Data)>, CliError> {
    let mut out = match params_json {
        Some(text) => {
            params_from_json(text).map_err(|e| CliError::usage(format!("--params-json: {e}")))?
        }
        None => Vec::new(),
    };
    for pair in pairs {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(CliError::usage(format!(
                "--param expects NAME=VALUE, got '{pair}'"
            )));
        };
        out.retain(|(name, _)| name != k);
        out.push((k.to_string(), Data::Str(v.to_string())));
    }
    Ok(out)
}

/// `--rule R` values, parsed.
pub fn rules(rules: &[String]) -> Result<Vec<Rule>, CliError> {
    rules
        .iter()
        .map(|r| {
            r.parse::<Rule>()
                .map_err(|e| CliError::usage(e.to_string()))
        })
        .collect()
}

/// The namespace options `run`, `validate`, `delegate` and `generate` share.
#[derive(Debug, Args)]
pub struct NamespaceArgs {
    /// Comma-separated tool names: exactly the program's namespace.
    #[arg(long)]
    pub tools: Option<String>,
    /// A profile naming the tools.
    #[arg(long)]
    pub profile: Option<String>,
    /// A param as NAME=VALUE (a string); repeatable.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub param: Vec<String>,
    /// Params as a JSON object (typed values; `{"value": v, "description": d}`
    /// describes one to the model).
    #[arg(long = "params-json", value_name = "JSON")]
    pub params_json: Option<String>,
    /// An extra validation rule (`no_loops`, `max_depth:N`, `max_calls:N`,
    /// `no_nested_calls`); repeatable.
    #[arg(long = "rule", value_name = "RULE")]
    pub rule: Vec<String>,
}

impl NamespaceArgs {
    /// The `--tools` list, split.
    pub fn tool_list(&self) -> Option<Vec<String>> {
        tool_list(self.tools.as_deref())
    }

    /// The params from `--params-json` and `--param`.
    pub fn params(&self) -> Result<Vec<(String, Data)>, CliError> {
        params(self.params_json.as_deref(), &self.param)
    }

    /// The `--rule` rules, parsed.
    pub fn rules(&self) -> Result<Vec<Rule>, CliError> {
        rules(&self.rule)
    }
}
