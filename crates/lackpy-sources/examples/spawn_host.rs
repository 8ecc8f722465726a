//! A host process for the child-process tests: a binary that is its own
//! exec wrapper, as `lackpy` is.
//!
//! `spawn_host N` starts N `sleep 60` children through
//! `lackpy_sources::process::spawn`, each asked for by its own short-lived
//! thread and all at once, prints `ready <pid>…` once every asking thread
//! has ended, and then waits until it is killed. The tests `SIGKILL` it and
//! watch the children go.
#![forbid(unsafe_code)]

use std::io::Write;

use lackpy_sources::process;

fn main() {
    process::exec_wrapper_main();
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let askers: Vec<_> = (0..n)
        .map(|_| {
            std::thread::spawn(|| {
                let mut cmd = process::command("sleep");
                cmd.arg("60");
                process::spawn(cmd, "host")
            })
        })
        .collect();
    let mut children = Vec::new();
    for asker in askers {
        match asker.join() {
            Ok(Ok(child)) => children.push(child),
            Ok(Err(e)) => {
                eprintln!("spawn_host: cannot start a child: {e}");
                std::process::exit(1);
            }
            Err(_) => std::process::exit(1),
        }
    }
    let pids: Vec<String> = children.iter().map(|(c, _)| c.id().to_string()).collect();
    let mut out = std::io::stdout();
    let _ = writeln!(out, "ready {}", pids.join(" "));
    let _ = out.flush();
    loop {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}
