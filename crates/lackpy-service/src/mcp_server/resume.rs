//! `resume_run`: a paused or interrupted run resumed for a client, admitted,
//! stopped and reporting progress like `run_program`; and the words MCP
//! callers see when a run cannot be resumed.

use rmcp::model::{CallToolResult, ErrorData};
use rmcp::service::{RequestContext, RoleServer};
use tokio_util::sync::CancellationToken;

use super::run::{execution_result, supervise};
use super::shared::Shared;
use crate::service::Resume;

/// Resumes one run for a client. A run another resume (or process) holds
/// answers `Busy`, as a full queue does; a run that cannot be resumed
/// (unknown, expired, corrupt, waiting for a decision) is an `isError`
/// result naming it.
pub(super) async fn resume_run(
    shared: &Shared,
    session: &CancellationToken,
    request: Resume,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let service = &shared.live.current();
    supervise(
        shared,
        session,
        context,
        |control| service.resume(Resume { control, ..request }),
        execution_result,
        super::run::busy,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::super::run::error_message;
    use crate::runs::RunError;
    use crate::service::ServiceError;

    #[test]
    fn run_errors_name_the_mcp_tools() {
        let id = "r0123456789abcdef".to_string();
        insta::assert_snapshot!(
            error_message(&ServiceError::Run(RunError::NotFound(id.clone()))),
            @"no resumable run 'r0123456789abcdef' (list_runs shows the runs that can be resumed)"
        );
        insta::assert_snapshot!(
            error_message(&ServiceError::Run(RunError::NeedsDecision(id))),
            @"run 'r0123456789abcdef' waits for an approval: call resume_run with approve true (the call runs) or false (it is refused)"
        );
    }
}
