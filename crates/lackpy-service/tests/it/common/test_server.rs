//! Where the tests find the MCP test server (an example target of
//! lackpy-test-support that `cargo test --workspace` builds).

use std::path::{Path, PathBuf};

/// The test MCP server's executable; missing, the test fails.
pub fn mcp_test_server() -> PathBuf {
    let server = Path::new(env!("CARGO_BIN_EXE_lackpy"))
        .parent()
        .map(|d| d.join("examples/mcp_test_server"))
        .filter(|p| p.is_file());
    server.unwrap_or_else(|| {
        panic!(
            "the mcp_test_server example is not built: cargo build -p lackpy-test-support --example mcp_test_server"
        )
    })
}
