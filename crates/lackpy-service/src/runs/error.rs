//! [`RunError`]: why a run's journal cannot be used.

/// Why a journal cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// No journal of that id.
    #[error("no resumable run '{0}' (see `lackpy runs`)")]
    NotFound(String),
    /// The journal is older than `[runs] keep_hours`.
    #[error(
        "run '{run_id}' has expired: its journal was last written {at} and journals are kept {hours} hours ([runs] keep_hours)"
    )]
    Expired {
        /// The run.
        run_id: String,
        /// When its journal was last written.
        at: String,
        /// `[runs] keep_hours`.
        hours: u64,
    },
    /// The journal cannot be read as one.
    #[error("run '{run_id}' cannot be resumed: its journal is corrupt ({reason})")]
    Corrupt {
        /// The run.
        run_id: String,
        /// What is wrong, with the line.
        reason: String,
    },
    /// Another process (or resume) holds the run.
    #[error("run '{0}' is busy: another process is running or resuming it")]
    Busy(String),
    /// A call was in flight when the run's process ended, and it may have
    /// had effects.
    #[error(
        "run '{run_id}' was calling {tool} (grade ({w}, {d})) when its process ended, so that call may or may not have happened; resume with --retry-in-flight (MCP: retry_in_flight) to call it again"
    )]
    InFlight {
        /// The run.
        run_id: String,
        /// The call's tool.
        tool: String,
        /// Its grade.
        w: u8,
        /// Its grade.
        d: u8,
    },
    /// A paused run resumed without a decision.
    #[error("run '{0}' waits for an approval: approve or deny it (--approve / --deny)")]
    NeedsDecision(String),
    /// The journal could not be read or written.
    #[error("run '{run_id}': {message}")]
    Io {
        /// The run.
        run_id: String,
        /// What failed.
        message: String,
    },
}
