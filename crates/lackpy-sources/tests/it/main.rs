//! One test binary for lackpy-sources' integration tests (cargo test -p lackpy-sources --test it).

mod common;

mod builtins;
mod command_tools;
mod config;
mod confinement;
mod defaults;
mod fuzz_config;
mod hardlinks;
mod host_config;
mod mcp_server;
mod policy_config;
mod protected;
mod python_tools;
mod signatures;
mod toolbox;
mod virtual_tools;
