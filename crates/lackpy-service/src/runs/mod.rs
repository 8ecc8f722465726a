//! Resumable runs: their journals under `<workspace>/.lackpy/runs/`.
//!
//! A journal is one file per run, `<run_id>.jsonl` (a protected path:
//! programs can neither read nor write it), appended as calls complete.
//! A process working on a run holds a lock on its file for as long as it
//! does, so a second resume of the same run finds it busy.

mod load;
pub mod record;
pub mod sink;
pub mod time;

use std::path::PathBuf;
use std::time::Duration;

pub use load::{LoadedRun, RunState};
use serde::Serialize;

/// The journals of one workspace.
#[derive(Debug, Clone)]
pub struct RunStore {
    dir: PathBuf,
    keep: Duration,
    cap: u64,
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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

impl RunStore {
    /// The store of `workspace`, keeping journals `keep` and capping each at
    /// `cap` bytes.
    pub fn new(workspace: &std::path::Path, keep: Duration, cap: u64) -> RunStore {
        RunStore {
            dir: workspace.join(".lackpy").join("runs"),
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

    /// Where run `run_id`'s journal lives. Only ids this store makes are
    /// looked up: anything else is not found (no path can be smuggled in).
    pub fn path(&self, run_id: &str) -> Option<PathBuf> {
        is_run_id(run_id).then(|| self.dir.join(format!("{run_id}.jsonl")))
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
            if self.path(&id).is_some_and(|p| !p.exists()) {
                return id;
            }
        }
    }

    /// Every journal with its state, newest first.
    pub fn list(&self) -> Vec<RunInfo> {
        let mut out: Vec<(std::time::SystemTime, RunInfo)> = Vec::new();
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".jsonl")) else {
                continue;
            };
            if !is_run_id(id) {
                continue;
            }
            let mtime = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            out.push((mtime, load::info(self, id)));
        }
        out.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.run_id.cmp(&b.1.run_id)));
        out.into_iter().map(|(_, i)| i).collect()
    }

    /// Opens run `run_id` for resuming: locked, read and checked.
    pub fn open(&self, run_id: &str) -> Result<LoadedRun, RunError> {
        load::open(self, run_id)
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
