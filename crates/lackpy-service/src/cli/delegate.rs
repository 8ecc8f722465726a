//! `lackpy delegate` and `lackpy generate`: a program for an intent, run
//! (delegate) or only printed (generate).

use std::time::Duration;

use clap::Args;

use super::approval_flags::ApprovalArgs;
use super::common::{WorkspaceArg, block_on, print_json, start_service};
use super::error::{CliError, EXIT_FAILED};
use super::input::NamespaceArgs;
use super::output;
use super::run::{print_error, print_output, trace_summary};
use lackpy_service::Delegate;
use lackpy_service::delegate::TierErrors;

/// What `delegate` and `generate` share: the intent and the namespace.
#[derive(Debug, Args)]
pub struct IntentArgs {
    /// What the program should do, in words.
    pub intent: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub namespace: NamespaceArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
}

impl IntentArgs {
    fn request(&self, timeout: Option<u64>) -> Result<Delegate, CliError> {
        Ok(Delegate {
            intent: self.intent.clone(),
            tools: self.namespace.tool_list(),
            profile: self.namespace.profile.clone(),
            params: self.namespace.params()?,
            rules: self.namespace.rules()?,
            timeout: timeout.map(Duration::from_millis),
            approver: None,
            // A signal ends the whole process (`common.rs`).
            control: Default::default(),
        })
    }
}

/// Arguments of `lackpy delegate`.
#[derive(Debug, Args)]
pub struct DelegateArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub intent: IntentArgs,
    /// Wall-clock limit for the run, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub timeout: Option<u64>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub approval: ApprovalArgs,
    /// Print the delegate result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `lackpy generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub intent: IntentArgs,
    /// Print `{success, program, provider, generation_time_ms, …}` as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy delegate`.
pub fn delegate(args: DelegateArgs, verbose: u8) -> Result<u8, CliError> {
    let request = Delegate {
        approver: args.approval.approver(),
        ..args.intent.request(args.timeout)?
    };
    let workspace = args.intent.workspace.path()?;
    let result = block_on(async {
        let service = start_service(workspace).await?;
        let r = service.delegate(request).await;
        service.shutdown().await;
        Ok::<_, CliError>(r?)
    })??;
    super::tty_approver::leave_abandoned_prompt();
    if args.json {
        output::out_json(|w| result.write_json(w));
    } else {
        match (&result.program, result.run()) {
            (Some(program), Some(run)) => {
                let tier = result.generation_tier.as_deref().unwrap_or("?");
                let corrections = match result.correction_attempts {
                    0 => String::new(),
                    1 => ", 1 correction".to_string(),
                    n => format!(", {n} corrections"),
                };
                output::out_line(&format!("── program ({tier}{corrections}) ──"));
                output::out_line(program);
                output::out_line("── output ──");
                print_output(run);
                if verbose > 0 {
                    output::err(&trace_summary(run));
                }
                print_error(run, args.intent.workspace.workspace.as_deref());
            }
            _ => print_not_generated(&result.generation_errors),
        }
    }
    Ok(if result.success() { 0 } else { EXIT_FAILED })
}

/// Runs `lackpy generate`.
pub fn generate(args: GenerateArgs) -> Result<u8, CliError> {
    let request = args.intent.request(None)?;
    let workspace = args.intent.workspace.path()?;
    let result = block_on(async {
        let service = start_service(workspace).await?;
        let r = service.generate(&request).await;
        service.shutdown().await;
        Ok::<_, CliError>(r?)
    })??;
    if args.json {
        print_json(&result)?;
    } else {
        match &result.program {
            Some(program) => output::out_line(program),
            None => print_not_generated(&result.generation_errors),
        }
    }
    Ok(if result.success { 0 } else { EXIT_FAILED })
}

/// Why no tier yielded a program: one line per tier and error, on stderr.
fn print_not_generated(tiers: &[TierErrors]) {
    output::err_line("error: no tier generated a valid program");
    for t in tiers {
        for e in &t.errors {
            output::err_line(&format!("  {}: {e}", t.tier));
        }
    }
}
