//! The server's resources: the language spec, the toolbox and the config
//! (secrets redacted), each as JSON.

use rmcp::model::{Resource, ResourceContents};

use crate::service::LackpyService;

/// `lackpy://language-spec`.
pub(crate) const LANGUAGE_SPEC: &str = "lackpy://language-spec";
/// `lackpy://toolbox`.
pub(crate) const TOOLBOX: &str = "lackpy://toolbox";
/// `lackpy://config`.
pub(crate) const CONFIG: &str = "lackpy://config";

/// What `resources/list` shows.
pub(crate) fn all() -> Vec<Resource> {
    [
        (
            LANGUAGE_SPEC,
            "language-spec",
            "The lackpy language spec (what `lackpy spec --json` prints).",
        ),
        (
            TOOLBOX,
            "toolbox",
            "Every tool with its provenance and availability (what `lackpy tools --json` prints).",
        ),
        (
            CONFIG,
            "config",
            "The workspace's .lackpy/config.toml as JSON, secret values redacted (null without a file).",
        ),
    ]
    .into_iter()
    .map(|(uri, name, description)| {
        Resource::new(uri, name)
            .with_description(description)
            .with_mime_type("application/json")
    })
    .collect()
}

/// The contents of `uri`, or `None` for a URI this server does not have.
pub(crate) fn read(service: &LackpyService, uri: &str) -> Option<ResourceContents> {
    let text = match uri {
        LANGUAGE_SPEC => serde_json::to_string(&service.spec()),
        TOOLBOX => match service.tool_list(None) {
            Ok(list) => serde_json::to_string(&list),
            Err(_) => Ok("null".to_string()),
        },
        CONFIG => serde_json::to_string(service.config_redacted()),
        _ => return None,
    }
    .unwrap_or_else(|_| "null".to_string());
    let mut contents = ResourceContents::text(text, uri);
    if let ResourceContents::TextResourceContents { mime_type, .. } = &mut contents {
        *mime_type = Some("application/json".into());
    }
    Some(contents)
}
