//! MCP servers as a lackpy tool source.
//!
//! Each configured server (stdio or streamable HTTP) gets one supervisor
//! task that owns its SDK session; callers submit explicit operations to it.
//! Discovery is eager, parallel and bounded, and one bad server never hurts
//! the others.
//!
//! Status: the crate is laid out; its contents arrive with the MCP client issue.
#![forbid(unsafe_code)]

/// The bridge crate this layer builds on, re-exported for callers.
pub use lackpy_bridge as bridge;
