//! The layering guard.
//!
//! The workspace is a stack: each crate may depend only on crates above it,
//! and the language crate at the top must stay pure (no async runtime, no
//! network, no process spawning), even transitively. This reads
//! `cargo metadata` and reports every edge that breaks those rules. Inside
//! `lackpy-lang`, the top-level modules form layers of their own
//! ([`modules`]); every path that names a later layer is reported too.

pub mod circles;
pub mod modules;

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The layer stack, top (most basic) first.
pub const STACK: &[&str] = &[
    "lackpy-lang",
    "lackpy-sources",
    "lackpy-bridge",
    "lackpy-mcp-client",
    "lackpy-service",
    "lackpy-py",
];

/// Crates of the stack that no workspace crate may depend on, not even
/// for tests: the Python extension module (`lackpy-py`) is a product
/// built on the service, never a library for the others.
pub const LEAVES: &[&str] = &["lackpy-py"];

/// Workspace crates for tests only (test servers and helpers, never
/// published): a crate of the stack, the pure one included, may reach them
/// as a dev-dependency only.
pub const TEST_ONLY: &[&str] = &["lackpy-test-support"];

/// The pure crate that must reach nothing on [`DENY_FOR_LANG`].
pub const PURE_CRATE: &str = "lackpy-lang";

/// Packages `lackpy-lang` may not depend on, directly or transitively:
/// async runtimes and executors, networking, process spawning.
pub const DENY_FOR_LANG: &[&str] = &[
    "tokio",
    "tokio-util",
    "tokio-stream",
    "rmcp",
    "reqwest",
    "hyper",
    "hyper-util",
    "h2",
    "mio",
    "socket2",
    "futures",
    "futures-executor",
    "futures-util",
    "async-std",
    "async-io",
    "async-executor",
    "async-process",
    "smol",
    "ureq",
    "curl",
    "nix",
    "duct",
    "subprocess",
    "tracing-subscriber",
];

/// Runs `cargo metadata` (for `manifest`, or the current workspace) and checks it.
pub fn check_manifest(manifest: Option<&str>) -> Result<String, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = Command::new(cargo);
    cmd.args(["metadata", "--format-version", "1"]);
    if let Some(m) = manifest {
        cmd.args(["--manifest-path", m]);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("check-layers: cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "check-layers: cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let metadata: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("check-layers: cargo metadata printed invalid JSON: {e}"))?;
    check(&metadata)
}

