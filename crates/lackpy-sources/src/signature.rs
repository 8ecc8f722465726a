//! The one rendering of a tool's signature, in Python-stub style:
//! `convert(amount: float, unit: Literal['c', 'f'] = 'c') -> float`.
//!
//! Prompts, `run_program`'s description, `lackpy tools`, `list_tools` and
//! `lackpy stubs` all show tools through [`ToolSpec::signature`] and
//! [`ToolSpec::stub_line`], so a model sees the same shape everywhere.
//! Every piece is bounded: schemas come from servers we do not control.

use serde_json::Value;

use crate::model::{ArgSpec, ToolSpec};

/// The most `Literal[...]` values shown; more end in `...`.
pub const MAX_CHOICES: usize = 8;
/// The longest default repr shown; a longer one shows as `...`.
const MAX_DEFAULT: usize = 40;
/// The longest type shown; a longer one is cut to its outer kind.
pub const MAX_TYPE: usize = 120;
/// The longest argument name shown; a longer one is cut, ending in `...`.
pub const MAX_NAME: usize = 64;
/// The most parameters a signature shows; the rest are counted.
pub const MAX_PARAMS: usize = 32;
/// The longest description a prompt line shows; a longer one is cut.
const MAX_DESCRIPTION: usize = 500;

/// A JSON value as Python source (`'text'`, `True`, `None`, `[1, 2]`,
/// `{'a': 1}`), bounded to a few hundred bytes: past that, containers end
/// in `...` and strings are cut inside their quotes.
pub fn py_repr(v: &Value) -> String {
    let mut out = String::new();
    repr_into(v, &mut out, 200);
    out
}

fn repr_into(v: &Value, out: &mut String, budget: usize) {
    match v {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => py_str(s, out, budget),
        Value::Array(items) => {
            out.push('[');
            seq(items.iter().map(|i| (None, i)), out, budget);
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            seq(map.iter().map(|(k, i)| (Some(k), i)), out, budget);
            out.push('}');
        }
    }
}

/// The items of a list or dict, stopping with `...` past `budget`.
fn seq<'a>(
    items: impl Iterator<Item = (Option<&'a String>, &'a Value)>,
    out: &mut String,
    budget: usize,
) {
    let start = out.len();
    for (i, (key, item)) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if out.len() - start > budget {
            out.push_str("...");
            return;
        }
        let left = budget.saturating_sub(out.len() - start);
        if let Some(k) = key {
            py_str(k, out, left);
            out.push_str(": ");
        }
        repr_into(item, out, left);
    }
}

/// A Python string literal; a string longer than `budget` is cut (marked
/// with `...` inside the quotes, so the result stays a valid literal).
fn py_str(s: &str, out: &mut String, budget: usize) {
    out.push('\'');
    for (n, c) in s.chars().enumerate() {
        if n >= budget.max(8) {
            out.push_str("...");
            break;
        }
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c) & 0xff)),
            c => out.push(c),
        }
    }
    out.push('\'');
}

/// `Literal[...]` over `values`, at most [`MAX_CHOICES`] shown.
pub fn literal(values: &[Value]) -> String {
    let mut shown: Vec<String> = values
        .iter()
        .take(MAX_CHOICES)
        .map(|v| {
            let mut s = String::new();
            repr_into(v, &mut s, 30);
            s
        })
        .collect();
    if values.len() > MAX_CHOICES {
        shown.push("...".to_string());
    }
    format!("Literal[{}]", shown.join(", "))
}

/// Whether `name` can stand as a Python parameter name (soft keywords
/// like `match` can, hard ones cannot).
pub fn is_parameter_name(name: &str) -> bool {
    let soft = matches!(name, "match" | "case" | "_");
    crate::naming::is_identifier(name) && (soft || !crate::naming::KEYWORDS.contains(&name))
}

impl ArgSpec {
    /// The argument's type as a signature shows it: `Literal[...]` when the
    /// source lists its values, else its display type.
    pub fn shown_type(&self) -> String {
        if self.choices.is_empty() {
            self.type_name.clone()
        } else {
            literal(&self.choices)
        }
    }

