//! The tool selection `run_program`, `validate`, `delegate` and `generate`
//! share: which tools, the params and the extra rules.

use lackpy_lang::{Data, Rule};
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::service::params_from_value;

/// The namespace and the checks of a program; flattened into each tool's
/// arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct SelectionArgs {
    /// Exactly these tools are callable (default: the default profile, or every available tool).
    pub tools: Option<Vec<String>>,
    /// A named profile selecting the tools.
    pub profile: Option<String>,
    /// Values the program sees as module-level names.
    pub params: Option<JsonObject>,
    /// Extra validation rules: no_loops, max_depth:N, max_calls:N, no_nested_calls.
    pub rules: Option<Vec<String>>,
}

impl SelectionArgs {
    /// The params as program values, in the object's order (taken: the
    /// object may be large).
    pub(crate) fn take_params(&mut self) -> Result<Vec<(String, Data)>, String> {
        match self.params.take() {
            None => Ok(Vec::new()),
            Some(object) => params_from_value(&Value::Object(object)).map_err(|e| e.to_string()),
        }
    }

    /// The rules, parsed.
    pub(crate) fn rules(&self) -> Result<Vec<Rule>, String> {
        self.rules
            .iter()
            .flatten()
            .map(|r| r.parse::<Rule>().map_err(|e| e.to_string()))
            .collect()
    }
}
