//! The shipped defaults are data, loaded at precedence 10 under the user's
//! `[[tools]]` (20).

use crate::common;

use std::path::Path;

use lackpy_sources::default_tools;
use lackpy_sources::lang::Grade;
use lackpy_sources::{Config, parse_config};
use lackpy_sources::{Precedence, Provider, PythonRuntime, Toolbox, add_local_sources};

#[test]
fn the_embedded_defaults_are_the_four_file_tools_of_tools_md() {
    let tools = default_tools().unwrap_or_else(|e| panic!("{e}"));
    let specs: Vec<(String, String, Grade)> = tools
        .iter()
        .map(|t| {
            let spec = t.spec();
            let args: Vec<&str> = spec.args.iter().map(|a| a.name.as_str()).collect();
            (
                format!("{}({})", spec.name, args.join(", ")),
                spec.returns.clone(),
                spec.grade,
            )
        })
        .collect();
    assert_eq!(
        specs,
        vec![
            ("read_file(path)".into(), "str".into(), Grade::new(1, 1)),
            (
                "find_files(pattern)".into(),
                "list[str]".into(),
                Grade::new(1, 1)
            ),
            (
                "write_file(path, content)".into(),
                "bool".into(),
                Grade::new(3, 3)
            ),
            (
                "edit_file(path, old_str, new_str)".into(),
                "bool".into(),
                Grade::new(3, 3)
            ),
        ]
    );
    assert!(tools.iter().all(|t| t.spec().provider == Provider::Builtin));
}

#[test]
fn prompt_lines_read_like_lackpy() {
    let mut tb = Toolbox::new();
    add_local_sources(&mut tb, &Config::default(), &PythonRuntime::new(), None)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        tb.format_description(&tb.available_names()),
        "  read_file(path: str) -> str  # Read file contents\n  \
         find_files(pattern: str) -> list[str]  # Find files matching a glob pattern\n  \
         write_file(path: str, content: str) -> bool  # Write content to a file\n  \
         edit_file(path: str, old_str: str, new_str: str) -> bool  # Replace text in a file"
    );
    assert_eq!(tb.grade(&["read_file", "find_files"]), Grade::new(1, 1));
}

#[test]
fn a_user_tool_of_the_same_name_overrides_a_default_and_is_logged() {
    let cfg = parse_config(
        r#"
[[tools]]
name = "read_file"
provider = "builtin"
function = "read_file"
description = "Read a file (mine)"
returns = "str"
grade_w = 1
effects_ceiling = 0
args = [{ name = "path", type = "str" }]
"#,
        Path::new("config.toml"),
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .config;
    let mut tb = Toolbox::new();
    let (res, logs) =
        common::with_logs(|| add_local_sources(&mut tb, &cfg, &PythonRuntime::new(), None));
    res.unwrap_or_else(|e| panic!("{e}"));
    let r = tb.resolve("read_file").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (r.source.as_str(), r.precedence),
        ("config", Precedence::USER_CONFIG)
    );
    assert_eq!(r.spec.description, "Read a file (mine)");
    assert!(
        logs.contains("tool 'read_file' from 'config' shadows the one from 'defaults'"),
        "{logs}"
    );
    let listing = tb.listing();
    let entry = listing
        .iter()
        .find(|l| l.name == "read_file")
        .unwrap_or_else(|| panic!("listed"));
    assert_eq!(entry.shadows().len(), 1);
    assert_eq!(entry.shadows()[0].source, "defaults");
    assert_eq!(entry.shadows()[0].precedence, Precedence::DEFAULTS);
}
