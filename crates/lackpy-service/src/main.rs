//! The `lackpy` command.
#![forbid(unsafe_code)]

use std::process::ExitCode;

// The command line lives in the binary, not the library: clap, the tracing
// subscriber and the terminal output are the `lackpy` tool's, not an
// embedder's.
mod cli;

fn main() -> ExitCode {
    cli::main()
}