    /// The argument as a parameter: `name: type`, then ` = default` for an
    /// optional one (`= None` when the source gives no default, `= ...`
    /// when the default is too long to show).
    pub fn parameter(&self) -> String {
        let mut p = format!("{}: {}", cut(&self.name, MAX_NAME), self.shown_type());
        if !self.required {
            let default = self.default.as_ref().map_or_else(|| "None".into(), py_repr);
            if default.len() > MAX_DEFAULT {
                p.push_str(" = ...");
            } else {
                p.push_str(" = ");
                p.push_str(&default);
            }
        }
        p
    }
}

impl ToolSpec {
    /// The tool's signature: `name(arg: type, opt: type = default) -> returns`.
    ///
    /// At most [`MAX_PARAMS`] parameters are shown, then `... (+N more)`.
    pub fn signature(&self) -> String {
        let mut params: Vec<String> = self
            .args
            .iter()
            .take(MAX_PARAMS)
            .map(ArgSpec::parameter)
            .collect();
        if self.args.len() > MAX_PARAMS {
            params.push(format!("... (+{} more)", self.args.len() - MAX_PARAMS));
        }
        format!("{}({}) -> {}", self.name, params.join(", "), self.returns)
    }

    /// The signature and, when there is one, the description as a comment:
    /// `name(arg: str) -> dict  # What it does`.
    pub fn stub_line(&self) -> String {
        stub_line_with(self, &self.description)
    }
}

/// [`ToolSpec::stub_line`] with `description` in place of the spec's own
/// (the namespace budget shortens descriptions, never signatures).
pub(crate) fn stub_line_with(spec: &ToolSpec, description: &str) -> String {
    let sig = spec.signature();
    let description = description.trim();
    if description.is_empty() {
        sig
    } else {
        format!("{sig}  # {}", cut(description, MAX_DESCRIPTION))
    }
}

/// `text` cut to at most `max` characters, ending in `...` when cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(3)).collect();
    format!("{kept}...")
}

/// The most bytes a namespace description should take: past it,
/// descriptions are cut to their first sentence, then dropped; signatures
/// are never cut.
pub const DESCRIPTION_BUDGET: usize = 16 * 1024;

/// The namespace's prompt lines, one `  signature  # description` per
/// tool, kept within `budget` bytes by shortening descriptions (all to
/// their first sentence, then none) — never by dropping a tool.
pub fn describe_within(specs: &[&ToolSpec], budget: usize) -> String {
    fit_descriptions(
        specs,
        |s, description| format!("  {}", stub_line_with(s, description)),
        |s| &s.description,
        budget,
    )
}

