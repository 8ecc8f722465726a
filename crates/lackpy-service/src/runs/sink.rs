//! [`JournalFile`]: where a run's journal lines go.
//!
//! A durable run (`--journal`) writes its file from the start and syncs
//! each line to disk as it is written, so a `kill -9` loses nothing that
//! completed. Other runs whose namespace has a gated tool keep their lines
//! in memory and write the file only when they pause: a run that never
//! pauses touches no disk.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use lackpy_bridge::{CallRecord, CallStart, JournalSink};

use super::record::Line;

/// One run's journal.
pub struct JournalFile {
    path: PathBuf,
    /// The open, locked file; `None` while the lines are kept in memory.
    file: Option<File>,
    /// Lines not yet in the file.
    buffer: Vec<u8>,
    /// Sync each line to disk as it is written.
    sync: bool,
    /// Bytes the journal holds (file and buffer).
    bytes: u64,
    /// The most it may hold.
    cap: u64,
    /// An in-memory journal that passed its cap: the run goes on, but
    /// cannot be resumed if it pauses.
    overflowed: bool,
}

impl JournalFile {
    /// A journal kept in memory until [`persist`](Self::persist).
    pub fn in_memory(path: PathBuf, header: &Line, cap: u64) -> Result<JournalFile, String> {
        let mut j = JournalFile {
            path,
            file: None,
            buffer: Vec::new(),
            sync: false,
            bytes: 0,
            cap,
            overflowed: false,
        };
        j.append(header)?;
        Ok(j)
    }

    /// A journal that goes nowhere (a placeholder for one taken out).
    pub fn detached() -> JournalFile {
        JournalFile {
            path: PathBuf::new(),
            file: None,
            buffer: Vec::new(),
            sync: false,
            bytes: 0,
            cap: 0,
            overflowed: true,
        }
    }

    /// A journal written (and synced) line by line from the start: the
    /// file is created, locked and holds the header when this returns.
    pub fn durable(path: PathBuf, header: &Line, cap: u64) -> std::io::Result<JournalFile> {
        let file = create_locked(&path)?;
        let mut j = JournalFile {
            path,
            file: Some(file),
            buffer: Vec::new(),
            sync: true,
            bytes: 0,
            cap,
            overflowed: false,
        };
        j.append(header).map_err(std::io::Error::other)?;
        sync_dir(&j.path);
        Ok(j)
    }

    /// An existing journal, already open and locked, appended to from its
    /// end (a resumed run).
    pub fn reopened(path: PathBuf, file: File, bytes: u64, sync: bool, cap: u64) -> JournalFile {
        JournalFile {
            path,
            file: Some(file),
            buffer: Vec::new(),
            sync,
            bytes,
            cap,
            overflowed: false,
        }
    }

    /// Adds one line; over the size cap it is refused.
    pub fn append(&mut self, line: &Line) -> Result<(), String> {
        let mut text =
            serde_json::to_vec(line).map_err(|e| format!("cannot write the journal: {e}"))?;
        text.push(b'\n');
        let len = text.len() as u64;
        if self.overflowed {
            return Ok(());
        }
        if self.bytes.saturating_add(len) > self.cap {
            if self.file.is_none() && self.bytes > 0 {
                // Only a pause needs these lines: the run is not stopped
                // for them, it just cannot be resumed.
                self.overflowed = true;
                self.buffer = Vec::new();
                return Ok(());
            }
            return Err(format!(
                "the run's journal would pass its cap of {} MiB ([runs] max_journal_mb)",
                self.cap / (1024 * 1024)
            ));
        }
        match &mut self.file {
            Some(f) => {
                f.write_all(&text).map_err(|e| {
                    format!("cannot write the journal {}: {e}", self.path.display())
                })?;
                if self.sync {
                    f.sync_data().map_err(|e| {
                        format!("cannot sync the journal {}: {e}", self.path.display())
                    })?;
                }
            }
            None => self.buffer.extend_from_slice(&text),
        }
        self.bytes += len;
        Ok(())
    }

    /// Writes a journal kept in memory to its file (synced), keeping the
    /// file open and locked; a file journal is only synced.
    pub fn persist(&mut self) -> std::io::Result<()> {
        if self.overflowed {
            return Err(std::io::Error::other(format!(
                "its journal passed its cap of {} MiB ([runs] max_journal_mb)",
                self.cap / (1024 * 1024)
            )));
        }
        match &mut self.file {
            Some(f) => f.sync_data(),
            None => {
                let mut f = create_locked(&self.path)?;
                f.write_all(&self.buffer)?;
                f.sync_data()?;
                sync_dir(&self.path);
                self.buffer = Vec::new();
                self.file = Some(f);
                Ok(())
            }
        }
    }

    /// Removes the journal (its run finished: nothing to resume).
    pub fn remove(self) {
        if self.file.is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl JournalSink for JournalFile {
    fn begin(&mut self, start: &CallStart) -> Result<(), String> {
        // Only a file journal needs to know a call was in flight: one in
        // memory dies with its process.
        if self.file.is_some() {
            self.append(&Line::Begin(start.clone()))
        } else {
            Ok(())
        }
    }

    fn complete(&mut self, record: &CallRecord) -> Result<(), String> {
        self.append(&Line::Call(record.clone()))
    }
}

/// Creates a new journal file (never over an existing one) and locks it.
fn create_locked(path: &Path) -> std::io::Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let f = OpenOptions::new()
        .read(true)
        .append(true)
        .create_new(true)
        .open(path)?;
    f.try_lock()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(f)
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
