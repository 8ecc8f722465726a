//! Virtual tools: declared in config, implemented by the embedding harness.
//!
//! The harness passes a [`HarnessResolver`] (`name -> Option<Tool>`) that is
//! consulted on every check, so availability is enforced twice: a virtual
//! tool the harness does not offer drops out of the toolbox's available set
//! (never validated against, never shown to a model), and one withdrawn
//! between check and call fails that call with
//! `virtual tool 'X' is unavailable`.

use std::sync::Arc;

use lackpy_lang::Data;

use crate::binding::bind_args;
use crate::config::VirtualToolDef;
use crate::error::ToolError;
use crate::model::{ArgSpec, ToolSpec};
use crate::source::ToolSource;
use crate::tool::{CallContext, Tool, ToolAnswer};

/// The harness's implementations of virtual tools, looked up by name on
/// every check and every call.
pub trait HarnessResolver: Send + Sync {
    /// The implementation of `name` right now, if the harness offers it.
    fn resolve(&self, name: &str) -> Option<Arc<dyn Tool>>;
}

impl<F> HarnessResolver for F
where
    F: Fn(&str) -> Option<Arc<dyn Tool>> + Send + Sync,
{
    fn resolve(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self(name)
    }
}

fn unavailable(name: &str) -> ToolError {
    ToolError::unavailable(format!("virtual tool '{name}' is unavailable"))
}

/// The source of `[[virtual_tools]]`.
pub struct VirtualToolSource {
    defs: Vec<VirtualToolDef>,
    resolver: Option<Arc<dyn HarnessResolver>>,
}

impl VirtualToolSource {
    /// Virtual tools `defs`, implemented through `resolver` (none: every
    /// virtual tool is unavailable).
    pub fn new(
        defs: Vec<VirtualToolDef>,
        resolver: Option<Arc<dyn HarnessResolver>>,
    ) -> VirtualToolSource {
        VirtualToolSource { defs, resolver }
    }

    fn offered(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.resolver.as_ref()?.resolve(name)
    }
}

impl ToolSource for VirtualToolSource {
    fn name(&self) -> &str {
        "virtual"
    }

    fn grade_reason(&self, _name: &str) -> Option<String> {
        Some(
            "declared in config [[tools]]: grade_w and effects_ceiling ((3, 3) where not given)"
                .into(),
        )
    }

    fn available(&self) -> bool {
        self.resolver.is_some()
    }

    fn discover(&self) -> Vec<ToolSpec> {
        self.defs.iter().map(VirtualToolDef::spec).collect()
    }

    fn tool_available(&self, name: &str) -> bool {
        self.offered(name).is_some()
    }

    fn unavailable_reason(&self, name: &str) -> Option<String> {
        match self.offered(name) {
            Some(_) => None,
            None => Some("the harness does not offer it".to_string()),
        }
    }

    fn unavailable_error(&self, name: &str) -> ToolError {
        unavailable(name)
    }

    fn resolve(&self, spec: &ToolSpec) -> Result<Arc<dyn Tool>, ToolError> {
        Ok(Arc::new(VirtualTool {
            name: spec.name.clone(),
            params: spec.args.clone(),
            resolver: self.resolver.clone(),
        }))
    }
}

/// The call-time proxy: asks the harness again, binds the arguments to the
/// declared names and calls the harness's tool with them as keywords.
struct VirtualTool {
    name: String,
    params: Vec<ArgSpec>,
    resolver: Option<Arc<dyn HarnessResolver>>,
}

impl Tool for VirtualTool {
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        let Some(tool) = self.resolver.as_ref().and_then(|r| r.resolve(&self.name)) else {
            return ToolAnswer::Ready(Err(unavailable(&self.name)));
        };
        match bind_args(&self.name, &self.params, args, kwargs) {
            Ok(bound) => tool.call(Vec::new(), bound, ctx),
            Err(e) => ToolAnswer::Ready(Err(e)),
        }
    }
}
