//! `lackpy mcp init`: registers `lackpy mcp serve` with an agent host.
//! Claude Code's `<workspace>/.mcp.json` is edited in place (one member
//! inserted or replaced, every other byte kept); for the other hosts the
//! snippet to paste is printed.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use super::CliError;
use super::common::WorkspaceArg;
use super::json_splice::{members, skip_ws};

/// The hosts whose config shapes lackpy reads (and writes here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Host {
    /// `<workspace>/.mcp.json`, edited in place.
    ClaudeCode,
    /// `claude_desktop_config.json` (printed).
    ClaudeDesktop,
    /// `.cursor/mcp.json` (printed).
    Cursor,
    /// `.vscode/mcp.json` (printed).
    Vscode,
}

/// Arguments of `lackpy mcp init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// The server's name in the host's config.
    #[arg(long, default_value = "lackpy")]
    pub name: String,
    /// Replace an existing entry of that name.
    #[arg(long)]
    pub force: bool,
    /// The host: claude-code edits `.mcp.json`; the others print a snippet.
    #[arg(long, value_enum, default_value = "claude-code")]
    pub host: Host,
}

/// Runs `lackpy mcp init`.
pub fn run(args: InitArgs) -> Result<u8, CliError> {
    let workspace = absolute(&args.workspace.path()?)?;
    if !workspace.is_dir() {
        return Err(CliError::usage(format!(
            "workspace '{}' is not a directory",
            workspace.display()
        )));
    }
    let exe = std::env::current_exe()
        .map_err(|e| CliError::usage(format!("cannot find this binary's path: {e}")))?;
    let entry = entry(&exe, &workspace);
    match args.host {
        Host::ClaudeCode => {
            let file = workspace.join(".mcp.json");
            let old = match std::fs::read_to_string(&file) {
                Ok(t) => Some(t),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => {
                    return Err(CliError::usage(format!(
                        "cannot read {}: {e}",
                        file.display()
                    )));
                }
            };
            let new = add_server(old.as_deref(), &args.name, &entry, args.force)
                .map_err(|e| CliError::usage(format!("{}: {e}", file.display())))?;
            std::fs::write(&file, new)
                .map_err(|e| CliError::usage(format!("cannot write {}: {e}", file.display())))?;
            println!("added '{}' to {}", args.name, file.display());
        }
        Host::ClaudeDesktop | Host::Cursor => {
            println!("{}", pretty(&json!({"mcpServers": {args.name: entry}})));
        }
        Host::Vscode => {
            let mut e = json!({"type": "stdio"});
            if let (Value::Object(m), Value::Object(rest)) = (&mut e, entry) {
                m.extend(rest);
            }
            println!("{}", pretty(&json!({"servers": {args.name: e}})));
        }
    }
    Ok(0)
}

fn absolute(p: &Path) -> Result<PathBuf, CliError> {
    std::path::absolute(p)
        .map_err(|e| CliError::usage(format!("cannot resolve '{}': {e}", p.display())))
}

