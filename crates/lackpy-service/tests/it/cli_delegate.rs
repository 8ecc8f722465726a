//! `lackpy delegate`, `generate`, `template` and the providers of `status`
//! through the real binary, against a real scripted OpenAI-compatible
//! server (`common/chat_server.rs`).

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::chat_server::{ChatServer, Reply, refused_url};
use common::{Out, lackpy_env, lackpy_in};
use serde_json::{Value, json};

/// A workspace with `notes.txt` and `config` as its config file.
fn workspace(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    std::fs::write(dir.path().join("notes.txt"), "alpha beta gamma\n").expect("notes");
    dir
}

/// `[inference.providers.NAME]` in our own form.
fn provider(name: &str, url: &str, extra: &str) -> String {
    format!(
        "[inference.providers.{name}]\nbase_url = \"{url}\"\nmodel = \"scripted-model\"\n{extra}\n"
    )
}

fn parse(out: &Out) -> Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "one JSON object on stdout ({e}): {}\nstderr: {}",
            out.stdout, out.stderr
        )
    })
}

fn delegate(ws: &Path, intent: &str, extra: &[&str]) -> (Out, Value) {
    let mut args = vec!["delegate", intent, "--json"];
    args.extend_from_slice(extra);
    let out = lackpy_in(ws, &args, "");
    let v = parse(&out);
    (out, v)
}

fn tiers(v: &Value) -> Vec<String> {
    v["generation_errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|t| t["tier"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn tier_errors(v: &Value, tier: &str) -> String {
    v["generation_errors"]
        .as_array()
        .and_then(|a| a.iter().find(|t| t["tier"] == tier))
        .map(|t| t["errors"].to_string())
        .unwrap_or_else(|| panic!("no errors of tier {tier}: {v}"))
}

const CHATTY: &str = "Sure! Here is the program you asked for:\n\n```python\nimport os\ntext = open('notes.txt').read()\nlen(text.split())\n```\n\nIt reads the file and counts its words.";

#[test]
fn a_lackpy_config_and_a_chatty_answer_that_cleanup_makes_valid() {
    let server = ChatServer::start(vec![Reply::answer(CHATTY)]);
    // lackpy's own form, unchanged.
    let ws = workspace(&format!(
        "[inference]\norder = [\"templates\", \"rules\", \"local\"]\n\
         [inference.providers.local]\nplugin = \"woollama\"\nmodel = \"ollama/qwen2.5-coder:1.5b\"\n\
         base_url = \"{}\"\ntemperature = 0.1\nretry_temperature = 0.7\n",
        server.base_url()
    ));
    let (out, v) = delegate(
        ws.path(),
        "count the words in notes.txt",
        &["--tools", "read_file"],
    );
    assert_eq!(out.code, 0, "{v}\n{}", out.stderr);
    assert_eq!(v["success"], true);
    assert_eq!(
        v["program"],
        "text = read_file('notes.txt')\nlen(text.split())"
    );
    assert_eq!(v["generation_tier"], "local");
    assert_eq!(v["output"], 3);
    assert_eq!(v["correction_attempts"], 0);
    assert_eq!(v["trace"][0]["tool"], "read_file");
    assert_eq!(v["files_read"], json!(["notes.txt"]));
    // No template or rule had anything to try: only tiers that tried and
    // failed are listed.
    assert!(tiers(&v).is_empty(), "{v}");
    let sum = v["generation_time_ms"].as_f64().unwrap_or(-1.0)
        + v["execution_time_ms"].as_f64().unwrap_or(-1.0);
    let total = v["total_time_ms"].as_f64().unwrap_or(-1.0);
    assert!((sum - total).abs() < 0.01, "{v}");

    let requests = server.requests();
    assert_eq!(requests.len(), 1, "cleanup sufficed: no correction round");
    let r = &requests[0];
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.body["model"], "qwen2.5-coder:1.5b");
    assert_eq!(r.body["temperature"], 0.1);
    assert_eq!(r.body["stream"], false);
    assert_eq!(r.body["messages"][0]["role"], "system");
    assert!(
        r.message(0).contains("\n  read_file(path: str) -> str  # "),
        "{}",
        r.message(0)
    );
    assert!(!r.message(0).contains("write_file"), "only the namespace");
    assert_eq!(
        r.body["messages"][1],
        json!({"role": "user", "content": "count the words in notes.txt"})
    );
    assert_eq!(r.header("authorization"), None);
}

