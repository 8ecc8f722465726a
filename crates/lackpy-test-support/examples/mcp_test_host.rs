//! A test-only host process: starts three stdio servers (one behind an `sh`
//! wrapper that ignores SIGTERM), prints `ready <pid> <pid> <pid>`, and on
//! SIGTERM or SIGINT cleans up the way a binary should:
//!
//! * `shutdown` mode: `McpClient::shutdown` within a bound, then
//!   `kill_all_servers` as a backstop;
//! * `kill` mode: `kill_all_servers` alone (the fast path), then exit.
//!
//! Like `lackpy`, it is its own exec wrapper, so its servers are started
//! with `posix_spawn` through it.
//!
//! Usage: `mcp_test_host <mcp_test_server path> <shutdown|kill>`.

use std::io::Write;
use std::time::Duration;

use lackpy_mcp_client::{McpClient, McpClientOptions, kill_all_servers};
use lackpy_sources::{McpServerDescriptor, McpTransport, Precedence, Provenance};
use tokio::signal::unix::{SignalKind, signal};

fn stdio(id: &str, command: &str, args: &[&str]) -> McpServerDescriptor {
    McpServerDescriptor {
        id: id.to_string(),
        transport: McpTransport::Stdio {
            command: command.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: Vec::new(),
            cwd: None,
        },
        provenance: Provenance::Own,
        precedence: Precedence::MCP,
        connect_timeout: None,
        call_timeout: None,
        include: None,
        exclude: Vec::new(),
        tool_overrides: Vec::new(),
    }
}

fn main() {
    // Before the runtime's threads: a wrapper becomes its child at once.
    lackpy_sources::process::exec_wrapper_main();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp_test_host: no runtime: {e}");
            std::process::exit(2);
        }
    };
    rt.block_on(host());
}

async fn host() {
    let mut args = std::env::args().skip(1);
    let (Some(server), Some(mode)) = (args.next(), args.next()) else {
        eprintln!("usage: mcp_test_host <server> <shutdown|kill>");
        std::process::exit(2);
    };
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        eprintln!("mcp_test_host: cannot listen for signals");
        std::process::exit(2);
    };
    let wrapper =
        format!("trap '' TERM; '{server}' --ignore-sigterm --ignore-stdin-eof; echo done");
    let servers = vec![
        stdio("plain", &server, &[]),
        stdio("wrapped", "sh", &["-c", &wrapper]),
        stdio("child", &server, &["--spawn-child"]),
    ];
    let client = McpClient::new(McpClientOptions::default());
    let disc = client.start(servers, None).await;
    let pids: Vec<String> = disc
        .statuses()
        .iter()
        .filter_map(|s| s.pid)
        .map(|p| p.to_string())
        .collect();
    println!("ready {}", pids.join(" "));
    let _ = std::io::stdout().flush();
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
    if mode == "shutdown" {
        let _ = tokio::time::timeout(Duration::from_secs(2), client.shutdown()).await;
    }
    kill_all_servers();
    std::process::exit(0);
}
