//! `lackpy resume`: go on with a paused or interrupted run.

use clap::Args;
use lackpy_bridge::Decision;

use super::approval_flags::{FlagApprover, interactive};
use super::common::{WorkspaceArg, block_on, start_service};
use super::error::{CliError, EXIT_FAILED};
use super::run::print_result;
use lackpy_service::{ApproverHandle, Resume, Variables};

/// Arguments of `lackpy resume`.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The run's id (`lackpy runs` lists them).
    #[arg(value_name = "RUN_ID")]
    pub run_id: String,
    /// Approve the call the paused run waits at.
    #[arg(long, conflicts_with = "deny")]
    pub approve: bool,
    /// Refuse the call the paused run waits at (it raises PermissionError).
    #[arg(long)]
    pub deny: bool,
    /// Call again the call that was in flight when the run's process died,
    /// even when its tool may have had effects (effects ceiling 2 or more).
    #[arg(long)]
    pub retry_in_flight: bool,
    /// Approve every later call that needs approval, without asking.
    #[arg(long)]
    pub yes: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print the ExecutionResult as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy resume`.
pub fn run(args: ResumeArgs, verbose: u8) -> Result<u8, CliError> {
    // Later gates are asked as `run` asks them; `--deny` is only this
    // call's answer.
    let approver = if args.yes {
        Some(ApproverHandle::new(FlagApprover(Decision::Approve)))
    } else {
        interactive()
    };
    let request = Resume {
        run_id: args.run_id.clone(),
        approve: match (args.approve, args.deny) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        by: "flag".to_string(),
        retry_in_flight: args.retry_in_flight,
        approver,
        variables: if args.json {
            Variables::Collect
        } else {
            Variables::Omit
        },
        // A signal ends the whole process (`common.rs`).
        control: Default::default(),
    };
    let workspace = args.workspace.path()?;
    let result = block_on(async {
        let service = start_service(workspace).await?;
        let r = service.resume(request).await;
        service.shutdown().await;
        Ok::<_, CliError>(r?)
    })??;
    print_result(
        &result,
        args.json,
        verbose > 0,
        args.workspace.workspace.as_deref(),
    );
    Ok(if result.success { 0 } else { EXIT_FAILED })
}
