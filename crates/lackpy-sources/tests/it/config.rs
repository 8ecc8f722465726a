//! The config file: every key of tools.md, both virtual-tool shapes,
//! lackpy compatibility, unknown-key warnings and every error path (the
//! messages are insta snapshots).

use crate::common;

use std::path::Path;

use lackpy_sources::lang::Grade;
use lackpy_sources::{
    Config, ConfigError, GradeOverride, Level, ToolImpl, ToolSelection, TransportKind, load_config,
    parse_config,
};

const FILE: &str = ".lackpy/config.toml";

fn parse(text: &str) -> Result<lackpy_sources::LoadedConfig, ConfigError> {
    parse_config(text, Path::new(FILE))
}

fn error(text: &str) -> String {
    match parse(text) {
        Ok(c) => panic!("expected an error, got {:?}", c.config),
        Err(e) => e.to_string(),
    }
}

/// The example of tools.md, verbatim.
const TOOLS_MD_EXAMPLE: &str = r#"
[profile]
default = "reader"            # used when a call names no profile; absent → all tools

[profiles.reader]
tools = ["read_file", "find_files"]
extra_tools = ["get_current_time"]

[limits]                       # new: defaults for every run (see language.md §5)
timeout_ms = 30000
max_steps = 10000000
max_memory_mb = 256
max_trace_entries = 10000

[[tools]]                      # config tools
name = "word_count"
provider = "command"           # builtin | command | python
command = ["wc", "-w"]         # command: argv, no shell
description = "Count words in text"
returns = "int"
grade_w = 0
effects_ceiling = 0
args = [{ name = "text", type = "str", description = "Input text" }]

[[virtual_tools]]              # also accepted as [virtual_tools.<name>] tables
name = "ask_user"
description = "Ask the human a question"
args = [{ name = "question", type = "str" }]
returns = "str"
grade_w = 0
effects_ceiling = 0

[mcp_servers.time]
transport = "stdio"            # stdio | http; inferred from command / url when absent
command = "mcp-server-time"
args = ["--local-timezone", "UTC"]
env = { TZ = "UTC" }
cwd = "."                      # relative to the workspace; default: the workspace
connect_timeout_ms = 10000     # new
call_timeout_ms = 60000        # new
enabled = true                 # new
include = ["get_current_time"] # new: optional allow-list
exclude = []                   # new: optional deny-list

[mcp_servers.time.tools.get_current_time]
grade = { w = 1, d = 0 }       # override; a partial override fills the rest from the derived grade
description = "Current time in a timezone"   # new: override

[mcp_servers.remote]
url = "http://127.0.0.1:8766/mcp"
headers = { Authorization = "Bearer ${API_TOKEN}" }

[mcp]
host_configs = ["~/.cursor/mcp.json", ".mcp.json"]
"#;

#[test]
fn every_key_of_tools_md_parses_into_typed_structs() {
    let loaded = parse(TOOLS_MD_EXAMPLE).unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let c = loaded.config;
    assert_eq!(c.profile.default.as_deref(), Some("reader"));
    let reader = c.profiles.get("reader").cloned().unwrap_or_default();
    assert_eq!(
        reader.tools,
        Some(ToolSelection::Names(vec![
            "read_file".into(),
            "find_files".into()
        ]))
    );
    assert_eq!(reader.extra_tools, vec!["get_current_time"]);
    assert_eq!(c.limits.timeout_ms, Some(30000));
    assert_eq!(c.limits.max_steps, Some(10_000_000));
    assert_eq!(c.limits.max_memory_mb, Some(256));
    assert_eq!(c.limits.max_trace_entries, Some(10_000));

    let wc = &c.tools[0];
    assert_eq!(wc.name, "word_count");
    assert_eq!(wc.grade, Grade::new(0, 0));
    assert_eq!(wc.returns, "int");
    assert_eq!(wc.args[0].name, "text");
    assert_eq!(wc.args[0].type_name, "str");
    assert_eq!(wc.args[0].description, "Input text");
    assert!(wc.args[0].required);
    match &wc.implementation {
        ToolImpl::Command(cmd) => assert_eq!(cmd.argv, vec!["wc", "-w"]),
        other => panic!("{other:?}"),
    }

    let ask = &c.virtual_tools.0[0];
    assert_eq!(ask.name, "ask_user");
    assert_eq!(ask.grade, Grade::new(0, 0));
    assert_eq!(ask.args[0].type_name, "str");

    let time = c
        .mcp_servers
        .get("time")
        .cloned()
        .unwrap_or_else(|| panic!("time"));
    assert_eq!(time.transport, TransportKind::Stdio);
    assert_eq!(time.command.as_deref(), Some("mcp-server-time"));
    assert_eq!(time.args, vec!["--local-timezone", "UTC"]);
    assert_eq!(time.env, vec![("TZ".to_string(), "UTC".to_string())]);
    assert_eq!(time.cwd.as_deref(), Some("."));
    assert_eq!(time.connect_timeout_ms, Some(10000));
    assert_eq!(time.call_timeout_ms, Some(60000));
    assert!(time.enabled);
    assert_eq!(time.include, Some(vec!["get_current_time".to_string()]));
    assert!(time.exclude.is_empty());
    let (tool, over) = &time.tools[0];
    assert_eq!(tool, "get_current_time");
    assert_eq!(
        over.grade,
        Some(GradeOverride {
            w: Some(Level(1)),
            d: Some(Level(0))
        })
    );
    assert_eq!(
        over.description.as_deref(),
        Some("Current time in a timezone")
    );

    let remote = c
        .mcp_servers
        .get("remote")
        .cloned()
        .unwrap_or_else(|| panic!("remote"));
    assert_eq!(remote.transport, TransportKind::Http, "inferred from url");
    assert_eq!(
        remote.headers[0].1, "Bearer ${API_TOKEN}",
        "expanded later, not at load"
    );
    assert_eq!(c.mcp.host_configs, vec!["~/.cursor/mcp.json", ".mcp.json"]);
}

