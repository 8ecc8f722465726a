//! `lackpy run`: validate and run a program.

use std::path::Path;
use std::time::Duration;

use clap::Args;
use lackpy_bridge::ExecutionResult;
use lackpy_lang::{ExceptionKind, Grade};

use super::approval_flags::ApprovalArgs;
use super::common::{WorkspaceArg, block_on, start_service};
use super::error::{CliError, EXIT_FAILED};
use super::input::{NamespaceArgs, read_program};
use super::{output, paused, tty_approver};
use lackpy_service::{RunProgram, Teardown, Variables};

/// Arguments of `lackpy run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The program file; `-` or nothing reads stdin.
    pub file: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub namespace: NamespaceArgs,
    /// Wall-clock limit for the run, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub timeout: Option<u64>,
    /// Trace entries kept, the first half and the last half (default:
    /// `[limits] max_trace_entries`, 10000).
    #[arg(long, value_name = "N")]
    pub max_trace_entries: Option<usize>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub approval: ApprovalArgs,
    /// Journal the run call by call, so it can be resumed after a crash
    /// (`lackpy resume`).
    #[arg(long)]
    pub journal: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print the ExecutionResult as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy run`.
pub fn run(args: RunArgs, verbose: u8) -> Result<u8, CliError> {
    let program = match read_program(args.file.as_deref()) {
        Ok(p) => p,
        Err(e) if args.json => {
            // A script reading `--json` gets its object for this failure too.
            let r = ExecutionResult::failed(
                e.error_type,
                e.message.clone(),
                Grade::PURE,
                Duration::ZERO,
            );
            output::out_json(|w| r.write_json(w));
            return Err(e.into());
        }
        Err(e) => return Err(e.into()),
    };
    let (program, undecodable) = match program {
        Ok(text) => (text, None),
        Err(e) => (String::new(), Some(e)),
    };
    let request = RunProgram {
        program,
        tools: args.namespace.tool_list(),
        profile: args.namespace.profile.clone(),
        params: args.namespace.params()?,
        rules: args.namespace.rules()?,
        timeout: args.timeout.map(Duration::from_millis),
        max_trace_entries: args.max_trace_entries,
        // Only the JSON result shows the variables: without `--json` they
        // would be written for nobody.
        variables: if args.json {
            Variables::Collect
        } else {
            Variables::Omit
        },
        // The process exits once the result is printed: freeing the
        // program's values one by one first would only delay that.
        teardown: Teardown::AtExit,
        output_value: false,
        approver: args.approval.approver(),
        journal: args.journal,
        // A signal ends the whole process (`common.rs`).
        control: Default::default(),
    };
    let workspace = args.workspace.path()?;
    let result = block_on(async {
        let service = start_service(workspace).await?;
        let r = match &undecodable {
            Some(e) => service.rejected_program(&request, e),
            None => service.run_program(request).await,
        };
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

/// Prints a run's result as `run` and `resume` do: the JSON object, or
/// the human form (`workspace`, when given, goes into a paused run's
/// resume hint).
pub(super) fn print_result(
    r: &ExecutionResult,
    json: bool,
    with_trace: bool,
    workspace: Option<&Path>,
) {
    tty_approver::leave_abandoned_prompt();
    if json {
        // Python's JSON text (NaN/Infinity included), as lackpy prints it.
        output::out_json(|w| r.write_json(w));
    } else {
        print_human(r, with_trace, workspace);
    }
}

/// Prints what the program printed, then its output (a string as is,
/// anything else as Python's `repr`); errors and the trace go to stderr.
fn print_human(r: &ExecutionResult, with_trace: bool, workspace: Option<&Path>) {
    print_output(r);
    if with_trace {
        output::err(&trace_summary(r));
    }
    print_error(r, workspace);
}

/// What the program printed, then its output: a string as is, anything
/// else as Python's `repr`.
pub(super) fn print_output(r: &ExecutionResult) {
    output::out(&r.stdout);
    match (&r.output, &r.output_repr) {
        (Some(text), _) if text.as_str().starts_with('"') => match text.as_string() {
            Some(s) => output::out_line(&s),
            None => output::out_line(text.as_str()),
        },
        (Some(_), Some(repr)) => output::out_line(repr),
        _ => {}
    }
}

/// A failed run's error, with its line, on stderr; a paused run's call,
/// rule and resume command.
pub(super) fn print_error(r: &ExecutionResult, workspace: Option<&Path>) {
    if let Some(p) = &r.paused {
        output::err_line(&paused::message(p, workspace));
    } else if !r.success {
        let kind = r.error_type.as_deref().unwrap_or("Error");
        let msg = r.error.as_deref().unwrap_or("");
        match r.error_line {
            // A validation message names its lines itself.
            Some(line) if kind != ExceptionKind::ValidationError.name() => {
                output::err_line(&format!("error: {kind}: {msg} (line {line})"));
            }
            _ => output::err_line(&format!("error: {kind}: {msg}")),
        }
    }
}

/// One line per tool call: step, call, outcome, time; under the trace's
/// cap, one line in place of the calls it left out.
pub fn trace_summary(r: &ExecutionResult) -> String {
    let calls = r
        .trace_dropped
        .as_ref()
        .map_or(r.trace.len(), |d| d.total_calls);
    let mut s = format!(
        "trace: {} tool call{} in {:.1} ms\n",
        calls,
        if calls == 1 { "" } else { "s" },
        r.duration.as_secs_f64() * 1000.0
    );
    for e in &r.trace {
        if let Some(d) = &r.trace_dropped
            && e.step == d.last_step + 1
        {
            s.push_str(&dropped_line(d));
        }
        let args: Vec<String> = e
            .args
            .iter()
            .map(|(k, v)| format!("{k}={}", short(&v.py_repr())))
            .collect();
        let outcome = match (&e.result, &e.error) {
            (_, Some(err)) => format!("error: {}", short(err)),
            (Some(v), None) => short(&v.py_repr()),
            (None, None) => "None".to_string(),
        };
        s.push_str(&format!(
            "  {:>3} {}({}) -> {} [{:.1} ms]\n",
            e.step,
            e.tool,
            args.join(", "),
            outcome,
            e.duration.as_secs_f64() * 1000.0
        ));
    }
    // A cap of 0 keeps no entry to put the line before.
    if let Some(d) = &r.trace_dropped
        && r.trace.last().is_none_or(|e| e.step < d.first_step)
    {
        s.push_str(&dropped_line(d));
    }
    s
}

/// The line standing for the calls a capped trace left out.
fn dropped_line(d: &lackpy_lang::TraceDropped) -> String {
    let tools: Vec<String> = d
        .by_tool
        .iter()
        .map(|t| format!("{} {}", t.tool, t.dropped))
        .collect();
    let ms: f64 = d
        .by_tool
        .iter()
        .map(|t| t.duration.as_secs_f64())
        .sum::<f64>()
        * 1000.0;
    format!(
        "  ... {} call{} left out (steps {}-{}): {} [{:.1} ms]\n",
        d.dropped,
        if d.dropped == 1 { "" } else { "s" },
        d.first_step,
        d.last_step,
        tools.join(", "),
        ms
    )
}

fn short(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}…")
    }
}
