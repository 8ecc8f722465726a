//! [`Policy`]: which tools a run may see and which calls need approval,
//! from `[policy]`, its provenance tables and a profile's `policy` table.
//!
//! Every applicable limit holds at once; a profile can only tighten (the
//! loader refuses one that would loosen), and only `[policy].auto_approve`
//! waives approval — never a ceiling.

use std::fmt;
use std::time::Duration;

use lackpy_lang::Grade;

use crate::config::{Config, PolicyRules, PolicySection, ProvenancePolicies};
use crate::precedence::Precedence;

/// Where a tool comes from, for policy (derived from its [`Precedence`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProvenanceKind {
    /// Registered directly through the API (no provenance table).
    Direct,
    /// `[[tools]]` (`[policy.provenance.config]`).
    Config,
    /// The shipped defaults (`[policy.provenance.builtin]`).
    Builtin,
    /// `[[virtual_tools]]` (`[policy.provenance.virtual]`).
    Virtual,
    /// Own `[mcp_servers]` (`[policy.provenance.mcp]`).
    Mcp,
    /// `[mcp].host_configs` (`[policy.provenance.host]`).
    Host,
}

impl ProvenanceKind {
    /// The kind of a source at `p`. A level no shipped source uses counts
    /// as config: trusted local source, like `[[tools]]`.
    pub fn of(p: Precedence) -> ProvenanceKind {
        match p {
            Precedence::Direct => ProvenanceKind::Direct,
            Precedence::HostFile { .. } => ProvenanceKind::Host,
            Precedence::DEFAULTS => ProvenanceKind::Builtin,
            Precedence::VIRTUAL => ProvenanceKind::Virtual,
            Precedence::MCP => ProvenanceKind::Mcp,
            Precedence::Level(_) => ProvenanceKind::Config,
        }
    }

    /// Its name, as in `[policy.provenance.<name>]`.
    pub fn name(&self) -> &'static str {
        match self {
            ProvenanceKind::Direct => "direct",
            ProvenanceKind::Config => "config",
            ProvenanceKind::Builtin => "builtin",
            ProvenanceKind::Virtual => "virtual",
            ProvenanceKind::Mcp => "mcp",
            ProvenanceKind::Host => "host",
        }
    }
}

impl fmt::Display for ProvenanceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the policy says about one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyState {
    /// No rule applies.
    Allowed,
    /// Above an approval line or listed: `rule` names what said so, e.g.
    /// `[policy] approve_above (2, 1)`, `[policy] approve_tools`,
    /// `[policy.provenance.mcp] approve_above (1, 0)`,
    /// `profile 'reader' approve_above (0, 0)`.
    NeedsApproval {
        /// The rule that asks for approval.
        rule: String,
    },
    /// Would need approval but is listed in `auto_approve`: runs without
    /// asking; `rule` is `[policy] auto_approve`.
    AutoApproved {
        /// The rule that waived approval.
        rule: String,
    },
    /// Over a ceiling: out of the namespace.
    OverCeiling {
        /// The ceiling exceeded.
        ceiling: Grade,
        /// Whose ceiling: `profile 'reader'`, `[policy]`,
        /// `[policy.provenance.host]`.
        scope: String,
    },
}

impl PolicyState {
    /// A short label for listings.
    pub fn label(&self) -> &'static str {
        match self {
            PolicyState::Allowed => "allowed",
            PolicyState::NeedsApproval { .. } => "needs approval",
            PolicyState::AutoApproved { .. } => "auto-approved",
            PolicyState::OverCeiling { .. } => "over the ceiling",
        }
    }

    /// The rule behind the state; `None` when allowed. For a ceiling:
    /// `<scope> max_grade (w, d)`.
    pub fn rule(&self) -> Option<String> {
        match self {
            PolicyState::Allowed => None,
            PolicyState::NeedsApproval { rule } | PolicyState::AutoApproved { rule } => {
                Some(rule.clone())
            }
            PolicyState::OverCeiling { ceiling, scope } => {
                Some(format!("{scope} max_grade {}", show_grade(*ceiling)))
            }
        }
    }
}

/// The validation message for a call to a tool over a ceiling, e.g.
/// `Tool 'write_file' has grade (3, 3), above the policy ceiling (1, 0) of
/// profile 'reader'`.
pub fn over_ceiling_message(tool: &str, grade: Grade, ceiling: Grade, scope: &str) -> String {
    format!(
        "Tool '{tool}' has grade {}, above the policy ceiling {} of {scope}",
        show_grade(grade),
        show_grade(ceiling)
    )
}

/// The policy a run is under: the top-level `[policy]`, its provenance
/// tables, and optionally one profile's `policy` table.
#[derive(Debug, Clone)]
pub struct Policy {
    top: PolicyRules,
    auto_approve: Vec<String>,
    provenance: ProvenancePolicies,
    /// The profile's name and rules.
    profile: Option<(String, PolicyRules)>,
    approval_timeout: Duration,
}

