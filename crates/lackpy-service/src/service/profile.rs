//! Which tools a program may call: profiles, kit files, tool lists, aliases.
//!
//! A namespace maps the names a program calls to the toolbox names that
//! serve them (the same name unless aliased). Resolution order: explicit
//! `--tools` list; a named profile (`[profiles.<name>]`, then a kit file
//! `.lackpy/kits/<name>.kit` or `.profile`, or `"none"`); with neither, the
//! `[profile].default` profile if set, else every available tool. Tools that
//! are unavailable right now are dropped last, so a program (or a model)
//! never sees a tool it cannot call.

use std::path::Path;

use lackpy_sources::Toolbox;
use lackpy_sources::{Config, ToolSelection};
use serde::Serialize;

use super::error::{ServiceError, ToolOrigin};

/// What a caller asked for.
#[derive(Debug, Clone, Copy, Default)]
pub enum Selection<'a> {
    /// Exactly these tools.
    Tools(&'a [String]),
    /// A named profile.
    Profile(&'a str),
    /// The default profile, else every available tool.
    #[default]
    Default,
}

/// A resolved namespace: `(called name, toolbox name)` pairs, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Namespace {
    /// The profile it came from, when one was used.
    pub profile: Option<String>,
    /// Called name and the toolbox name behind it.
    pub entries: Vec<(String, String)>,
    /// Names dropped because they are unavailable right now.
    pub unavailable: Vec<String>,
    /// Names dropped because their grade is over a policy ceiling, each
    /// with the validation message a call to it gets.
    pub over_ceiling: Vec<(String, String)>,
}

impl Namespace {
    /// The names a program may call.
    pub fn names(&self) -> Vec<String> {
        self.entries.iter().map(|(n, _)| n.clone()).collect()
    }
}

/// Resolves a selection against the config, kit files and the toolbox.
pub fn resolve(
    selection: Selection<'_>,
    config: &Config,
    workspace: &Path,
    toolbox: &Toolbox,
) -> Result<Namespace, ServiceError> {
    let (profile, entries) = match selection {
        Selection::Tools(names) => (
            None,
            check_known(names_to_entries(names), ToolOrigin::Request, toolbox)?,
        ),
        Selection::Profile(name) => (
            Some(name.to_string()),
            profile_entries(name, config, workspace, toolbox)?,
        ),
        Selection::Default => match &config.profile.default {
            Some(name) => (
                Some(name.clone()),
                profile_entries(name, config, workspace, toolbox)?,
            ),
            None => (None, names_to_entries(&toolbox.names())),
        },
    };
    let mut ns = Namespace {
        profile,
        ..Namespace::default()
    };
    for (called, tool) in entries {
        if ns.entries.iter().any(|(c, _)| *c == called) {
            continue;
        }
        if toolbox.is_available(&tool) {
            ns.entries.push((called, tool));
        } else {
            ns.unavailable.push(called);
        }
    }
    Ok(ns)
}

fn names_to_entries(names: &[String]) -> Vec<(String, String)> {
    names.iter().map(|n| (n.clone(), n.clone())).collect()
}

fn check_known(
    entries: Vec<(String, String)>,
    origin: ToolOrigin,
    toolbox: &Toolbox,
) -> Result<Vec<(String, String)>, ServiceError> {
    let known = toolbox.names();
    for (_, tool) in &entries {
        if !known.contains(tool) {
            return Err(ServiceError::UnknownTool {
                name: tool.clone(),
                origin,
                known: known.join(", "),
            });
        }
    }
    Ok(entries)
}

fn profile_entries(
    name: &str,
    config: &Config,
    workspace: &Path,
    toolbox: &Toolbox,
) -> Result<Vec<(String, String)>, ServiceError> {
    if name == "none" {
        return Ok(Vec::new());
    }
    let origin = ToolOrigin::Profile(name.to_string());
    if let Some(profile) = config.profiles.get(name) {
        let mut entries = match &profile.tools {
            None => Vec::new(),
            Some(ToolSelection::Names(names)) => names_to_entries(names),
            Some(ToolSelection::Aliases(pairs)) => pairs.clone(),
        };
        entries.extend(names_to_entries(&profile.extra_tools));
        return check_known(entries, origin, toolbox);
    }
    let kits = workspace.join(".lackpy").join("kits");
    for ext in ["kit", "profile"] {
        let file = kits.join(format!("{name}.{ext}"));
        if file.is_file() {
            return check_known(read_kit(&file)?, origin, toolbox);
        }
    }
    let mut known: Vec<String> = config.profiles.iter().map(|(k, _)| k.to_string()).collect();
    known.extend(kit_names(&kits));
    known.push("none".to_string());
    Err(ServiceError::UnknownProfile {
        name: name.to_string(),
        known: known.join(", "),
    })
}

/// A kit file: tool names separated by newlines, commas or spaces; `#`
/// starts a comment; `alias = tool` (or `alias: tool`) on a line aliases.
fn read_kit(file: &Path) -> Result<Vec<(String, String)>, ServiceError> {
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| ServiceError::KitFile {
        file: shown.clone(),
        line: 0,
        message: format!("cannot read the kit file: {e}"),
    })?;
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some((alias, tool)) = line.split_once('=').or_else(|| line.split_once(':')) {
            let (alias, tool) = (alias.trim(), tool.trim().trim_matches('"'));
            if !is_identifier(alias) || !is_identifier(tool) {
                return Err(ServiceError::KitFile {
                    file: shown,
                    line: i + 1,
                    message: format!("expected `alias = tool`, got '{line}'"),
                });
            }
            entries.push((alias.to_string(), tool.to_string()));
            continue;
        }
        for name in line.split([',', ' ', '\t']).filter(|s| !s.is_empty()) {
            if !is_identifier(name) {
                return Err(ServiceError::KitFile {
                    file: shown,
                    line: i + 1,
                    message: format!("'{name}' is not a tool name"),
                });
            }
            entries.push((name.to_string(), name.to_string()));
        }
    }
    Ok(entries)
}

fn kit_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            let ext = p.extension()?.to_str()?;
            (ext == "kit" || ext == "profile").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    names
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}