#[test]
fn an_invalid_answer_goes_back_with_the_validator_errors() {
    let server = ChatServer::start(vec![
        Reply::answer("total = 0\nwhile total < 3:\n    total += 1\ntotal"),
        Reply::answer("words = read_file('notes.txt').split()\nlen(words)"),
    ]);
    let ws = workspace(&provider(
        "local",
        &server.base_url(),
        "retry_temperature = 0.9",
    ));
    let (out, v) = delegate(ws.path(), "count the words", &["--tools", "read_file"]);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["output"], 3);
    assert_eq!(v["correction_attempts"], 1);
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let second = &requests[1];
    assert_eq!(second.body["temperature"], 0.9);
    let messages = second.body["messages"].as_array().map_or(0, Vec::len);
    assert_eq!(messages, 4, "{}", second.body);
    assert_eq!(second.body["messages"][2]["role"], "assistant");
    assert_eq!(
        second.message(2),
        "total = 0\nwhile total < 3:\n    total += 1\ntotal"
    );
    // The errors are the validator's own.
    let check = lackpy_in(
        ws.path(),
        &["validate", "-", "--json", "--tools", "read_file"],
        "total = 0\nwhile total < 3:\n    total += 1\ntotal",
    );
    let errors = parse(&check)["errors"].clone();
    let first_error = errors[0].as_str().unwrap_or("?");
    assert!(
        second.message(3).contains(first_error),
        "{}",
        second.message(3)
    );
}

