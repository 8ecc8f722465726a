//! ARCHITECTURE.md is a map: every path it names must exist.

use std::path::{Path, PathBuf};

/// The workspace root (xtask's parent).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The code spans of `text` that name a file or folder: ones ending in `/`
/// or a file extension, not patterns (`*`, `…`), not run-time paths
/// (`.lackpy/…`) and not Rust paths.
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, span) in text.split('`').enumerate() {
        if i % 2 == 0 || span.contains(['*', '…', ' ', '<', '{', ':']) || span.starts_with('.') {
            continue;
        }
        let has_ext = [".rs", ".py", ".toml", ".md", ".txt", ".sh", ".jsonl"]
            .iter()
            .any(|e| span.ends_with(e));
        if span.ends_with('/') || has_ext {
            out.push(span.to_string());
        }
    }
    out
}

/// Where a path named in the map may be: from the root, a crate, a
/// crate's `src/`, `xtask/`, or a folder of the paths named just before
/// it (a list of a folder's files names them bare).
fn resolve(root: &Path, near: &[PathBuf], path: &str) -> Option<PathBuf> {
    let mut bases = vec![root.to_path_buf(), root.join("xtask")];
    if let Ok(crates) = std::fs::read_dir(root.join("crates")) {
        for c in crates.flatten() {
            bases.push(c.path());
            bases.push(c.path().join("src"));
        }
    }
    bases.extend(near.iter().cloned());
    bases.iter().map(|b| b.join(path)).find(|p| p.exists())
}

/// The paths of `paths` that do not resolve, each tried near the last few
/// before it that did (their folders and those folders' parents).
fn missing(root: &Path, paths: &[String]) -> Vec<String> {
    let mut near: Vec<PathBuf> = Vec::new();
    let mut out = Vec::new();
    for p in paths {
        let Some(found) = resolve(root, &near, p) else {
            out.push(p.clone());
            continue;
        };
        let dir = if found.is_dir() {
            Some(found.clone())
        } else {
            found.parent().map(Path::to_path_buf)
        };
        for d in dir.iter().chain(
            dir.as_deref()
                .and_then(Path::parent)
                .map(Path::to_path_buf)
                .iter(),
        ) {
            near.retain(|n| n != d);
            near.push(d.clone());
        }
        let excess = near.len().saturating_sub(6);
        near.drain(..excess);
    }
    out
}

#[test]
fn every_path_in_the_architecture_map_exists() {
    let root = root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let paths = named_paths(&text);
    assert!(paths.len() > 40, "only {} paths found", paths.len());
    let missing = missing(&root, &paths);
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn the_path_finder_sees_paths_and_skips_the_rest() {
    let found = named_paths(
        "a `value/json.rs` and `parse/`, not `a::b`, `x*.rs`, `.lackpy/runs/` or `--tools`",
    );
    assert_eq!(found, ["value/json.rs", "parse/"]);
    let root = root();
    let named = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        missing(&root, &named(&["no/such/file.rs"])),
        ["no/such/file.rs"]
    );
    // A bare name is looked for beside the path named before it.
    assert!(
        missing(
            &root,
            &named(&["crates/lackpy-lang/src/syntax/parse/", "regions.rs"])
        )
        .is_empty()
    );
    assert_eq!(missing(&root, &named(&["regions.rs"])), ["regions.rs"]);
}
