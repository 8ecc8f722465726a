//! `lackpy status`: the workspace, config, limits and tools.

use clap::Args;

use super::common::{WorkspaceArg, block_on, print_json, start_service};
use super::error::CliError;
use lackpy_service::Status;

/// Arguments of `lackpy status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy status`.
pub fn run(args: StatusArgs) -> Result<u8, CliError> {
    let workspace = args.workspace.path()?;
    let status = block_on(async {
        let service = start_service(workspace).await?;
        let s = service.status_probed().await;
        service.shutdown().await;
        Ok::<_, CliError>(s)
    })??;
    if args.json {
        print_json(&status)?;
    } else {
        super::output::out(&render(&status));
    }
    Ok(0)
}

/// The text `lackpy status` prints.
pub fn render(s: &Status) -> String {
    let mut out = String::new();
    out.push_str(&format!("workspace:   {}\n", s.workspace));
    // The warnings themselves were logged on stderr as the file was read:
    // printed again here, each would show twice.
    let warned = match s.config_warnings.len() {
        0 => String::new(),
        1 => " (1 warning, on stderr)".to_string(),
        n => format!(" ({n} warnings, on stderr)"),
    };
    out.push_str(&format!(
        "config:      {}{warned}\n",
        s.config_file.as_deref().unwrap_or("none (defaults)")
    ));
    out.push_str(&format!(
        "profile:     {}\n",
        s.default_profile
            .as_deref()
            .unwrap_or("none (every available tool)")
    ));
    if !s.profiles.is_empty() {
        out.push_str(&format!("profiles:    {}\n", s.profiles.join(", ")));
    }
    let l = &s.limits;
    out.push_str(&format!(
        "limits:      timeout {} ms, {} steps, {} MiB memory, depth {}, stdout {} KiB, \
         trace {} entries\n",
        l.timeout_ms,
        l.max_steps,
        l.max_memory_bytes / (1024 * 1024),
        l.max_depth,
        l.max_stdout_bytes / 1024,
        l.max_trace_entries
    ));
    out.push_str(&format!(
        "tools:       {} available of {}\n",
        s.tools_available, s.tools_total
    ));
    out.push_str(&format!(
        "inventory:   version {}, since {}\n",
        s.inventory.version, s.inventory.changed_at
    ));
    if s.mcp_servers.is_empty() && s.skipped_mcp_servers.is_empty() {
        out.push_str("mcp servers: none configured\n");
    } else {
        out.push_str("mcp servers:\n");
        for m in &s.mcp_servers {
            let state = serde_json::to_value(m.state)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
            let detail = match &m.reason {
                Some(reason) => format!("{state}: {reason}"),
                None => format!(
                    "{state}, {} tool{}, protocol {}",
                    m.tools.len(),
                    if m.tools.len() == 1 { "" } else { "s" },
                    m.protocol_version.as_deref().unwrap_or("?")
                ),
            };
            out.push_str(&format!(
                "  {:<16} {} ({}) {detail}\n",
                m.id, m.transport, m.provenance
            ));
        }
    }
    for k in &s.skipped_mcp_servers {
        out.push_str(&format!(
            "  {:<16} skipped ({}): {}\n",
            k.server, k.file, k.reason
        ));
    }
    if s.providers.is_empty() {
        out.push_str("providers:   none configured (templates and rules only)\n");
    } else {
        out.push_str("providers:\n");
        for p in &s.providers {
            let state = match (p.available, p.reachable) {
                (false, _) => format!("unavailable: {}", p.reason.as_deref().unwrap_or("")),
                (true, Some(true)) => "reachable".to_string(),
                (true, Some(false)) => {
                    format!("unreachable: {}", p.reason.as_deref().unwrap_or(""))
                }
                (true, None) => "not checked".to_string(),
            };
            let endpoint = match (&p.base_url, &p.model) {
                (Some(url), Some(model)) => format!("{url} {model} "),
                _ => String::new(),
            };
            out.push_str(&format!("  {:<16} {endpoint}{state}\n", p.name));
        }
    }
    out
}
