//! Every write the CLI makes to stdout and stderr goes through here.
//!
//! A reader that goes away early (`lackpy run p.lpy --json | head -c 10`)
//! closes the pipe; Rust ignores `SIGPIPE`, so the write fails with `EPIPE`
//! where `println!` would panic. Here a closed pipe ends the command
//! quietly with the status a `SIGPIPE` death gives (141), after ending
//! every child process group, as other command-line tools do.

use std::io::Write;

/// The exit status for a closed output pipe: 128 + `SIGPIPE`.
pub const EXIT_CLOSED_PIPE: i32 = 128 + 13;

/// Writes `text` to stdout (flushed).
pub fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    finish(
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush()),
    );
}

/// Writes `text` and a newline to stdout.
pub fn out_line(text: &str) {
    let mut stdout = std::io::stdout().lock();
    finish(
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.write_all(b"\n"))
            .and_then(|()| stdout.flush()),
    );
}

/// Writes the JSON that `write` streams, and a newline, to stdout: a
/// large result goes out as it is written, with no copy of it in memory.
pub fn out_json(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    finish(
        write(&mut stdout)
            .and_then(|()| stdout.write_all(b"\n"))
            .and_then(|()| stdout.flush()),
    );
}

/// Writes `text` to stderr.
pub fn err(text: &str) {
    let mut stderr = std::io::stderr().lock();
    finish(
        stderr
            .write_all(text.as_bytes())
            .and_then(|()| stderr.flush()),
    );
}

/// Writes `text` and a newline to stderr.
pub fn err_line(text: &str) {
    err(&format!("{text}\n"));
}

/// A failed write to a closed pipe ends the process; other failures (a
/// full disk) are dropped: there is nowhere left to report them.
fn finish(written: std::io::Result<()>) {
    if let Err(e) = written
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        lackpy_sources::process::kill_all_groups();
        std::process::exit(EXIT_CLOSED_PIPE);
    }
}