#[test]
fn every_tier_failing_is_a_clear_result() {
    let never = "import os\nos.listdir('.')";
    let server = ChatServer::start(vec![
        Reply::answer(never),
        Reply::answer(never),
        Reply::answer(never),
    ]);
    let ws = workspace(&provider("local", &server.base_url(), ""));
    std::fs::create_dir(ws.path().join(".lackpy/templates")).expect("mkdir");
    std::fs::write(
        ws.path().join(".lackpy/templates/other.tmpl"),
        "---\npattern: \"something else {x}\"\n---\nx = 1\n",
    )
    .expect("template");
    let (out, v) = delegate(ws.path(), "list the folder", &["--tools", "read_file"]);
    assert_eq!(out.code, 1, "{v}");
    assert_eq!(v["success"], false);
    assert_eq!(v["program"], Value::Null);
    assert_eq!(v["generation_tier"], Value::Null);
    assert_eq!(v["trace"], json!([]));
    assert_eq!(v["correction_attempts"], 2);
    assert_eq!(tiers(&v), ["templates", "rules", "local"]);
    assert!(
        tier_errors(&v, "local").contains("Forbidden name: 'os'"),
        "{v}"
    );
    assert_eq!(
        server.requests().len(),
        3,
        "bounded: one answer, two corrections"
    );

    let server = ChatServer::start(vec![
        Reply::answer(never),
        Reply::answer(never),
        Reply::answer(never),
    ]);
    std::fs::write(
        ws.path().join(".lackpy/config.toml"),
        provider("local", &server.base_url(), "max_corrections = 0"),
    )
    .expect("config");
    let out = lackpy_in(
        ws.path(),
        &["generate", "list the folder", "--tools", "read_file"],
        "",
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    insta::assert_snapshot!("generate_fails", out.stderr);
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_hanging_server_is_bounded_by_timeout_ms() {
    let server = ChatServer::start(vec![Reply::Hang]);
    let ws = workspace(&provider("slow", &server.base_url(), "timeout_ms = 700"));
    let started = Instant::now();
    let (out, v) = delegate(ws.path(), "count the words", &[]);
    let took = started.elapsed();
    assert_eq!(out.code, 1, "{v}");
    assert!(took >= Duration::from_millis(700), "{took:?}");
    assert!(took < Duration::from_secs(15), "{took:?}");
    let e = tier_errors(&v, "slow");
    assert!(e.contains("within 700 ms"), "{e}");
    assert_eq!(server.requests().len(), 1, "a timeout is not retried");
}

#[test]
fn connection_refused_skips_the_tier_with_its_reason() {
    let server = ChatServer::start(vec![Reply::answer("len(read_file('notes.txt'))")]);
    let dead = refused_url();
    let ws = workspace(&format!(
        "[inference]\norder = [\"dead\", \"live\"]\n{}{}",
        provider("dead", &dead, ""),
        provider("live", &server.base_url(), "")
    ));
    let (out, v) = delegate(ws.path(), "how long is notes.txt", &[]);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["generation_tier"], "live");
    assert_eq!(v["output"], 17);
    assert_eq!(tiers(&v), ["dead"]);
    let e = tier_errors(&v, "dead");
    assert!(
        e.contains(&format!("cannot connect to {dead}/chat/completions")),
        "{e}"
    );
    assert!(e.to_lowercase().contains("refused"), "{e}");
}

#[test]
fn a_429_or_5xx_is_tried_once_more() {
    let server = ChatServer::start(vec![
        Reply::Status(429, json!({"error": {"message": "slow down"}}), Some(0)),
        Reply::answer("len(read_file('notes.txt'))"),
    ]);
    let ws = workspace(&provider("local", &server.base_url(), ""));
    let (out, v) = delegate(ws.path(), "how long is notes.txt", &[]);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["output"], 17);
    assert_eq!(server.requests().len(), 2);

    let server = ChatServer::start(vec![
        Reply::Status(503, json!({"error": {"message": "overloaded"}}), None),
        Reply::Status(503, json!({"error": {"message": "still overloaded"}}), None),
        Reply::answer("1"),
    ]);
    std::fs::write(
        ws.path().join(".lackpy/config.toml"),
        provider("local", &server.base_url(), ""),
    )
    .expect("config");
    let (out, v) = delegate(ws.path(), "how long is notes.txt", &[]);
    assert_eq!(out.code, 1, "{v}");
    assert_eq!(server.requests().len(), 2, "one retry only");
    let e = tier_errors(&v, "local");
    assert!(e.contains("answered HTTP 503: still overloaded"), "{e}");
}

#[test]
fn a_huge_answer_is_capped() {
    // The issue's 10 MB answer, its length declared: refused unread.
    let server = ChatServer::start(vec![Reply::Huge {
        bytes: 10 << 20,
        declared: true,
    }]);
    let ws = workspace(&provider("local", &server.base_url(), ""));
    let (out, v) = delegate(ws.path(), "count the words", &[]);
    assert_eq!(out.code, 1, "{v}");
    assert!(
        tier_errors(&v, "local").contains("larger than 1048576 bytes"),
        "{v}"
    );
    // Streamed without a length: reading stops at the cap, long before the
    // end (the server can write no more than the socket buffers hold).
    let server = ChatServer::start(vec![Reply::Huge {
        bytes: 200 << 20,
        declared: false,
    }]);
    std::fs::write(
        ws.path().join(".lackpy/config.toml"),
        provider("local", &server.base_url(), "max_response_bytes = 65536"),
    )
    .expect("config");
    let (out, v) = delegate(ws.path(), "count the words", &[]);
    assert_eq!(out.code, 1, "{v}");
    assert!(
        tier_errors(&v, "local").contains("larger than 65536 bytes"),
        "{v}"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        server.huge_written() < 100 << 20,
        "{} bytes written",
        server.huge_written()
    );
}

