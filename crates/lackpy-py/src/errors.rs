//! The exceptions the module raises for misconfiguration and misuse.

use lackpy_service::ServiceError;
use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyException;

create_exception!(
    lackpy_rs,
    ConfigError,
    PyException,
    "Misconfiguration or misuse: a bad workspace or config file, an unknown tool or profile, bad params. A program that fails is a result, never this."
);

/// A service error as the `ConfigError` Python sees.
pub(crate) fn config_error(e: &ServiceError) -> PyErr {
    ConfigError::new_err(e.message_for("the 'tools' argument"))
}
