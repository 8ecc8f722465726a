//! One test binary for lackpy-service's integration tests (cargo test -p lackpy-service --test it).

mod common;
mod mcp_serve_support;

mod bench_suite;
mod cli_approvals;
mod cli_approvals_tty;
mod cli_basics;
mod cli_delegate;
mod cli_mcp_parts;
mod cli_providers;
mod cli_resume_crash;
mod cli_run;
mod cli_run_variables;
mod cli_signatures;
mod cli_status_mcp;
mod cli_trace_cap;
mod cli_validate;
mod cli_verbose;
mod conformance;
mod hardening_files;
mod hardening_output;
mod hardening_proc;
mod mcp_approvals;
mod mcp_approvals_python;
mod mcp_conformance_client;
mod mcp_delegate;
mod mcp_e2e;
mod mcp_follow;
mod mcp_http_limits;
mod mcp_http_stream;
mod mcp_init;
mod mcp_metrics;
mod mcp_serve;
mod mcp_stateless;
#[cfg(feature = "otel")]
mod otel_traces;
mod pg_store;
mod service_policy;
mod service_with_tools;
