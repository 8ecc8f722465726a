//! Resumable runs: their journals, in the workspace's `.lackpy/runs/`
//! (the default) or in a PostgreSQL database shared by replicas
//! ([`postgres`]).
//!
//! In the file store a journal is one file per run, `<run_id>.jsonl` (a
//! protected path: programs can neither read nor write it), appended as
//! calls complete. A process working on a run holds a lock on its file
//! (in PostgreSQL: an advisory lock on the run) for as long as it does, so
//! a second resume of the same run finds it busy.

mod files;
pub mod held;
mod load;
pub mod postgres;
pub mod record;
pub mod select;
pub mod sink;
pub mod time;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use load::{LoadedRun, RunState};
use serde::Serialize;

/// The journals of one workspace, or of every replica sharing a database.
#[derive(Debug, Clone)]
pub struct RunStore {
    backend: Backend,
    keep: Duration,
    cap: u64,
}

/// Where journals are kept.
#[derive(Debug, Clone)]
enum Backend {
    /// One file per run in this directory.
    Files(PathBuf),
    /// Rows in a PostgreSQL database.
    Postgres(Arc<postgres::PgStore>),
}

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

/// One resumable run, as `lackpy runs` and `list_runs` show it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RunInfo {
    /// The id to resume it with.
    pub run_id: String,
    /// `paused`, `interrupted` (its process ended between calls),
    /// `in_flight` (its process ended during a call), `running` (a process
    /// holds it), `expired` or `corrupt`.
    pub state: String,
    /// When the run started (RFC 3339, UTC).
    pub created_at: String,
    /// When its journal expires.
    pub expires_at: String,
    /// Completed calls.
    pub calls: usize,
    /// The call it waits at (paused) or was making (in flight).
    pub step: Option<usize>,
    /// That call's tool.
    pub tool: Option<String>,
    /// The policy rule a paused call waits on.
    pub rule: Option<String>,
    /// Why a journal cannot be used (corrupt).
    pub reason: Option<String>,
    /// The program's first line.
    pub program: String,
}

impl RunInfo {
    /// A run with nothing known of it yet but its id.
    pub(crate) fn blank(run_id: &str) -> RunInfo {
        RunInfo {
            run_id: run_id.to_string(),
            state: String::new(),
            created_at: String::new(),
            expires_at: String::new(),
            calls: 0,
            step: None,
            tool: None,
            rule: None,
            reason: None,
            program: String::new(),
        }
    }
}

/// The resumable runs: what `lackpy runs --json` prints and `list_runs`
/// answers.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RunList {
    /// The runs, newest first.
    pub runs: Vec<RunInfo>,
}

impl RunStore {
    /// The store of `workspace`, keeping journals `keep` and capping each at
    /// `cap` bytes.
    pub fn new(workspace: &std::path::Path, keep: Duration, cap: u64) -> RunStore {
        RunStore {
            backend: Backend::Files(workspace.join(".lackpy").join("runs")),
            keep,
            cap,
        }
    }

    /// The store in PostgreSQL `store` (connected and migrated), keeping
    /// journals `keep` and capping each at `cap` bytes.
    pub fn postgres(store: Arc<postgres::PgStore>, keep: Duration, cap: u64) -> RunStore {
        RunStore {
            backend: Backend::Postgres(store),
            keep,
            cap,
        }
    }

    /// The journal cap in bytes.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// How long journals are kept.
    pub fn keep(&self) -> Duration {
        self.keep
    }

    /// Where run `run_id`'s journal file lives (file store). Only ids this
    /// store makes are looked up: anything else is not found (no path can
    /// be smuggled in).
    fn path(&self, run_id: &str) -> Option<PathBuf> {
        match &self.backend {
            Backend::Files(dir) => is_run_id(run_id).then(|| dir.join(format!("{run_id}.jsonl"))),
            Backend::Postgres(_) => None,
        }
    }

    /// A new run id: `r` and 16 hex digits, unique in this store.
    pub fn new_run_id(&self) -> String {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        loop {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            let seed = nanos
                ^ (u64::from(std::process::id()) << 40)
                ^ COUNTER
                    .fetch_add(1, Ordering::Relaxed)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let id = format!("r{:016x}", mix(seed));
            // In PostgreSQL the run's primary key refuses a clash (64
            // random bits: not worth a round trip to look first).
            if matches!(self.backend, Backend::Postgres(_))
                || self.path(&id).is_some_and(|p| !p.exists())
            {
                return id;
            }
        }
    }

    /// Every journal with its state, newest first.
    pub fn list(&self) -> Vec<RunInfo> {
        match &self.backend {
            Backend::Files(dir) => files::list(self, dir),
            Backend::Postgres(pg) => match pg.list() {
                Ok(runs) => runs
                    .into_iter()
                    .map(|r| load::describe(self, &r.run_id, r.written, Ok(r.text), r.running))
                    .collect(),
                Err(e) => {
                    tracing::warn!(error = %e, "cannot list the runs");
                    Vec::new()
                }
            },
        }
    }

    /// Opens run `run_id` for resuming: held, read and checked.
    pub fn open(&self, run_id: &str) -> Result<LoadedRun, RunError> {
        match &self.backend {
            Backend::Files(_) => load::open(self, run_id),
            Backend::Postgres(pg) => {
                if !is_run_id(run_id) {
                    return Err(RunError::NotFound(run_id.to_string()));
                }
                let io = |message| RunError::Io {
                    run_id: run_id.to_string(),
                    message,
                };
                match pg.open(run_id).map_err(io)? {
                    postgres::Opened::Busy => Err(RunError::Busy(run_id.to_string())),
                    postgres::Opened::NotFound => Err(RunError::NotFound(run_id.to_string())),
                    postgres::Opened::Held { run, written, text } => {
                        load::loaded(self, run_id, written, text, held::Held::Postgres(run))
                    }
                }
            }
        }
    }

    /// Stores a new journal for `run_id` holding `text` (whole lines,
    /// durably) and holds it.
    pub fn create(&self, run_id: &str, text: &[u8]) -> Result<held::Held, String> {
        match &self.backend {
            Backend::Files(_) => {
                let Some(path) = self.path(run_id) else {
                    return Err(format!("'{run_id}' is not a run id"));
                };
                files::create(path, text).map_err(|e| e.to_string())
            }
            Backend::Postgres(pg) => pg
                .create(run_id, text, time::now_secs())
                .map(held::Held::Postgres),
        }
    }
}

/// Whether `s` has the shape of a run id (`r` + 16 lowercase hex digits).
pub fn is_run_id(s: &str) -> bool {
    s.len() == 17
        && s.starts_with('r')
        && s[1..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A 64-bit mix (splitmix64's finaliser): ids look unrelated.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
