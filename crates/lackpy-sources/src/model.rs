//! The tool model every source shares: [`ToolSpec`], [`ArgSpec`], [`Example`]
//! and the [`Provider`] that names a tool's origin.

use std::fmt;
use std::str::FromStr;

use lackpy_lang::Grade;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Where a tool comes from.
///
/// The text form (`builtin`, `command`, `python`, `virtual`, `mcp:<server_id>`)
/// is what configs, listings and JSON use.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Provider {
    /// A native tool shipped in the binary.
    Builtin,
    /// A program run without a shell.
    Command,
    /// A function in a Python module, run by the Python worker.
    Python,
    /// A tool declared in config and implemented by the embedding harness.
    Virtual,
    /// A tool discovered on an MCP server (the server id).
    Mcp(String),
    /// Any other origin (tools registered directly by an embedder).
    Other(String),
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Provider::Builtin => f.write_str("builtin"),
            Provider::Command => f.write_str("command"),
            Provider::Python => f.write_str("python"),
            Provider::Virtual => f.write_str("virtual"),
            Provider::Mcp(id) => write!(f, "mcp:{id}"),
            Provider::Other(s) => f.write_str(s),
        }
    }
}

impl Provider {
    /// The kind of tool, without which one: `mcp` for every MCP server
    /// (the server is the tool's source), the text form otherwise.
    pub fn kind(&self) -> &str {
        match self {
            Provider::Builtin => "builtin",
            Provider::Command => "command",
            Provider::Python => "python",
            Provider::Virtual => "virtual",
            Provider::Mcp(_) => "mcp",
            Provider::Other(s) => s,
        }
    }
}

impl FromStr for Provider {
    type Err = std::convert::Infallible;

    /// Every string is a provider; unknown ones become [`Provider::Other`].
    fn from_str(s: &str) -> Result<Provider, Self::Err> {
        Ok(match s {
            "builtin" => Provider::Builtin,
            "command" => Provider::Command,
            "python" => Provider::Python,
            "virtual" => Provider::Virtual,
            _ => match s.strip_prefix("mcp:") {
                Some(id) => Provider::Mcp(id.to_string()),
                None => Provider::Other(s.to_string()),
            },
        })
    }
}

impl Serialize for Provider {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Provider {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Provider, D::Error> {
        let s = String::deserialize(d)?;
        let Ok(p) = s.parse();
        Ok(p)
    }
}

/// One declared argument of a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ArgSpec {
    /// The argument's name, as a keyword argument would spell it.
    pub name: String,
    /// A display type: `str`, `int`, `float`, `bool`, `dict`, `list`,
    /// `list[str]`, `Any`, … It feeds prompts; values are not checked against it.
    #[serde(rename = "type", default = "any_type")]
    pub type_name: String,
    /// What the argument means.
    #[serde(default)]
    pub description: String,
    /// Whether a call must supply it.
    #[serde(default = "required_default")]
    pub required: bool,
    /// The value an omitted argument takes, when the source says (an MCP
    /// schema's `default`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
    /// The only values the argument takes, when the source lists them (an
    /// MCP schema's `enum`); empty when any value of its type goes.
    #[serde(default, rename = "enum", skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<serde_json::Value>,
}

fn any_type() -> String {
    "Any".to_string()
}

fn required_default() -> bool {
    true
}

impl ArgSpec {
    /// A required argument of type `Any` with no description.
    pub fn new(name: impl Into<String>) -> ArgSpec {
        ArgSpec {
            name: name.into(),
            type_name: "Any".to_string(),
            description: String::new(),
            required: true,
            default: None,
            choices: Vec::new(),
        }
    }

    /// The same argument with a display type.
    pub fn with_type(mut self, type_name: impl Into<String>) -> ArgSpec {
        self.type_name = type_name.into();
        self
    }

    /// The same argument with a description.
    pub fn with_description(mut self, description: impl Into<String>) -> ArgSpec {
        self.description = description.into();
        self
    }

    /// The same argument, optional.
    pub fn optional(mut self) -> ArgSpec {
        self.required = false;
        self
    }
}

/// A tagged usage example, retrieved into prompts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// What the example program is for.
    #[serde(default)]
    pub intent: String,
    /// The program.
    #[serde(default)]
    pub code: String,
    /// Retrieval tags.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// Everything a prompt, a validator and a listing need to know about a tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSpec {
    /// The bare name programs call.
    pub name: String,
    /// Where the tool comes from.
    pub provider: Provider,
    /// One line for prompts.
    pub description: String,
    /// Declared arguments, in positional order.
    pub args: Vec<ArgSpec>,
    /// A display type for the result.
    pub returns: String,
    /// World coupling and effects ceiling.
    pub grade: Grade,
    /// Usage examples.
    pub examples: Vec<Example>,
    /// A documentation reference (a path or a text), if any.
    pub docs: Option<String>,
}

impl ToolSpec {
    /// A spec with no arguments, returning `Any`, graded as the worst case.
    pub fn new(name: impl Into<String>, provider: Provider) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            provider,
            description: String::new(),
            args: Vec::new(),
            returns: "Any".to_string(),
            grade: Grade::UNKNOWN,
            examples: Vec::new(),
            docs: None,
        }
    }

    /// The same spec with a description.
    pub fn with_description(mut self, description: impl Into<String>) -> ToolSpec {
        self.description = description.into();
        self
    }

    /// The same spec with one more argument.
    pub fn with_arg(mut self, arg: ArgSpec) -> ToolSpec {
        self.args.push(arg);
        self
    }

    /// The same spec with a result type.
    pub fn with_returns(mut self, returns: impl Into<String>) -> ToolSpec {
        self.returns = returns.into();
        self
    }

    /// The same spec with a grade.
    pub fn with_grade(mut self, grade: Grade) -> ToolSpec {
        self.grade = grade;
        self
    }

    /// The prompt line lackpy writes for a tool: its
    /// [`stub_line`](ToolSpec::stub_line), indented two spaces
    /// (`  name(arg: type) -> returns  # description`).
    pub fn description_line(&self) -> String {
        format!("  {}", self.stub_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_text_round_trips() {
        for text in [
            "builtin", "command", "python", "virtual", "mcp:time", "direct",
        ] {
            let Ok(p) = text.parse::<Provider>();
            assert_eq!(p.to_string(), text);
        }
        assert_eq!(
            "mcp:a:b".parse::<Provider>(),
            Ok(Provider::Mcp("a:b".into()))
        );
    }

    #[test]
    fn description_line_matches_lackpy() {
        let spec = ToolSpec::new("write_file", Provider::Builtin)
            .with_arg(ArgSpec::new("path").with_type("str"))
            .with_arg(ArgSpec::new("content").with_type("str"))
            .with_returns("bool")
            .with_description("Write content to a file");
        assert_eq!(
            spec.description_line(),
            "  write_file(path: str, content: str) -> bool  # Write content to a file"
        );
    }
}