/// Checks parsed `cargo metadata` output: the layer table on success, every
/// violation (one per line) on failure.
pub fn check(metadata: &Value) -> Result<String, String> {
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let members: HashSet<&str> = metadata["workspace_members"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    // id -> name, for the resolve graph.
    let names: HashMap<&str, &str> = packages
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let member_names: HashSet<&str> = members
        .iter()
        .filter_map(|id| names.get(id).copied())
        .collect();

    let mut violations = Vec::new();
    let mut table = Vec::new();
    for p in &packages {
        let (Some(id), Some(name)) = (p["id"].as_str(), p["name"].as_str()) else {
            continue;
        };
        if !members.contains(id) {
            continue;
        }
        let layer = STACK.iter().position(|s| *s == name);
        let mut ws_deps = Vec::new();
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let Some(dep) = d["name"].as_str() else {
                continue;
            };
            if !member_names.contains(dep) {
                continue;
            }
            let kind = d["kind"].as_str().unwrap_or("normal");
            // A dev edge is marked: it is not part of the stack.
            ws_deps.push(if kind == "dev" {
                format!("{dep} (dev)")
            } else {
                dep.to_string()
            });
            let dep_layer = STACK.iter().position(|s| *s == dep);
            if LEAVES.contains(&dep) {
                violations.push(format!(
                    "layer violation: {name} -> {dep} ({kind}): {dep} is a leaf of the stack; no crate may depend on it"
                ));
            } else if TEST_ONLY.contains(&dep) {
                // The pure crate too: its tests may use the test helpers
                // (the seeded RNG), its library may not.
                if kind != "dev" && layer.is_some() {
                    violations.push(format!(
                        "layer violation: {name} -> {dep} ({kind}): {dep} is for tests only; depend on it as a dev-dependency"
                    ));
                }
            } else if name == PURE_CRATE {
                violations.push(format!(
                    "layer violation: {name} -> {dep} ({kind}): {PURE_CRATE} may depend on no workspace crate"
                ));
            } else if let (Some(l), Some(dl)) = (layer, dep_layer) {
                if dl >= l {
                    violations.push(format!(
                        "layer violation: {name} -> {dep} ({kind}): {dep} is at layer {dl}, below {name} at layer {l}; a crate may depend only on crates above it"
                    ));
                }
            } else if dep_layer.is_none() && layer.is_some() {
                violations.push(format!(
                    "layer violation: {name} -> {dep} ({kind}): {dep} is not in the layer stack"
                ));
            }
        }
        if let Some(l) = layer {
            table.push((l, name.to_string(), ws_deps));
        }
    }

    // Module layers inside the crates that have them.
    let mut module_reports = Vec::new();
    for rules in modules::MODULE_RULES {
        let Some(src_dir) = lib_src_dir(&packages, &members, rules.package) else {
            continue;
        };
        match modules::read_sources(&src_dir) {
            Ok(sources) => {
                let found = modules::check_sources(rules, &sources);
                if found.is_empty() {
                    module_reports.push(modules::describe(rules, sources.len()));
                }
                violations.extend(found);
            }
            Err(e) => violations.push(e),
        }
    }

    // Transitive purity of the language crate, through the resolve graph.
    if let Some(lang_id) = names
        .iter()
        .find(|(_, n)| **n == PURE_CRATE)
        .map(|(id, _)| *id)
    {
        for path in denied_paths(metadata, &names, lang_id) {
            violations.push(format!(
                "purity violation: {} (denied for {PURE_CRATE}: async, network or process crates)",
                path.join(" -> ")
            ));
        }
    }

    if !violations.is_empty() {
        return Err(format!(
            "check-layers failed:\n  {}",
            violations.join("\n  ")
        ));
    }
    table.sort();
    let mut out = String::from("layer  crate               depends on\n");
    for (l, name, deps) in table {
        let deps = if deps.is_empty() {
            "-".to_string()
        } else {
            deps.join(", ")
        };
        let _ = writeln!(out, "{l:<6} {name:<19} {deps}");
    }
    for line in module_reports {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "check-layers: ok ({PURE_CRATE} reaches none of {} denied crates)",
        DENY_FOR_LANG.len()
    );
    Ok(out)
}

/// The source directory of a workspace member's library target.
fn lib_src_dir(packages: &[Value], members: &HashSet<&str>, name: &str) -> Option<PathBuf> {
    let package = packages.iter().find(|p| {
        p["name"].as_str() == Some(name) && p["id"].as_str().is_some_and(|id| members.contains(id))
    })?;
    let target = package["targets"].as_array()?.iter().find(|t| {
        t["kind"]
            .as_array()
            .is_some_and(|k| k.iter().any(|k| k.as_str() == Some("lib")))
    })?;
    Some(
        Path::new(target["src_path"].as_str()?)
            .parent()?
            .to_path_buf(),
    )
}

/// Every shortest path from `root` to a denied package, following normal and
/// build edges, plus the root's own dev edges (they are built for its tests).
fn denied_paths(metadata: &Value, names: &HashMap<&str, &str>, root: &str) -> Vec<Vec<String>> {
    let nodes: HashMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|n| Some((n["id"].as_str()?, n)))
                .collect()
        })
        .unwrap_or_default();
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut seen: HashSet<&str> = HashSet::from([root]);
    let mut queue = VecDeque::from([root]);
    let mut found = Vec::new();
    while let Some(id) = queue.pop_front() {
        let Some(node) = nodes.get(id) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let Some(dep_id) = dep["pkg"].as_str() else {
                continue;
            };
            let followed =
                dep["dep_kinds"].as_array().into_iter().flatten().any(|k| {
                    match k["kind"].as_str() {
                        None | Some("build") => true,
                        Some("dev") => id == root,
                        Some(_) => false,
                    }
                });
            if !followed || !seen.insert(dep_id) {
                continue;
            }
            parent.insert(dep_id, id);
            let dep_name = names.get(dep_id).copied().unwrap_or(dep_id);
            if DENY_FOR_LANG.contains(&dep_name) {
                let mut path = vec![dep_name.to_string()];
                let mut cur = dep_id;
                while let Some(p) = parent.get(cur) {
                    path.push(names.get(p).copied().unwrap_or(p).to_string());
                    cur = p;
                }
                path.reverse();
                found.push(path);
            }
            queue.push_back(dep_id);
        }
    }
    found
}
