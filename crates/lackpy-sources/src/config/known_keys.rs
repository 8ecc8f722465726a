//! The keys each table of the file knows, for "did you mean" on an
//! unknown one. Each list comes from its struct's `Deserialize`
//! ([`super::suggest::fields_of`]); only where a table sits is listed here.

use super::keypath::{KeyPath, Part};
use super::policy_schema::{PolicyRules, PolicySection, ProvenancePolicies};
use super::runs::RunsSection;
use super::schema::{
    Config, FilesSection, GradeOverride, InferenceSection, KitSection, LimitsSection, McpSection,
    McpToolOverride, Profile, ProfileLimits, ProfileSection, RawMcpServer, RawToolDef,
    RawVirtualToolDef, SandboxSection, ServerSection,
};
use super::suggest::fields_of;
use super::telemetry::TelemetrySection;
use crate::model::ArgSpec;

/// The keys of the table at `parent` (`*` any key, `[]` any index).
pub(super) fn keys_of(parent: &KeyPath) -> &'static [&'static str] {
    let shape: Vec<&str> = parent
        .0
        .iter()
        .map(|p| match p {
            Part::Key(k) => k.as_str(),
            Part::Index(_) => "[]",
        })
        .collect();
    let is = |pattern: &[&str]| {
        shape.len() == pattern.len()
            && shape
                .iter()
                .zip(pattern)
                .all(|(s, p)| *p == "*" && *s != "[]" || s == p)
    };
    if is(&[]) {
        fields_of::<Config>()
    } else if is(&["profile"]) {
        fields_of::<ProfileSection>()
    } else if is(&["profiles", "*"]) {
        fields_of::<Profile>()
    } else if is(&["profiles", "*", "limits"]) {
        fields_of::<ProfileLimits>()
    } else if is(&["profiles", "*", "policy"]) || is(&["policy", "provenance", "*"]) {
        fields_of::<PolicyRules>()
    } else if is(&["limits"]) {
        fields_of::<LimitsSection>()
    } else if is(&["files"]) {
        fields_of::<FilesSection>()
    } else if is(&["server"]) {
        fields_of::<ServerSection>()
    } else if is(&["policy"]) {
        fields_of::<PolicySection>()
    } else if is(&["policy", "provenance"]) {
        fields_of::<ProvenancePolicies>()
    } else if is(&["runs"]) {
        fields_of::<RunsSection>()
    } else if is(&["telemetry"]) {
        fields_of::<TelemetrySection>()
    } else if is(&["tools", "[]"]) {
        fields_of::<RawToolDef>()
    } else if is(&["virtual_tools", "[]"]) || is(&["virtual_tools", "*"]) {
        fields_of::<RawVirtualToolDef>()
    } else if is(&["mcp_servers", "*"]) {
        fields_of::<RawMcpServer>()
    } else if is(&["mcp_servers", "*", "tools", "*"]) {
        fields_of::<McpToolOverride>()
    } else if is(&["mcp_servers", "*", "tools", "*", "grade"]) {
        fields_of::<GradeOverride>()
    } else if is(&["tools", "[]", "args", "[]"]) || is(&["virtual_tools", "[]", "args", "[]"]) {
        fields_of::<ArgSpec>()
    } else if is(&["mcp"]) {
        fields_of::<McpSection>()
    } else if is(&["inference"]) {
        fields_of::<InferenceSection>()
    } else if is(&["kit"]) {
        fields_of::<KitSection>()
    } else if is(&["sandbox"]) {
        fields_of::<SandboxSection>()
    } else {
        &[]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_know_their_keys() {
        assert!(keys_of(&KeyPath::keys(&["mcp_servers", "x"])).contains(&"command"));
        assert!(keys_of(&KeyPath::keys(&[])).contains(&"mcp_servers"));
        assert!(keys_of(&KeyPath::keys(&["tools"]).index(0)).contains(&"name"));
        assert!(keys_of(&KeyPath::keys(&["limits"])).contains(&"max_steps"));
        assert!(keys_of(&KeyPath::keys(&["policy", "provenance", "host"])).contains(&"max_grade"));
        assert!(keys_of(&KeyPath::keys(&["nowhere"])).is_empty());
    }
}
