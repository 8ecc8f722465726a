//! What the model is told: a system message that describes the namespace
//! (and nothing beyond it), the intent as the user message, and, after an
//! invalid answer, the validator's errors.
//!
//! Everything here is a pure function of its inputs, so the same namespace,
//! params and intent always give the same messages.

use lackpy_lang::Data;
use lackpy_sources::{ArgSpec, ToolSpec};
use serde::Serialize;

/// Who says a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The instructions.
    System,
    /// The intent, or the errors of the last answer.
    User,
    /// The model's last answer.
    Assistant,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: String,
}

impl Message {
    /// A message from `role`.
    pub fn new(role: Role, content: impl Into<String>) -> Message {
        Message {
            role,
            content: content.into(),
        }
    }
}

/// A tool as the prompt shows it: the name a program calls, its
/// arguments, what it returns and what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolLine {
    /// The name the program calls (an alias when the profile gives one).
    pub name: String,
    /// Argument names, in order.
    pub args: Vec<String>,
    /// The display type of the result.
    pub returns: String,
    /// One line on what it does.
    pub description: String,
}

impl ToolLine {
    /// A tool's line under the name the program calls it by: its arguments
    /// typed, as every other place shows a tool (`ArgSpec::parameter`:
    /// `unit: Literal['c', 'f'] = 'c'`).
    pub fn of_spec(called: String, spec: &ToolSpec) -> ToolLine {
        ToolLine {
            name: called,
            args: spec.args.iter().map(ArgSpec::parameter).collect(),
            returns: spec.returns.clone(),
            description: spec.description.clone(),
        }
    }

    /// `  name(arg: type, …) -> returns  # description`: the stub line
    /// every other listing shows (`ToolSpec::stub_line`), under the name
    /// the program calls.
    pub fn render(&self) -> String {
        self.render_with(&self.description)
    }

    fn render_with(&self, description: &str) -> String {
        let sig = format!(
            "  {}({}) -> {}",
            self.name,
            self.args.join(", "),
            self.returns
        );
        match description.trim() {
            "" => sig,
            d => format!("{sig}  # {d}"),
        }
    }
}

/// The namespace's lines within the description budget, by the rule every
/// listing follows (`lackpy_sources::fit_descriptions`).
fn tool_lines(tools: &[ToolLine]) -> String {
    lackpy_sources::fit_descriptions(
        tools,
        ToolLine::render_with,
        |t| &t.description,
        lackpy_sources::DESCRIPTION_BUDGET,
    )
}

/// A param as the model sees it (never its value) and as the program gets
/// it.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamInfo {
    /// The name the program uses.
    pub name: String,
    /// The value the program gets.
    pub value: Data,
    /// The type shown to the model (Python's name for the value's type,
    /// unless the caller gave one).
    pub type_name: String,
    /// What it is, when the caller said.
    pub description: Option<String>,
}

impl ParamInfo {
    /// A param from a call: a dict `{"value": v, "type"?: t,
    /// "description"?: d}` (lackpy's described form) gives `v` with that
    /// type and description; any other value stands for itself.
    pub fn from_call(name: String, value: Data) -> ParamInfo {
        if let Data::Dict(items) = &value {
            let get = |key: &str| {
                items
                    .iter()
                    .find(|(k, _)| matches!(k, Data::Str(s) if s == key))
                    .map(|(_, v)| v)
            };
            if let Some(inner) = get("value") {
                let text = |key: &str| match get(key) {
                    Some(Data::Str(s)) => Some(s.clone()),
                    _ => None,
                };
                return ParamInfo {
                    type_name: text("type").unwrap_or_else(|| inner.type_name().to_string()),
                    description: text("description").filter(|d| !d.is_empty()),
                    value: inner.clone(),
                    name,
                };
            }
        }
        ParamInfo {
            type_name: value.type_name().to_string(),
            description: None,
            value,
            name,
        }
    }

    /// `  name: type — description`.
    pub fn render(&self) -> String {
        match &self.description {
            Some(d) => format!("  {}: {} — {d}", self.name, self.type_name),
            None => format!("  {}: {}", self.name, self.type_name),
        }
    }
}

/// The system message: write one notebook cell with only these tools, the
/// builtins and the params.
pub fn system_prompt(tools: &[ToolLine], params: &[ParamInfo]) -> String {
    let mut out = String::from(
        "You write a single Jupyter notebook cell of Python that does what the user asks.\n\
         The cell runs in a kernel that holds only the names listed below: call these tools, \
         these builtins and the pre-set variables, and nothing else. There is nothing to \
         import, and files are reached through the tools, never open().\n\
         Reply with the cell's source alone: no explanation, no Markdown, no code fences. \
         Keep a tool's result in a variable and use the variable again instead of repeating \
         the call. The value of the cell's last expression is its result.\n\nTools:\n",
    );
    if tools.is_empty() {
        out.push_str("  (none)\n");
    }
    if !tools.is_empty() {
        out.push_str(&tool_lines(tools));
        out.push('\n');
    }
    out.push_str("\nBuiltins (a lambda is allowed only as a key= argument):\n");
    for b in lackpy_lang::builtin_signatures() {
        out.push_str(&format!("  {b}\n"));
    }
    if !params.is_empty() {
        out.push_str("\nPre-set variables (already defined; use them by name):\n");
        for p in params {
            out.push_str(&p.render());
            out.push('\n');
        }
    }
    out
}

