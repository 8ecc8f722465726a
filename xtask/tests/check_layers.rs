//! The layering guard must pass on good workspaces and fail, naming the
//! edge, on bad ones. Fixtures are real Cargo workspaces read through
//! `cargo metadata`.

use std::path::PathBuf;

fn fixture(name: &str) -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "fixtures",
        name,
        "Cargo.toml",
    ]
    .iter()
    .collect();
    p.to_string_lossy().into_owned()
}

#[test]
fn passes_on_a_clean_stack() {
    let report =
        xtask::layers::check_manifest(Some(&fixture("clean"))).expect("clean fixture passes");
    assert!(report.contains("lackpy-sources"), "{report}");
    assert!(report.contains("check-layers: ok"), "{report}");
}

#[test]
fn fails_on_an_upward_edge() {
    let err = xtask::layers::check_manifest(Some(&fixture("upward"))).expect_err("must fail");
    assert!(
        err.contains("lackpy-lang -> lackpy-sources (normal)"),
        "names the edge: {err}"
    );
    assert!(
        err.contains("lackpy-sources -> lackpy-service (dev)"),
        "dev edges count too: {err}"
    );
}

#[test]
fn fails_when_lang_pulls_tokio_transitively() {
    let err = xtask::layers::check_manifest(Some(&fixture("impure"))).expect_err("must fail");
    assert!(
        err.contains("lackpy-lang -> middle -> tokio"),
        "names the path: {err}"
    );
}

#[test]
fn passes_on_the_real_workspace() {
    let root: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "Cargo.toml"]
        .iter()
        .collect();
    let report = xtask::layers::check_manifest(Some(&root.to_string_lossy()))
        .expect("the workspace itself is layered");
    for c in xtask::layers::STACK {
        assert!(report.contains(c), "{c} in the table: {report}");
    }
}