#[test]
fn the_api_key_comes_from_the_environment_and_never_shows() {
    const KEY: &str = "sk-test-6d1f2a9c";
    let server = ChatServer::start(vec![
        Reply::Status(
            401,
            json!({"error": {"message": format!("invalid api key {KEY}")}}),
            None,
        ),
        Reply::answer("1"),
    ]);
    let ws = workspace(&provider(
        "hosted",
        &server.base_url(),
        "api_key_env = \"LACKPY_TEST_KEY\"",
    ));
    let env = [("LACKPY_TEST_KEY", KEY), ("RUST_LOG", "trace")];
    let out = lackpy_env(
        ws.path(),
        &["delegate", "count the words", "--json"],
        "",
        &env,
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    let requests = server.requests();
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert!(!out.stdout.contains(KEY), "{}", out.stdout);
    assert!(!out.stderr.contains(KEY), "{}", out.stderr);
    assert!(
        out.stdout.contains("invalid api key <redacted>"),
        "{}",
        out.stdout
    );
    let status = lackpy_env(ws.path(), &["status", "--json"], "", &env);
    assert!(!status.stdout.contains(KEY) && !status.stderr.contains(KEY));
    assert_eq!(
        parse(&status)["providers"][0]["api_key_env"],
        "LACKPY_TEST_KEY"
    );
    // Without the variable no request is made.
    let out = lackpy_in(ws.path(), &["delegate", "count the words", "--json"], "");
    let v = parse(&out);
    assert!(
        tier_errors(&v, "hosted")
            .contains("the environment variable LACKPY_TEST_KEY (api_key_env) is not set"),
        "{v}"
    );
    assert_eq!(server.requests().len(), 1);
}

const TEMPLATE: &str = "---\r\nname: show\r\npattern:   'show (?:me )?{path}'  \r\nsuccess_count: 4\r\n---\r\n# shows {path}\r\ncontent = read_file('{path}')\r\ncontent\r\n\r\n";

#[test]
fn templates_answer_first_and_learn_keeping_their_body() {
    let ws = workspace("");
    std::fs::create_dir(ws.path().join(".lackpy/templates")).expect("mkdir");
    let file = ws.path().join(".lackpy/templates/show.tmpl");
    std::fs::write(&file, TEMPLATE).expect("template");
    let (out, v) = delegate(ws.path(), "Show me notes.txt", &[]);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["generation_tier"], "templates");
    assert_eq!(
        v["program"],
        "# shows 'notes.txt'\r\ncontent = read_file('notes.txt')\r\ncontent"
    );
    assert_eq!(v["output"], "alpha beta gamma\n");
    let (out, v) = delegate(ws.path(), "show missing.txt", &[]);
    assert_eq!(out.code, 1, "{v}");
    let text = std::fs::read_to_string(&file).expect("read");
    let expected = TEMPLATE.replace(
        "success_count: 4\r\n",
        "success_count: 5\r\nfail_count: 1\r\n",
    );
    assert_eq!(text, expected);
    // `generate` only writes the program: no count changes.
    let out = lackpy_in(ws.path(), &["generate", "show notes.txt"], "");
    assert_eq!(
        out.stdout,
        "# shows 'notes.txt'\r\ncontent = read_file('notes.txt')\r\ncontent\n"
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), expected);
}

#[test]
fn an_intent_crafted_to_break_out_reaches_the_tool_as_text() {
    let ws = workspace("");
    std::fs::create_dir(ws.path().join(".lackpy/templates")).expect("mkdir");
    std::fs::write(
        ws.path().join(".lackpy/templates/show.tmpl"),
        "---\npattern: \"show {path}\"\n---\ncontent = read_file('{path}')\ncontent\n",
    )
    .expect("template");
    for (intent, text) in [
        (
            "show x'); write_file('pwned.txt', 'owned'); ('",
            "x'); write_file('pwned.txt', 'owned'); ('",
        ),
        (
            "show x\\'); write_file(\"pwned.txt\", \"owned\"); (\"",
            "x\\'); write_file(\"pwned.txt\", \"owned\"); (\"",
        ),
        (
            "read file x')+write_file('pwned.txt','owned')#",
            "x')+write_file('pwned.txt','owned')#",
        ),
    ] {
        let (_, v) = delegate(ws.path(), intent, &[]);
        assert_eq!(v["trace"].as_array().map_or(0, Vec::len), 1, "{v}");
        assert_eq!(v["trace"][0]["tool"], "read_file", "{v}");
        assert_eq!(v["trace"][0]["args"]["path"], text, "{v}");
        assert_eq!(v["files_modified"], json!([]));
        assert!(!ws.path().join("pwned.txt").exists(), "{v}");
    }
}

