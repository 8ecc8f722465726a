//! One test binary for lackpy-mcp-client's integration tests (cargo test -p lackpy-mcp-client --test it).
//!
//! The process-hygiene tests (lifecycle.rs) stay in a binary of their own: they
//! count every child of the test process, which servers started by tests on
//! other threads would add to.

mod common;

mod calls;
mod config;
mod discovery;
mod follow;
mod fuzz_convert;
mod http;
mod interop;
mod raw_servers;
