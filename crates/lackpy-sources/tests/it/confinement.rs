//! Workspace confinement: `..`, absolute paths and symlinks that lead out
//! are refused with a clear error, and nothing outside is read or written.

use crate::common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use common::{outcome, s, write_files};
use lackpy_sources::Config;
use lackpy_sources::lang::Data;
use lackpy_sources::{CallContext, PythonRuntime, Toolbox, add_local_sources};

struct Fixture {
    _root: tempfile::TempDir,
    ws: PathBuf,
    outside: PathBuf,
    tb: Toolbox,
}

/// `<tmp>/ws` is the workspace; `<tmp>/secret.txt` and `<tmp>/outside/`
/// lie beside it.
fn fixture() -> Fixture {
    let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ws = root.path().join("ws");
    let outside = root.path().join("outside");
    write_files(
        root.path(),
        &[
            ("secret.txt", "top secret"),
            ("outside/data.txt", "outside data"),
        ],
    );
    write_files(&ws, &[("a.txt", "inside"), ("sub/b.txt", "inner")]);
    let mut tb = Toolbox::new();
    add_local_sources(&mut tb, &Config::default(), &PythonRuntime::new(), None)
        .unwrap_or_else(|e| panic!("{e}"));
    Fixture {
        _root: root,
        ws,
        outside,
        tb,
    }
}

impl Fixture {
    fn ctx(&self) -> CallContext {
        CallContext::new(&self.ws)
    }

    fn run(&self, ctx: &CallContext, tool: &str, args: &[&str]) -> String {
        let r = self.tb.resolve(tool).unwrap_or_else(|e| panic!("{e}"));
        outcome(
            &r.tool
                .call(args.iter().map(|a| s(a)).collect(), vec![], ctx)
                .wait(),
        )
    }

    fn link(&self, name: &str, target: impl AsRef<Path>) {
        symlink(target, self.ws.join(name)).unwrap_or_else(|e| panic!("{e}"));
    }
}

fn refused(path: &str) -> String {
    format!("PermissionError: path escapes the workspace: '{path}'")
}

#[test]
fn dot_dot_that_leaves_is_refused() {
    let f = fixture();
    let ctx = f.ctx();
    assert_eq!(
        f.run(&ctx, "read_file", &["../secret.txt"]),
        refused("../secret.txt")
    );
    assert_eq!(
        f.run(&ctx, "read_file", &["sub/../../secret.txt"]),
        refused("sub/../../secret.txt")
    );
    assert_eq!(
        f.run(&ctx, "write_file", &["../evil.txt", "x"]),
        refused("../evil.txt")
    );
    assert_eq!(
        f.run(&ctx, "edit_file", &["../secret.txt", "top", "no"]),
        refused("../secret.txt")
    );
    assert_eq!(f.run(&ctx, "find_files", &["../*"]), refused("../*"));
    assert_eq!(f.run(&ctx, "find_files", &["**/.."]), refused("**/.."));
    assert!(!f.ws.parent().is_some_and(|p| p.join("evil.txt").exists()));
    // `..` that stays inside is fine.
    assert_eq!(
        f.run(&ctx, "read_file", &["sub/../a.txt"]),
        "ok Str(\"inside\")"
    );
}

#[test]
fn absolute_paths_are_refused() {
    let f = fixture();
    let ctx = f.ctx();
    let secret = f.ws.join("../secret.txt");
    let secret = secret.to_string_lossy();
    assert_eq!(
        f.run(&ctx, "read_file", &["/etc/passwd"]),
        refused("/etc/passwd")
    );
    assert_eq!(f.run(&ctx, "read_file", &[&secret]), refused(&secret));
    // Even an absolute path that points inside: programs use relative paths.
    let inside = f.ws.join("a.txt");
    let inside = inside.to_string_lossy();
    assert_eq!(f.run(&ctx, "read_file", &[&inside]), refused(&inside));
    assert_eq!(
        f.run(&ctx, "write_file", &["/tmp/lackpy-evil.txt", "x"]),
        refused("/tmp/lackpy-evil.txt")
    );
}

