//! [`ConfigToolSource`]: tools fully defined in config — the shipped
//! defaults and the user's `[[tools]]` — implemented by a builtin, a
//! command or a Python function.

use std::sync::Arc;
use std::time::Duration;

use crate::builtin::{self, BuiltinTool, FilePolicy};
use crate::command::{self, CommandTool};
use crate::config::{ToolDef, ToolImpl};
use crate::error::ToolError;
use crate::model::ToolSpec;
use crate::python::{PythonRuntime, PythonTool};
use crate::source::ToolSource;
use crate::tool::Tool;

/// The module lackpy's own defaults name; its functions are our builtins,
/// so a lackpy config that points at them runs without Python.
const LACKPY_BUILTINS_MODULE: &str = "lackpy.sources.builtins";

/// A source of config-defined tools.
pub struct ConfigToolSource {
    name: String,
    tools: Vec<ToolDef>,
    python: Arc<PythonRuntime>,
    /// What its builtin file tools may touch.
    policy: Arc<FilePolicy>,
    /// Why each command tool's program cannot be found, by tool name.
    missing_programs: Vec<(String, String)>,
}

impl std::fmt::Debug for ConfigToolSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConfigToolSource")
            .field("name", &self.name)
            .field("tools", &self.tools.len())
            .finish_non_exhaustive()
    }
}

/// A builtin that serves a `python` tool naming lackpy's own module.
fn lackpy_builtin(module: &str, function: &str) -> bool {
    module == LACKPY_BUILTINS_MODULE && builtin::is_builtin(function)
}

impl ConfigToolSource {
    /// A source named `name` (`defaults`, `config`) over `tools`.
    pub fn new(
        name: impl Into<String>,
        tools: Vec<ToolDef>,
        python: Arc<PythonRuntime>,
    ) -> ConfigToolSource {
        let name = name.into();
        let mut missing_programs = Vec::new();
        for def in &tools {
            match &def.implementation {
                ToolImpl::Command(c) => {
                    if let Some(reason) = command::missing_program(&c.argv, &c.env) {
                        tracing::warn!(source = %name, tool = %def.name, %reason, "command tool is unavailable");
                        missing_programs.push((def.name.clone(), reason));
                    }
                }
                ToolImpl::Python {
                    module, function, ..
                } if !lackpy_builtin(module, function) => {
                    if let Some(reason) = python.unavailable_reason() {
                        tracing::warn!(source = %name, tool = %def.name, %reason, "python tool is unavailable");
                    }
                }
                _ => {}
            }
        }
        ConfigToolSource {
            name,
            tools,
            python,
            policy: Arc::new(FilePolicy::new()),
            missing_programs,
        }
    }

    /// The same source with its builtin file tools under `policy` (the
    /// config's protected paths and read cap) instead of the built-in set.
    pub fn with_file_policy(mut self, policy: Arc<FilePolicy>) -> ConfigToolSource {
        self.policy = policy;
        self
    }

    fn def_for(&self, spec: &ToolSpec) -> Option<&ToolDef> {
        // The exact entry first: one source may define a name twice.
        self.tools
            .iter()
            .rev()
            .find(|d| d.name == spec.name && d.spec() == *spec)
            .or_else(|| self.tools.iter().rev().find(|d| d.name == spec.name))
    }

    fn reason(&self, name: &str) -> Option<String> {
        let def = self.tools.iter().rev().find(|d| d.name == name)?;
        match &def.implementation {
            ToolImpl::Builtin { .. } => None,
            ToolImpl::Command(_) => self
                .missing_programs
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, r)| r.clone()),
            ToolImpl::Python {
                module, function, ..
            } => {
                if lackpy_builtin(module, function) {
                    None
                } else {
                    self.python.unavailable_reason()
                }
            }
        }
    }
}

impl ToolSource for ConfigToolSource {
    fn grade_reason(&self, _name: &str) -> Option<String> {
        Some(format!(
            "declared in {}: grade_w and effects_ceiling ((3, 3) where not given)",
            if self.name == crate::DEFAULTS_SOURCE {
                "the shipped defaults"
            } else {
                "config [[tools]]"
            }
        ))
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn available(&self) -> bool {
        true
    }

    fn discover(&self) -> Vec<ToolSpec> {
        self.tools.iter().map(ToolDef::spec).collect()
    }

    fn tool_available(&self, name: &str) -> bool {
        self.reason(name).is_none()
    }

    fn unavailable_reason(&self, name: &str) -> Option<String> {
        self.reason(name)
    }

    fn resolve(&self, spec: &ToolSpec) -> Result<Arc<dyn Tool>, ToolError> {
        let Some(def) = self.def_for(spec) else {
            return Err(ToolError::unavailable(format!(
                "source '{}' has no tool '{}'",
                self.name, spec.name
            )));
        };
        let builtin_tool = |function: &str| -> Result<Arc<dyn Tool>, ToolError> {
            BuiltinTool::new(&def.name, def.args.clone(), function)
                .map(|t| Arc::new(t.with_policy(Arc::clone(&self.policy))) as Arc<dyn Tool>)
                .ok_or_else(|| {
                    ToolError::unavailable(format!("unknown builtin function '{function}'"))
                })
        };
        match &def.implementation {
            ToolImpl::Builtin { function } => builtin_tool(function),
            ToolImpl::Python {
                module, function, ..
            } if lackpy_builtin(module, function) => builtin_tool(function),
            ToolImpl::Python {
                module,
                function,
                timeout_ms,
                max_output_bytes,
            } => {
                let mut tool = PythonTool::new(Arc::clone(&self.python), module, function);
                if let Some(ms) = timeout_ms {
                    tool = tool.with_timeout(Duration::from_millis(*ms));
                }
                if let Some(max) = max_output_bytes {
                    tool = tool.with_max_output(usize::try_from(*max).unwrap_or(usize::MAX));
                }
                Ok(Arc::new(tool))
            }
            ToolImpl::Command(c) => {
                let mut tool = CommandTool::new(&def.name, def.args.clone(), c.argv.clone())
                    .with_env(c.env.clone());
                if let Some(ms) = c.timeout_ms {
                    tool = tool.with_timeout(Duration::from_millis(ms));
                }
                if let Some(max) = c.max_output_bytes {
                    tool = tool.with_max_output(usize::try_from(max).unwrap_or(usize::MAX));
                }
                Ok(Arc::new(tool))
            }
        }
    }
}
