//! `NativeService`: the service API for the Python wrapper
//! (`lackpy_rs.Service`). Runs go with the GIL released; a blocking run
//! wakes every few milliseconds to let Python's signal handlers run, so
//! Ctrl-C cancels it.

use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use lackpy_bridge::CancelToken;
use lackpy_lang::{Grade, Rule};
use lackpy_service::{
    ApproverHandle, Delegate, LackpyService, RunProgram, ServiceError, ServiceOptions,
};
use lackpy_sources::{ArgSpec, Provider, Tool, ToolSpec};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert;
use crate::errors::{ConfigError, config_error};
use crate::result::PyExecutionResult;
use crate::runtime;
use crate::tools::{PyHarness, PyTool};

/// How often a blocking call lets Python handle signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// A Python function registered as a tool.
struct Registered {
    spec: ToolSpec,
    func: Py<PyAny>,
    is_async: bool,
}

struct State {
    /// `None` once closed.
    service: Option<LackpyService>,
    tools: Vec<Registered>,
    /// Decides the runs' gated calls (`Service(ws, approver=fn)`).
    approver: Option<Py<PyAny>>,
}

/// The native half of `lackpy_rs.Service`.
#[pyclass(frozen, module = "lackpy_rs._native")]
pub(crate) struct NativeService {
    state: Mutex<State>,
}

/// Cancels a run started by `NativeService.start`.
#[pyclass(frozen, module = "lackpy_rs._native")]
pub(crate) struct RunHandle {
    cancel: CancelToken,
}

#[pymethods]
impl RunHandle {
    /// A handle for a run not yet started (`NativeService.run` takes it).
    #[new]
    fn new() -> RunHandle {
        RunHandle {
            cancel: CancelToken::new(),
        }
    }

    /// Stops the run within one step.
    fn cancel(&self) {
        self.cancel.cancel();
    }
}

fn program_text(program: &Bound<'_, PyAny>) -> PyResult<String> {
    match program.cast::<PyString>() {
        Ok(s) => Ok(s.to_str()?.to_string()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "program must be str, not '{}'",
            program.get_type().name()?
        ))),
    }
}

