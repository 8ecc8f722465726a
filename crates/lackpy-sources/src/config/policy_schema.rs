//! The keys of `[policy]` (ours): grade ceilings and approval lines, at the
//! top level, per provenance, and in a profile's `policy` table.
//!
//! Only the shape is here; checks across keys (a profile may only tighten,
//! `auto_approve` only at the top) are in `check`, evaluation is
//! [`crate::Policy`].

use lackpy_lang::Grade;
use serde::Deserialize;

use super::values::{grade, positive};

/// `[policy]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct PolicySection {
    /// Tools above this grade are out of every namespace.
    #[serde(deserialize_with = "grade")]
    pub max_grade: Option<Grade>,
    /// A call to a tool above this grade needs approval.
    #[serde(deserialize_with = "grade")]
    pub approve_above: Option<Grade>,
    /// Calls to these tools always need approval.
    pub approve_tools: Vec<String>,
    /// Calls to these tools never need approval (a ceiling still holds).
    pub auto_approve: Vec<String>,
    /// How long a call waits for approval, in milliseconds.
    #[serde(deserialize_with = "positive")]
    pub approval_timeout_ms: Option<u64>,
    /// `[policy.provenance.<kind>]`.
    pub provenance: ProvenancePolicies,
}

impl PolicySection {
    /// The approval wait when `approval_timeout_ms` is absent: 10 minutes.
    pub const DEFAULT_APPROVAL_TIMEOUT_MS: u64 = 600_000;

    /// `approval_timeout_ms`, or its default.
    pub fn approval_timeout_ms(&self) -> u64 {
        self.approval_timeout_ms
            .unwrap_or(Self::DEFAULT_APPROVAL_TIMEOUT_MS)
    }
}

/// `[policy.provenance.<kind>]`: rules for the tools of one origin.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct ProvenancePolicies {
    /// Tools from `[mcp].host_configs`.
    pub host: Option<PolicyRules>,
    /// Tools from own `[mcp_servers]`.
    pub mcp: Option<PolicyRules>,
    /// `[[tools]]`.
    pub config: Option<PolicyRules>,
    /// The shipped defaults.
    pub builtin: Option<PolicyRules>,
    /// `[[virtual_tools]]`.
    #[serde(rename = "virtual")]
    pub virtual_: Option<PolicyRules>,
}

/// A provenance table's or a profile's rules: like `[policy]` without
/// `auto_approve` (which only the top level may grant).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct PolicyRules {
    /// Tools above this grade are out of the namespace.
    #[serde(deserialize_with = "grade")]
    pub max_grade: Option<Grade>,
    /// A call to a tool above this grade needs approval.
    #[serde(deserialize_with = "grade")]
    pub approve_above: Option<Grade>,
    /// Calls to these tools always need approval.
    pub approve_tools: Vec<String>,
}

impl PolicyRules {
    /// Whether the rules neither exclude nor gate anything.
    pub fn is_empty(&self) -> bool {
        self.max_grade.is_none() && self.approve_above.is_none() && self.approve_tools.is_empty()
    }
}