#[test]
fn symlinks_that_lead_out_are_refused() {
    let f = fixture();
    f.link("secret_link.txt", f.ws.join("../secret.txt"));
    f.link("out", &f.outside);
    f.link("abs_link", "/etc/passwd");
    let ctx = f.ctx();
    assert_eq!(
        f.run(&ctx, "read_file", &["secret_link.txt"]),
        refused("secret_link.txt")
    );
    assert_eq!(f.run(&ctx, "read_file", &["abs_link"]), refused("abs_link"));
    assert_eq!(
        f.run(&ctx, "write_file", &["secret_link.txt", "pwned"]),
        refused("secret_link.txt")
    );
    assert_eq!(
        f.run(&ctx, "edit_file", &["secret_link.txt", "top", "pwned"]),
        refused("secret_link.txt")
    );
    assert_eq!(
        f.run(&ctx, "read_file", &["out/data.txt"]),
        refused("out/data.txt")
    );
    // Not even whether a file exists out there leaks.
    assert_eq!(
        f.run(&ctx, "read_file", &["out/missing.txt"]),
        refused("out/missing.txt")
    );
    assert_eq!(
        f.run(&ctx, "read_file", &["out/deeper/missing.txt"]),
        refused("out/deeper/missing.txt")
    );
    assert_eq!(
        f.run(&ctx, "write_file", &["out/new.txt", "x"]),
        refused("out/new.txt")
    );
    assert_eq!(f.run(&ctx, "find_files", &["out/*"]), "ok List([])");
    assert_eq!(f.run(&ctx, "find_files", &["out/data.txt"]), "ok List([])");
    assert_eq!(
        std::fs::read_to_string(f.ws.join("../secret.txt")).unwrap_or_default(),
        "top secret"
    );
    assert!(!f.outside.join("new.txt").exists());
    assert!(ctx.files.files_read().is_empty());
    assert!(ctx.files.files_modified().is_empty());
}

#[test]
fn dangling_symlinks_cannot_create_files_outside() {
    let f = fixture();
    f.link("dangle_out", f.outside.join("created.txt"));
    f.link("dangle_in", "sub/created.txt");
    let ctx = f.ctx();
    assert_eq!(
        f.run(&ctx, "write_file", &["dangle_out", "x"]),
        refused("dangle_out")
    );
    assert!(!f.outside.join("created.txt").exists());
    assert_eq!(
        f.run(&ctx, "write_file", &["dangle_in", "made"]),
        "ok Bool(true)"
    );
    assert_eq!(
        std::fs::read_to_string(f.ws.join("sub/created.txt")).unwrap_or_default(),
        "made"
    );
    assert_eq!(ctx.files.files_modified(), vec!["sub/created.txt"]);
}

#[test]
fn symlink_loops_fail_cleanly() {
    let f = fixture();
    f.link("loop1", "loop2");
    f.link("loop2", "loop1");
    f.link("self", "self");
    let ctx = f.ctx();
    let eloop = |p: &str| format!("OSError: [Errno 40] Too many levels of symbolic links: '{p}'");
    assert_eq!(f.run(&ctx, "read_file", &["loop1"]), eloop("loop1"));
    assert_eq!(f.run(&ctx, "read_file", &["self"]), eloop("self"));
    assert_eq!(f.run(&ctx, "write_file", &["loop2", "x"]), eloop("loop2"));
    assert_eq!(f.run(&ctx, "read_file", &["loop1/x"]), eloop("loop1/x"));
    // Listing a loop is harmless: the names are there.
    assert_eq!(
        f.run(&ctx, "find_files", &["*"]),
        "ok List([Str(\"a.txt\"), Str(\"loop1\"), Str(\"loop2\"), Str(\"self\"), Str(\"sub\")])"
    );
}

#[test]
fn symlinks_inside_the_workspace_work_and_record_the_real_file() {
    let f = fixture();
    f.link("alias.txt", "sub/b.txt");
    f.link("subdir", "sub");
    let ctx = f.ctx();
    assert_eq!(
        f.run(&ctx, "read_file", &["alias.txt"]),
        "ok Str(\"inner\")"
    );
    assert_eq!(
        f.run(&ctx, "read_file", &["subdir/b.txt"]),
        "ok Str(\"inner\")"
    );
    assert_eq!(
        f.run(&ctx, "find_files", &["subdir/*"]),
        "ok List([Str(\"subdir/b.txt\")])"
    );
    assert_eq!(ctx.files.files_read(), vec!["sub/b.txt"]);
}

#[test]
fn a_workspace_reached_through_a_symlink_is_still_confined() {
    let f = fixture();
    let via = f.ws.parent().map(|p| p.join("ws_link")).unwrap_or_default();
    symlink(&f.ws, &via).unwrap_or_else(|e| panic!("{e}"));
    let ctx = CallContext::new(&via);
    assert_eq!(f.run(&ctx, "read_file", &["a.txt"]), "ok Str(\"inside\")");
    assert_eq!(
        f.run(&ctx, "read_file", &["../secret.txt"]),
        refused("../secret.txt")
    );
    let r = f.tb.resolve("write_file").unwrap_or_else(|e| panic!("{e}"));
    let wrote = r.tool.call(vec![s("w.txt"), s("ok")], vec![], &ctx).wait();
    assert_eq!(wrote, Ok(Data::Bool(true)));
    assert!(f.ws.join("w.txt").exists());
}
