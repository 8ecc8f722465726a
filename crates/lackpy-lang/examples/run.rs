//! Runs one program file with no tools and prints its output's repr: the
//! interpreter alone, for profiling (`valgrind --tool=callgrind`, `perf`)
//! without the service around it.
//!
//! `cargo run --release -p lackpy-lang --example run -- program.lpy`

use lackpy_lang::{NoTools, RunOptions};

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: run PROGRAM.lpy");
        return std::process::ExitCode::from(2);
    };
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let module = match lackpy_lang::parse(&src) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(1);
        }
    };
    let out = lackpy_lang::run(&module, &mut NoTools, &[], &RunOptions::default());
    match out.error {
        None => {
            println!("{}", out.output_repr.unwrap_or_default());
            std::process::ExitCode::SUCCESS
        }
        Some(e) => {
            eprintln!("{}: {e}", out.error_type.unwrap_or_default());
            std::process::ExitCode::from(1)
        }
    }
}
