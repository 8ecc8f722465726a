//! `cargo xtask`: development tasks for lackpy-rs.
//!
//! * `cargo xtask check-layers [--manifest-path PATH]`: fail when a crate
//!   depends on a crate later in the layer stack, or when `lackpy-lang`
//!   reaches anything async, networked or process-spawning.
//! * `cargo xtask codegen [--check]`: regenerate the tables made from
//!   CPython's answers (`--check`: fail if any is stale, write nothing).
#![forbid(unsafe_code)]

use std::process::ExitCode;

use xtask::{codegen, layers};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check-layers") => {
            let manifest = match args.get(1).map(String::as_str) {
                Some("--manifest-path") => args.get(2).cloned(),
                Some(other) => {
                    eprintln!("error: unexpected argument '{other}'");
                    return ExitCode::from(2);
                }
                None => None,
            };
            match layers::check_manifest(manifest.as_deref()) {
                Ok(report) => {
                    print!("{report}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("codegen") => {
            let check = match args.get(1).map(String::as_str) {
                Some("--check") => true,
                None => false,
                Some(other) => {
                    eprintln!("error: unexpected argument '{other}'");
                    return ExitCode::from(2);
                }
            };
            match codegen::run(&codegen::workspace_root(), codegen::TARGETS, check) {
                Ok(report) => {
                    print!("{report}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!(
                "usage: cargo xtask <task>\n\ntasks:\n  check-layers [--manifest-path PATH]   enforce the crate layering\n  codegen [--check]                      regenerate the tables made from CPython's answers"
            );
            ExitCode::from(2)
        }
    }
}