/// One line per item, `render(item, description)`, kept within `budget`
/// bytes by shortening the descriptions — all to their first sentence,
/// then none — never by dropping an item (the rule every namespace
/// listing follows, whatever its lines look like).
pub fn fit_descriptions<T>(
    items: &[T],
    render: impl Fn(&T, &str) -> String,
    description: impl Fn(&T) -> &str,
    budget: usize,
) -> String {
    let lines = |cut: fn(&str) -> &str| {
        items
            .iter()
            .map(|i| render(i, cut(description(i))))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let full = lines(|d| d);
    if full.len() <= budget {
        return full;
    }
    let short = lines(first_sentence);
    if short.len() <= budget {
        return short;
    }
    lines(|_| "")
}

/// A description's first sentence (up to the first `. ` or line end).
pub fn first_sentence(text: &str) -> &str {
    let line = text.lines().next().unwrap_or_default().trim();
    match line.find(". ") {
        Some(i) => line.get(..=i).unwrap_or(line),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Provider;
    use serde_json::json;

    #[test]
    fn python_reprs() {
        assert_eq!(py_repr(&json!(null)), "None");
        assert_eq!(py_repr(&json!(true)), "True");
        assert_eq!(py_repr(&json!(1.5)), "1.5");
        assert_eq!(py_repr(&json!("it's\n")), r"'it\'s\n'");
        assert_eq!(py_repr(&json!([1, "a"])), "[1, 'a']");
        assert_eq!(py_repr(&json!({"k": false})), "{'k': False}");
    }

    #[test]
    fn huge_values_are_bounded() {
        let long = json!("x".repeat(10_000));
        assert!(py_repr(&long).len() < 260);
        let many = Value::Array((0..10_000).map(|i| json!(i)).collect());
        let r = py_repr(&many);
        assert!(r.len() < 260 && r.ends_with("...]"), "{r}");
        let values: Vec<Value> = (0..1000).map(|i| json!(format!("v{i}"))).collect();
        assert_eq!(
            literal(&values),
            "Literal['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', ...]"
        );
    }

    #[test]
    fn parameters_show_defaults_and_choices() {
        let mut unit = ArgSpec::new("unit").with_type("str").optional();
        unit.choices = vec![json!("c"), json!("f")];
        unit.default = Some(json!("c"));
        assert_eq!(unit.parameter(), "unit: Literal['c', 'f'] = 'c'");
        let opt = ArgSpec::new("tz").with_type("str | None").optional();
        assert_eq!(opt.parameter(), "tz: str | None = None");
        let mut long = ArgSpec::new("x").with_type("str").optional();
        long.default = Some(json!("y".repeat(100)));
        assert_eq!(long.parameter(), "x: str = ...");
    }

    #[test]
    fn signature_and_stub_line() {
        let spec = ToolSpec::new("convert", Provider::Builtin)
            .with_arg(ArgSpec::new("amount").with_type("float"))
            .with_returns("float")
            .with_description("Convert a temperature");
        assert_eq!(spec.signature(), "convert(amount: float) -> float");
        assert_eq!(
            spec.stub_line(),
            "convert(amount: float) -> float  # Convert a temperature"
        );
        assert_eq!(
            ToolSpec::new("n", Provider::Builtin).stub_line(),
            "n() -> Any"
        );
    }

    #[test]
    fn the_budget_cuts_descriptions_never_signatures() {
        let specs: Vec<ToolSpec> = (0..3)
            .map(|i| {
                ToolSpec::new(format!("t{i}"), Provider::Builtin)
                    .with_description("First sentence. Then a long tail of more words.")
            })
            .collect();
        let refs: Vec<&ToolSpec> = specs.iter().collect();
        let full = describe_within(&refs, usize::MAX);
        assert!(full.contains("long tail"));
        let short = describe_within(&refs, full.len() - 1);
        assert!(short.contains("# First sentence.") && !short.contains("tail"));
        let bare = describe_within(&refs, 10);
        assert_eq!(bare, "  t0() -> Any\n  t1() -> Any\n  t2() -> Any");
    }

    #[test]
    fn long_names_many_arguments_and_long_descriptions_are_bounded() {
        let mut spec =
            ToolSpec::new("t", Provider::Builtin).with_description("word ".repeat(10_000));
        spec.args = (0..1000)
            .map(|i| ArgSpec::new(format!("{}{i}", "n".repeat(1000))).with_type("str"))
            .collect();
        let line = spec.stub_line();
        assert!(line.len() < 4000, "{}", line.len());
        assert!(line.contains("... (+968 more)) -> Any  # word"), "{line}");
        assert!(line.ends_with("..."));
        assert_eq!(
            spec.args[0].parameter().len(),
            "n".len() * 64 + ": str".len()
        );
    }

    #[test]
    fn first_sentences() {
        assert_eq!(first_sentence("One. Two. Three"), "One.");
        assert_eq!(first_sentence("No stop\nmore"), "No stop");
        assert_eq!(first_sentence("v1.2 is out"), "v1.2 is out");
    }

    #[test]
    fn parameter_names() {
        assert!(is_parameter_name("path"));
        assert!(is_parameter_name("match"));
        assert!(!is_parameter_name("user-id"));
        assert!(!is_parameter_name("class"));
        assert!(!is_parameter_name("1x"));
    }
}
