//! The record of tool calls a run made.

use std::time::Duration;

use crate::data::Data;

/// One tool call of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceEntry {
    /// 0-based index of the call in the run.
    pub step: usize,
    /// The name the program called.
    pub tool: String,
    /// Arguments, named after the tool's declared arguments (`arg{i}` past
    /// them), keyword arguments merged on top in call order.
    pub args: Vec<(String, Data)>,
    /// The result (strings over 500 characters cut), `None` on failure.
    pub result: Option<Data>,
    /// How long the call took.
    pub duration: Duration,
    /// Whether the call succeeded.
    pub success: bool,
    /// The tool's error message on failure.
    pub error: Option<String>,
}

/// Longest string result kept whole in the trace.
const MAX_RESULT_CHARS: usize = 500;

/// Names the arguments of a call as the trace shows them.
pub(crate) fn name_args(
    declared: &[String],
    args: &[Data],
    kwargs: &[(String, Data)],
) -> Vec<(String, Data)> {
    let mut out: Vec<(String, Data)> = Vec::with_capacity(args.len() + kwargs.len());
    for (i, a) in args.iter().enumerate() {
        let name = declared
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("arg{i}"));
        out.push((name, a.clone()));
    }
    for (k, v) in kwargs {
        match out.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = v.clone(),
            None => out.push((k.clone(), v.clone())),
        }
    }
    out
}

/// A result as the trace keeps it: a long string is cut to its first 500
/// characters followed by `... ({len} chars)`.
pub(crate) fn summarize(result: &Data) -> Data {
    match result {
        Data::Str(s) => {
            let n = s.chars().count();
            if n > MAX_RESULT_CHARS {
                let cut: String = s.chars().take(MAX_RESULT_CHARS).collect();
                Data::Str(format!("{cut}... ({n} chars)"))
            } else {
                result.clone()
            }
        }
        other => other.clone(),
    }
}
