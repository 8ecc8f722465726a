//! The file store's own parts: listing `.lackpy/runs/` and creating a
//! journal file, locked.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::held::Held;
use super::info::RunInfo;
use super::load;
use super::store::{RunStore, is_run_id};

/// Every journal file in `dir` with its state, newest first.
pub(super) fn list(store: &RunStore, dir: &Path) -> Vec<RunInfo> {
    let mut out: Vec<(std::time::SystemTime, RunInfo)> = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
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
        out.push((mtime, load::info(store, id)));
    }
    out.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.run_id.cmp(&b.1.run_id)));
    out.into_iter().map(|(_, i)| i).collect()
}

/// Creates a new journal file holding `text` (never over an existing
/// one), locked and synced.
pub(super) fn create(path: PathBuf, text: &[u8]) -> std::io::Result<Held> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create_new(true)
        .open(&path)?;
    file.try_lock()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    file.write_all(text)?;
    file.sync_data()?;
    sync_dir(&path);
    Ok(Held::File { path, file })
}

/// Syncs the directory entry of a new file (best effort: a crash right
/// after creating it must still find it).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}
