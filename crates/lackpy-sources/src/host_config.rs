//! Reading other MCP hosts' config files (`[mcp].host_configs`): pure
//! parsing into [`McpServerDescriptor`]s for the MCP client.
//!
//! Shapes read: Claude Desktop / Claude Code / Cursor (`{"mcpServers": {…}}`),
//! VS Code (`{"servers": {…}, "inputs": […]}`, also nested under `"mcp"` as
//! in `settings.json`; `type` is required there), and a bare object of
//! servers. Comments and trailing commas (VS Code's JSONC) are accepted.
//! Variables are expanded in command, args, env, cwd, url and headers. A
//! server that needs what cannot be supplied (a host input, an unset
//! variable without default, the legacy SSE transport) is skipped with a
//! WARN naming the file, the server and why; an unreadable file is a WARN
//! and the next file still loads. Only regular files of at most
//! [`MAX_HOST_CONFIG_BYTES`] are read: a FIFO or a device fails at once.
//! File *i* gets precedence `max(1, 4 − i)` (files past the fourth all 1,
//! ordered by position: the earlier file wins) and provenance `host:<file>`.

use std::path::{Path, PathBuf};

use lackpy_lang::Data;

use crate::bounded_file::read_regular;
use crate::expand::{ExpandContext, ExpandError};
use crate::mcp_server::{McpServerDescriptor, McpTransport, Provenance, expand_pairs};
use crate::precedence::Precedence;

/// The largest host config read: 16 MiB (some hosts keep history in theirs).
pub const MAX_HOST_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// A server a host file defines that will not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedServer {
    /// The file.
    pub file: PathBuf,
    /// The server's key in it.
    pub server: String,
    /// Why it is skipped.
    pub reason: String,
}

/// A host file that could not be used at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableFile {
    /// The file (as configured when it could not even be expanded).
    pub file: PathBuf,
    /// Why.
    pub reason: String,
}

/// Everything read from the host config files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostServers {
    /// Usable servers, file by file, in file order.
    pub servers: Vec<McpServerDescriptor>,
    /// Servers skipped, with reasons.
    pub skipped: Vec<SkippedServer>,
    /// Files that could not be read or parsed.
    pub unreadable: Vec<UnreadableFile>,
}

/// Reads every file of `[mcp].host_configs`, in order (`~` and `${VAR}`
/// expanded in the paths; relative paths are taken from the workspace).
pub fn read_host_configs(paths: &[String], ctx: &ExpandContext) -> HostServers {
    let mut out = HostServers::default();
    for (index, configured) in paths.iter().enumerate() {
        let file = match ctx.expand_path(configured) {
            Ok(f) => f,
            Err(e) => {
                let reason = format!("cannot expand the path: {e}");
                tracing::warn!(file = %configured, %reason, "host MCP config skipped");
                out.unreadable.push(UnreadableFile {
                    file: PathBuf::from(configured),
                    reason,
                });
                continue;
            }
        };
        let text = match read_regular(&file, MAX_HOST_CONFIG_BYTES)
            .map_err(std::io::Error::from)
            .and_then(|b| {
                String::from_utf8(b)
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
            }) {
            Ok(t) => t,
            Err(e) => {
                let reason = format!("cannot read it: {e}");
                tracing::warn!(file = %file.display(), %reason, "host MCP config skipped");
                out.unreadable.push(UnreadableFile { file, reason });
                continue;
            }
        };
        match parse_host_config(&text, &file, Precedence::host_config(index), ctx) {
            Ok((servers, skipped)) => {
                out.skipped.extend(skipped);
                if std::env::var_os(MCP_PARENT_ENV).is_some() {
                    let reason = format!(
                        "this lackpy was started as an MCP server by another lackpy ({MCP_PARENT_ENV} is set), so it starts no host config servers"
                    );
                    for d in servers {
                        tracing::warn!(file = %file.display(), server = %d.id, %reason, "host MCP server skipped");
                        out.skipped.push(SkippedServer {
                            file: file.clone(),
                            server: d.id,
                            reason: reason.clone(),
                        });
                    }
                } else {
                    out.servers.extend(servers);
                }
            }
            Err(reason) => {
                tracing::warn!(file = %file.display(), %reason, "host MCP config skipped");
                out.unreadable.push(UnreadableFile { file, reason });
            }
        }
    }
    out
}

/// The shapes a host file comes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `mcpServers`: Claude Desktop, Claude Code, Cursor.
    McpServers,
    /// `servers` (+ `inputs`): VS Code.
    VsCode,
    /// A bare object of servers.
    Bare,
}

