//! Which store a service keeps its journals in: `LACKPY_RUNS_STORE` if
//! set, else `[runs] store`, else the workspace's files.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use lackpy_sources::RunsSection;

use super::RunStore;
use super::postgres::{PASSWORD_VARS, PgStore};

/// The variable that names the store, over the config.
pub const STORE_VAR: &str = "LACKPY_RUNS_STORE";

/// The store for `workspace` under `runs`, reading the environment through
/// `env`. A PostgreSQL store is connected and migrated here (a blocking
/// call); an error names the store.
pub fn open_store(
    workspace: &Path,
    runs: &RunsSection,
    env: impl Fn(&str) -> Option<String>,
) -> Result<RunStore, String> {
    let keep = Duration::from_secs(runs.keep_hours().saturating_mul(3600));
    let cap = runs.max_journal_mb().saturating_mul(1024 * 1024);
    let url = match env(STORE_VAR).filter(|v| !v.is_empty()) {
        Some(url) => {
            // From the environment a URL may carry its password.
            lackpy_sources::check_run_store(&url, true).map_err(|e| format!("{STORE_VAR}: {e}"))?;
            Some(url)
        }
        None => runs.store.clone(),
    };
    match url.as_deref() {
        None | Some("files") => Ok(RunStore::new(workspace, keep, cap)),
        Some(url) => {
            let password = PASSWORD_VARS
                .iter()
                .find_map(|v| env(v).filter(|p| !p.is_empty()));
            let pg: Arc<PgStore> = PgStore::start(url, password)?;
            Ok(RunStore::postgres(pg, keep, cap))
        }
    }
}
