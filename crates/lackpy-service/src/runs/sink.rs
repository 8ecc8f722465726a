//! [`JournalFile`]: where a run's journal lines go.
//!
//! A durable run (`--journal`) writes its journal from the start and makes
//! each line durable as it is written (a synced file line, a committed
//! PostgreSQL row), so a `kill -9` loses nothing that completed. Other
//! runs whose namespace has a gated tool keep their lines in memory and
//! store them only when they pause: a run that never pauses touches no
//! store.

use lackpy_bridge::{CallRecord, CallStart, JournalSink};

use super::RunStore;
use super::held::Held;
use super::record::Line;

/// One run's journal.
pub struct JournalFile {
    /// The store it goes to, and the run's id there.
    store: Option<RunStore>,
    run_id: String,
    /// The stored journal, held; `None` while the lines are kept in memory.
    held: Option<Held>,
    /// Lines not yet stored.
    buffer: Vec<u8>,
    /// Make each line durable as it is written.
    sync: bool,
    /// Bytes the journal holds (stored and buffered).
    bytes: u64,
    /// The most it may hold.
    cap: u64,
    /// An in-memory journal that passed its cap: the run goes on, but
    /// cannot be resumed if it pauses.
    overflowed: bool,
}

impl JournalFile {
    /// A journal kept in memory until [`persist`](Self::persist).
    pub fn in_memory(store: &RunStore, run_id: &str, header: &Line) -> Result<JournalFile, String> {
        let mut j = JournalFile {
            store: Some(store.clone()),
            run_id: run_id.to_string(),
            held: None,
            buffer: Vec::new(),
            sync: false,
            bytes: 0,
            cap: store.cap(),
            overflowed: false,
        };
        j.append(header)?;
        Ok(j)
    }

    /// A journal that goes nowhere (a placeholder for one taken out).
    pub fn detached() -> JournalFile {
        JournalFile {
            store: None,
            run_id: String::new(),
            held: None,
            buffer: Vec::new(),
            sync: false,
            bytes: 0,
            cap: 0,
            overflowed: true,
        }
    }

    /// A journal stored (durably) line by line from the start: it is
    /// created, held and holds the header when this returns.
    pub fn durable(store: &RunStore, run_id: &str, header: &Line) -> Result<JournalFile, String> {
        let text = line_text(header)?;
        let held = store.create(run_id, &text)?;
        Ok(JournalFile {
            store: Some(store.clone()),
            run_id: run_id.to_string(),
            held: Some(held),
            buffer: Vec::new(),
            sync: true,
            bytes: text.len() as u64,
            cap: store.cap(),
            overflowed: false,
        })
    }

    /// An existing journal, already held, appended to from its end (a
    /// resumed run).
    pub fn reopened(
        store: &RunStore,
        run_id: &str,
        held: Held,
        bytes: u64,
        sync: bool,
    ) -> JournalFile {
        JournalFile {
            store: Some(store.clone()),
            run_id: run_id.to_string(),
            held: Some(held),
            buffer: Vec::new(),
            sync,
            bytes,
            cap: store.cap(),
            overflowed: false,
        }
    }

    /// Adds one line; over the size cap it is refused.
    pub fn append(&mut self, line: &Line) -> Result<(), String> {
        let text = line_text(line)?;
        let len = text.len() as u64;
        if self.overflowed {
            return Ok(());
        }
        if self.bytes.saturating_add(len) > self.cap {
            if self.held.is_none() && self.bytes > 0 {
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
        match &mut self.held {
            Some(h) => h.write(&text, self.sync)?,
            None => self.buffer.extend_from_slice(&text),
        }
        self.bytes += len;
        Ok(())
    }

    /// Stores a journal kept in memory (durably), keeping it held; a
    /// stored journal is only synced.
    pub fn persist(&mut self) -> Result<(), String> {
        if self.overflowed {
            return Err(format!(
                "its journal passed its cap of {} MiB ([runs] max_journal_mb)",
                self.cap / (1024 * 1024)
            ));
        }
        match (&mut self.held, &self.store) {
            (Some(h), _) => h.sync().map_err(|e| e.to_string()),
            (None, Some(store)) => {
                self.held = Some(store.create(&self.run_id, &self.buffer)?);
                self.buffer = Vec::new();
                Ok(())
            }
            (None, None) => Err("the journal has no store".into()),
        }
    }

    /// Removes the journal (its run finished: nothing to resume).
    pub fn remove(self) {
        if let Some(h) = self.held {
            h.remove();
        }
    }
}

impl JournalSink for JournalFile {
    fn begin(&mut self, start: &CallStart) -> Result<(), String> {
        // Only a stored journal needs to know a call was in flight: one in
        // memory dies with its process.
        if self.held.is_some() {
            self.append(&Line::Begin(start.clone()))
        } else {
            Ok(())
        }
    }

    fn complete(&mut self, record: &CallRecord) -> Result<(), String> {
        self.append(&Line::Call(record.clone()))
    }
}

/// A line as the journal holds it: JSON and a newline.
fn line_text(line: &Line) -> Result<Vec<u8>, String> {
    let mut text =
        serde_json::to_vec(line).map_err(|e| format!("cannot write the journal: {e}"))?;
    text.push(b'\n');
    Ok(text)
}
