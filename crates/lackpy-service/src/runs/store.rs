//! [`RunStore`]: where the journals are (a folder, or a PostgreSQL
//! database), how long they are kept, how large they may grow, and the
//! ids of new runs. Reading and creating a journal go to its backend
//! (`mod.rs`), through `files.rs` and `load.rs` for the folder.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::postgres;

/// The journals of one workspace, or of every replica sharing a database.
#[derive(Debug, Clone)]
pub struct RunStore {
    pub(super) backend: Backend,
    keep: Duration,
    cap: u64,
}

/// Where journals are kept.
#[derive(Debug, Clone)]
pub(super) enum Backend {
    /// One file per run in this directory.
    Files(PathBuf),
    /// Rows in a PostgreSQL database.
    Postgres(Arc<postgres::PgStore>),
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
    pub(super) fn path(&self, run_id: &str) -> Option<PathBuf> {
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
