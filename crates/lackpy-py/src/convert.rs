//! Values between Python and lackpy: [`Data`] is the data a program holds
//! (None, bool, int, float, str, list, tuple, dict, set), and only those
//! Python values cross into a run.

use lackpy_lang::Data;
use num_bigint::BigInt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};

/// How deep a value may nest: deeper is refused as a `TypeError` rather
/// than risking the stack (a list that holds itself is refused the same).
const MAX_DEPTH: usize = 200;

/// A Python value as lackpy data; `None` when it (or something it holds)
/// is of a type lackpy has no value for: the caller names it.
pub(crate) fn to_data(obj: &Bound<'_, PyAny>) -> Result<Data, NotData> {
    to_data_at(obj, 0)
}

/// Why a value is not lackpy data: the Python type name of the offending
/// part, or that it nests too deeply.
#[derive(Debug)]
pub(crate) enum NotData {
    /// A value of this Python type.
    Type(String),
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl NotData {
    /// A sentence saying what was wrong, for a `TypeError`.
    pub(crate) fn describe(&self) -> String {
        match self {
            NotData::Type(t) => format!(
                "a value of type '{t}' is not lackpy data \
                 (None, bool, int, float, str, list, tuple, dict, set)"
            ),
            NotData::TooDeep => format!("a value nests more than {MAX_DEPTH} levels deep"),
        }
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string())
}

fn to_data_at(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Data, NotData> {
    if depth > MAX_DEPTH {
        return Err(NotData::TooDeep);
    }
    if obj.is_none() {
        return Ok(Data::None);
    }
    // bool before int: bool is a subclass of int.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Data::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Data::Int(i.into()));
        }
        return obj
            .extract::<BigInt>()
            .map(Data::Int)
            .map_err(|_| NotData::Type(type_name(obj)));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(Data::Float(f.value()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_str()
            .map(|s| Data::Str(s.to_string()))
            // A lone surrogate has no UTF-8 form.
            .map_err(|_| NotData::Type("str holding a lone surrogate".into()));
    }
    if let Ok(list) = obj.cast::<PyList>() {
        let mut out = Vec::with_capacity(list.len());
        for item in list.iter() {
            out.push(to_data_at(&item, depth + 1)?);
        }
        return Ok(Data::List(out));
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        let mut out = Vec::with_capacity(tuple.len());
        for item in tuple.iter() {
            out.push(to_data_at(&item, depth + 1)?);
        }
        return Ok(Data::Tuple(out));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        let mut out = Vec::with_capacity(dict.len());
        for (k, v) in dict.iter() {
            out.push((to_data_at(&k, depth + 1)?, to_data_at(&v, depth + 1)?));
        }
        return Ok(Data::Dict(out));
    }
    if let Ok(set) = obj.cast::<PySet>() {
        let mut out = Vec::with_capacity(set.len());
        for item in set.iter() {
            out.push(to_data_at(&item, depth + 1)?);
        }
        return Ok(Data::Set(out));
    }
    if let Ok(set) = obj.cast::<PyFrozenSet>() {
        let mut out = Vec::with_capacity(set.len());
        for item in set.iter() {
            out.push(to_data_at(&item, depth + 1)?);
        }
        return Ok(Data::Set(out));
    }
    Err(NotData::Type(type_name(obj)))
}

/// Params from a Python dict: str keys, lackpy data values.
pub(crate) fn params(dict: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, Data)>> {
    let Some(dict) = dict else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(dict.len());
    for (k, v) in dict.iter() {
        let Ok(name) = k.extract::<String>() else {
            return Err(PyTypeError::new_err(format!(
                "params keys must be str, not '{}'",
                type_name(&k)
            )));
        };
        let value = to_data(&v)
            .map_err(|e| PyTypeError::new_err(format!("param '{name}': {}", e.describe())))?;
        out.push((name, value));
    }
    Ok(out)
}

/// lackpy data as the Python value it stands for.
pub(crate) fn to_py<'py>(py: Python<'py>, v: &Data) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Data::None => py.None().into_bound(py),
        Data::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Data::Int(i) => match i64::try_from(i) {
            Ok(small) => small.into_pyobject(py)?.into_any(),
            Err(_) => i.into_pyobject(py)?.into_any(),
        },
        Data::Float(f) => PyFloat::new(py, *f).into_any(),
        Data::Str(s) => PyString::new(py, s).into_any(),
        Data::List(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Data::Tuple(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(to_py(py, item)?);
            }
            PyTuple::new(py, out)?.into_any()
        }
        Data::Dict(pairs) => {
            let dict = PyDict::new(py);
            for (k, val) in pairs {
                dict.set_item(to_py(py, k)?, to_py(py, val)?)?;
            }
            dict.into_any()
        }
        Data::Set(items) => {
            let set = PySet::empty(py)?;
            for item in items {
                set.add(to_py(py, item)?)?;
            }
            set.into_any()
        }
    })
}
