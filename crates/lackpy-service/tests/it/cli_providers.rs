//! Delegation's configuration diagnosed: `status` calls a provider
//! reachable only when its API answers (a 404 from a base URL without
//! `/v1` says so), `[inference].order` names only tiers, a table the order
//! leaves out and an `api_key` in the file are warnings.

use crate::common;

use common::chat_server::ChatServer;
use common::lackpy_in;
use serde_json::Value;

fn workspace(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    dir
}

fn status(ws: &std::path::Path) -> Value {
    let out = lackpy_in(ws, &["status", "--json"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect("JSON")
}

#[test]
fn a_404_on_models_is_unreachable_and_suggests_v1() {
    let server = ChatServer::start(vec![]);
    let bare = server.base_url().trim_end_matches("/v1").to_string();
    let ws = workspace(&format!(
        "[inference.providers.bare]\nbase_url = \"{bare}\"\nmodel = \"m\"\n\
         [inference.providers.good]\nbase_url = \"{}\"\nmodel = \"m\"\n",
        server.base_url()
    ));
    let v = status(ws.path());
    let p = &v["providers"];
    assert_eq!(p[0]["reachable"], false, "{p}");
    assert_eq!(
        p[0]["reason"],
        format!(
            "GET {bare}/models answered 404 Not Found (OpenAI-compatible servers listen under \
             /v1: base_url = \"{bare}/v1\"?)"
        )
    );
    assert_eq!(p[1]["reachable"], true, "{p}");
}

#[test]
fn an_unknown_order_name_is_a_config_error_with_a_suggestion() {
    let ws = workspace(
        "[inference]\norder = [\"templates\", \"locl\"]\n\
         [inference.providers.local]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n",
    );
    let out = lackpy_in(ws.path(), &["status"], "");
    assert_eq!(out.code, 2, "{}", out.stderr);
    let shown = out.stderr.replace(&ws.path().display().to_string(), "<ws>");
    insta::assert_snapshot!("unknown_order_name", shown);
}

#[test]
fn a_table_left_out_of_the_order_and_an_inline_key_are_warnings() {
    let ws = workspace(
        "[inference]\norder = [\"local\"]\n\
         [inference.providers.local]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n\
         api_key = \"inline-s3cret\"\n\
         [inference.providers.spare]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n",
    );
    let out = lackpy_in(ws.path(), &["status", "--json"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("s3cret") && !out.stderr.contains("s3cret"));
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let file = ws.path().join(".lackpy/config.toml").display().to_string();
    let warnings: Vec<String> = v["config_warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(Value::as_str)
        .map(|w| w.replace(&file, "<config>"))
        .collect();
    insta::assert_snapshot!("inference_warnings", warnings.join("\n"));
    // Each warning once on stderr, none in the text output twice.
    let text = lackpy_in(ws.path(), &["status"], "");
    for w in &warnings {
        let msg = w.trim_start_matches("<config>");
        let count = text.stdout.matches(msg).count() + text.stderr.matches(msg).count();
        assert_eq!(count, 1, "{msg}: {}{}", text.stdout, text.stderr);
    }
}