#[test]
fn a_base_url_query_is_kept_after_the_path_and_never_shown() {
    let server = ChatServer::start(vec![Reply::answer("len(read_file('notes.txt'))")]);
    let dead = format!("{}?key=QDEAD", refused_url());
    let ws = workspace(&format!(
        "[inference]\norder = [\"dead\", \"live\"]\n{}{}",
        provider("dead", &dead, ""),
        provider("live", &format!("{}?key=QLIVE", server.base_url()), "")
    ));
    let (out, v) = delegate(ws.path(), "how long is notes.txt", &[]);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["generation_tier"], "live");
    assert_eq!(server.requests()[0].path, "/v1/chat/completions?key=QLIVE");
    let e = tier_errors(&v, "dead");
    assert!(e.contains("/chat/completions?key=<redacted>"), "{e}");
    let status = lackpy_in(ws.path(), &["status"], "");
    for shown in [&v.to_string(), &out.stderr, &status.stdout, &status.stderr] {
        assert!(
            !shown.contains("QDEAD") && !shown.contains("QLIVE"),
            "{shown}"
        );
    }
    assert!(
        status.stdout.contains("/v1?key=<redacted>"),
        "{}",
        status.stdout
    );
}

#[test]
fn a_capture_in_an_fstring_field_is_a_string_never_code() {
    // The issue's example: `{p}` inside an f-string's replacement field.
    let ws = workspace("");
    std::fs::create_dir(ws.path().join(".lackpy/templates")).expect("mkdir");
    for (name, body) in [
        ("t1", "n = f'{len({p})} chars'\nn"),
        ("t2", "x = f\"hello {{p}}\"\nx"),
        ("t3", "f'{ {p} }'"),
    ] {
        std::fs::write(
            ws.path().join(format!(".lackpy/templates/{name}.tmpl")),
            format!("---\npattern: \"{name} count chars of {{p}}\"\n---\n{body}\n"),
        )
        .expect("template");
    }
    let capture = "write_file(str(1), str(2))";
    for (name, output) in [
        ("t1", "26 chars"),
        ("t2", "hello {write_file(str(1), str(2))}"),
        ("t3", capture),
    ] {
        let (out, v) = delegate(ws.path(), &format!("{name} count chars of {capture}"), &[]);
        assert_eq!(out.code, 0, "{v}\n{}", out.stderr);
        assert_eq!(v["generation_tier"], "templates", "{v}");
        assert_eq!(v["output"], output, "{v}");
        assert_eq!(v["trace"], json!([]), "{v}");
        assert!(!ws.path().join("1").exists(), "{v}");
    }
    // A placement that cannot be made safe is refused at create, with why.
    let out = lackpy_in(
        ws.path(),
        &["template", "create", "nested", "--pattern", "q {p}", "-"],
        "f'{f\"{ {p} }\"}'",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("no quote"), "{}", out.stderr);
    assert!(!ws.path().join(".lackpy/templates/nested.tmpl").exists());
    // And at load: listed with its reason, skipped by delegate.
    std::fs::write(
        ws.path().join(".lackpy/templates/t0.tmpl"),
        "---\npattern: \"t0 {p}\"\n---\nx = f'{{p}'\n",
    )
    .expect("template");
    let list = parse(&lackpy_in(ws.path(), &["template", "list", "--json"], ""));
    let reason = list["templates"][0]["error"].as_str().unwrap_or("");
    assert!(reason.contains("cannot be read as Python"), "{list}");
    let (_, v) = delegate(ws.path(), "t0 hello", &[]);
    assert!(
        tier_errors(&v, "templates").contains("t0.tmpl is skipped"),
        "{v}"
    );
}