/// Parses one host file's text; `Err` when it is not a JSON object.
pub fn parse_host_config(
    text: &str,
    file: &Path,
    precedence: Precedence,
    ctx: &ExpandContext,
) -> Result<(Vec<McpServerDescriptor>, Vec<SkippedServer>), String> {
    // Our own reader keeps the file's key order (ties go to the later server).
    let value = Data::from_json(&strip_jsonc(text)).map_err(|e| format!("not valid JSON: {e}"))?;
    let Data::Dict(root) = value else {
        return Err("not a JSON object".to_string());
    };
    let (shape, servers) = if let Some(Data::Dict(s)) = field(&root, "mcpServers") {
        (Shape::McpServers, s.clone())
    } else if let Some(Data::Dict(s)) = field(&root, "servers") {
        (Shape::VsCode, s.clone())
    } else if let Some(Data::Dict(s)) = field(&root, "mcp").and_then(|m| match m {
        Data::Dict(m) => field(m, "servers"),
        _ => None,
    }) {
        (Shape::VsCode, s.clone())
    } else {
        (Shape::Bare, root.clone())
    };
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for (id, cfg) in &servers {
        let Data::Str(id) = id else { continue };
        match server(id, cfg, shape, file, precedence, ctx) {
            Ok(d) => found.push(d),
            Err(reason) => {
                tracing::warn!(file = %file.display(), server = %id, %reason, "host MCP server skipped");
                skipped.push(SkippedServer {
                    file: file.to_path_buf(),
                    server: id.to_string(),
                    reason,
                });
            }
        }
    }
    Ok((found, skipped))
}

/// An object's entries.
type Object = [(Data, Data)];

fn field<'a>(obj: &'a Object, key: &str) -> Option<&'a Data> {
    obj.iter()
        .find(|(k, _)| matches!(k, Data::Str(s) if s == key))
        .map(|(_, v)| v)
}

fn string_list(cfg: &Object, key: &str) -> Result<Vec<String>, String> {
    match field(cfg, key) {
        None | Some(Data::None) => Ok(Vec::new()),
        Some(Data::List(items)) => items
            .iter()
            .map(|v| match v {
                Data::Str(s) => Ok(s.clone()),
                _ => Err(format!("`{key}` must hold strings")),
            })
            .collect(),
        Some(_) => Err(format!("`{key}` must be a list of strings")),
    }
}

fn string_map(cfg: &Object, key: &str) -> Result<Vec<(String, String)>, String> {
    match field(cfg, key) {
        None | Some(Data::None) => Ok(Vec::new()),
        Some(Data::Dict(m)) => m
            .iter()
            .map(|(k, v)| {
                let k = match k {
                    Data::Str(k) => k.clone(),
                    _ => return Err(format!("`{key}` has a key that is not a string")),
                };
                match v {
                    Data::Str(s) => Ok((k, s.clone())),
                    Data::Int(n) => Ok((k, n.to_string())),
                    Data::Bool(b) => Ok((k, b.to_string())),
                    _ => Err(format!("`{key}.{k}` must be a string")),
                }
            })
            .collect(),
        Some(_) => Err(format!("`{key}` must be an object of strings")),
    }
}

