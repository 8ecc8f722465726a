//! The protected set: paths inside the workspace that the file tools must
//! not write (or read) because lackpy or another program trusts them, and
//! the bounded glob.

use crate::common;

use std::os::unix::fs::symlink;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

use common::{outcome, s, with_logs, write_files};
use lackpy_sources::lang::Data;
use lackpy_sources::{CallContext, Toolbox};

struct Fixture {
    _root: tempfile::TempDir,
    ws: PathBuf,
    tb: Toolbox,
}

fn fixture(config: &str) -> Fixture {
    let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ws = root.path().join("ws");
    write_files(&ws, &[("a.txt", "inside")]);
    Fixture {
        _root: root,
        ws,
        tb: common::local_toolbox(config),
    }
}

impl Fixture {
    fn call(&self, tool: &str, args: Vec<Data>) -> String {
        let t = self.tb.resolve(tool).unwrap_or_else(|e| panic!("{e}"));
        outcome(
            &t.tool
                .call(args, vec![], &CallContext::new(&self.ws))
                .wait(),
        )
    }

    fn write(&self, path: &str) -> String {
        self.call("write_file", vec![s(path), s("x")])
    }

    fn read(&self, path: &str) -> String {
        self.call("read_file", vec![s(path)])
    }
}

fn refused(outcome: &str) -> bool {
    outcome.starts_with("PermissionError: path is protected")
}

#[test]
fn the_builtin_set_is_protected_at_any_depth_and_reads_only_for_lackpy() {
    let f = fixture("");
    write_files(
        &f.ws,
        &[
            (".git/config", "[core]"),
            ("sub/.git/hooks/keep", ""),
            (".vscode/settings.json", "{}"),
            (".lackpy/notes.txt", "n"),
        ],
    );
    for p in [
        ".git/config",
        ".git/hooks/pre-commit",
        "sub/.git/hooks/pre-commit",
        ".vscode/tasks.json",
        ".cursor",
        ".claude/settings.json",
        ".mcp.json",
        ".envrc",
        "__pycache__",
        ".lackpy",
        "./.lackpy/../.lackpy/config.toml",
    ] {
        let got = f.write(p);
        assert!(refused(&got), "{p}: {got}");
    }
    assert_eq!(f.read(".git/config"), "ok Str(\"[core]\")");
    assert!(
        f.read(".lackpy/notes.txt")
            .starts_with("PermissionError: path is protected from reading")
    );
    assert_eq!(f.write("notes.txt"), "ok Bool(true)");
}

#[test]
fn symlinks_neither_lead_in_nor_smuggle_the_set_out() {
    let f = fixture("");
    write_files(
        &f.ws,
        &[("real_cfg/config.toml", ""), (".git/hooks/keep", "")],
    );
    // `.lackpy` is a link to another directory: writing there by its real name.
    symlink("real_cfg", f.ws.join(".lackpy")).unwrap_or_else(|e| panic!("{e}"));
    assert!(refused(&f.write("real_cfg/config.toml")));
    assert!(
        f.read("real_cfg/config.toml")
            .starts_with("PermissionError")
    );
    // A link into .git, existing or dangling.
    symlink(".git/hooks", f.ws.join("hooks")).unwrap_or_else(|e| panic!("{e}"));
    assert!(refused(&f.write("hooks/post-checkout")));
    symlink(".git/hooks/pre-push", f.ws.join("dangling")).unwrap_or_else(|e| panic!("{e}"));
    assert!(refused(&f.write("dangling")));
    assert!(!f.ws.join(".git/hooks/pre-push").exists());
}

#[test]
fn lackpys_config_is_protected_wherever_lackpy_leads() {
    let f = fixture("");
    // `.lackpy` is the workspace itself: its config is `config.toml` here.
    write_files(&f.ws, &[("kits/keep", "")]);
    symlink(".", f.ws.join(".lackpy")).unwrap_or_else(|e| panic!("{e}"));
    assert!(refused(&f.write("config.toml")));
    assert!(refused(&f.write("kits/x.kit")));
    assert!(f.read("config.toml").starts_with("PermissionError"));
    assert_eq!(f.write("other.toml"), "ok Bool(true)");
}

#[test]
fn configured_tools_servers_host_configs_and_listed_paths_are_protected() {
    let f = fixture(
        r#"
[[tools]]
name = "py"
provider = "python"
module = "tools.mine"
function = "f"

[[tools]]
name = "cmd"
provider = "command"
command = ["bin/run", "--flag", "helper.sh"]

[mcp_servers.srv]
command = "node"
args = ["server/index.js"]

[mcp_servers.inner]
command = "./start.sh"
cwd = "svc"

[mcp]
host_configs = ["conf/mcp.json"]

[files]
protected = ["secrets"]
"#,
    );
    write_files(&f.ws, &[("conf/mcp.json", "{}"), ("tools/other.py", "")]);
    for p in [
        "tools/mine.py",
        "tools/mine/__init__.py",
        "tools/__init__.py",
        "bin/run",
        "helper.sh",
        "server/index.js",
        "svc/start.sh",
        "conf/mcp.json",
        "secrets",
        "secrets/key.txt",
    ] {
        let got = f.write(p);
        assert!(refused(&got), "{p}: {got}");
    }
    assert!(f.read("conf/mcp.json").starts_with("PermissionError"));
    assert_eq!(f.write("tools/other.py"), "ok Bool(true)");
    assert_eq!(
        f.write("tools/mine.py"),
        "PermissionError: path is protected: 'tools/mine.py' (the configured tool 'py' imports it)"
    );
}

#[test]
fn allow_protected_writes_lifts_the_builtin_set_but_not_listed_paths() {
    let (f, logs) =
        with_logs(|| fixture("[files]\nallow_protected_writes = true\nprotected = [\"keep\"]\n"));
    assert!(logs.contains("allow_protected_writes"), "{logs}");
    write_files(&f.ws, &[(".git/x", ""), (".lackpy/config.toml", "")]);
    assert_eq!(f.write(".git/hooks"), "ok Bool(true)");
    assert!(refused(&f.write("keep")));
    // Reading lackpy's config stays refused.
    assert!(f.read(".lackpy/config.toml").starts_with("PermissionError"));
}

#[test]
fn find_files_stops_when_the_run_is_cancelled_or_late() {
    let f = fixture("");
    let files: Vec<(String, &str)> = (0..400).map(|i| (format!("d/f{i}.txt"), "")).collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    write_files(&f.ws, &refs);
    let t = f.tb.resolve("find_files").unwrap_or_else(|e| panic!("{e}"));
    let ctx = CallContext::new(&f.ws);
    ctx.cancel.store(true, Ordering::Relaxed);
    let got = outcome(&t.tool.call(vec![s("**/*.txt")], vec![], &ctx).wait());
    assert!(got.starts_with("Cancelled"), "{got}");
    let late = CallContext::new(&f.ws).with_deadline(std::time::Instant::now());
    let got = outcome(&t.tool.call(vec![s("**/*.txt")], vec![], &late).wait());
    assert!(got.starts_with("TimeoutError"), "{got}");
    let fine = CallContext::new(&f.ws);
    match t.tool.call(vec![s("**/*.txt")], vec![], &fine).wait() {
        Ok(Data::List(items)) => assert_eq!(items.len(), 401),
        other => panic!("{other:?}"),
    }
}
