//! `lackpy tools --json` and `list_tools`: every tool's listing with what
//! the policy says of it, one type that both writes the answer and gives
//! its schema.

use lackpy_sources::ToolListing;
use schemars::JsonSchema;
use serde::Serialize;

use super::error::ServiceError;
use super::inventory::LackpyService;
use super::policy_view::PolicyView;

/// Every tool the service knows (or a profile's): what `lackpy tools
/// --json` prints and `list_tools` answers.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ToolList {
    /// The tools, in the order their names were first added.
    pub tools: Vec<ListedTool>,
}

/// One tool: its candidates and provenance, and the policy's word on it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ListedTool {
    /// The name, its candidates and which one wins.
    #[serde(flatten)]
    pub listing: ToolListing,
    /// What the policy says of the tool, with the rule that decided;
    /// absent for a tool it does not judge (an unavailable one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyView>,
}

impl LackpyService {
    /// Every tool with what the policy (of `profile`, or the top-level
    /// one) says of it; only the profile's tools (those over its ceiling
    /// included) when one is named.
    pub fn tool_list(&self, profile: Option<&str>) -> Result<ToolList, ServiceError> {
        let mut listing = self.tools();
        if profile.is_some() {
            let ns = self.namespace(None, profile)?;
            listing.retain(|t| {
                ns.entries.iter().any(|(_, name)| *name == t.name)
                    || ns.over_ceiling.iter().any(|(name, _)| *name == t.name)
            });
        }
        let tools = listing
            .into_iter()
            .map(|listing| ListedTool {
                policy: self.tool_policy(&listing.name, profile),
                listing,
            })
            .collect();
        Ok(ToolList { tools })
    }
}
