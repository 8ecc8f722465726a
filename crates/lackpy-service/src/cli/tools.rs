//! `lackpy tools`: every tool with its provenance.

use clap::Args;
use lackpy_sources::{CandidateInfo, Precedence, ToolListing};

use super::CliError;
use super::common::{WorkspaceArg, block_on, print_json, start_service};

/// Arguments of `lackpy tools`.
#[derive(Debug, Args)]
pub struct ToolsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy tools`.
pub fn run(args: ToolsArgs) -> Result<u8, CliError> {
    let workspace = args.workspace.path()?;
    let (listing, json) = block_on(async {
        let service = start_service(workspace).await?;
        let l = service.tools();
        let json = service.tools_json(None);
        service.shutdown().await;
        Ok::<_, CliError>((l, json?))
    })??;
    if args.json {
        print_json(&json)?;
    } else {
        super::output::out(&render(&listing));
    }
    Ok(0)
}

fn precedence(p: &Precedence) -> String {
    serde_json::to_value(p)
        .map(|v| match v {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        })
        .unwrap_or_default()
}

fn candidate(c: &CandidateInfo) -> String {
    format!(
        "{} ({}, {})",
        c.source,
        c.provider,
        precedence(&c.precedence)
    )
}

/// The table `lackpy tools` prints.
pub fn render(listing: &[ToolListing]) -> String {
    let mut rows = vec![[
        "name".to_string(),
        "provider".to_string(),
        "source".to_string(),
        "prec".to_string(),
        "grade".to_string(),
        "available".to_string(),
        "shadows".to_string(),
    ]];
    for t in listing {
        let shown = t.winner().or_else(|| t.candidates.first());
        let Some(c) = shown else { continue };
        let available = if t.available() {
            "yes".to_string()
        } else {
            format!(
                "no: {}",
                c.unavailable_reason.as_deref().unwrap_or("unavailable")
            )
        };
        let shadows: Vec<String> = t.shadows().iter().map(candidate).collect();
        rows.push([
            t.name.clone(),
            c.provider.to_string(),
            c.source.clone(),
            precedence(&c.precedence),
            format!("({}, {})", c.grade.w, c.grade.d),
            available,
            if shadows.is_empty() {
                "-".to_string()
            } else {
                shadows.join("; ")
            },
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}