/// Runs `fut` to its end with the GIL released, letting Python handle
/// signals between waits; a signal handler that raises (Ctrl-C) cancels
/// `cancel`, waits for the run to stop and raises its exception.
fn block_on_interruptible<T, F>(py: Python<'_>, cancel: &CancelToken, fut: F) -> PyResult<T>
where
    F: Future<Output = T> + Send,
    T: Send,
{
    runtime::ensure_outside()?;
    let rt = runtime::get()?;
    let mut fut = Box::pin(fut);
    loop {
        let step = py.detach(|| {
            // The timer is made inside the runtime: it needs its clock.
            rt.block_on(async { tokio::time::timeout(SIGNAL_POLL, &mut fut).await })
        });
        match step {
            Ok(out) => return Ok(out),
            Err(_) => {
                if let Err(e) = py.check_signals() {
                    cancel.cancel();
                    let _ = py.detach(|| rt.block_on(&mut fut));
                    return Err(e);
                }
            }
        }
    }
}

impl NativeService {
    fn current(&self) -> PyResult<LackpyService> {
        self.lock()
            .service
            .clone()
            .ok_or_else(|| ConfigError::new_err("the service is closed"))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The approver for one run, its coroutines run on `event_loop`.
    fn approver(&self, py: Python<'_>, event_loop: Option<Py<PyAny>>) -> Option<ApproverHandle> {
        let state = self.lock();
        let func = state.approver.as_ref()?.clone_ref(py);
        Some(ApproverHandle(crate::approver::PyApprover::new(
            func, event_loop,
        )))
    }

    /// The service with the async tools bound to `event_loop` (the
    /// caller's), so their coroutines run there.
    fn bound_to(&self, py: Python<'_>, event_loop: &Py<PyAny>) -> PyResult<LackpyService> {
        let state = self.lock();
        let Some(service) = state.service.clone() else {
            return Err(ConfigError::new_err("the service is closed"));
        };
        let rebound: Vec<(ToolSpec, Arc<dyn Tool>)> = state
            .tools
            .iter()
            .filter(|t| t.is_async)
            .map(|t| {
                let tool: Arc<dyn Tool> = Arc::new(PyTool::new(
                    t.spec.name.clone(),
                    t.func.clone_ref(py),
                    Some(event_loop.clone_ref(py)),
                ));
                (t.spec.clone(), tool)
            })
            .collect();
        Ok(if rebound.is_empty() {
            service
        } else {
            service.with_tools(rebound)
        })
    }
}

#[allow(clippy::too_many_arguments)]
fn request(
    program: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
    timeout_ms: Option<u64>,
    tools: Option<Vec<String>>,
    profile: Option<String>,
    rules: Option<Vec<String>>,
    cancel: &CancelToken,
    approver: Option<ApproverHandle>,
) -> PyResult<RunProgram> {
    let mut r = RunProgram {
        program: program_text(program)?,
        rules: parse_rules(rules)?,
        params: convert::params(params)?,
        timeout: timeout_ms.map(Duration::from_millis),
        tools,
        profile,
        // Python gets the value back with its tuples and sets.
        output_value: true,
        approver,
        ..RunProgram::default()
    };
    r.control.cancel = Some(cancel.clone());
    Ok(r)
}

/// Rule names (`no_loops`, ...) as rules; an unknown one is a `ConfigError`.
fn parse_rules(rules: Option<Vec<String>>) -> PyResult<Vec<Rule>> {
    rules
        .unwrap_or_default()
        .iter()
        .map(|r| {
            r.parse::<Rule>()
                .map_err(|e| config_error(&ServiceError::Rule(e)))
        })
        .collect()
}

fn arg_spec(d: &Bound<'_, PyDict>) -> PyResult<ArgSpec> {
    let get = |k: &str| d.get_item(k);
    let name: String = match get("name")? {
        Some(n) => n.extract()?,
        None => return Err(PyValueError::new_err("an arg spec needs a 'name'")),
    };
    let mut a = ArgSpec::new(name);
    if let Some(t) = get("type")? {
        a.type_name = t.extract()?;
    }
    if let Some(t) = get("description")? {
        a.description = t.extract()?;
    }
    if let Some(t) = get("required")? {
        a.required = t.extract()?;
    }
    if let Some(t) = get("default_json")? {
        let text: String = t.extract()?;
        a.default = serde_json::from_str(&text).ok();
    }
    Ok(a)
}

fn finish(
    py: Python<'_>,
    r: Result<lackpy_bridge::ExecutionResult, ServiceError>,
) -> PyResult<Py<PyExecutionResult>> {
    match r {
        Ok(inner) => Py::new(py, PyExecutionResult { inner }),
        Err(e) => Err(config_error(&e)),
    }
}

#[pymethods]
impl NativeService {
    /// Starts a service for `workspace`: loads its config and discovers
    /// its MCP servers.
    #[new]
    #[pyo3(signature = (workspace, harness=None, max_concurrent_runs=None, approver=None))]
    fn new(
        py: Python<'_>,
        workspace: PathBuf,
        harness: Option<Py<PyAny>>,
        max_concurrent_runs: Option<usize>,
        approver: Option<Py<PyAny>>,
    ) -> PyResult<NativeService> {
        runtime::ensure_outside()?;
        let rt = runtime::get()?;
        let options = ServiceOptions {
            workspace,
            harness: harness.map(|h| {
                let h: Arc<dyn lackpy_sources::HarnessResolver> = Arc::new(PyHarness::new(h));
                h
            }),
            max_concurrent_runs,
            ..ServiceOptions::default()
        };
        let service = py
            .detach(|| rt.block_on(LackpyService::start(options)))
            .map_err(|e| config_error(&e))?;
        Ok(NativeService {
            state: Mutex::new(State {
                service: Some(service),
                tools: Vec::new(),
                approver,
            }),
        })
    }

    /// Registers `func` as the tool `name` (it wins over any other tool
    /// of that name).
    #[pyo3(signature = (name, func, description, args, returns, grade, is_async))]
    #[allow(clippy::too_many_arguments)]
    fn register(
        &self,
        py: Python<'_>,
        name: String,
        func: Py<PyAny>,
        description: String,
        args: Vec<Bound<'_, PyDict>>,
        returns: String,
        grade: (u8, u8),
        is_async: bool,
    ) -> PyResult<()> {
        if grade.0 > 3 || grade.1 > 3 {
            return Err(PyValueError::new_err(format!(
                "grade must be (w, d) with each in 0..=3, not {grade:?}"
            )));
        }
        let mut spec = ToolSpec::new(name.clone(), Provider::Other("python".into()))
            .with_description(description)
            .with_returns(returns)
            .with_grade(Grade::new(grade.0, grade.1));
        for a in &args {
            spec = spec.with_arg(arg_spec(a)?);
        }
        let mut state = self.lock();
        let Some(service) = state.service.clone() else {
            return Err(ConfigError::new_err("the service is closed"));
        };
        let tool: Arc<dyn Tool> = Arc::new(PyTool::new(name, func.clone_ref(py), None));
        state.service = Some(service.with_tools(vec![(spec.clone(), tool)]));
        state.tools.push(Registered {
            spec,
            func,
            is_async,
        });
        Ok(())
    }

    /// Validates and runs a program, blocking with the GIL released.
    ///
    /// The interpreter runs on this thread (its Python tools are called
    /// here, with this thread's own Python state); `handle` (a
    /// [`RunHandle`]) lets another thread stop it, which is how the Python
    /// wrapper turns Ctrl-C into a cancel.
    #[pyo3(signature = (program, params=None, timeout_ms=None, tools=None, profile=None, rules=None, handle=None))]
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        py: Python<'_>,
        program: &Bound<'_, PyAny>,
        params: Option<&Bound<'_, PyDict>>,
        timeout_ms: Option<u64>,
        tools: Option<Vec<String>>,
        profile: Option<String>,
        rules: Option<Vec<String>>,
        handle: Option<Py<RunHandle>>,
    ) -> PyResult<Py<PyExecutionResult>> {
        let service = self.current()?;
        let cancel = handle.map_or_else(CancelToken::new, |h| h.get().cancel.clone());
        let approver = self.approver(py, None);
        let req = request(
            program, params, timeout_ms, tools, profile, rules, &cancel, approver,
        )?;
        runtime::ensure_outside()?;
        let rt = runtime::get()?;
        let r = py.detach(|| {
            let _here = lackpy_bridge::CallerThreadRuns::enter();
            rt.block_on(service.run_program(req))
        });
        finish(py, r)
    }

    /// Starts a run on the runtime; `callback(ok, value)` is called (from
    /// another thread) with the result, or with the `ConfigError`.
    #[pyo3(signature = (program, event_loop, callback, params=None, timeout_ms=None, tools=None, profile=None, rules=None))]
    #[allow(clippy::too_many_arguments)]
    fn start(
        &self,
        py: Python<'_>,
        program: &Bound<'_, PyAny>,
        event_loop: Py<PyAny>,
        callback: Py<PyAny>,
        params: Option<&Bound<'_, PyDict>>,
        timeout_ms: Option<u64>,
        tools: Option<Vec<String>>,
        profile: Option<String>,
        rules: Option<Vec<String>>,
    ) -> PyResult<RunHandle> {
        let service = self.bound_to(py, &event_loop)?;
        let cancel = CancelToken::new();
        let approver = self.approver(py, Some(event_loop.clone_ref(py)));
        let req = request(
            program, params, timeout_ms, tools, profile, rules, &cancel, approver,
        )?;
        let rt = runtime::get()?;
        rt.spawn(async move {
            let r = service.run_program(req).await;
            Python::attach(|py| {
                let called = match r {
                    Ok(inner) => Py::new(py, PyExecutionResult { inner })
                        .and_then(|res| callback.call1(py, (true, res))),
                    Err(e) => callback.call1(py, (false, config_error(&e).into_value(py))),
                };
                if let Err(e) = called {
                    e.print(py);
                }
            });
        });
        Ok(RunHandle { cancel })
    }

    /// Validates a program without running it: a dict (`valid`,
    /// `errors`, `diagnostics`, `calls`, `variables`).
    #[pyo3(signature = (program, params=None, tools=None, profile=None, rules=None))]
    fn validate<'py>(
        &self,
        py: Python<'py>,
        program: &Bound<'_, PyAny>,
        params: Option<&Bound<'_, PyDict>>,
        tools: Option<Vec<String>>,
        profile: Option<String>,
        rules: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let service = self.current()?;
        let text = program_text(program)?;
        let params = convert::params(params)?;
        let rules = parse_rules(rules)?;
        let v = service
            .validate(&text, tools.as_deref(), profile.as_deref(), &params, &rules)
            .map_err(|e| config_error(&e))?;
        let json = serde_json::to_string(&v).map_err(|e| PyValueError::new_err(e.to_string()))?;
        crate::json_loads(py, &json)
    }

    /// Every tool: a list of dicts as `lackpy tools --json` lists them.
    fn tools<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let service = self.current()?;
        let list = service.tool_list(None).map_err(|e| config_error(&e))?;
        let json =
            serde_json::to_string(&list.tools).map_err(|e| PyValueError::new_err(e.to_string()))?;
        crate::json_loads(py, &json)
    }

    /// The language spec, as a dict.
    fn spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let service = self.current()?;
        crate::json_loads(py, &service.spec().to_json().to_string())
    }

    /// Asks the configured model tiers for a program for `intent` and runs
    /// it; a dict as `lackpy delegate --json` prints it.
    #[pyo3(signature = (intent, params=None, timeout_ms=None, tools=None, profile=None, rules=None))]
    #[allow(clippy::too_many_arguments)]
    fn delegate<'py>(
        &self,
        py: Python<'py>,
        intent: String,
        params: Option<&Bound<'_, PyDict>>,
        timeout_ms: Option<u64>,
        tools: Option<Vec<String>>,
        profile: Option<String>,
        rules: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let service = self.current()?;
        let cancel = CancelToken::new();
        let mut req = Delegate {
            intent,
            rules: parse_rules(rules)?,
            params: convert::params(params)?,
            timeout: timeout_ms.map(Duration::from_millis),
            tools,
            profile,
            // The generated program's gated calls are decided as a run's are.
            approver: self.approver(py, None),
            ..Delegate::default()
        };
        req.control.cancel = Some(cancel.clone());
        let r = block_on_interruptible(py, &cancel, async move { service.delegate(req).await })?
            .map_err(|e| config_error(&e))?;
        crate::json_loads(py, &r.to_json())
    }

    /// Closes every MCP session and stops the service's workers;
    /// idempotent. Runs already started finish.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let service = self.lock().service.take();
        if let Some(service) = service {
            runtime::ensure_outside()?;
            let rt = runtime::get()?;
            py.detach(|| rt.block_on(service.shutdown()));
        }
        Ok(())
    }

    /// Whether `close` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.lock().service.is_none()
    }
}
