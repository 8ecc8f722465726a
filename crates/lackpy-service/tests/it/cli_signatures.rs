//! Typed signatures from real schemas, shown the same way everywhere:
//! `lackpy tools`, `lackpy tools NAME`, `--json`, `lackpy stubs`, and
//! `run_program`'s description over MCP (the rmcp test server
//! downstream).

use crate::common;
use crate::mcp_serve_support;

use std::io::Write;
use std::process::{Command, Stdio};

use common::lackpy_in;
use mcp_serve_support::{
    call, initialize, spawn_serve, stdio_client, structured, with_test_server, workspace,
};
use serde_json::{Value, json};

/// The test server's typed tools and a config tool with a free-text type
/// (which a stub cannot hold) and an argument order Python refuses.
fn config() -> String {
    with_test_server(
        "include = [\"echo\", \"add\", \"convert\", \"ro_closed\"]\n\n\
         [[tools]]\nname = \"tally\"\nprovider = \"command\"\ncommand = [\"wc\", \"-l\"]\n\
         description = \"Count lines. Reads stdin.\"\nreturns = \"list of int\"\n\
         args = [{ name = \"mode\", type = \"str\", required = false }, { name = \"path\", type = \"str\" }]\n",
    )
}

/// Whether `text` parses as Python (`python3`'s own `ast`).
fn parses_as_python(text: &str) -> Result<(), String> {
    let mut child = Command::new("python3")
        .args(["-c", "import ast,sys; ast.parse(sys.stdin.read())"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(text.as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn tools_groups_by_source_with_signatures() {
    let ws = workspace(&config());
    let out = lackpy_in(ws.path(), &["tools"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("tools_grouped", out.stdout);
}

#[test]
fn tools_name_shows_one_tool_whole() {
    let ws = workspace(&config());
    let out = lackpy_in(ws.path(), &["tools", "convert"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("tools_one_mcp", out.stdout);
    let out = lackpy_in(ws.path(), &["tools", "read_file"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("tools_one_builtin", out.stdout);
    let out = lackpy_in(ws.path(), &["tools", "nope"], "");
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: no tool 'nope' (`lackpy tools` lists them)\n"
    );
}

#[test]
fn tools_json_carries_descriptions_args_and_kinds() {
    let ws = workspace(&config());
    let out = lackpy_in(ws.path(), &["tools", "convert", "--json"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let c = &v["candidates"][0];
    assert_eq!(c["provider"], "mcp", "{v}");
    assert_eq!(c["source"], "mcp:ours", "{v}");
    assert_eq!(
        c["description"],
        "Convert a temperature. Rounds to the given digits."
    );
    assert_eq!(c["returns"], "{'value': float, 'unit': str}");
    assert_eq!(
        c["args"][1],
        json!({"name": "unit", "type": "str", "description": "Its unit", "required": false,
               "default": "c", "enum": ["c", "f"]})
    );
    assert_eq!(c["args"][0]["required"], true);
    assert!(
        c["signature"]
            .as_str()
            .is_some_and(|s| s.starts_with("convert(amount: float, unit: Literal['c', 'f'] = 'c'")),
        "{v}"
    );
    assert_eq!(
        c["grade_reason"],
        "no annotation hints: the (3, 3) worst case"
    );
}

#[test]
fn stubs_are_a_valid_pyi() {
    let ws = workspace(&config());
    let out = lackpy_in(ws.path(), &["stubs"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    parses_as_python(&out.stdout).unwrap_or_else(|e| panic!("{e}\n{}", out.stdout));
    insta::assert_snapshot!("stubs_default", out.stdout);

    let out = lackpy_in(ws.path(), &["stubs", "--tools", "add,tally"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    parses_as_python(&out.stdout).unwrap_or_else(|e| panic!("{e}\n{}", out.stdout));
    assert!(
        out.stdout.contains("def add(a: int, b: int) -> int:"),
        "{}",
        out.stdout
    );
    // Free text is no Python type; a required argument after an optional
    // one is keyword-only.
    assert!(
        out.stdout
            .contains("def tally(mode: str = None, *, path: str) -> Any:"),
        "{}",
        out.stdout
    );

    let out = lackpy_in(ws.path(), &["stubs", "--tools", "nope"], "");
    assert_eq!(out.code, 2, "{}", out.stdout);
}

#[tokio::test]
async fn run_program_and_list_tools_show_typed_signatures() {
    let ws = workspace(&config());
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    let run = tools
        .iter()
        .find(|t| t.name == "run_program")
        .expect("run_program");
    let description = run.description.as_deref().unwrap_or_default();
    for line in [
        "\n  convert(amount: float, unit: Literal['c', 'f'] = 'c', to: Literal['c', 'f', 'k'], \
         digits: int | None = None, tags: list[str] = None, options: {'strict': bool} = None) \
         -> {'value': float, 'unit': str}  # Convert a temperature. Rounds to the given digits.\n",
        "\n  add(a: int, b: int) -> int  # Add two integers\n",
        "\n  echo(message: str) -> Any  # Echo a message back\n",
        "\n  read_file(path: str) -> str  # Read file contents\n",
    ] {
        assert!(description.contains(line), "{line}\nnot in\n{description}");
    }

    let l = structured(&call(&client, "list_tools", json!({})).await);
    let add = l["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "add"))
        .cloned()
        .unwrap_or_else(|| panic!("add listed: {l}"));
    let c = &add["candidates"][0];
    assert_eq!(c["signature"], "add(a: int, b: int) -> int", "{add}");
    assert_eq!(c["provider"], "mcp");
    assert_eq!(c["source"], "mcp:ours");
    assert_eq!(
        c["args"][0],
        json!({"name": "a", "type": "int", "description": "", "required": true})
    );
    client.cancel().await.expect("close");
    let _ = child.wait().await;
}

#[test]
#[ignore = "needs scripts/install-mcp-test-servers.sh"]
fn third_party_servers_get_typed_signatures() {
    let (everything, time) = crate::mcp_e2e::third_party();
    let ws = workspace(&format!(
        "[mcp_servers.everything]\ncommand = {everything:?}\n\n\
         [mcp_servers.time]\ncommand = {time:?}\nargs = [\"--local-timezone\", \"UTC\"]\n"
    ));
    let out = lackpy_in(ws.path(), &["tools"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    for line in [
        "  get_sum(a: float, b: float) -> Any  # Returns the sum of two numbers\n",
        "  get_current_time(timezone: str) -> {'timezone': str, 'datetime': str, \
         'day_of_week': str, 'is_dst': bool}  # Get current time in a specific timezone\n",
        "  get_annotated_message(messageType: Literal['error', 'success', 'debug'], \
         includeImage: bool = False) -> Any",
    ] {
        assert!(out.stdout.contains(line), "{line}\nnot in\n{}", out.stdout);
    }
    let out = lackpy_in(ws.path(), &["stubs"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    parses_as_python(&out.stdout).unwrap_or_else(|e| panic!("{e}\n{}", out.stdout));
}

#[test]
fn stubs_follow_a_profile_and_call_names() {
    let ws = workspace(&format!(
        "{}\n[profiles.adding]\ntools = [\"add\"]\n",
        config()
    ));
    let out = lackpy_in(ws.path(), &["stubs", "--profile", "adding"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    parses_as_python(&out.stdout).unwrap_or_else(|e| panic!("{e}\n{}", out.stdout));
    assert!(
        out.stdout
            .starts_with("# lackpy tools: profile 'adding', 1 tool."),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("def add(a: int, b: int) -> int:"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("def read_file"), "{}", out.stdout);
    let out = lackpy_in(ws.path(), &["stubs", "--profile", "nope"], "");
    assert_eq!(out.code, 2, "{}", out.stdout);
}
