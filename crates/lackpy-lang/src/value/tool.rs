//! A tool as a run sees it: plain data, no way to call it (calls go
//! through the interpreter's host).

/// A tool as a value inside a run: its name and declared argument names.
#[derive(Debug)]
pub(crate) struct ToolInfo {
    pub name: String,
    pub args: Vec<String>,
}