fn string_field(cfg: &Object, key: &str) -> Result<Option<String>, String> {
    match field(cfg, key) {
        None | Some(Data::None) => Ok(None),
        Some(Data::Str(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`{key}` must be a string")),
    }
}

fn why(e: &ExpandError) -> String {
    e.to_string()
}

fn server(
    id: &str,
    cfg: &Data,
    shape: Shape,
    file: &Path,
    precedence: Precedence,
    ctx: &ExpandContext,
) -> Result<McpServerDescriptor, String> {
    let Data::Dict(cfg) = cfg else {
        return Err("its entry is not an object".to_string());
    };
    let cfg = cfg.as_slice();
    if field(cfg, "disabled") == Some(&Data::Bool(true))
        || field(cfg, "enabled") == Some(&Data::Bool(false))
    {
        return Err("it is disabled in the host config".to_string());
    }
    if field(cfg, "envFile").is_some() {
        return Err("it needs `envFile`, which is not supported".to_string());
    }
    let command = string_field(cfg, "command")?;
    let url = string_field(cfg, "url")?;
    let kind = string_field(cfg, "type")?;
    let is_http = match kind.as_deref() {
        Some("stdio") => false,
        Some("http" | "streamable-http" | "streamableHttp") => true,
        Some("sse") => return Err("the legacy SSE transport is not supported".to_string()),
        Some(other) => return Err(format!("unknown type '{other}'")),
        None if shape == Shape::VsCode => {
            return Err("VS Code servers need a `type`".to_string());
        }
        // Like lackpy: a `url` makes it an http server.
        None => match (&command, &url) {
            (_, Some(_)) => true,
            (Some(_), None) => false,
            (None, None) => return Err("it has neither `command` nor `url`".to_string()),
        },
    };
    let transport = if is_http {
        let Some(url) = url else {
            return Err("an http server needs `url`".to_string());
        };
        McpTransport::Http {
            url: ctx.expand(&url).map_err(|e| why(&e))?,
            headers: expand_pairs(&string_map(cfg, "headers")?, ctx).map_err(|e| why(&e))?,
        }
    } else {
        let Some(command) = command else {
            return Err("a stdio server needs `command`".to_string());
        };
        let cwd = match string_field(cfg, "cwd")? {
            Some(c) => Some(ctx.expand_path(&c).map_err(|e| why(&e))?),
            None => ctx.workspace().map(Path::to_path_buf),
        };
        McpTransport::Stdio {
            command: ctx.expand_tilde(&command).map_err(|e| why(&e))?,
            args: string_list(cfg, "args")?
                .iter()
                .map(|a| ctx.expand_tilde(a))
                .collect::<Result<_, _>>()
                .map_err(|e| why(&e))?,
            env: expand_pairs(&string_map(cfg, "env")?, ctx).map_err(|e| why(&e))?,
            cwd,
        }
    };
    if let McpTransport::Stdio {
        command, args, cwd, ..
    } = &transport
        && let Some(reason) = launches_lackpy(command, args, cwd.as_deref())
    {
        return Err(reason);
    }
    Ok(McpServerDescriptor {
        id: id.to_string(),
        transport,
        provenance: Provenance::Host(file.to_path_buf()),
        precedence,
        connect_timeout: None,
        call_timeout: None,
        include: None,
        exclude: Vec::new(),
        tool_overrides: Vec::new(),
    })
}

/// The variable lackpy sets (to `1`) for every MCP server it starts; a
/// lackpy that finds it set starts no host config servers.
pub const MCP_PARENT_ENV: &str = "LACKPY_MCP_PARENT";

/// Why a host config's stdio entry would start lackpy itself, if it
/// would: its command is this executable (found as the OS would find it,
/// links resolved), or it reads `lackpy … mcp serve`. Such an entry would
/// start its own host configs again, and so on.
fn launches_lackpy(command: &str, args: &[String], cwd: Option<&Path>) -> Option<String> {
    let named_lackpy = Path::new(command)
        .file_name()
        .is_some_and(|n| n == "lackpy");
    let serves = args.windows(2).any(|w| w[0] == "mcp" && w[1] == "serve");
    if named_lackpy && serves {
        return Some(
            "it starts `lackpy … mcp serve`, which would start its host configs again".to_string(),
        );
    }
    let me = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .ok()?;
    let found = resolve_command(command, cwd)?;
    (found == me).then(|| {
        "it starts this lackpy executable itself, which would start its host configs again"
            .to_string()
    })
}

/// Where the OS would find `command`: a path (relative to `cwd`), or the
/// first executable of that name on `PATH`; links resolved.
fn resolve_command(command: &str, cwd: Option<&Path>) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let is_exe = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if command.contains('/') {
        let path = match cwd {
            Some(dir) if Path::new(command).is_relative() => dir.join(command),
            _ => PathBuf::from(command),
        };
        return std::fs::canonicalize(path).ok();
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(command))
        .find(|p| is_exe(p))
        .and_then(|p| std::fs::canonicalize(p).ok())
}

/// Removes `//` and `/* */` comments and trailing commas outside strings,
/// so JSONC reads as JSON.
fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => {
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    if n == '\n' {
                        out.push('\n');
                    }
                    prev = n;
                }
            }
            '}' | ']' => {
                // Drop a comma left dangling before the closing bracket.
                let trimmed = out.trim_end().len();
                if out[..trimmed].ends_with(',') {
                    out.truncate(trimmed - 1);
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_becomes_json() {
        let text = "{\n // c\n \"a\": \"x//y\", /* b */ \"b\": [1, 2,],\n}";
        let v: Result<serde_json::Value, _> = serde_json::from_str(&strip_jsonc(text));
        assert_eq!(v.ok(), Some(serde_json::json!({"a": "x//y", "b": [1, 2]})));
    }
}