#[test]
fn template_create_validates_then_writes_and_list_shows_it() {
    let ws = workspace("");
    let out = lackpy_in(
        ws.path(),
        &["template", "create", "bad", "--pattern", "run {x}", "-"],
        "import os\nos.system({x})",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(!ws.path().join(".lackpy/templates/bad.tmpl").exists());
    insta::assert_snapshot!("template_create_invalid", out.stderr);

    let out = lackpy_in(
        ws.path(),
        &[
            "template",
            "create",
            "words",
            "--pattern",
            "count words in {path}",
            "--tools",
            "read_file",
            "-",
        ],
        "text = read_file({path})\nlen(text.split())\n",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let file = ws.path().join(".lackpy/templates/words.tmpl");
    assert_eq!(
        std::fs::read_to_string(&file).expect("written"),
        "---\nname: words\npattern: \"count words in {path}\"\nsuccess_count: 0\nfail_count: 0\n---\ntext = read_file({path})\nlen(text.split())\n"
    );
    let again = lackpy_in(
        ws.path(),
        &["template", "create", "words", "--pattern", "p", "-"],
        "1",
    );
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("--force"), "{}", again.stderr);
    let usage = lackpy_in(
        ws.path(),
        &["template", "create", "../up", "--pattern", "p", "-"],
        "1",
    );
    assert_eq!(usage.code, 2);

    let (out, v) = delegate(ws.path(), "please count words in notes.txt", &[]);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["output"], 3);
    std::fs::write(
        ws.path().join(".lackpy/templates/broken.tmpl"),
        "no front matter",
    )
    .expect("write");
    let list = lackpy_in(ws.path(), &["template", "list"], "");
    assert_eq!(list.code, 0);
    insta::assert_snapshot!("template_list", list.stdout);
    let list = parse(&lackpy_in(ws.path(), &["template", "list", "--json"], ""));
    assert_eq!(list["templates"][1]["name"], "words");
    assert_eq!(list["templates"][1]["success_count"], 1);
}

#[test]
fn delegate_human_output_shows_program_then_output_then_trace() {
    let ws = workspace("");
    let out = lackpy_in(
        ws.path(),
        &["-v", "delegate", "read the file notes.txt"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("delegate_human", out.stdout);
    assert!(out.stderr.contains("trace: 1 tool call"), "{}", out.stderr);
    assert!(
        out.stderr.contains("read_file(path='notes.txt')"),
        "{}",
        out.stderr
    );
}

#[test]
fn status_shows_each_provider_without_secrets() {
    let server = ChatServer::start(vec![]);
    let dead = refused_url();
    let ws = workspace(&format!(
        "{}{}[inference.providers.retired]\nplugin = \"ollama\"\nmodel = \"q\"\napi_key = \"inline-s3cret\"\n",
        provider(
            "live",
            &server.base_url(),
            "api_key_env = \"LACKPY_TEST_KEY\""
        ),
        provider(
            "dead",
            &dead.replace("http://", "http://user:pw-s3cret@"),
            ""
        ),
    ));
    let env = [("LACKPY_TEST_KEY", "env-s3cret")];
    let out = lackpy_env(ws.path(), &["status", "--json"], "", &env);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        !out.stdout.contains("s3cret") && !out.stderr.contains("s3cret"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let v = parse(&out);
    let p = &v["providers"];
    assert_eq!(p[0]["name"], "live");
    assert_eq!(p[0]["base_url"], server.base_url());
    assert_eq!(p[0]["model"], "scripted-model");
    assert_eq!(p[0]["reachable"], true);
    assert_eq!(p[1]["name"], "dead");
    assert_eq!(p[1]["base_url"], dead);
    assert_eq!(p[1]["reachable"], false);
    assert_eq!(p[2]["available"], false);
    assert!(
        p[2]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("retired"))
    );
    let text = lackpy_env(ws.path(), &["status"], "", &env);
    let section: Vec<String> = text
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("providers:"))
        .map(|l| {
            l.replace(&server.base_url(), "http://127.0.0.1:[live]/v1")
                .replace(&dead, "http://127.0.0.1:[dead]/v1")
        })
        .collect();
    insta::assert_snapshot!("status_providers", section.join("\n"));
}
