//! Hard links: a file inside the workspace that is also a name of a file
//! outside is never written through (unless `[files] allow_hardlinks`), and
//! a read of it is noted for the trace.

use crate::common;

use std::path::PathBuf;

use common::{call_named, local_toolbox, write_files};
use lackpy_sources::{CallContext, Toolbox};

struct Fixture {
    _root: tempfile::TempDir,
    ws: PathBuf,
    outside: PathBuf,
    tb: Toolbox,
}

/// `<tmp>/ws/link.txt` is a hard link to `<tmp>/outside.txt`.
fn fixture(config: &str) -> Fixture {
    let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ws = root.path().join("ws");
    let outside = root.path().join("outside.txt");
    write_files(root.path(), &[("outside.txt", "outside data")]);
    write_files(&ws, &[("plain.txt", "plain")]);
    std::fs::hard_link(&outside, ws.join("link.txt")).unwrap_or_else(|e| panic!("{e}"));
    Fixture {
        _root: root,
        ws,
        outside,
        tb: local_toolbox(config),
    }
}

impl Fixture {
    fn call(&self, ctx: &CallContext, tool: &str, args: &[&str]) -> String {
        call_named(&self.tb, ctx, tool, args)
    }

    fn outside_text(&self) -> String {
        std::fs::read_to_string(&self.outside).unwrap_or_else(|e| panic!("{e}"))
    }
}

const REFUSED: &str = "PermissionError: refusing to write 'link.txt': it has 2 hard links, and another may lie outside the workspace ([files] allow_hardlinks = true allows it)";

#[test]
fn writes_and_edits_through_a_hard_link_are_refused_and_change_nothing() {
    let f = fixture("");
    let ctx = CallContext::new(&f.ws);
    assert_eq!(f.call(&ctx, "write_file", &["link.txt", "pwned"]), REFUSED);
    assert_eq!(
        f.call(&ctx, "edit_file", &["link.txt", "outside", "pwned"]),
        REFUSED
    );
    // Another spelling of the same path: the same refusal.
    assert_eq!(
        f.call(&ctx, "write_file", &["./link.txt", "pwned"]),
        REFUSED
    );
    assert_eq!(f.outside_text(), "outside data");
    assert!(ctx.files.files_modified().is_empty());
    // A file with one name is written as always.
    assert_eq!(
        f.call(&ctx, "write_file", &["plain.txt", "new"]),
        "ok Bool(true)"
    );
    assert_eq!(
        f.call(&ctx, "write_file", &["fresh.txt", "new"]),
        "ok Bool(true)"
    );
}

#[test]
fn reads_through_a_hard_link_are_allowed_and_noted() {
    let f = fixture("");
    let ctx = CallContext::new(&f.ws);
    assert_eq!(
        f.call(&ctx, "read_file", &["plain.txt"]),
        "ok Str(\"plain\")"
    );
    assert_eq!(ctx.files.take_notes(), None);
    assert_eq!(
        f.call(&ctx, "read_file", &["link.txt"]),
        "ok Str(\"outside data\")"
    );
    assert_eq!(
        ctx.files.take_notes().as_deref(),
        Some(
            "read 'link.txt' through one of its 2 hard links (another may lie outside the workspace)"
        )
    );
    // Taken once: the next call starts with no note.
    assert_eq!(ctx.files.take_notes(), None);
}

#[test]
fn allow_hardlinks_lets_writes_through() {
    let f = fixture("[files]\nallow_hardlinks = true\n");
    let ctx = CallContext::new(&f.ws);
    assert_eq!(
        f.call(&ctx, "write_file", &["link.txt", "shared"]),
        "ok Bool(true)"
    );
    assert_eq!(f.outside_text(), "shared");
    assert_eq!(
        f.call(&ctx, "edit_file", &["link.txt", "shared", "edited"]),
        "ok Bool(true)"
    );
    assert_eq!(f.outside_text(), "edited");
}
