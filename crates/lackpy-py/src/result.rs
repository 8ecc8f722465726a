//! `ExecutionResult`: a run's result as Python attributes and as a dict
//! shaped as `lackpy run --json` prints it.

use lackpy_bridge::ExecutionResult;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::to_py;

/// The result of one run (a failed program is a result too).
#[pyclass(frozen, name = "ExecutionResult", module = "lackpy_rs")]
pub(crate) struct PyExecutionResult {
    pub(crate) inner: ExecutionResult,
}

impl PyExecutionResult {
    /// One key of [`to_dict`](Self::to_dict)'s JSON shape.
    fn json_part<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json_dict(py)?.get_item(key)
    }

    fn json_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::json_loads(py, &self.inner.to_json())
    }

    /// The output with its Python forms (the service was asked for it),
    /// else as its JSON reads (a resumed run, say).
    fn python_output(&self) -> Option<lackpy_lang::Data> {
        self.inner
            .output_value
            .clone()
            .or_else(|| self.inner.output_data())
    }
}

fn opt_to_py<'py>(py: Python<'py>, v: Option<&lackpy_lang::Data>) -> PyResult<Bound<'py, PyAny>> {
    match v {
        Some(d) => to_py(py, d),
        None => Ok(py.None().into_bound(py)),
    }
}

#[pymethods]
impl PyExecutionResult {
    /// Whether the program ran to the end.
    #[getter]
    fn success(&self) -> bool {
        self.inner.success
    }

    /// The value of the program's final expression statement (`None` if
    /// it has none or failed), as a Python value.
    #[getter]
    fn output<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        opt_to_py(py, self.python_output().as_ref())
    }

    /// Python's `repr` of `output`.
    #[getter]
    fn output_repr(&self) -> Option<&str> {
        self.inner.output_repr.as_deref()
    }

    /// Everything the program printed.
    #[getter]
    fn stdout(&self) -> &str {
        &self.inner.stdout
    }

    /// `output`, else `stdout` stripped if not empty, else `None`.
    #[getter]
    fn effective_output<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let output = self.python_output();
        if output.is_some() || !self.inner.success {
            return opt_to_py(py, output.as_ref());
        }
        opt_to_py(
            py,
            self.inner.effective_output().map(|t| t.to_data()).as_ref(),
        )
    }

    /// The error message (`str(exc)`), when the run failed.
    #[getter]
    fn error(&self) -> Option<&str> {
        self.inner.error.as_deref()
    }

    /// The exception class name (`ValidationError`, `TimeoutError`, a
    /// tool's exception class, ...), when the run failed.
    #[getter]
    fn error_type(&self) -> Option<&str> {
        self.inner.error_type.as_deref()
    }

    /// The program line the failure is at, when known.
    #[getter]
    fn error_line(&self) -> Option<u32> {
        self.inner.error_line
    }

    /// The 1-based column of a validation error, when known.
    #[getter]
    fn error_column(&self) -> Option<u32> {
        self.inner.error_column
    }

    /// The tool calls, in order: one dict per call (`step`, `tool`,
    /// `args`, `result`, `duration_ms`, `success`, `error`, ...).
    #[getter]
    fn trace<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json_part(py, "trace")
    }

    /// The program's module-level names after the run, as JSON-shaped
    /// values (`{}` on failure).
    #[getter]
    fn variables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json_part(py, "variables")
    }

    /// The grade `(w, d)` of the tools the program ran with.
    #[getter]
    fn grade(&self) -> (u8, u8) {
        (self.inner.grade.w, self.inner.grade.d)
    }

    /// Paths the file tools read.
    #[getter]
    fn files_read(&self) -> Vec<String> {
        self.inner.files_read.clone()
    }

    /// Paths the file tools wrote.
    #[getter]
    fn files_modified(&self) -> Vec<String> {
        self.inner.files_modified.clone()
    }

    /// How long the run took, in milliseconds.
    #[getter]
    fn duration_ms(&self) -> f64 {
        self.inner.duration.as_secs_f64() * 1000.0
    }

    /// Where a run paused for an approval waits (a dict), else `None`.
    #[getter]
    fn paused<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.inner.paused {
            Some(_) => self.json_part(py, "paused"),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// The result as a dict with the keys of `lackpy run --json`;
    /// `output` and `effective_output` keep their Python types (tuples,
    /// sets, non-str keys).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = self.json_dict(py)?;
        let dict = d.cast::<PyDict>()?;
        dict.set_item("output", self.output(py)?)?;
        dict.set_item("effective_output", self.effective_output(py)?)?;
        Ok(d)
    }

    /// The result as JSON text, exactly as `lackpy run --json` prints it.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    fn __repr__(&self) -> String {
        match (&self.inner.error_type, &self.inner.error) {
            (Some(t), e) => format!(
                "ExecutionResult(success={}, error_type={t:?}, error={:?})",
                py_bool(self.inner.success),
                e.as_deref().unwrap_or("")
            ),
            (None, _) => format!(
                "ExecutionResult(success={}, output={})",
                py_bool(self.inner.success),
                self.inner.output_repr.as_deref().unwrap_or("None")
            ),
        }
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}
