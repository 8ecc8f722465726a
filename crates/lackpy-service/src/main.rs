//! The `lackpy` command.
#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    lackpy_service::cli::main()
}
