//! A Python callable as the approver of gated tool calls
//! (`Service(ws, approver=fn)`): it is handed one dict per call (`tool`,
//! `args`, `call`, `grade`, `provenance`, `rule`, `step`, `run_id`) and
//! answers `True` (the call runs), `False` (it raises `PermissionError`)
//! or `None` (nobody can say now: the run pauses, to be resumed); an
//! `async` one is awaited on the run's event loop (the caller's for
//! `run_async`, the package's background loop for `run`). An approver
//! that raises or answers anything else denies the call, and says why on
//! stderr: a broken approver must not let a call through.

use std::sync::{Arc, Mutex, PoisonError};

use lackpy_bridge::{Answer, AnswerFuture, ApprovalRequest, Approver, Decision};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use tokio::sync::oneshot;

use crate::convert::to_py;
use crate::tools::is_coroutine;

/// What the trace records as the decider.
const BY: &str = "api";

/// One Python approver, its coroutines run on `event_loop`.
pub(crate) struct PyApprover {
    func: Py<PyAny>,
    /// `None`: the package's background loop.
    event_loop: Option<Py<PyAny>>,
}

impl PyApprover {
    /// `func`, its coroutines run on `event_loop`.
    pub(crate) fn new(func: Py<PyAny>, event_loop: Option<Py<PyAny>>) -> Arc<PyApprover> {
        Arc::new(PyApprover { func, event_loop })
    }

    fn decide_attached(&self, py: Python<'_>, request: &ApprovalRequest) -> AnswerFuture {
        let answer = request_dict(py, request)
            .and_then(|d| self.func.bind(py).call1((d,)))
            .and_then(|value| {
                if is_coroutine(py, &value)? {
                    self.await_on_loop(py, value)
                } else {
                    Ok(ready(decision_of(py, &value)))
                }
            });
        match answer {
            Ok(fut) => fut,
            Err(e) => {
                report(py, &e);
                ready(Decision::Deny)
            }
        }
    }

    fn await_on_loop(&self, py: Python<'_>, coro: Bound<'_, PyAny>) -> PyResult<AnswerFuture> {
        let future = crate::tools::submit(py, self.event_loop.as_ref(), coro)?;
        let (tx, rx) = oneshot::channel();
        future.call_method1(
            "add_done_callback",
            (Py::new(
                py,
                Decided {
                    tx: Mutex::new(Some(tx)),
                },
            )?,),
        )?;
        Ok(Box::pin(async move {
            Answer::new(rx.await.unwrap_or(Decision::Deny), BY)
        }))
    }
}

impl Approver for PyApprover {
    fn decide(&self, request: ApprovalRequest) -> AnswerFuture {
        Python::attach(|py| self.decide_attached(py, &request))
    }
}

fn ready(decision: Decision) -> AnswerFuture {
    Box::pin(std::future::ready(Answer::new(decision, BY)))
}

/// The request as the dict the approver is handed.
fn request_dict<'py>(py: Python<'py>, r: &ApprovalRequest) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("tool", &r.tool)?;
    let args = PyDict::new(py);
    for (k, v) in &r.args {
        args.set_item(k, to_py(py, v)?)?;
    }
    d.set_item("args", args)?;
    d.set_item("call", r.call_text())?;
    d.set_item("grade", PyTuple::new(py, [r.grade.w, r.grade.d])?)?;
    d.set_item("provenance", &r.provenance)?;
    d.set_item("rule", &r.rule)?;
    d.set_item("step", r.step)?;
    d.set_item("run_id", r.run_id.as_deref())?;
    Ok(d)
}

/// `True` approves, `False` denies, `None` pauses; anything else denies
/// (and is reported).
fn decision_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> Decision {
    if value.is_none() {
        return Decision::Pause;
    }
    match value.extract::<bool>() {
        Ok(true) => Decision::Approve,
        Ok(false) => Decision::Deny,
        Err(_) => {
            let shown = value
                .repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| "<unprintable>".to_string());
            report(
                py,
                &pyo3::exceptions::PyTypeError::new_err(format!(
                    "the approver must answer True, False or None, not {shown}; the call is denied"
                )),
            );
            Decision::Deny
        }
    }
}

/// An approver's own failure, on stderr (the call is denied).
fn report(py: Python<'_>, e: &PyErr) {
    e.print(py);
}

/// The done-callback of an async approver's future.
#[pyclass(frozen)]
struct Decided {
    tx: Mutex<Option<oneshot::Sender<Decision>>>,
}

#[pymethods]
impl Decided {
    fn __call__(&self, py: Python<'_>, future: Bound<'_, PyAny>) {
        let decision = match future.call_method0("result") {
            Ok(v) => decision_of(py, &v),
            Err(e) => {
                report(py, &e);
                Decision::Deny
            }
        };
        let tx = self
            .tx
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(tx) = tx {
            let _ = tx.send(decision);
        }
    }
}
