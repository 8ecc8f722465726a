//! Python functions as lackpy tools: a sync function is called on the
//! interpreter's thread with the GIL taken for the call only; an async one
//! is started on an asyncio event loop and the run waits for it without
//! holding the GIL (the loop's thread is never blocked by the run, which
//! is what keeps a sync program calling an async tool from deadlocking).

use std::sync::{Arc, Mutex, PoisonError};

use lackpy_lang::Data;
use lackpy_sources::ToolResult;
use lackpy_sources::{CallContext, HarnessResolver, Tool, ToolAnswer, ToolError, ToolErrorKind};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use tokio::sync::oneshot;

use crate::convert::{to_data, to_py};

/// One Python callable serving one tool name.
pub(crate) struct PyTool {
    name: String,
    func: Py<PyAny>,
    /// The event loop its coroutines run on; `None`: the package's
    /// background loop (`lackpy_rs._loop`), for runs that have no loop.
    event_loop: Option<Py<PyAny>>,
}

impl PyTool {
    /// `func` under `name`, its coroutines run on `event_loop`.
    pub(crate) fn new(name: String, func: Py<PyAny>, event_loop: Option<Py<PyAny>>) -> PyTool {
        PyTool {
            name,
            func,
            event_loop,
        }
    }

    fn call_attached(
        &self,
        py: Python<'_>,
        args: &[Data],
        kwargs: &[(String, Data)],
    ) -> ToolAnswer {
        let value = match self.invoke(py, args, kwargs) {
            Ok(v) => v,
            Err(e) => return ToolAnswer::Ready(Err(tool_error(py, &e))),
        };
        match is_coroutine(py, &value) {
            Ok(true) => match self.start_on_loop(py, value) {
                Ok(answer) => answer,
                Err(e) => ToolAnswer::Ready(Err(tool_error(py, &e))),
            },
            Ok(false) => ToolAnswer::Ready(result_of(&self.name, &value)),
            Err(e) => ToolAnswer::Ready(Err(tool_error(py, &e))),
        }
    }

    fn invoke<'py>(
        &self,
        py: Python<'py>,
        args: &[Data],
        kwargs: &[(String, Data)],
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut pargs = Vec::with_capacity(args.len());
        for a in args {
            pargs.push(to_py(py, a)?);
        }
        let pargs = PyTuple::new(py, pargs)?;
        if kwargs.is_empty() {
            return self.func.bind(py).call1(pargs);
        }
        let kw = PyDict::new(py);
        for (k, v) in kwargs {
            kw.set_item(k, to_py(py, v)?)?;
        }
        self.func.bind(py).call(pargs, Some(&kw))
    }

    /// Schedules the coroutine on the tool's loop; the answer comes when
    /// it is done. Dropping the answer (the run was cancelled or timed
    /// out) cancels the coroutine.
    fn start_on_loop(&self, py: Python<'_>, coro: Bound<'_, PyAny>) -> PyResult<ToolAnswer> {
        let future = submit(py, self.event_loop.as_ref(), coro)?;
        let (tx, rx) = oneshot::channel();
        let done = Done {
            name: self.name.clone(),
            tx: Mutex::new(Some(tx)),
        };
        future.call_method1("add_done_callback", (Py::new(py, done)?,))?;
        let mut guard = CancelOnDrop(Some(future.unbind()));
        Ok(ToolAnswer::Pending(Box::pin(async move {
            let r = rx.await.unwrap_or_else(|_| {
                Err(ToolError::failed(
                    "the tool's coroutine ended without an answer",
                ))
            });
            guard.disarm();
            r
        })))
    }
}

impl Tool for PyTool {
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        Python::attach(|py| self.call_attached(py, &args, &kwargs))
    }
}

/// Schedules `coro` on `event_loop` (the caller's), else on the package's
/// background loop: the `concurrent.futures.Future` of its result.
pub(crate) fn submit<'py>(
    py: Python<'py>,
    event_loop: Option<&Py<PyAny>>,
    coro: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let event_loop = match event_loop {
        Some(l) => l.bind(py).clone(),
        None => py
            .import("lackpy_rs._loop")?
            .call_method0("background_loop")?,
    };
    py.import("asyncio")?
        .call_method1("run_coroutine_threadsafe", (coro, event_loop))
}