#[test]
fn virtual_tools_as_keyed_tables_too() {
    let c = parse(
        r#"
[virtual_tools.ask_user]
description = "Ask the human"
args = [{ name = "question", type = "str" }]

[virtual_tools.notify]
name = "notify"
grade_w = 2
"#,
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .config;
    let names: Vec<&str> = c.virtual_tools.0.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, vec!["ask_user", "notify"]);
    assert_eq!(c.virtual_tools.0[1].grade, Grade::new(2, 3));
}

#[test]
fn a_lackpy_config_loads_unchanged() {
    let c = parse(
        r#"
[inference]
order = ["templates", "rules", "ollama-local"]

[inference.providers.ollama-local]
plugin = "ollama"
model = "qwen2.5-coder:1.5b"

[kit]
default = "debug"

[sandbox]
enabled = false
timeout_seconds = 120
memory_mb = 512

[[tools]]
name = "list_glob"
provider = "python"
module = "lackpy.sources.builtins"
function = "find_files"
returns = "list[str]"
grade_w = 1
effects_ceiling = 1
args = [{ name = "pattern", type = "str" }]

[[tools]]
name = "shout"
module = "mytools"
function = "shout"
"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let tools = &c.config.tools;
    assert!(
        matches!(&tools[1].implementation, ToolImpl::Python { module, .. } if module == "mytools"),
        "provider defaults to python as in lackpy"
    );
    assert_eq!(
        tools[1].grade,
        Grade::new(3, 3),
        "grade defaults to the worst case"
    );
    assert_eq!(tools[1].returns, "Any");
    assert_eq!(c.config.kit.default.as_deref(), Some("debug"));
}

#[test]
fn profile_tools_take_every_form_of_the_grammar() {
    let c = parse(
        r#"
[profiles.one]
tools = "read_file"
[profiles.none]
tools = "none"
[profiles.aliased]
tools = { read = "read_file", find = "find_files" }
"#,
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .config;
    assert_eq!(
        c.profiles.get("one").and_then(|p| p.tools.clone()),
        Some(ToolSelection::Names(vec!["read_file".into()]))
    );
    assert_eq!(
        c.profiles.get("none").and_then(|p| p.tools.clone()),
        Some(ToolSelection::Names(vec![]))
    );
    assert_eq!(
        c.profiles.get("aliased").and_then(|p| p.tools.clone()),
        Some(ToolSelection::Aliases(vec![
            ("read".into(), "read_file".into()),
            ("find".into(), "find_files".into())
        ]))
    );
    let order: Vec<&str> = c.profiles.iter().map(|(k, _)| k).collect();
    assert_eq!(order, vec!["one", "none", "aliased"], "file order is kept");
}

#[test]
fn unknown_keys_are_warnings_naming_them() {
    let (loaded, logs) = common::with_logs(|| {
        parse(
            r#"
colour = "blue"
[limits]
timeout_ms = 5
max_stpes = 3
[[tools]]
name = "x"
provider = "builtin"
function = "read_file"
nmae = "typo"
args = [{ name = "path", typ = "str" }]
[virtual_tools.ask]
descripton = "typo"
[mcp_servers.s]
command = "srv"
tools = { t = { grade = { w = 1, z = 2 } } }
"#,
        )
    });
    let loaded = loaded.unwrap_or_else(|e| panic!("{e}"));
    let text: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
    insta::assert_snapshot!("unknown_key_warnings", text.join("\n"));
    for w in &loaded.warnings {
        assert_eq!(
            logs.matches(&w.message).count(),
            1,
            "{} logged once: {logs}",
            w.key
        );
    }
    assert!(logs.contains("WARN"), "{logs}");
}

#[test]
fn a_missing_file_means_defaults() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let loaded = load_config(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.config, Config::default());
    assert_eq!(loaded.file, None);
}

#[test]
fn load_config_reads_the_workspace_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    common::write_files(
        dir.path(),
        &[(".lackpy/config.toml", "[profile]\ndefault = \"r\"\n")],
    );
    let loaded = load_config(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.config.profile.default.as_deref(), Some("r"));
    assert_eq!(loaded.file, Some(dir.path().join(".lackpy/config.toml")));
}

