//! `lackpy tools`: every tool with its provenance.

use clap::Args;
use lackpy_service::PolicyView;
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
    let (listing, policies, json) = block_on(async {
        let service = start_service(workspace).await?;
        let l = service.tools();
        let policies: Vec<Option<PolicyView>> = l
            .iter()
            .map(|t| service.tool_policy(&t.name, None))
            .collect();
        let json = service.tools_json(None);
        service.shutdown().await;
        Ok::<_, CliError>((l, policies, json?))
    })??;
    if args.json {
        print_json(&json)?;
    } else {
        super::output::out(&render(&listing, &policies));
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

/// What the policy says of a tool, with the rule: `needs approval
/// ([policy] approve_above (2, 1))`; `-` for a tool it does not judge
/// (an unavailable one).
fn policy_cell(p: Option<&PolicyView>) -> String {
    match p {
        Some(PolicyView {
            state,
            rule: Some(rule),
        }) => format!("{state} ({rule})"),
        Some(PolicyView { state, rule: None }) => (*state).to_string(),
        None => "-".to_string(),
    }
}

/// The table `lackpy tools` prints; `policies[i]` is what the policy says
/// of `listing[i]`.
pub fn render(listing: &[ToolListing], policies: &[Option<PolicyView>]) -> String {
    let mut rows = vec![
        [
            "name",
            "provider",
            "source",
            "prec",
            "grade",
            "policy",
            "available",
            "shadows",
        ]
        .map(String::from),
    ];
    for (i, t) in listing.iter().enumerate() {
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
            policy_cell(policies.get(i).and_then(Option::as_ref)),
            available,
            if shadows.is_empty() {
                "-".to_string()
            } else {
                shadows.join("; ")
            },
        ]);
    }
    super::table::render(&rows)
}
