//! `lackpy validate`: check a program without running it.

use clap::Args;
use lackpy_lang::Validation;

use lackpy_service::ValidationReport;

use super::common::{WorkspaceArg, block_on, print_json, start_service};
use super::error::{CliError, EXIT_FAILED};
use super::input::{NamespaceArgs, read_program};

/// Arguments of `lackpy validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The program file; `-` or nothing reads stdin.
    pub file: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub namespace: NamespaceArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy validate`.
pub fn run(args: ValidateArgs) -> Result<u8, CliError> {
    let program = read_program(args.file.as_deref())?;
    let rules = args.namespace.rules()?;
    let params = args.namespace.params()?;
    let tools = args.namespace.tool_list();
    let workspace = args.workspace.path()?;
    let result = block_on(async {
        let service = start_service(workspace).await?;
        let v = match &program {
            Ok(text) => service.validate_report(
                text,
                tools.as_deref(),
                args.namespace.profile.as_deref(),
                &params,
                &rules,
            ),
            // Not UTF-8: invalid, as any program that does not parse.
            Err(e) => service
                .validate_report(
                    "",
                    tools.as_deref(),
                    args.namespace.profile.as_deref(),
                    &params,
                    &rules,
                )
                .map(|r| ValidationReport {
                    validation: Validation::unparsed(e),
                    ..r
                }),
        };
        service.shutdown().await;
        Ok::<_, CliError>(v?)
    })??;
    if args.json {
        print_json(&result)?;
    } else if result.validation.valid {
        super::output::out_line("valid");
        for g in &result.needs_approval {
            super::output::out_line(&format!("needs approval: {} ({})", g.tool, g.rule));
        }
    } else {
        for e in &result.validation.errors {
            super::output::out_line(&e.to_string());
        }
    }
    Ok(if result.validation.valid {
        0
    } else {
        EXIT_FAILED
    })
}
