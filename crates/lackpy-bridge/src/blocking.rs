//! [`BlockingBridge`]: the bridge for plain synchronous callers.

use std::fmt;

use tokio::runtime::{Builder, Handle, Runtime};

use crate::bridge::{Bridge, BridgeConfig};
use crate::cancel::CancelToken;
use crate::request::RunRequest;
use crate::result::ExecutionResult;

/// Misuse of the blocking API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BridgeError {
    /// `run_blocking` was called on a thread driving an async runtime,
    /// where blocking would stall (or deadlock) that runtime.
    InsideRuntime,
    /// The bridge's own runtime could not be built.
    Runtime(String),
}

impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BridgeError::InsideRuntime => f.write_str(
                "run_blocking was called from inside an async runtime, where blocking could deadlock it; await Bridge::run instead",
            ),
            BridgeError::Runtime(e) => write!(f, "cannot start the bridge's runtime: {e}"),
        }
    }
}

impl std::error::Error for BridgeError {}

/// A bridge with a runtime of its own, for callers without one.
pub struct BlockingBridge {
    runtime: Runtime,
    bridge: Bridge,
}

impl fmt::Debug for BlockingBridge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockingBridge")
            .field("bridge", &self.bridge)
            .finish_non_exhaustive()
    }
}

impl BlockingBridge {
    /// A blocking bridge with one runtime worker for pending tool answers.
    pub fn new(config: BridgeConfig) -> Result<BlockingBridge, BridgeError> {
        let runtime = Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("lackpy-bridge")
            .enable_time()
            .build()
            .map_err(|e| BridgeError::Runtime(e.to_string()))?;
        Ok(BlockingBridge {
            runtime,
            bridge: Bridge::new(config),
        })
    }

    /// Runs a program to completion on this thread.
    pub fn run_blocking(&self, request: RunRequest) -> Result<ExecutionResult, BridgeError> {
        self.run_blocking_with_cancel(request, CancelToken::new())
    }

    /// Runs a program that `cancel` can stop from another thread.
    pub fn run_blocking_with_cancel(
        &self,
        request: RunRequest,
        cancel: CancelToken,
    ) -> Result<ExecutionResult, BridgeError> {
        if Handle::try_current().is_ok() {
            return Err(BridgeError::InsideRuntime);
        }
        Ok(self
            .runtime
            .block_on(self.bridge.run_with_cancel(request, cancel)))
    }

    /// The async bridge inside, to share its thread bound.
    pub fn bridge(&self) -> &Bridge {
        &self.bridge
    }
}
