//! `[runs]` (ours): whether runs are journaled, for how long, and where.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

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
    /// Where journals live: absent (or `files`) for the workspace's
    /// `.lackpy/runs/`, or a `postgres://user@host:port/db` URL for a
    /// store shared by replicas. A password is refused here: it comes from
    /// the environment only.
    #[serde(deserialize_with = "run_store")]
    pub store: Option<String>,
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

/// Why `url` cannot name a run store, if it cannot; `allow_password`
/// lets a URL from the environment carry one.
pub fn check_run_store(url: &str, allow_password: bool) -> Result<(), String> {
    if url == "files" {
        return Ok(());
    }
    let Some(rest) = url
        .strip_prefix("postgres://")
        .or_else(|| url.strip_prefix("postgresql://"))
    else {
        return Err("expected `files` or a postgres://user@host:port/db URL".into());
    };
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    let in_userinfo = authority
        .rsplit_once('@')
        .is_some_and(|(userinfo, _)| userinfo.contains(':'));
    if !allow_password && (in_userinfo || rest.contains("password=")) {
        return Err(
            "the URL holds a password: set it in PGPASSWORD or LACKPY_RUNS_STORE_PASSWORD instead"
                .into(),
        );
    }
    Ok(())
}

/// `store`: `files` or a PostgreSQL URL without a password.
fn run_store<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("`files` or a postgres://user@host:port/db URL")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<String>, E> {
            check_run_store(v, false).map_err(E::custom)?;
            Ok(Some(v.to_string()))
        }
    }
    d.deserialize_str(V)
}
