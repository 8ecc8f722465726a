//! The builtin tools: native implementations shipped in the binary.
//!
//! This registry is the only place in the crate that names tools; which of
//! them a toolbox offers, under which names and with which specs, is data
//! (`default_tools.toml`, user `[[tools]]` with `provider = "builtin"`).

mod confine;
mod files;
mod glob;
mod oserror;
mod protect;

use std::sync::Arc;

use lackpy_lang::Data;

pub use protect::{BUILTIN as PROTECTED_NAMES, DEFAULT_MAX_READ_BYTES, FilePolicy};

use crate::binding::bind_args;
use crate::error::ToolError;
use crate::model::ArgSpec;
use crate::tool::{CallContext, Tool, ToolAnswer, ToolResult};

/// A native implementation: its parameter names and its body, which gets
/// exactly one value per parameter.
struct Builtin {
    name: &'static str,
    params: &'static [&'static str],
    run: fn(&[Data], &CallContext, &FilePolicy) -> ToolResult,
}

const REGISTRY: &[Builtin] = &[
    Builtin {
        name: "read_file",
        params: &["path"],
        run: files::read_file,
    },
    Builtin {
        name: "find_files",
        params: &["pattern"],
        run: glob::find_files,
    },
    Builtin {
        name: "write_file",
        params: &["path", "content"],
        run: files::write_file,
    },
    Builtin {
        name: "edit_file",
        params: &["path", "old_str", "new_str"],
        run: files::edit_file,
    },
];

/// The names of the builtin implementations.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|b| b.name).collect()
}

/// Whether `function` names a builtin implementation.
pub fn is_builtin(function: &str) -> bool {
    REGISTRY.iter().any(|b| b.name == function)
}

/// A builtin implementation serving a tool spec: arguments are bound to the
/// spec's declared arguments, then handed to the implementation in order.
pub struct BuiltinTool {
    tool_name: String,
    params: Vec<ArgSpec>,
    builtin: &'static Builtin,
    policy: Arc<FilePolicy>,
}

impl BuiltinTool {
    /// The builtin `function` serving a tool called `tool_name` that declares
    /// `params`; `None` if there is no such builtin.
    pub fn new(tool_name: &str, params: Vec<ArgSpec>, function: &str) -> Option<BuiltinTool> {
        let builtin = REGISTRY.iter().find(|b| b.name == function)?;
        Some(BuiltinTool {
            tool_name: tool_name.to_string(),
            params,
            builtin,
            policy: Arc::new(FilePolicy::new()),
        })
    }

    /// The same tool under `policy` (protected paths, read cap) instead of
    /// the built-in set.
    pub fn with_policy(mut self, policy: Arc<FilePolicy>) -> BuiltinTool {
        self.policy = policy;
        self
    }

    fn run(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolResult {
        let bound = bind_args(&self.tool_name, &self.params, args, kwargs)?;
        // Re-align to declared positions; an optional argument left out ends
        // the positional run, as it would in Python.
        let mut values = Vec::with_capacity(self.params.len());
        for p in &self.params {
            match bound.iter().find(|(n, _)| *n == p.name) {
                Some((_, v)) => values.push(v.clone()),
                None => break,
            }
        }
        let want = self.builtin.params.len();
        if values.len() > want {
            return Err(ToolError::type_error(format!(
                "{}() takes {want} positional argument{} but {} were given",
                self.builtin.name,
                if want == 1 { "" } else { "s" },
                values.len()
            )));
        }
        if values.len() < want {
            // The binder words the "missing … required positional argument" text.
            let names: Vec<ArgSpec> = self
                .builtin
                .params
                .iter()
                .map(|n| ArgSpec::new(*n))
                .collect();
            return match bind_args(self.builtin.name, &names, values, Vec::new()) {
                Err(e) => Err(e),
                Ok(_) => Err(ToolError::type_error(format!(
                    "{}() is missing arguments",
                    self.builtin.name
                ))),
            };
        }
        (self.builtin.run)(&values, ctx, &self.policy)
    }
}

impl Tool for BuiltinTool {
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        ToolAnswer::Ready(self.run(args, kwargs, ctx))
    }
}
