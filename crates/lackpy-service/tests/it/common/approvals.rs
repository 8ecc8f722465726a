//! Workspaces for the approval and resume tests: command tools that leave
//! a line in a file per call, behind a `[policy]` approval line.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::Out;

/// Every command tool runs `sh tool.sh NAME`: it notes the call's
/// arguments in `NAME.started`, waits while the file `hold` exists if the
/// arguments say `slow`, then appends them to `NAME.txt` and answers with
/// that file's line count.
pub const TOOL_SH: &str = r#"name=$1
a=$(cat)
echo "$a" >> "$name.started"
case "$a" in *slow*) while [ -e hold ]; do sleep 0.02; done;; esac
echo "$a" >> "$name.txt"
wc -l < "$name.txt" | tr -d ' '
"#;

/// `send` (3, 3), `count` (1, 0) and `push` (1, 2) behind
/// `approve_above (2, 1)`: `send` and `push` need approval.
pub const CONFIG: &str = r#"[policy]
approve_above = { w = 2, d = 1 }

[[tools]]
name = "send"
provider = "command"
command = ["sh", "tool.sh", "send"]
description = "Send text somewhere"
returns = "int"
grade_w = 3
effects_ceiling = 3
args = [{ name = "text", type = "str" }]

[[tools]]
name = "count"
provider = "command"
command = ["sh", "tool.sh", "count"]
description = "Count a text"
returns = "int"
grade_w = 1
effects_ceiling = 0
args = [{ name = "text", type = "str" }]

[[tools]]
name = "push"
provider = "command"
command = ["sh", "tool.sh", "push"]
description = "Push a text"
returns = "int"
grade_w = 1
effects_ceiling = 2
args = [{ name = "text", type = "str" }]
"#;

/// A workspace with [`CONFIG`] (and `extra` appended to it), `tool.sh`
/// and `p.lpy` holding `program`.
pub fn workspace(program: &str, extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(
        dir.path().join(".lackpy/config.toml"),
        format!("{CONFIG}{extra}"),
    )
    .expect("config");
    std::fs::write(dir.path().join("tool.sh"), TOOL_SH).expect("tool.sh");
    std::fs::write(dir.path().join("p.lpy"), program).expect("program");
    dir
}

/// The lines a tool's file holds (its completed calls' arguments); empty
/// when it was never called.
pub fn lines(ws: &Path, file: &str) -> Vec<String> {
    std::fs::read_to_string(ws.join(file))
        .map(|t| t.lines().map(String::from).collect())
        .unwrap_or_default()
}

/// stdout as one JSON object.
pub fn parse(out: &Out) -> Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "one JSON object on stdout ({e}): {:?}\nstderr: {}",
            out.stdout, out.stderr
        )
    })
}

/// Replaces run ids and RFC 3339 times, which change from run to run, by
/// placeholders of the same width (tables stay aligned).
pub fn normalise(text: &str) -> String {
    let ids = regex::Regex::new(r"\br[0-9a-f]{16}\b").expect("regex");
    let times = regex::Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ").expect("regex");
    let text = ids.replace_all(text, "rXXXXXXXXXXXXXXXX");
    times
        .replace_all(&text, "YYYY-MM-DDTHH:MM:SSZ")
        .into_owned()
}

/// Waits until `file` in `ws` has a line containing `needle`.
pub fn wait_for_line(ws: &Path, file: &str, needle: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !lines(ws, file).iter().any(|l| l.contains(needle)) {
        assert!(
            Instant::now() < deadline,
            "{file} never got a line with {needle:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Each trace entry's `(tool, replayed, approval)`.
pub fn trace_summary(v: &Value) -> Vec<(String, bool, Option<String>)> {
    v["trace"]
        .as_array()
        .expect("a trace")
        .iter()
        .map(|e| {
            (
                e["tool"].as_str().unwrap_or("").to_string(),
                e["replayed"].as_bool().unwrap_or(false),
                e["approval"].as_str().map(String::from),
            )
        })
        .collect()
}