/// Whether `value` is a coroutine (an async function's call).
pub(crate) fn is_coroutine(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<bool> {
    static COROUTINE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let ty = COROUTINE.import(py, "types", "CoroutineType")?;
    value.is_instance(ty)
}

/// What a tool returned, as lackpy data, or a `TypeError` naming the tool.
fn result_of(name: &str, value: &Bound<'_, PyAny>) -> ToolResult {
    to_data(value).map_err(|e| {
        ToolError::new(
            ToolErrorKind::Type,
            format!(
                "tool '{name}' returned something lackpy cannot hold: {}",
                e.describe()
            ),
        )
    })
}

/// A Python exception as the program's exception: its class name and
/// `str(exc)`.
fn tool_error(py: Python<'_>, e: &PyErr) -> ToolError {
    let class = e
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "Exception".to_string());
    let message = e
        .value(py)
        .str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "<exception message could not be written>".to_string());
    ToolError::new(kind_of(&class), message).with_type(class)
}

/// The kind of tool error a Python exception class stands for (as the
/// config Python tools' worker maps it).
fn kind_of(class: &str) -> ToolErrorKind {
    match class {
        "TypeError" => ToolErrorKind::Type,
        "ValueError" | "UnicodeDecodeError" | "UnicodeEncodeError" | "UnicodeError" => {
            ToolErrorKind::Value
        }
        "TimeoutError" => ToolErrorKind::Timeout,
        "OSError" | "FileNotFoundError" | "FileExistsError" | "IsADirectoryError"
        | "NotADirectoryError" | "PermissionError" => ToolErrorKind::Os,
        _ => ToolErrorKind::Failed,
    }
}

/// The done-callback of an async tool's future: hands its outcome to the
/// waiting run.
#[pyclass(frozen)]
struct Done {
    name: String,
    tx: Mutex<Option<oneshot::Sender<ToolResult>>>,
}

#[pymethods]
impl Done {
    fn __call__(&self, py: Python<'_>, future: Bound<'_, PyAny>) {
        let r = match future.call_method0("result") {
            Ok(v) => result_of(&self.name, &v),
            Err(e) => Err(tool_error(py, &e)),
        };
        let tx = self
            .tx
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(tx) = tx {
            // The run may be gone (cancelled): nobody to tell.
            let _ = tx.send(r);
        }
    }
}

/// Cancels a still-running async tool call whose answer nobody waits for.
struct CancelOnDrop(Option<Py<PyAny>>);

impl CancelOnDrop {
    /// The call is done: nothing to cancel.
    fn disarm(&mut self) {
        // Dropped without the GIL: PyO3 defers the decref.
        drop(self.0.take());
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(future) = self.0.take() {
            Python::attach(|py| {
                // Cancelling a finished future is a no-op; errors have nobody to go to.
                let _ = future.bind(py).call_method0("cancel");
            });
        }
    }
}

/// A harness: a Python callable from a tool name to a callable (or
/// `None` when it does not offer the tool now), asked at call time.
pub(crate) struct PyHarness {
    resolver: Py<PyAny>,
}

impl PyHarness {
    /// The harness `resolver`.
    pub(crate) fn new(resolver: Py<PyAny>) -> PyHarness {
        PyHarness { resolver }
    }
}

impl HarnessResolver for PyHarness {
    fn resolve(&self, name: &str) -> Option<Arc<dyn Tool>> {
        Python::attach(|py| {
            let found = match self.resolver.bind(py).call1((name,)) {
                Ok(f) => f,
                Err(e) => {
                    // A harness that fails offers nothing; say why.
                    e.print(py);
                    return None;
                }
            };
            if found.is_none() {
                return None;
            }
            let tool: Arc<dyn Tool> = Arc::new(PyTool::new(name.to_string(), found.unbind(), None));
            Some(tool)
        })
    }
}
