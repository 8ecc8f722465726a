//! What starting a child costs as the starting process grows, forked (a
//! `pre_exec` hook, as every child was started before the exec wrapper)
//! and through the exec wrapper (`posix_spawn`, as `lackpy` starts them):
//!
//! ```text
//! cargo bench -p lackpy-sources --bench spawn
//! ```
//!
//! * `start_wait_true/{fork,exec_wrapper}/ballast_<n>MB`: one `true` started
//!   through `process::spawn` and waited for, with `n` MB of touched heap
//!   held by this process;
//! * `x64_from_8_threads/{fork,exec_wrapper}/ballast_620MB`: 8 threads each
//!   starting 8 `true`s at once, all waited for.
//!
//! This binary is its own exec wrapper (its `main` begins with
//! `exec_wrapper_main`, as `lackpy`'s does).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::time::Duration;

use criterion::Criterion;
use lackpy_sources::process;

/// Starts `true` and waits for it.
fn start_wait_true() {
    let (mut child, _group) = process::spawn(process::command("true"), "bench").unwrap();
    child.wait().unwrap();
}

/// This process's resident set, MB.
fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    process::exec_wrapper_main();
    assert!(
        process::uses_exec_wrapper(),
        "no /proc/self/exe: the exec wrapper cannot be measured"
    );
    let modes: [(&str, Option<PathBuf>); 2] = [
        ("fork", None),
        ("exec_wrapper", Some(PathBuf::from("/proc/self/exe"))),
    ];
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut ballast: Vec<Vec<u8>> = Vec::new();
    for mb in [0usize, 64, 190, 620] {
        while ballast.len() < mb {
            // Written, so every page is resident.
            ballast.push(vec![1u8; 1 << 20]);
        }
        eprintln!("ballast {mb} MB: RSS {:.0} MB", rss_mb());
        for (name, wrapper) in &modes {
            process::set_exec_wrapper(wrapper.clone());
            c.bench_function(&format!("start_wait_true/{name}/ballast_{mb}MB"), |b| {
                b.iter(start_wait_true)
            });
        }
    }
    let mut c = c.sample_size(10);
    for (name, wrapper) in &modes {
        process::set_exec_wrapper(wrapper.clone());
        c.bench_function(&format!("x64_from_8_threads/{name}/ballast_620MB"), |b| {
            b.iter(|| {
                let threads: Vec<_> = (0..8)
                    .map(|_| std::thread::spawn(|| (0..8).for_each(|_| start_wait_true())))
                    .collect();
                for t in threads {
                    t.join().unwrap();
                }
            })
        });
    }
    std::hint::black_box(&ballast);
    c.final_summary();
}
