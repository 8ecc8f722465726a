//! [`ProfileInfo`]: the namespace a profile (or the default) gives a
//! program, with its grade and prompt lines.

use super::error::ServiceError;
use super::inventory::LackpyService;
use super::profile::Namespace;

/// What a profile gives a program.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ProfileInfo {
    /// The resolved namespace.
    pub namespace: Namespace,
    /// The grade of its tools.
    pub grade: lackpy_lang::Grade,
    /// One prompt line per tool.
    pub description: String,
}

impl LackpyService {
    /// The namespace a profile (or the default) gives, with the prompt lines.
    pub fn profile_info(&self, profile: Option<&str>) -> Result<ProfileInfo, ServiceError> {
        let ns = self.namespace(None, profile)?;
        let names: Vec<String> = ns.entries.iter().map(|(_, t)| t.clone()).collect();
        Ok(ProfileInfo {
            grade: self.toolbox.grade(&names),
            description: self.toolbox.format_description(&names),
            namespace: ns,
        })
    }

    /// The prompt lines of the namespace a call without tools or profile
    /// gets (one line per available tool).
    pub fn default_namespace_description(&self) -> String {
        match self.profile_info(None) {
            Ok(info) => info.description,
            Err(_) => String::new(),
        }
    }
}
