//! Watching the config's files (`lackpy mcp serve --watch`, `[server]
//! watch = true`): `.lackpy/` (the config file, kits, templates; not the
//! journals under `.lackpy/runs/`) and each `[mcp].host_configs` file. A
//! burst of changes is read once, after it settles; a config that cannot
//! be read or is invalid is logged at WARN with its error, and the old
//! inventory stays.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};
use std::time::Duration;

use lackpy_sources::ExpandContext;
use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

use super::error::ServiceError;
use super::inventory::LackpyService;
use super::live::LiveService;

/// How long a change waits for the rest of its burst (an editor's save is
/// often several events: a write, a rename, a chmod).
const SETTLE: Duration = Duration::from_millis(200);

/// What is watched: a path and how.
type Target = (PathBuf, RecursiveMode);

/// Watches the config's files of `live`'s workspace until the service is
/// dropped, reloading the config on each settled burst of changes. Call
/// inside a tokio runtime.
pub fn watch_config(live: &Arc<LiveService>) -> Result<(), ServiceError> {
    let (tx, rx) = mpsc::unbounded_channel::<Vec<PathBuf>>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event {
            let _ = tx.send(event.paths);
        }
    })
    .map_err(|e| ServiceError::Watch(e.to_string()))?;
    let service = live.current();
    let workspace = service.workspace().to_path_buf();
    let mut watched = Vec::new();
    rewatch(&mut watcher, &mut watched, targets(&service));
    if watched.is_empty() {
        return Err(ServiceError::Watch(format!(
            "nothing to watch in {}",
            workspace.display()
        )));
    }
    let task = tokio::spawn(follow(Arc::downgrade(live), watcher, watched, rx));
    live.keep(task);
    Ok(())
}

/// Reloads on each settled burst of relevant changes.
async fn follow(
    live: Weak<LiveService>,
    mut watcher: RecommendedWatcher,
    mut watched: Vec<Target>,
    mut rx: mpsc::UnboundedReceiver<Vec<PathBuf>>,
) {
    while let Some(paths) = rx.recv().await {
        let Some(live) = live.upgrade() else {
            return;
        };
        let service = live.current();
        let root = canonical(service.workspace());
        let hosts = host_files(&service);
        let mut relevant = paths.iter().any(|p| matters(&root, &hosts, p));
        // The rest of the burst.
        tokio::time::sleep(SETTLE).await;
        while let Ok(more) = rx.try_recv() {
            relevant |= more.iter().any(|p| matters(&root, &hosts, p));
        }
        if !relevant {
            continue;
        }
        match live.reload().await {
            Ok(changed) => {
                tracing::debug!(changed, "the config's files changed; read again");
            }
            Err(e) => {
                tracing::warn!(error = %e, "the changed config is not used; the old one stays");
            }
        }
        // The host files may have changed with the config.
        rewatch(&mut watcher, &mut watched, targets(&live.current()));
    }
}

/// `path` with symbolic links and relative parts resolved, as the watcher
/// reports it; as it is when it cannot be resolved.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `[mcp].host_configs` of `service`'s config, as paths (their folders
/// resolved: a file may not exist yet).
fn host_files(service: &LackpyService) -> Vec<PathBuf> {
    let ctx = ExpandContext::from_env(Some(service.workspace().to_path_buf()));
    service
        .config()
        .mcp
        .host_configs
        .iter()
        .filter_map(|f| ctx.expand_path(f).ok())
        .map(|f| match (f.parent(), f.file_name()) {
            (Some(dir), Some(name)) => canonical(dir).join(name),
            _ => f,
        })
        .collect()
}

/// What to watch for `service`: `.lackpy/` whole (or, while there is none,
/// the workspace itself, to see it appear) and each host file's folder.
fn targets(service: &LackpyService) -> Vec<Target> {
    let root = canonical(service.workspace());
    let dot = root.join(".lackpy");
    let mut out = vec![if dot.is_dir() {
        (dot, RecursiveMode::Recursive)
    } else {
        (root, RecursiveMode::NonRecursive)
    }];
    for file in host_files(service) {
        if let Some(dir) = file.parent()
            && dir.is_dir()
            && !out.iter().any(|(p, _)| p == dir)
        {
            out.push((dir.to_path_buf(), RecursiveMode::NonRecursive));
        }
    }
    out
}

/// Watches `want` instead of `watched`; a path that cannot be watched is
/// logged and left out.
fn rewatch(watcher: &mut RecommendedWatcher, watched: &mut Vec<Target>, want: Vec<Target>) {
    for old in watched.iter() {
        if !want.contains(old) {
            let _ = watcher.unwatch(&old.0);
        }
    }
    let mut now = Vec::new();
    for target in want {
        if watched.contains(&target) {
            now.push(target);
            continue;
        }
        match watcher.watch(&target.0, target.1) {
            Ok(()) => now.push(target),
            Err(e) => {
                tracing::warn!(path = %target.0.display(), error = %e, "cannot watch for config changes");
            }
        }
    }
    *watched = now;
}

/// Whether a change of `path` can change the inventory: anything under
/// `.lackpy/` of the (resolved) workspace `workspace` but the run
/// journals, and the host files.
fn matters(workspace: &Path, hosts: &[PathBuf], path: &Path) -> bool {
    let dot = workspace.join(".lackpy");
    (path.starts_with(&dot) && !path.starts_with(dot.join("runs")))
        || hosts.iter().any(|h| h == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journals_do_not_matter_and_the_config_and_host_files_do() {
        let ws = Path::new("/ws");
        let hosts = vec![PathBuf::from("/home/u/.mcp.json")];
        assert!(matters(ws, &hosts, Path::new("/ws/.lackpy/config.toml")));
        assert!(matters(ws, &hosts, Path::new("/ws/.lackpy/kits/a.kit")));
        assert!(matters(ws, &hosts, Path::new("/ws/.lackpy")));
        assert!(matters(ws, &hosts, Path::new("/home/u/.mcp.json")));
        assert!(!matters(ws, &hosts, Path::new("/ws/.lackpy/runs/r1.jsonl")));
        assert!(!matters(ws, &hosts, Path::new("/home/u/other.json")));
        assert!(!matters(ws, &hosts, Path::new("/ws/a.txt")));
    }
}