fn entry(exe: &Path, workspace: &Path) -> Value {
    json!({
        "command": exe.display().to_string(),
        "args": ["mcp", "serve", "--workspace", workspace.display().to_string()],
    })
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

/// The entry's JSON, indented to sit at `indent` spaces.
fn indented(entry: &Value, indent: usize) -> String {
    pretty(entry).replace('\n', &format!("\n{}", " ".repeat(indent)))
}

/// `text` (a `.mcp.json`, or none) with server `name` added; every other
/// byte of the file is kept.
pub fn add_server(
    text: Option<&str>,
    name: &str,
    entry: &Value,
    force: bool,
) -> Result<String, String> {
    let key = serde_json::to_string(name).map_err(|e| e.to_string())?;
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(format!(
            "{}\n",
            pretty(&json!({"mcpServers": {name: entry}}))
        ));
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(_)) => {}
        Ok(_) => return Err("the file is not a JSON object".to_string()),
        Err(e) => return Err(format!("not valid JSON: {e}")),
    }
    let top = skip_ws(text.as_bytes(), 0);
    let (top_members, top_close) = members(text, top)?;
    let Some(servers) = top_members.iter().find(|m| m.key == "mcpServers") else {
        // No servers yet: `"mcpServers"` becomes the last member.
        let block = format!(
            "\"mcpServers\": {{\n    {key}: {}\n  }}",
            indented(entry, 4)
        );
        return Ok(match top_members.last() {
            Some(last) => format!(
                "{},\n  {block}{}",
                &text[..last.value_end],
                &text[last.value_end..]
            ),
            None => format!("{}\n  {block}\n{}", &text[..=top], &text[top_close..]),
        });
    };
    if text.as_bytes().get(servers.value_start) != Some(&b'{') {
        return Err("\"mcpServers\" is not an object".to_string());
    }
    let (list, close) = members(text, servers.value_start)?;
    if let Some(existing) = list.iter().find(|m| m.key == name) {
        if !force {
            return Err(format!(
                "it already has a server named '{name}' (add --force to replace it)"
            ));
        }
        return Ok(format!(
            "{}{}{}",
            &text[..existing.value_start],
            indented(entry, 4),
            &text[existing.value_end..]
        ));
    }
    let new = format!("{key}: {}", indented(entry, 4));
    Ok(match list.last() {
        // After the last server, so the others keep their bytes and order.
        Some(last) => format!(
            "{},\n    {new}{}",
            &text[..last.value_end],
            &text[last.value_end..]
        ),
        None => format!(
            "{}\n    {new}\n  {}",
            &text[..servers.value_start + 1],
            &text[close..]
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Value {
        json!({"command": "/bin/lackpy", "args": ["mcp", "serve", "--workspace", "/ws"]})
    }

    #[test]
    fn other_servers_keep_their_bytes() {
        let other = r#"{"command":"npx",  "args":["-y","x"],"env":{"K":"v"}}"#;
        let text = format!("{{\n\t\"mcpServers\" : {{ \"other\": {other} }},\n\t\"x\": 1\n}}\n");
        let new = add_server(Some(&text), "lackpy", &entry(), false).expect("added");
        assert!(new.contains(other), "{new}");
        assert!(
            new.starts_with("{\n\t\"mcpServers\" : { \"other\": "),
            "{new}"
        );
        assert!(new.ends_with("\n\t\"x\": 1\n}\n"), "{new}");
        let v: Value = serde_json::from_str(&new).expect("valid JSON");
        assert_eq!(v["mcpServers"]["lackpy"], entry());
        assert_eq!(v["x"], 1);
        let again = add_server(Some(&new), "lackpy", &entry(), false);
        assert!(again.is_err_and(|e| e.contains("--force")));
        let other_entry = json!({"command": "/other/lackpy"});
        let forced = add_server(Some(&new), "lackpy", &other_entry, true).expect("replaced");
        assert!(forced.contains(other), "{forced}");
        let v: Value = serde_json::from_str(&forced).expect("valid JSON");
        assert_eq!(v["mcpServers"]["lackpy"], other_entry);
    }

    #[test]
    fn new_empty_and_serverless_files() {
        for text in [
            None,
            Some(""),
            Some("{}"),
            Some("{ \"a\": [1] }"),
            Some("{\"mcpServers\": {}}"),
        ] {
            let new = add_server(text, "lackpy", &entry(), false).expect("added");
            let v: Value = serde_json::from_str(&new).unwrap_or_else(|e| panic!("{new}: {e}"));
            assert_eq!(v["mcpServers"]["lackpy"], entry(), "{new}");
        }
        assert!(add_server(Some("[1]"), "lackpy", &entry(), false).is_err());
        assert!(add_server(Some("{bad"), "lackpy", &entry(), false).is_err());
        assert!(add_server(Some("{\"mcpServers\": 1}"), "lackpy", &entry(), false).is_err());
    }
}