// ---- error paths: one snapshot each -------------------------------------

macro_rules! error_case {
    ($name:ident, $text:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), error($text));
        }
    };
}

error_case!(err_unclosed_table_header, "[profile\ndefault = \"x\"\n");
error_case!(err_missing_value, "[limits]\ntimeout_ms =\n");
error_case!(
    err_duplicate_key,
    "[limits]\ntimeout_ms = 1\ntimeout_ms = 2\n"
);
error_case!(err_bad_string, "[profile]\ndefault = \"unterminated\n");
error_case!(
    err_grade_wrong_type,
    "[[tools]]\nname = \"t\"\nprovider = \"builtin\"\nfunction = \"read_file\"\ngrade_w = \"high\"\n"
);
error_case!(
    err_grade_out_of_range,
    "[[tools]]\nname = \"t\"\nprovider = \"builtin\"\nfunction = \"read_file\"\neffects_ceiling = 7\n"
);
error_case!(
    err_arg_name_wrong_type,
    "[[tools]]\nname = \"t\"\nprovider = \"builtin\"\nfunction = \"read_file\"\nargs = [{ name = 5 }]\n"
);
error_case!(
    err_tool_without_name,
    "[[tools]]\nprovider = \"builtin\"\nfunction = \"read_file\"\n"
);
error_case!(
    err_unknown_provider,
    "[[tools]]\nname = \"t\"\nprovider = \"shell\"\n"
);
error_case!(
    err_command_without_command,
    "[[tools]]\nname = \"t\"\nprovider = \"command\"\n"
);
error_case!(
    err_command_empty,
    "[[tools]]\nname = \"t\"\nprovider = \"command\"\ncommand = []\n"
);
error_case!(
    err_command_not_a_list,
    "[[tools]]\nname = \"t\"\nprovider = \"command\"\ncommand = \"wc -w\"\n"
);
error_case!(
    err_python_without_module,
    "[[tools]]\nname = \"t\"\nprovider = \"python\"\nfunction = \"f\"\n"
);
error_case!(
    err_unknown_builtin,
    "[[tools]]\nname = \"t\"\nprovider = \"builtin\"\nfunction = \"delete_everything\"\n"
);
error_case!(err_tools_not_an_array, "tools = \"read_file\"\n");
error_case!(
    err_virtual_name_mismatch,
    "[virtual_tools.ask_user]\nname = \"ask_someone\"\n"
);
error_case!(
    err_virtual_without_name,
    "[[virtual_tools]]\ndescription = \"nameless\"\n"
);
error_case!(err_virtual_wrong_type, "virtual_tools = \"ask_user\"\n");
error_case!(
    err_mcp_unknown_transport,
    "[mcp_servers.s]\ntransport = \"pigeon\"\ncommand = \"x\"\n"
);
error_case!(
    err_mcp_no_command_or_url,
    "[mcp_servers.s]\nargs = [\"-v\"]\n"
);
error_case!(
    err_mcp_both_command_and_url,
    "[mcp_servers.s]\ncommand = \"x\"\nurl = \"http://h\"\n"
);
error_case!(
    err_mcp_stdio_without_command,
    "[mcp_servers.s]\ntransport = \"stdio\"\nurl = \"http://h\"\n"
);
error_case!(
    err_mcp_http_without_url,
    "[mcp_servers.s]\ntransport = \"http\"\ncommand = \"x\"\n"
);
error_case!(
    err_mcp_env_not_strings,
    "[mcp_servers.s]\ncommand = \"x\"\nenv = { PORT = 8080 }\n"
);
error_case!(
    err_mcp_override_grade_out_of_range,
    "[mcp_servers.s]\ncommand = \"x\"\n[mcp_servers.s.tools.t]\ngrade = { w = 9 }\n"
);
error_case!(
    err_mcp_enabled_wrong_type,
    "[mcp_servers.s]\ncommand = \"x\"\nenabled = \"yes\"\n"
);
error_case!(err_limits_negative, "[limits]\ntimeout_ms = -5\n");
error_case!(err_limits_wrong_type, "[limits]\nmax_steps = \"many\"\n");
error_case!(
    err_limits_trace_entries_negative,
    "[limits]\nmax_trace_entries = -1\n"
);
error_case!(
    err_limits_trace_entries_fraction,
    "[limits]\nmax_trace_entries = 2.5\n"
);
error_case!(
    err_limits_trace_entries_wrong_type,
    "[limits]\nmax_trace_entries = \"all\"\n"
);
error_case!(
    err_profile_trace_entries_negative,
    "[profiles.p]\nlimits = { max_trace_entries = -3 }\n"
);
error_case!(err_profile_default_wrong_type, "[profile]\ndefault = 3\n");
error_case!(err_profile_tools_wrong_type, "[profiles.p]\ntools = 5\n");
error_case!(
    err_tool_name_not_identifier,
    "[[tools]]\nname = \"my-tool\"\nprovider = \"command\"\ncommand = [\"cat\"]\n"
);
error_case!(
    err_tool_name_keyword,
    "[[tools]]\nname = \"for\"\nprovider = \"command\"\ncommand = [\"cat\"]\n"
);
error_case!(
    err_tool_name_shadows_builtin,
    "[[tools]]\nname = \"print\"\nprovider = \"command\"\ncommand = [\"cat\"]\n"
);
error_case!(
    err_virtual_tool_name_not_identifier,
    "[virtual_tools.\"x y\"]\ndescription = \"d\"\n"
);
error_case!(
    err_nested_too_deep,
    "[tools_providers]\nx = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n"
);
error_case!(
    err_files_protected_wrong_type,
    "[files]\nprotected = \".secrets\"\n"
);
error_case!(
    err_host_configs_not_a_list,
    "[mcp]\nhost_configs = \"~/.cursor/mcp.json\"\n"
);

