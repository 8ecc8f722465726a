//! The tokio runtime every service of the process shares: MCP sessions,
//! runs moved off the caller's thread, and `run_async`'s runs live on it.

use std::sync::OnceLock;

use pyo3::PyResult;
use pyo3::exceptions::PyRuntimeError;
use tokio::runtime::Runtime;

static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();

/// The shared runtime, built on first use.
pub(crate) fn get() -> PyResult<&'static Runtime> {
    let rt = RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .thread_name("lackpy-rt")
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the lackpy runtime: {e}"))
    });
    rt.as_ref().map_err(|e| PyRuntimeError::new_err(e.clone()))
}

/// Refuses to block inside the runtime (a blocking `Service.run` called
/// from a tool of another run would stall the runtime that serves it).
pub(crate) fn ensure_outside() -> PyResult<()> {
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(PyRuntimeError::new_err(
            "Service.run cannot be called from inside a running lackpy tool; \
             use a separate thread or run_async",
        ));
    }
    Ok(())
}
