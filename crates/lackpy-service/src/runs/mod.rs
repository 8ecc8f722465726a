//! Resumable runs: their journals, in the workspace's `.lackpy/runs/`
//! (the default) or in a PostgreSQL database shared by replicas
//! ([`postgres`]).
//!
//! In the file store a journal is one file per run, `<run_id>.jsonl` (a
//! protected path: programs can neither read nor write it), appended as
//! calls complete. A process working on a run holds a lock on its file
//! (in PostgreSQL: an advisory lock on the run) for as long as it does, so
//! a second resume of the same run finds it busy.

mod error;
mod files;
pub mod held;
mod info;
mod load;
pub mod postgres;
pub mod record;
pub mod select;
pub mod sink;
mod store;
pub mod time;

pub use error::RunError;
pub use info::{RunInfo, RunList};
pub use load::{LoadedRun, RunState};
pub use store::{RunStore, is_run_id};

use store::Backend;

// Reading and creating a journal go to the store's backend: the folder's
// through `files.rs` and `load.rs`, which read the store's settings
// (`store.rs`); so this dispatch is here, above all three.

impl RunStore {
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
