//! lackpy-rs as a Python extension module (`lackpy_rs._native`): the
//! service API with Python functions as tools. The Python package
//! `lackpy_rs` (in `python/`) wraps it.
//!
//! PyO3's macros expand to unsafe code, so this crate denies
//! `unsafe_code` (in Cargo.toml) where the others forbid it; it writes
//! none itself.

mod approver;
mod convert;
mod errors;
mod result;
mod runtime;
mod service;
mod tools;

use pyo3::prelude::*;

/// `json.loads(text)`.
pub(crate) fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<service::NativeService>()?;
    m.add_class::<service::RunHandle>()?;
    m.add_class::<result::PyExecutionResult>()?;
    m.add("ConfigError", m.py().get_type::<errors::ConfigError>())?;
    Ok(())
}

/// The extension's own allocator. A host process runs many programs one
/// after another, each building and freeing many small values; glibc's
/// malloc sends those through its slow paths (fastbins drained into the
/// thread cache, consolidation on the next large request), which cost a
/// quarter of a string-heavy run. mimalloc's free lists per size class
/// do not (BENCHMARKS.md, "The Python package"). Built with the TLS model
/// a `dlopen`ed library needs.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
