//! Checks across keys, run once the file is read: what each key allows
//! alone is checked while it is read (`schema`, `values`), but whether a
//! profile loosens `[policy]` or the trace's cap, or a tool is both gated
//! and waived, needs the whole file. Each would otherwise pass silently
//! and leave a policy other than the one its author meant.

use lackpy_lang::Grade;

use super::keypath::KeyPath;
use super::schema::Config;
use crate::policy::{is_above, show_grade};

/// A key whose value the rest of the file makes invalid.
#[derive(Debug)]
pub(super) struct Problem {
    /// The key.
    pub(super) path: KeyPath,
    /// What is wrong.
    pub(super) message: String,
}

/// The first problem of `config`; `unknown` are the keys it did not know.
pub(super) fn check(config: &Config, unknown: &[KeyPath]) -> Result<(), Problem> {
    misplaced_auto_approve(unknown)?;
    super::notes::inference_order(config)?;
    gated_and_waived(config)?;
    profiles_only_tighten(config)?;
    profile_trace_caps(config)
}

/// An `auto_approve` below `[policy]` would be ignored as an unknown key
/// while its author believes it in force: only the top level may waive.
fn misplaced_auto_approve(unknown: &[KeyPath]) -> Result<(), Problem> {
    const PLACES: [&[&str]; 3] = [
        &["policy", "provenance", "*", "auto_approve"],
        &["profiles", "*", "policy", "auto_approve"],
        &["profiles", "*", "auto_approve"],
    ];
    match unknown
        .iter()
        .find(|p| PLACES.iter().any(|place| p.matches(place)))
    {
        Some(path) => Err(Problem {
            path: path.clone(),
            message: "auto_approve is only allowed in [policy]; a provenance table or a profile \
                      can add approval, never waive it"
                .to_string(),
        }),
        None => Ok(()),
    }
}

/// Every scope's `approve_tools`, with its key path and its name.
fn approval_lists(config: &Config) -> Vec<(KeyPath, String, &[String])> {
    let p = &config.policy;
    let mut out = vec![(
        KeyPath::keys(&["policy", "approve_tools"]),
        "[policy]".to_string(),
        p.approve_tools.as_slice(),
    )];
    let prov = &p.provenance;
    for (kind, rules) in [
        ("host", &prov.host),
        ("mcp", &prov.mcp),
        ("config", &prov.config),
        ("builtin", &prov.builtin),
        ("virtual", &prov.virtual_),
    ] {
        if let Some(r) = rules {
            out.push((
                KeyPath::keys(&["policy", "provenance", kind, "approve_tools"]),
                format!("[policy.provenance.{kind}]"),
                r.approve_tools.as_slice(),
            ));
        }
    }
    for (name, profile) in config.profiles.iter() {
        if let Some(r) = &profile.policy {
            out.push((
                KeyPath::keys(&["profiles", name, "policy", "approve_tools"]),
                format!("profile '{name}'"),
                r.approve_tools.as_slice(),
            ));
        }
    }
    out
}

/// A tool in some `approve_tools` and in `auto_approve`: which one wins is
/// not something to leave to the reader.
fn gated_and_waived(config: &Config) -> Result<(), Problem> {
    let waived = &config.policy.auto_approve;
    for (path, scope, tools) in approval_lists(config) {
        if let Some((i, tool)) = tools.iter().enumerate().find(|(_, t)| waived.contains(t)) {
            return Err(Problem {
                path: path.index(i),
                message: format!(
                    "tool '{tool}' is in both {scope} approve_tools and [policy] auto_approve; \
                     a tool cannot both need and skip approval"
                ),
            });
        }
    }
    Ok(())
}

/// A profile's ceiling or approval line above the top level's: every
/// limit applies anyway, so a looser one can only mislead.
fn profiles_only_tighten(config: &Config) -> Result<(), Problem> {
    let top = &config.policy;
    for (name, profile) in config.profiles.iter() {
        let Some(rules) = &profile.policy else {
            continue;
        };
        let pairs: [(&str, Option<Grade>, Option<Grade>); 2] = [
            ("max_grade", rules.max_grade, top.max_grade),
            ("approve_above", rules.approve_above, top.approve_above),
        ];
        for (key, own, limit) in pairs {
            if let (Some(own), Some(limit)) = (own, limit)
                && is_above(own, limit)
            {
                return Err(loosens(name, key, own, limit));
            }
        }
    }
    Ok(())
}

fn loosens(profile: &str, key: &str, own: Grade, limit: Grade) -> Problem {
    Problem {
        path: KeyPath::keys(&["profiles", profile, "policy", key]),
        message: format!(
            "profile '{profile}' {key} {} is above [policy] {key} {}; a profile's policy can \
             only tighten",
            show_grade(own),
            show_grade(limit)
        ),
    }
}

/// A profile's `max_trace_entries` above the top level's (or the default
/// when `[limits]` sets none): the cap bounds what every run holds, and a
/// profile can only tighten it.
fn profile_trace_caps(config: &Config) -> Result<(), Problem> {
    let (top, whence) = match config.limits.max_trace_entries {
        Some(n) => (n, ""),
        None => (
            u64::try_from(lackpy_lang::Limits::default().max_trace_entries).unwrap_or(u64::MAX),
            " (the default)",
        ),
    };
    for (name, profile) in config.profiles.iter() {
        if let Some(own) = profile.limits.as_ref().and_then(|l| l.max_trace_entries)
            && own > top
        {
            return Err(Problem {
                path: KeyPath::keys(&["profiles", name, "limits", "max_trace_entries"]),
                message: format!(
                    "profile '{name}' max_trace_entries {own} is above [limits] \
                     max_trace_entries {top}{whence}; a profile's limits can only tighten"
                ),
            });
        }
    }
    Ok(())
}