impl Default for Policy {
    /// No ceilings, nothing gated.
    fn default() -> Policy {
        Policy::from_config(&Config::default())
    }
}

impl Policy {
    /// The policy of `config`'s `[policy]` (no profile).
    pub fn from_config(config: &Config) -> Policy {
        let p: &PolicySection = &config.policy;
        Policy {
            top: PolicyRules {
                max_grade: p.max_grade,
                approve_above: p.approve_above,
                approve_tools: p.approve_tools.clone(),
            },
            auto_approve: p.auto_approve.clone(),
            provenance: p.provenance.clone(),
            profile: None,
            approval_timeout: Duration::from_millis(p.approval_timeout_ms()),
        }
    }

    /// The same policy tightened by profile `name`'s `policy` table (if
    /// the profile has one). It replaces a profile applied before: a run
    /// has one profile.
    pub fn for_profile(&self, config: &Config, name: &str) -> Policy {
        let rules = config.profiles.get(name).and_then(|p| p.policy.clone());
        Policy {
            profile: rules.map(|r| (name.to_string(), r)),
            ..self.clone()
        }
    }

    /// Whether no tool can be over a ceiling or need approval: the fast path.
    pub fn is_empty(&self) -> bool {
        let prov = &self.provenance;
        self.top.is_empty()
            && [
                &prov.host,
                &prov.mcp,
                &prov.config,
                &prov.builtin,
                &prov.virtual_,
            ]
            .into_iter()
            .all(|r| r.as_ref().is_none_or(PolicyRules::is_empty))
            && self.profile.as_ref().is_none_or(|(_, r)| r.is_empty())
    }

    /// How long a call waits for approval (`[policy].approval_timeout_ms`).
    pub fn approval_timeout(&self) -> Duration {
        self.approval_timeout
    }

    /// What the policy says about `tool` of `grade` from `kind`. Ceilings
    /// first (profile, provenance, top level: the first exceeded is
    /// reported), then approval in the same order of scopes.
    pub fn evaluate(&self, tool: &str, grade: Grade, kind: ProvenanceKind) -> PolicyState {
        let scopes = self.scopes(kind);
        for (scope, rules) in scopes.iter().flatten() {
            if let Some(ceiling) = rules.max_grade
                && is_above(grade, ceiling)
            {
                return PolicyState::OverCeiling {
                    ceiling,
                    scope: scope.to_string(),
                };
            }
        }
        let Some(rule) = scopes.iter().flatten().find_map(|(scope, rules)| {
            if rules.approve_tools.iter().any(|t| t == tool) {
                Some(format!("{scope} approve_tools"))
            } else {
                rules
                    .approve_above
                    .filter(|line| is_above(grade, *line))
                    .map(|line| format!("{scope} approve_above {}", show_grade(line)))
            }
        }) else {
            return PolicyState::Allowed;
        };
        if self.auto_approve.iter().any(|t| t == tool) {
            PolicyState::AutoApproved {
                rule: "[policy] auto_approve".to_string(),
            }
        } else {
            PolicyState::NeedsApproval { rule }
        }
    }

    /// The rules that apply to a tool of `kind`, in the order they are
    /// checked: profile, provenance, top level.
    fn scopes(&self, kind: ProvenanceKind) -> [Option<(Scope<'_>, &PolicyRules)>; 3] {
        let prov = &self.provenance;
        let own = match kind {
            ProvenanceKind::Direct => None,
            ProvenanceKind::Config => prov.config.as_ref(),
            ProvenanceKind::Builtin => prov.builtin.as_ref(),
            ProvenanceKind::Virtual => prov.virtual_.as_ref(),
            ProvenanceKind::Mcp => prov.mcp.as_ref(),
            ProvenanceKind::Host => prov.host.as_ref(),
        };
        [
            self.profile
                .as_ref()
                .map(|(name, rules)| (Scope::Profile(name), rules)),
            own.map(|rules| (Scope::Provenance(kind), rules)),
            Some((Scope::Top, &self.top)),
        ]
    }
}

/// Whose rules: named as messages and listings show them.
#[derive(Clone, Copy)]
enum Scope<'a> {
    Profile(&'a str),
    Provenance(ProvenanceKind),
    Top,
}

impl fmt::Display for Scope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Profile(name) => write!(f, "profile '{name}'"),
            Scope::Provenance(kind) => write!(f, "[policy.provenance.{kind}]"),
            Scope::Top => f.write_str("[policy]"),
        }
    }
}

/// Whether `grade` is above `limit`: over it in either component.
pub(crate) fn is_above(grade: Grade, limit: Grade) -> bool {
    grade.w > limit.w || grade.d > limit.d
}

/// A grade as messages show it: `(w, d)`.
pub(crate) fn show_grade(g: Grade) -> String {
    format!("({}, {})", g.w, g.d)
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
