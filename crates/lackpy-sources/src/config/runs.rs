//! `[runs]` (ours): whether runs are journaled, and for how long.

use serde::Deserialize;

use super::values::positive;

/// `[runs]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct RunsSection {
    /// Journal every run, so it survives a restart.
    pub journal: bool,
    /// Journals expire after this many hours.
    #[serde(deserialize_with = "positive")]
    pub keep_hours: Option<u64>,
    /// A run's journal is capped at this many MiB.
    #[serde(deserialize_with = "positive")]
    pub max_journal_mb: Option<u64>,
}

impl RunsSection {
    /// Journals kept when `keep_hours` is absent: a day.
    pub const DEFAULT_KEEP_HOURS: u64 = 24;
    /// A journal's cap when `max_journal_mb` is absent.
    pub const DEFAULT_MAX_JOURNAL_MB: u64 = 64;

    /// `keep_hours`, or its default.
    pub fn keep_hours(&self) -> u64 {
        self.keep_hours.unwrap_or(Self::DEFAULT_KEEP_HOURS)
    }

    /// `max_journal_mb`, or its default.
    pub fn max_journal_mb(&self) -> u64 {
        self.max_journal_mb.unwrap_or(Self::DEFAULT_MAX_JOURNAL_MB)
    }
}
