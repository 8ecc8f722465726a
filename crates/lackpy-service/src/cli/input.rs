//! Reading a program and its params from the command line.

use std::io::Read;

use super::CliError;

/// Reads the program from FILE, or from stdin for `-` or no FILE.
pub fn read_program(file: Option<&str>) -> Result<String, CliError> {
    match file {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| CliError::usage(format!("cannot read the program from stdin: {e}")))?;
            String::from_utf8(buf)
                .map_err(|_| CliError::usage("the program on stdin is not valid UTF-8"))
        }
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| CliError::usage(format!("cannot read program file '{path}': {e}"))),
    }
}

/// Splits `--tools a,b` into names (blank entries dropped).
pub fn tool_list(tools: Option<&str>) -> Vec<String> {
    tools
        .map(|t| {
            t.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Params from `--params-json` (typed) and `--param k=v` (strings), in order.
pub fn params(
    params_json: Option<&str>,
    pairs: &[String],
) -> Result<Vec<(String, serde_json::Value)>, CliError> {
    let mut out = Vec::new();
    if let Some(text) = params_json {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| CliError::usage(format!("--params-json is not valid JSON: {e}")))?;
        let serde_json::Value::Object(map) = value else {
            return Err(CliError::usage("--params-json must be a JSON object"));
        };
        out.extend(map);
    }
    for pair in pairs {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(CliError::usage(format!(
                "--param expects NAME=VALUE, got '{pair}'"
            )));
        };
        out.retain(|(name, _)| name != k);
        out.push((k.to_string(), serde_json::Value::String(v.to_string())));
    }
    Ok(out)
}
