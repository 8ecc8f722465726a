//! [`Held`]: a stored journal this process holds (so no other process can
//! resume its run), in whichever store keeps it.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;

use super::postgres::PgRun;
use super::time::now_secs;

/// A journal held by this process.
#[derive(Debug)]
pub enum Held {
    /// A file under `.lackpy/runs/`, open and locked.
    File {
        /// Where it is.
        path: PathBuf,
        /// The open, locked file.
        file: File,
    },
    /// A run in the PostgreSQL store, its advisory lock held.
    Postgres(PgRun),
}

impl Held {
    /// Appends whole lines; `sync` makes them durable before returning (a
    /// PostgreSQL append is committed, so durable, either way).
    pub fn write(&mut self, text: &[u8], sync: bool) -> Result<(), String> {
        match self {
            Held::File { path, file } => {
                file.write_all(text)
                    .map_err(|e| format!("cannot write the journal {}: {e}", path.display()))?;
                if sync {
                    file.sync_data()
                        .map_err(|e| format!("cannot sync the journal {}: {e}", path.display()))?;
                }
                Ok(())
            }
            Held::Postgres(run) => run.append(text, now_secs()),
        }
    }

    /// Makes what was written durable.
    pub fn sync(&mut self) -> std::io::Result<()> {
        match self {
            Held::File { file, .. } => file.sync_data(),
            Held::Postgres(_) => Ok(()),
        }
    }

    /// Deletes the journal (its run finished) and lets the run go.
    pub fn remove(self) {
        match self {
            Held::File { path, file } => {
                let _ = std::fs::remove_file(&path);
                drop(file);
            }
            Held::Postgres(run) => {
                if let Err(e) = run.remove() {
                    tracing::warn!(error = %e, "a finished run could not be removed");
                }
            }
        }
    }
}