#[test]
fn err_not_utf8() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join(".lackpy/config.toml");
    std::fs::create_dir_all(dir.path().join(".lackpy")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&file, b"[profile]\ndefault = \"\xff\"\n").unwrap_or_else(|e| panic!("{e}"));
    let err = load_config(dir.path())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    let err = err.replace(&dir.path().display().to_string(), "<workspace>");
    insta::assert_snapshot!("err_not_utf8", err);
}

#[test]
fn err_unreadable_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // A directory where the file should be cannot be read.
    std::fs::create_dir_all(dir.path().join(".lackpy/config.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let err = load_config(dir.path())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    let err = err.replace(&dir.path().display().to_string(), "<workspace>");
    insta::assert_snapshot!("err_unreadable_file", err);
}

#[test]
fn errors_carry_file_line_and_key_as_fields() {
    let text = "[limits]\ntimeout_ms = 1\n\n[[tools]]\nname = \"t\"\nprovider = \"builtin\"\nfunction = \"read_file\"\ngrade_w = \"high\"\n";
    match parse(text) {
        Err(ConfigError::Invalid {
            file, line, key, ..
        }) => {
            assert_eq!(file, Path::new(FILE));
            assert_eq!(line, 8);
            assert_eq!(key, "tools[0].grade_w");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_misspelt_key_that_leaves_a_table_incomplete_is_named() {
    insta::assert_snapshot!(
        "misspelt_server_command",
        error("[mcp_servers.x]\ncomand = \"srv\"\n")
    );
}

#[test]
fn inference_order_names_only_tiers() {
    let e = error(
        "[inference]\norder = [\"templates\", \"rules\", \"locl\"]\n\
         [inference.providers.local]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\n",
    );
    assert_eq!(
        e,
        ".lackpy/config.toml:2:32: key 'inference.order[2]': 'locl' is not a tier: neither \
         templates, rules nor an [inference.providers.locl] table (did you mean 'local'?)"
    );
    // Without a near name, no suggestion.
    let e = error("[inference]\norder = [\"zzzzzz\"]\n");
    assert!(e.ends_with("[inference.providers.zzzzzz] table"), "{e}");
}

#[test]
fn inference_tables_out_of_the_order_and_inline_keys_warn() {
    let loaded = parse(
        "[inference]\norder = [\"rules\", \"a\"]\n\
         [inference.providers.a]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\napi_key = \"s3cret\"\n\
         [inference.providers.b]\nbase_url = \"http://h/v1\"\nmodel = \"m\"\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let text: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
    assert!(!text.join("\n").contains("s3cret"));
    insta::assert_snapshot!("inference_warnings", text.join("\n"));
    let lines: Vec<Option<usize>> = loaded.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [Some(6), Some(7)]);
}
