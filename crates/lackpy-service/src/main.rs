//! The `lackpy` command.
#![forbid(unsafe_code)]

use std::process::ExitCode;

// The command line lives in the binary, not the library: clap, the tracing
// subscriber and the terminal output are the `lackpy` tool's, not an
// embedder's.
mod cli;

fn main() -> ExitCode {
    // First: as a child's exec wrapper this process becomes that child;
    // otherwise this binary is the wrapper for the children it starts.
    lackpy_sources::process::exec_wrapper_main();
    prefer_small_wrapper();
    cli::main()
}

/// Starts children through `lackpy-exec` when it is installed beside this
/// binary: it does what `lackpy __exec` does with a fraction of the work
/// to load (about 0.5 ms less per child).
fn prefer_small_wrapper() {
    use std::os::unix::fs::PermissionsExt;
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let small = exe.with_file_name("lackpy-exec");
    if small
        .metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    {
        lackpy_sources::process::set_exec_wrapper(Some(small));
    }
}
