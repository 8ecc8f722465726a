//! One test binary for lackpy-bridge's integration tests (cargo test -p lackpy-bridge --test it).

mod approval;
mod bridge;
mod caller_thread;
mod inline;
mod result_size;
