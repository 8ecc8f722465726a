//! `lackpy runs`: the workspace's resumable runs.

use clap::Args;
use lackpy_service::runs::{RunInfo, RunList};

use super::common::{WorkspaceArg, block_on, print_json, start_service};
use super::error::CliError;

/// Arguments of `lackpy runs`.
#[derive(Debug, Args)]
pub struct RunsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print `{"runs": [...]}` instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy runs`.
pub fn run(args: RunsArgs) -> Result<u8, CliError> {
    let workspace = args.workspace.path()?;
    let runs = block_on(async {
        let service = start_service(workspace).await?;
        let runs = service.runs();
        service.shutdown().await;
        Ok::<_, CliError>(runs)
    })??;
    if args.json {
        print_json(&RunList { runs })?;
    } else {
        super::output::out(&render(&runs));
    }
    Ok(0)
}

/// The table `lackpy runs` prints, newest first.
pub fn render(runs: &[RunInfo]) -> String {
    if runs.is_empty() {
        return "no resumable runs\n".to_string();
    }
    let mut rows = vec![["run", "state", "at", "created", "expires", "program"].map(String::from)];
    for r in runs {
        let at = match (r.step, &r.tool) {
            (Some(step), Some(tool)) => format!("step {step} {tool}"),
            _ => "-".to_string(),
        };
        // A corrupt journal has no program to show; why it is corrupt helps more.
        let program = match &r.reason {
            Some(reason) if r.program.is_empty() => format!("({reason})"),
            _ => r.program.clone(),
        };
        rows.push([
            r.run_id.clone(),
            r.state.clone(),
            at,
            dash(&r.created_at),
            dash(&r.expires_at),
            program,
        ]);
    }
    super::table::render(&rows)
}

fn dash(s: &str) -> String {
    if s.is_empty() {
        "-".to_string()
    } else {
        s.to_string()
    }
}
