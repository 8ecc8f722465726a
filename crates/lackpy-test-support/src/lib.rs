//! Test servers, test hosts and test helpers for lackpy-rs's own tests
//! (not published).
//!
//! The library is [`rng`], the one seeded random source every crate's
//! generated tests draw from, and [`cpu`], a thread's CPU time for bounds
//! that must hold on a loaded machine (a dev-dependency; it has no
//! dependencies).
//!
//! The programs are examples of this crate, so `cargo test --workspace`
//! builds them into `target/<profile>/examples/`, where the tests of
//! `lackpy-mcp-client` and `lackpy-service` and their benches look for them:
//!
//! * `mcp_test_server`: an MCP server (stdio or streamable HTTP) whose flags
//!   make it slow, hang, crash, or misbehave on purpose;
//! * `raw_json_rpc_server`: a hand-written JSON-RPC server for replies the
//!   SDK would never send;
//! * `mcp_test_host`: a host process that starts servers and cleans them up
//!   on a signal, for the process-hygiene tests.
#![forbid(unsafe_code)]

pub mod cpu;
pub mod rng;
