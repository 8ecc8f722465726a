//! The `lackpy` command line: argument parsing and dispatch.
//!
//! Exit codes: 0 success, 1 the program or check failed, 2 usage or
//! configuration error. Errors are one line on stderr, never a backtrace.

mod approval_flags;
mod common;
mod delegate;
mod error;
mod help;
mod init;
mod input;
mod json_splice;
mod log_format;
mod mcp;
mod mcp_init;
mod output;
mod paused;
mod resume;
mod run;
mod runs;
mod spec;
mod status;
mod stub_types;
mod stubs;
mod table;
mod template;
mod tools;
mod tty_approver;
mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use error::{CliError, EXIT_USAGE};

/// lackpy: run tool compositions written in a tiny restricted Python.
#[derive(Debug, Parser)]
#[command(
    name = "lackpy",
    version,
    about = help::ABOUT,
    long_about = help::LONG_ABOUT,
    after_help = help::MAIN,
    propagate_version = true
)]
pub struct Cli {
    /// More logging on stderr (-v progress, -vv debug); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// The workspace directory (default: the current directory); also
    /// accepted after the subcommand, which wins.
    // Global, so `lackpy --workspace DIR run x.lpy` works: clap hands the
    // value down to the subcommand's own `--workspace` of the same id.
    #[arg(long, value_name = "DIR", global = true)]
    pub workspace: Option<std::path::PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate and run a program.
    #[command(after_help = help::RUN)]
    Run(run::RunArgs),
    /// Go on with a paused or interrupted run: approve or deny the call it
    /// waits at.
    #[command(after_help = help::RESUME)]
    Resume(resume::ResumeArgs),
    /// List the resumable runs of the workspace.
    #[command(after_help = help::RUNS)]
    Runs(runs::RunsArgs),
    /// Validate a program against the language whitelist and the tool set.
    #[command(after_help = help::VALIDATE)]
    Validate(validate::ValidateArgs),
    /// List every tool with its signature, grade, policy and source; `tools NAME` shows one whole.
    Tools(tools::ToolsArgs),
    /// Show the workspace, config, limits, tool sources and model providers.
    #[command(after_help = help::STATUS)]
    Status(status::StatusArgs),
    /// Print the language spec.
    Spec(spec::SpecArgs),
    /// Print the namespace's tools as a Python `.pyi` stub file.
    Stubs(stubs::StubsArgs),
    /// Write a commented starter `.lackpy/config.toml`.
    #[command(after_help = help::INIT)]
    Init(init::InitArgs),
    /// Generate a program for an intent (templates, rules, a model) and run it.
    #[command(after_help = help::DELEGATE)]
    Delegate(delegate::DelegateArgs),
    /// Generate a program for an intent and print it, without running it.
    #[command(after_help = help::GENERATE)]
    Generate(delegate::GenerateArgs),
    /// Create or list the templates of the templates tier.
    #[command(after_help = help::TEMPLATE)]
    Template(template::TemplateArgs),
    /// Serve lackpy over MCP, or register it with an agent host.
    #[command(after_help = help::MCP)]
    Mcp(mcp::McpArgs),
}

/// Parses the process arguments and runs the command.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    common::init_logging(cli.verbose);
    let outcome = run(cli);
    common::flush_traces();
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            output::err_line(&format!("error: {}", e.message));
            ExitCode::from(e.code)
        }
    }
}

/// Runs a parsed command line, returning the exit code.
pub fn run(cli: Cli) -> Result<u8, CliError> {
    match cli.command {
        Command::Run(args) => run::run(args, cli.verbose),
        Command::Resume(args) => resume::run(args, cli.verbose),
        Command::Runs(args) => runs::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Tools(args) => tools::run(args),
        Command::Status(args) => status::run(args),
        Command::Spec(args) => spec::run(args),
        Command::Stubs(args) => stubs::run(args),
        Command::Init(args) => init::run(args),
        Command::Delegate(args) => delegate::delegate(args, cli.verbose),
        Command::Generate(args) => delegate::generate(args),
        Command::Template(args) => template::run(args),
        Command::Mcp(args) => mcp::run(args),
    }
}
