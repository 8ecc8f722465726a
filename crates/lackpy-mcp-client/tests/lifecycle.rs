//! Timeouts, cancellation, dying servers, reconnects, and process hygiene
//! after every shutdown path. The tests in this file run one at a time so
//! their process counts do not see each other's servers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "it/common/mod.rs"]
mod common;

use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use common::*;
use lackpy_lang::Data;
use lackpy_mcp_client::{McpClient, ServerState};
use lackpy_sources::{ToolErrorKind, ToolSource};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

async fn cancellations(source: &lackpy_mcp_client::McpToolSource, want: i64) -> Data {
    let end = Instant::now() + Duration::from_secs(2);
    loop {
        let got = call(source, "cancellations", vec![]).await.unwrap();
        if got == i(want) || Instant::now() >= end {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// No child of ours is left, zombie or alive.
async fn no_children() -> Vec<Proc> {
    let end = Instant::now() + Duration::from_secs(2);
    loop {
        let left = my_children();
        if left.is_empty() || Instant::now() >= end {
            return left;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[test]
fn a_timeout_is_a_cancellation_and_the_session_survives() {
    let _g = serial();
    runtime().block_on(async {
        let mut d = test_server("t", &[]);
        d.call_timeout = Some(Duration::from_millis(300));
        let (client, source) = start_one(d, options()).await;
        assert_eq!(source.call_timeout(), Duration::from_millis(300));
        let started = Instant::now();
        let err = call(&source, "slow", vec![i(5000)]).await.unwrap_err();
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(290) && took < Duration::from_millis(900),
            "{took:?}"
        );
        assert_eq!(err.error_type(), "TimeoutError");
        assert_eq!(
            err.message(),
            "MCP tool 'slow' on server 't' timed out after 300 ms"
        );
        // The server saw `notifications/cancelled`, and the same session goes on.
        assert_eq!(cancellations(&source, 1).await, i(1));
        assert_eq!(
            call(&source, "echo", vec![s("after")]).await,
            Ok(s("after"))
        );
        assert_eq!(source.status().sessions, 1);

        // The run's deadline counts too, and says so.
        let ctx = ctx().with_deadline(Instant::now() + Duration::from_millis(150));
        let err = call_kw(&source, "slow", vec![i(5000)], vec![], &ctx)
            .await
            .unwrap_err();
        assert_eq!(
            err.message(),
            "MCP tool 'slow' on server 't' did not answer before the run's deadline"
        );
        assert_eq!(cancellations(&source, 2).await, i(2));
        client.shutdown().await;
    });
}

#[test]
fn run_cancellation_and_dropped_futures_cancel_the_request() {
    let _g = serial();
    runtime().block_on(async {
        let (client, source) = start_one(test_server("t", &[]), options()).await;
        let ctx = ctx();
        let flag = ctx.cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(150)).await;
            flag.store(true, Ordering::Relaxed);
        });
        let started = Instant::now();
        let err = call_kw(&source, "slow", vec![i(5000)], vec![], &ctx)
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ToolErrorKind::Cancelled);
        assert!(started.elapsed() < Duration::from_millis(600));
        assert_eq!(cancellations(&source, 1).await, i(1));

        // The bridge drops the answer's future on its own timeout.
        let dropped = tokio::time::timeout(
            Duration::from_millis(150),
            call(&source, "slow", vec![i(5000)]),
        )
        .await;
        assert!(dropped.is_err());
        assert_eq!(cancellations(&source, 2).await, i(2));
        client.shutdown().await;
    });
}

#[test]
fn a_server_killed_mid_call_fails_its_calls_and_the_next_call_reconnects() {
    let _g = serial();
    runtime().block_on(async {
        let (client, source) = start_one(test_server("t", &[]), options()).await;
        let first_pid = pid_of(&source);
        let calls: Vec<_> = (0..4)
            .map(|_| {
                let src = source.clone();
                tokio::spawn(async move { call(&src, "slow", vec![i(10_000)]).await })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let killed = Instant::now();
        kill(Pid::from_raw(first_pid), Signal::SIGKILL).unwrap();
        for c in calls {
            let err = c.await.unwrap().unwrap_err();
            assert!(
                killed.elapsed() < Duration::from_secs(1),
                "took {:?}",
                killed.elapsed()
            );
            assert!(
                err.message().contains("the session ended"),
                "{}",
                err.message()
            );
        }
        // The supervisor notices the end at about the same time as the calls.
        let end = Instant::now() + Duration::from_secs(1);
        while source.status().state == ServerState::Ready && Instant::now() < end {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let status = source.status();
        assert_eq!(status.state, ServerState::Disconnected, "{status:?}");
        assert!(source.available());
        // Reconnect: a new process, a second session.
        assert_eq!(call(&source, "echo", vec![s("back")]).await, Ok(s("back")));
        let status = source.status();
        assert_eq!((status.state, status.sessions), (ServerState::Ready, 2));
        assert_ne!(status.pid, Some(first_pid));
        assert!(
            in_groups(&[first_pid]).is_empty(),
            "the killed server was reaped"
        );

        // A crash inside a call is the same story.
        let err = call(&source, "crash", vec![]).await.unwrap_err();
        assert!(
            err.message().contains("the session ended"),
            "{}",
            err.message()
        );
        assert_eq!(
            call(&source, "echo", vec![s("again")]).await,
            Ok(s("again"))
        );
        assert_eq!(source.status().sessions, 3);
        client.shutdown().await;
        assert!(no_children().await.is_empty());
    });
}

#[test]
fn a_server_that_cannot_come_back_is_down() {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started");
    let script = format!(
        "if [ -e '{m}' ]; then echo 'refusing to start twice' >&2; exit 5; fi; touch '{m}'; exec '{s}'",
        m = marker.display(),
        s = server_bin()
    );
    runtime().block_on(async {
        let (client, source) =
            start_one(stdio_cmd("once", "sh", &["-c", &script]), options()).await;
        assert!(source.available(), "{:?}", source.status());
        kill(Pid::from_raw(pid_of(&source)), Signal::SIGKILL).unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let err = call(&source, "echo", vec![s("x")]).await.unwrap_err();
        assert_eq!(err.kind(), ToolErrorKind::Unavailable, "{err:?}");
        assert!(
            err.message().contains("exited with status 5"),
            "{}",
            err.message()
        );
        assert!(
            err.message().contains("refusing to start twice"),
            "{}",
            err.message()
        );
        assert_eq!(source.status().state, ServerState::Down);
        assert!(!source.available());
        assert!(
            source
                .unavailable_reason("echo")
                .unwrap_or_default()
                .contains("is down")
        );
        // Down: the next call fails at once, without another try.
        let started = Instant::now();
        assert!(call(&source, "echo", vec![s("x")]).await.is_err());
        assert!(started.elapsed() < Duration::from_millis(50));
        client.shutdown().await;
        assert!(no_children().await.is_empty());
    });
}

#[test]
fn shutdown_ends_every_group_even_behind_wrappers_that_ignore_sigterm() {
    let _g = serial();
    runtime().block_on(async {
        let server = server_bin();
        // `sh` stays as the parent (a command follows), ignores SIGTERM, and
        // so does the server, which also outlives its stdin.
        let wrapper = format!(
            "trap '' TERM; '{server}' --ignore-sigterm --ignore-stdin-eof --spawn-child; echo done"
        );
        let servers = vec![
            stdio_cmd("wrapped", "sh", &["-c", &wrapper]),
            test_server("plain", &[]),
            test_server("with-child", &["--spawn-child"]),
        ];
        let client = McpClient::new(options());
        let disc = client.start(servers, None).await;
        assert!(disc.failures().is_empty(), "{:?}", disc.failures());
        for src in &disc.sources {
            assert_eq!(call(src, "echo", vec![s("x")]).await, Ok(s("x")));
        }
        let groups: Vec<i32> = disc.sources.iter().map(|s| pid_of(s)).collect();
        // The wrapper's group holds sh, the server and its sleep.
        assert!(
            in_groups(&groups[..1]).len() >= 3,
            "{:?}",
            in_groups(&groups[..1])
        );
        let started = Instant::now();
        client.shutdown().await;
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "shutdown took {:?}",
            started.elapsed()
        );
        // Killed grandchildren are reparented to init, which reaps them.
        let left = groups_gone(&groups, Duration::from_secs(3)).await;
        assert!(left.is_empty(), "{left:?}");
        assert!(no_children().await.is_empty(), "{:?}", my_children());
        // Idempotent, and calls after it fail cleanly.
        client.shutdown().await;
        let err = call(&disc.sources[1], "echo", vec![s("x")])
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ToolErrorKind::Unavailable);
        assert!(!disc.sources[1].available());
    });
}

#[test]
fn a_stopped_runtime_still_kills_the_servers() {
    let _g = serial();
    let rt = runtime();
    let groups = rt.block_on(async {
        let client = McpClient::new(options());
        let disc = client
            .start(
                vec![
                    test_server("a", &["--ignore-stdin-eof"]),
                    test_server("b", &["--spawn-child"]),
                ],
                None,
            )
            .await;
        let groups: Vec<i32> = disc.sources.iter().map(|s| pid_of(s)).collect();
        std::mem::forget(client);
        groups
    });
    // No shutdown: the runtime goes away with the sessions in it.
    drop(rt);
    let end = Instant::now() + Duration::from_secs(2);
    while Instant::now() < end && in_groups(&groups).iter().any(|p| p.state != 'Z') {
        std::thread::sleep(Duration::from_millis(20));
    }
    let alive: Vec<Proc> = in_groups(&groups)
        .into_iter()
        .filter(|p| p.state != 'Z')
        .collect();
    assert!(alive.is_empty(), "{alive:?}");
}

#[test]
fn the_host_process_cleans_up_on_sigterm() {
    let _g = serial();
    for mode in ["shutdown", "kill"] {
        let mut host = std::process::Command::new(example_bin("mcp_test_host"))
            .arg(server_bin())
            .arg(mode)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        let stdout = host.stdout.take().unwrap();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
        let groups: Vec<i32> = line
            .strip_prefix("ready ")
            .unwrap_or_else(|| panic!("host said {line:?}"))
            .split_whitespace()
            .map(|p| p.parse().unwrap())
            .collect();
        assert_eq!(groups.len(), 3);
        assert!(!in_groups(&groups).is_empty());
        kill(
            Pid::from_raw(i32::try_from(host.id()).unwrap()),
            Signal::SIGTERM,
        )
        .unwrap();
        let status = host.wait().unwrap();
        assert!(status.success(), "{mode}: {status:?}");
        let end = Instant::now() + Duration::from_secs(2);
        while Instant::now() < end && in_groups(&groups).iter().any(|p| p.state != 'Z') {
            std::thread::sleep(Duration::from_millis(20));
        }
        let alive: Vec<Proc> = in_groups(&groups)
            .into_iter()
            .filter(|p| p.state != 'Z')
            .collect();
        assert!(alive.is_empty(), "{mode}: {alive:?}");
        // Zombies too are gone once init has reaped what the host left.
        let end = Instant::now() + Duration::from_secs(3);
        while Instant::now() < end && !in_groups(&groups).is_empty() {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            in_groups(&groups).is_empty(),
            "{mode}: zombies {:?}",
            in_groups(&groups)
        );
    }
}
