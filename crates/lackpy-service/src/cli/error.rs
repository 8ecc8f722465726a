//! How a command fails: [`CliError`], one line for stderr and the exit
//! code (0 success, [`EXIT_FAILED`], [`EXIT_USAGE`]).

use lackpy_service::ServiceError;

/// Exit code for a failed program or check.
pub const EXIT_FAILED: u8 = 1;
/// Exit code for a usage or configuration error.
pub const EXIT_USAGE: u8 = 2;

/// A failure that ends the command: its message and exit code.
#[derive(Debug)]
pub struct CliError {
    /// One line for stderr.
    pub message: String,
    /// The process exit code.
    pub code: u8,
}

impl CliError {
    /// A usage or configuration error (exit 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: EXIT_USAGE,
        }
    }
}

impl From<ServiceError> for CliError {
    fn from(e: ServiceError) -> CliError {
        CliError::usage(e.message_for("--tools"))
    }
}
