#![doc = include_str!("../README.md")]
//!
//! # Design
//!
//! lackpy programs are synchronous (the language has no `await`), but MCP
//! tools are async and are called mid-program with arguments known only at
//! run time. Running the interpreter on a runtime worker and blocking on a
//! tool future there deadlocks a current-thread runtime. This crate makes
//! that impossible:
//!
//! * the interpreter runs on a blocking thread, and the number of such
//!   threads is bounded ([`Bridge`]); only a run's first slice, when
//!   [`BridgeConfig::inline_slice`] allows one, goes on the awaiting thread
//!   with no tool calls, and is run again from the top on a blocking thread
//!   if it reaches a call or outlasts the slice;
//! * a tool answer that is ready at once is used inline on that thread (the
//!   fast path); a pending one is spawned onto the runtime and the
//!   interpreter thread parks until it completes, the per-call timeout
//!   passes, the run's deadline passes, or the run is cancelled;
//! * dropping the run's future, an explicit [`CancelToken`] or the deadline
//!   stops the interpreter within one step and drops the in-flight tool
//!   future (so an MCP call sends its cancellation);
//! * no global lock and no working-directory change: the workspace reaches
//!   tools through their [`CallContext`](lackpy_sources::CallContext).
//!
//! [`BlockingBridge`] serves plain synchronous callers with a runtime of its
//! own.
#![forbid(unsafe_code)]

pub mod approval;
mod blocking;
mod bridge;
mod caller_thread;
mod cancel;
mod catch;
mod gate;
mod host;
mod inline;
pub mod journal;
pub mod py_json;
mod replay;
mod request;
mod result;
pub mod result_json;

pub use approval::{Answer, AnswerFuture, ApprovalRequest, Approver, Decision, Gate};
pub use blocking::{BlockingBridge, BridgeError};
pub use bridge::{Bridge, BridgeConfig};
pub use caller_thread::CallerThreadRuns;
pub use cancel::CancelToken;
pub use journal::{CallRecord, CallStart, Journal, JournalSink};
pub use py_json::python_json_to_strict;
pub use request::{Approvals, NamespaceTool, RunRequest};
pub use result::{ExecutionResult, Paused};

/// The tool-source crate this layer builds on, re-exported for callers.
pub use lackpy_sources as sources;
