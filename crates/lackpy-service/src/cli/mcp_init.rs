//! `lackpy mcp init`: registers `lackpy mcp serve` with an agent host.
//! A host with a workspace file (Claude Code's `.mcp.json`, Cursor's
//! `.cursor/mcp.json`, VS Code's `.vscode/mcp.json`) has it edited in
//! place (one member inserted or replaced, every other byte kept); for
//! Claude Desktop, whose config is per user, the snippet is printed with
//! the file to paste it into.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use super::common::WorkspaceArg;
use super::error::CliError;
use super::json_splice::{members, skip_ws};

/// The hosts whose config shapes lackpy reads (and writes here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Host {
    /// `<workspace>/.mcp.json`, edited in place.
    ClaudeCode,
    /// `claude_desktop_config.json` (per user: printed, with its path).
    ClaudeDesktop,
    /// `<workspace>/.cursor/mcp.json`, edited in place.
    Cursor,
    /// `<workspace>/.vscode/mcp.json`, edited in place.
    Vscode,
}

impl Host {
    /// The member of the config's top object that holds the servers.
    fn servers_key(self) -> &'static str {
        match self {
            Host::Vscode => "servers",
            _ => "mcpServers",
        }
    }

    /// The workspace file this host reads its servers from, if it has one.
    fn workspace_file(self, workspace: &Path) -> Option<PathBuf> {
        match self {
            Host::ClaudeCode => Some(workspace.join(".mcp.json")),
            Host::Cursor => Some(workspace.join(".cursor").join("mcp.json")),
            Host::Vscode => Some(workspace.join(".vscode").join("mcp.json")),
            Host::ClaudeDesktop => None,
        }
    }

    /// The server's entry in this host's shape.
    fn entry(self, command: &Path, workspace: &Path) -> Value {
        let mut e = serde_json::Map::new();
        if self == Host::Vscode {
            e.insert("type".into(), json!("stdio"));
        }
        e.insert("command".into(), json!(command.display().to_string()));
        e.insert(
            "args".into(),
            json!([
                "mcp",
                "serve",
                "--workspace",
                workspace.display().to_string()
            ]),
        );
        Value::Object(e)
    }
}

/// Claude Desktop's config file on this OS (it has no workspace file).
fn claude_desktop_config() -> String {
    if cfg!(target_os = "macos") {
        "~/Library/Application Support/Claude/claude_desktop_config.json".to_string()
    } else if cfg!(windows) {
        "%APPDATA%\\Claude\\claude_desktop_config.json".to_string()
    } else {
        "~/.config/Claude/claude_desktop_config.json".to_string()
    }
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
    /// The host: claude-code (`.mcp.json`), cursor (`.cursor/mcp.json`) and
    /// vscode (`.vscode/mcp.json`) have their workspace file edited;
    /// claude-desktop's snippet is printed with the file it goes in.
    #[arg(long, value_enum, default_value = "claude-code")]
    pub host: Host,
    /// Print the snippet instead of writing the host's file.
    #[arg(long)]
    pub print: bool,
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
    let entry = args.host.entry(&invoked_path()?, &workspace);
    let key = args.host.servers_key();
    let file = args.host.workspace_file(&workspace);
    match file.filter(|_| !args.print) {
        Some(file) => {
            write_entry(&file, key, &args.name, &entry, args.force)?;
            println!("added '{}' to {}", args.name, file.display());
        }
        None => {
            println!("{}", pretty(&json!({key: {args.name.clone(): entry}})));
            if args.host == Host::ClaudeDesktop {
                super::output::err_line(&format!(
                    "add it to \"{key}\" in {} (then restart Claude Desktop)",
                    claude_desktop_config()
                ));
            }
        }
    }
    Ok(0)
}

/// Inserts (or with `force` replaces) server `name` in `file`, creating
/// the file and its folder when missing.
fn write_entry(
    file: &Path,
    key: &str,
    name: &str,
    entry: &Value,
    force: bool,
) -> Result<(), CliError> {
    let old = match std::fs::read_to_string(file) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(CliError::usage(format!(
                "cannot read {}: {e}",
                file.display()
            )));
        }
    };
    let new = add_server(old.as_deref(), key, name, entry, force)
        .map_err(|e| CliError::usage(format!("{}: {e}", file.display())))?;
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::usage(format!("cannot create {}: {e}", dir.display())))?;
    }
    std::fs::write(file, new)
        .map_err(|e| CliError::usage(format!("cannot write {}: {e}", file.display())))
}

