//! An MCP result part lackpy does not keep (an image beside text) shows in
//! the value and the trace as a note, never silently lost.

use crate::common;

use common::lackpy_in;
use common::test_server::mcp_test_server;
use serde_json::{Value, json};

#[test]
fn an_image_beside_text_is_noted_in_the_value_and_the_trace() {
    let ws = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(ws.path().join(".lackpy")).expect("mkdir");
    std::fs::write(
        ws.path().join(".lackpy/config.toml"),
        format!(
            "[mcp_servers.everything]\ncommand = {:?}\n",
            mcp_test_server().display().to_string()
        ),
    )
    .expect("config");
    let out = lackpy_in(ws.path(), &["run", "-", "--json"], "captioned()\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let note = json!({"type": "image", "mimeType": "image/png", "omitted_bytes": 8});
    assert_eq!(v["output"], json!(["a small picture", note]), "{v}");
    assert_eq!(v["trace"][0]["tool"], "captioned");
    assert!(
        v["trace"][0]["result"]
            .to_string()
            .contains("omitted_bytes"),
        "{}",
        v["trace"][0]
    );
    // The human trace (its preview cut at 60 characters) shows it too.
    let out = lackpy_in(ws.path(), &["-v", "run", "-"], "captioned()\n");
    assert!(
        out.stderr
            .contains("captioned() -> ['a small picture', {'type': 'image'"),
        "{}",
        out.stderr
    );
}
