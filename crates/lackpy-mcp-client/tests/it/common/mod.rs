//! Shared helpers: the test server binary, descriptors, calls and process
//! checks through /proc.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use lackpy_lang::Data;
use lackpy_mcp_client::{McpClient, McpClientOptions, McpToolSource};
use lackpy_sources::{
    CallContext, McpServerDescriptor, McpTransport, Precedence, Provenance, ToolAnswer, ToolResult,
};

/// `target/<profile>/examples/<name>`, next to the test executable's dir.
pub fn example_bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test exe");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target dir");
    let bin = profile_dir.join("examples").join(name);
    assert!(
        bin.exists(),
        "{} is missing: build it with `cargo test --workspace` or `cargo build -p lackpy-test-support --examples`",
        bin.display()
    );
    bin
}

/// The test server.
pub fn server_bin() -> String {
    example_bin("mcp_test_server").display().to_string()
}

/// A stdio descriptor for `command args`.
pub fn stdio_cmd(id: &str, command: &str, args: &[&str]) -> McpServerDescriptor {
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

/// A stdio descriptor for the test server with `flags`.
pub fn test_server(id: &str, flags: &[&str]) -> McpServerDescriptor {
    stdio_cmd(id, &server_bin(), flags)
}

/// An HTTP descriptor.
pub fn http(id: &str, url: &str) -> McpServerDescriptor {
    let mut d = stdio_cmd(id, "unused", &[]);
    d.transport = McpTransport::Http {
        url: url.to_string(),
        headers: Vec::new(),
    };
    d
}

/// A two-worker runtime, like the service's.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// Options with short limits for tests.
pub fn options() -> McpClientOptions {
    McpClientOptions {
        connect_timeout: Duration::from_secs(5),
        call_timeout: Duration::from_secs(10),
        discovery_deadline: Duration::from_secs(10),
        ..McpClientOptions::default()
    }
}

/// Starts one server and returns the client and its source.
pub async fn start_one(
    d: McpServerDescriptor,
    opts: McpClientOptions,
) -> (McpClient, Arc<McpToolSource>) {
    let client = McpClient::new(opts);
    let mut disc = client.start(vec![d], None).await;
    let source = disc.sources.pop().expect("one source");
    (client, source)
}

/// A context with no deadline.
pub fn ctx() -> CallContext {
    CallContext::new(std::env::temp_dir())
}

/// Calls `name` with positional `args`.
pub async fn call(source: &McpToolSource, name: &str, args: Vec<Data>) -> ToolResult {
    call_kw(source, name, args, Vec::new(), &ctx()).await
}

/// Calls `name` with everything.
pub async fn call_kw(
    source: &McpToolSource,
    name: &str,
    args: Vec<Data>,
    kwargs: Vec<(String, Data)>,
    ctx: &CallContext,
) -> ToolResult {
    let tool = source
        .tool(name)
        .unwrap_or_else(|| panic!("no tool {name}"));
    match tool.call(args, kwargs, ctx) {
        ToolAnswer::Ready(r) => r,
        ToolAnswer::Pending(f) => f.await,
    }
}

pub fn s(x: &str) -> Data {
    Data::Str(x.to_string())
}

pub fn i(x: i64) -> Data {
    Data::Int(x.into())
}

/// One process as /proc shows it.
#[derive(Debug, Clone)]
pub struct Proc {
    pub pid: i32,
    pub state: char,
    pub ppid: i32,
    pub pgrp: i32,
}

/// Every process on the machine.
pub fn processes() -> Vec<Proc> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
            continue;
        };
        let f: Vec<&str> = after.split_whitespace().collect();
        if f.len() < 3 {
            continue;
        }
        out.push(Proc {
            pid,
            state: f[0].chars().next().unwrap_or('?'),
            ppid: f[1].parse().unwrap_or(0),
            pgrp: f[2].parse().unwrap_or(0),
        });
    }
    out
}

/// Processes (zombies included) still in any of `groups`.
pub fn in_groups(groups: &[i32]) -> Vec<Proc> {
    processes()
        .into_iter()
        .filter(|p| groups.contains(&p.pgrp))
        .collect()
}

/// Our own children, zombies included.
pub fn my_children() -> Vec<Proc> {
    let me = i32::try_from(std::process::id()).unwrap_or(0);
    processes().into_iter().filter(|p| p.ppid == me).collect()
}

/// Waits up to `within` for no process to be left in `groups`.
pub async fn groups_gone(groups: &[i32], within: Duration) -> Vec<Proc> {
    let end = std::time::Instant::now() + within;
    loop {
        let left = in_groups(groups);
        if left.is_empty() || std::time::Instant::now() >= end {
            return left;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The pid a source's server runs as.
pub fn pid_of(source: &McpToolSource) -> i32 {
    source.status().pid.expect("a stdio server has a pid")
}