/// The path the user ran lackpy by, absolute but with symlinks kept (a
/// `~/.cargo/bin/lackpy` link should survive a reinstall behind it):
/// `argv[0]` against the cwd, or found on `PATH` when it is a bare name;
/// the resolved executable only when neither works.
fn invoked_path() -> Result<PathBuf, CliError> {
    let argv0 = std::env::args_os().next().map(PathBuf::from);
    if let Some(argv0) = argv0.filter(|p| !p.as_os_str().is_empty()) {
        if argv0.components().count() > 1 {
            return absolute(&argv0);
        }
        if let Some(found) = on_path(argv0.as_os_str()) {
            return absolute(&found);
        }
    }
    std::env::current_exe()
        .map_err(|e| CliError::usage(format!("cannot find this binary's path: {e}")))
}

/// The first `PATH` entry holding a file called `name`, as the shell found it.
fn on_path(name: &OsStr) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn absolute(p: &Path) -> Result<PathBuf, CliError> {
    std::path::absolute(p)
        .map_err(|e| CliError::usage(format!("cannot resolve '{}': {e}", p.display())))
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

/// The entry's JSON, indented to sit at `indent` spaces.
fn indented(entry: &Value, indent: usize) -> String {
    pretty(entry).replace('\n', &format!("\n{}", " ".repeat(indent)))
}

/// `text` (a host's config, or none) with server `name` added to its
/// `key` object (`mcpServers`, or VS Code's `servers`); every other byte
/// of the file is kept.
pub fn add_server(
    text: Option<&str>,
    key_name: &str,
    name: &str,
    entry: &Value,
    force: bool,
) -> Result<String, String> {
    let key = serde_json::to_string(name).map_err(|e| e.to_string())?;
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(format!("{}\n", pretty(&json!({key_name: {name: entry}}))));
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(_)) => {}
        Ok(_) => return Err("the file is not a JSON object".to_string()),
        Err(e) => return Err(format!("not valid JSON: {e}")),
    }
    let top = skip_ws(text.as_bytes(), 0);
    let (top_members, top_close) = members(text, top)?;
    let Some(servers) = top_members.iter().find(|m| m.key == key_name) else {
        // No servers yet: the servers object becomes the last member.
        let block = format!(
            "\"{key_name}\": {{\n    {key}: {}\n  }}",
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
        return Err(format!("\"{key_name}\" is not an object"));
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
        let new = add_server(Some(&text), "mcpServers", "lackpy", &entry(), false).expect("added");
        assert!(new.contains(other), "{new}");
        assert!(
            new.starts_with("{\n\t\"mcpServers\" : { \"other\": "),
            "{new}"
        );
        assert!(new.ends_with("\n\t\"x\": 1\n}\n"), "{new}");
        let v: Value = serde_json::from_str(&new).expect("valid JSON");
        assert_eq!(v["mcpServers"]["lackpy"], entry());
        assert_eq!(v["x"], 1);
        let again = add_server(Some(&new), "mcpServers", "lackpy", &entry(), false);
        assert!(again.is_err_and(|e| e.contains("--force")));
        let other_entry = json!({"command": "/other/lackpy"});
        let forced =
            add_server(Some(&new), "mcpServers", "lackpy", &other_entry, true).expect("replaced");
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
            let new = add_server(text, "mcpServers", "lackpy", &entry(), false).expect("added");
            let v: Value = serde_json::from_str(&new).unwrap_or_else(|e| panic!("{new}: {e}"));
            assert_eq!(v["mcpServers"]["lackpy"], entry(), "{new}");
        }
        assert!(add_server(Some("[1]"), "mcpServers", "lackpy", &entry(), false).is_err());
        assert!(add_server(Some("{bad"), "mcpServers", "lackpy", &entry(), false).is_err());
        assert!(
            add_server(
                Some("{\"mcpServers\": 1}"),
                "mcpServers",
                "lackpy",
                &entry(),
                false
            )
            .is_err()
        );
    }

    #[test]
    fn vscode_servers_key() {
        let text =
            "{\"servers\": {\"a\": {\"type\": \"stdio\", \"command\": \"x\"}}, \"inputs\": []}";
        let new = add_server(Some(text), "servers", "lackpy", &entry(), false).expect("added");
        let v: Value = serde_json::from_str(&new).expect("valid JSON");
        assert_eq!(v["servers"]["lackpy"], entry());
        assert_eq!(v["servers"]["a"]["command"], "x");
        assert!(v.get("mcpServers").is_none(), "{new}");
    }
}