/// The first messages of a conversation: the system prompt and the intent.
pub fn opening(system: &str, intent: &str) -> Vec<Message> {
    vec![
        Message::new(Role::System, system),
        Message::new(Role::User, intent),
    ]
}

/// The user message after an answer the validator refused.
pub fn correction(errors: &[String]) -> String {
    let mut out = String::from("That cell cannot run here: the validator refused it.\nErrors:\n");
    for e in errors {
        out.push_str("- ");
        out.push_str(e);
        out.push('\n');
    }
    out.push_str(
        "Write the whole cell again, fixing every error and using only the tools, builtins \
         and variables listed in the first message. Reply with the code alone.",
    );
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_large_namespace_keeps_every_signature_and_cuts_descriptions() {
        let tools: Vec<ToolLine> = (0..300)
            .map(|i| ToolLine {
                name: format!("tool_{i}"),
                args: vec!["path: str".into()],
                returns: "str".into(),
                description: format!("Does thing {i}. {}", "More words. ".repeat(20)),
            })
            .collect();
        let text = tool_lines(&tools);
        assert_eq!(text.lines().count(), 300);
        assert!(
            text.lines()
                .all(|l| l.starts_with("  tool_") && l.contains("(path: str) -> str"))
        );
        assert!(!text.contains("More words"), "descriptions are cut first");
        let few = tool_lines(&tools[..3]);
        assert!(
            few.contains("More words"),
            "a small namespace keeps them whole"
        );
    }

    use super::*;

    #[test]
    fn described_params_give_value_type_and_description() {
        let described = Data::Dict(vec![
            (Data::Str("value".into()), Data::Int(3.into())),
            (
                Data::Str("description".into()),
                Data::Str("how many".into()),
            ),
        ]);
        let p = ParamInfo::from_call("n".into(), described);
        assert_eq!(p.value, Data::Int(3.into()));
        assert_eq!(p.render(), "  n: int — how many");
        let typed = Data::Dict(vec![
            (Data::Str("value".into()), Data::Str("a".into())),
            (Data::Str("type".into()), Data::Str("path".into())),
        ]);
        assert_eq!(
            ParamInfo::from_call("p".into(), typed).render(),
            "  p: path"
        );
        let plain = Data::Dict(vec![(Data::Str("k".into()), Data::None)]);
        let p = ParamInfo::from_call("d".into(), plain.clone());
        assert_eq!((p.render(), p.value), ("  d: dict".to_string(), plain));
    }

    #[test]
    fn the_prompt_is_deterministic() {
        let tools = [
            ToolLine {
                name: "read_file".into(),
                args: vec!["path".into()],
                returns: "str".into(),
                description: "Read a file's text".into(),
            },
            ToolLine {
                name: "find".into(),
                args: vec!["pattern".into(), "root".into()],
                returns: "list[str]".into(),
                description: "Paths matching a glob".into(),
            },
        ];
        let params = [
            ParamInfo::from_call("limit".into(), Data::Int(5.into())),
            ParamInfo::from_call(
                "topic".into(),
                Data::Dict(vec![
                    (Data::Str("value".into()), Data::Str("secret plans".into())),
                    (
                        Data::Str("description".into()),
                        Data::Str("what to look for".into()),
                    ),
                ]),
            ),
        ];
        let system = system_prompt(&tools, &params);
        assert_eq!(system, system_prompt(&tools, &params));
        let mut conversation = opening(&system, "summarise the notes about the topic");
        conversation.push(Message::new(Role::Assistant, "import os\nos.listdir()"));
        conversation.push(Message::new(
            Role::User,
            correction(&["Forbidden AST node: Import at line 1".to_string()]),
        ));
        let shown: Vec<String> = conversation
            .iter()
            .map(|m| format!("[{:?}]\n{}", m.role, m.content))
            .collect();
        insta::assert_snapshot!("prompt_conversation", shown.join("\n\n"));
    }

    #[test]
    fn values_never_reach_the_prompt() {
        let p = ParamInfo::from_call("token".into(), Data::Str("s3cret-value".into()));
        let prompt = system_prompt(&[], &[p]);
        assert!(!prompt.contains("s3cret-value"), "{prompt}");
        assert!(prompt.contains("  token: str\n"), "{prompt}");
        assert!(prompt.contains("Tools:\n  (none)\n"), "{prompt}");
    }
}
