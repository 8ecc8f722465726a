//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::Path;
use std::sync::{Arc, Mutex};

use lackpy_sources::lang::Data;
use lackpy_sources::{CallContext, Tool, ToolError, ToolResult};
use num_bigint::BigInt;
use serde_json::Value;

/// A JSON value as a tool value (objects → dicts with string keys).
pub fn data(v: &Value) -> Data {
    match v {
        Value::Null => Data::None,
        Value::Bool(b) => Data::Bool(*b),
        Value::Number(n) => {
            if n.is_f64() {
                Data::Float(n.as_f64().unwrap_or(f64::NAN))
            } else {
                Data::Int(n.to_string().parse::<BigInt>().unwrap_or_default())
            }
        }
        Value::String(s) => Data::Str(s.clone()),
        Value::Array(items) => Data::List(items.iter().map(data).collect()),
        Value::Object(m) => Data::Dict(
            m.iter()
                .map(|(k, v)| (Data::Str(k.clone()), data(v)))
                .collect(),
        ),
    }
}

/// A tool value as JSON (tuples as arrays, keys as strings).
pub fn json(d: &Data) -> Value {
    match d {
        Data::None => Value::Null,
        Data::Bool(b) => Value::Bool(*b),
        Data::Int(i) => i
            .to_string()
            .parse::<serde_json::Number>()
            .map(Value::Number)
            .unwrap_or(Value::Null),
        Data::Float(f) => serde_json::Number::from_f64(*f)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        Data::Str(s) => Value::String(s.clone()),
        Data::List(items) | Data::Tuple(items) | Data::Set(items) => {
            Value::Array(items.iter().map(json).collect())
        }
        Data::Dict(pairs) => Value::Object(
            pairs
                .iter()
                .map(|(k, v)| {
                    let key = match k {
                        Data::Str(s) => s.clone(),
                        other => format!("{other:?}"),
                    };
                    (key, json(v))
                })
                .collect(),
        ),
    }
}

pub fn s(x: &str) -> Data {
    Data::Str(x.to_string())
}

pub fn int(i: i64) -> Data {
    Data::Int(i.into())
}

/// Calls a tool with positional arguments and waits.
pub fn call(tool: &Arc<dyn Tool>, args: Vec<Data>, ctx: &CallContext) -> ToolResult {
    tool.call(args, Vec::new(), ctx).wait()
}

/// `error_type: message` of a failed call, or the value's debug form.
pub fn outcome(r: &ToolResult) -> String {
    match r {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => err_text(e),
    }
}

pub fn err_text(e: &ToolError) -> String {
    format!("{}: {}", e.error_type(), e.message())
}

/// The local sources (builtin file tools, config tools) of a config text.
pub fn local_toolbox(config: &str) -> lackpy_sources::Toolbox {
    let cfg = lackpy_sources::parse_config(config, Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let mut tb = lackpy_sources::Toolbox::new();
    lackpy_sources::add_local_sources(&mut tb, &cfg, &lackpy_sources::PythonRuntime::new(), None)
        .unwrap_or_else(|e| panic!("{e}"));
    tb
}

/// The outcome of calling `tool` of `tb` with text arguments.
pub fn call_named(
    tb: &lackpy_sources::Toolbox,
    ctx: &CallContext,
    tool: &str,
    args: &[&str],
) -> String {
    let r = tb.resolve(tool).unwrap_or_else(|e| panic!("{e}"));
    outcome(&call(&r.tool, args.iter().map(|a| s(a)).collect(), ctx))
}

/// Writes `files` (relative path → text) under `root`, making directories.
pub fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = root.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&p, text).expect("write fixture");
    }
}

/// A tracing subscriber that records formatted events, for log assertions.
#[derive(Clone, Default)]
pub struct LogBuf(pub Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuf {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("log lock")).into_owned()
    }
}

/// Runs `f` with logging captured; returns its result and the log text.
///
/// Tests run on parallel threads and tracing caches each callsite's
/// interest globally, so a scoped subscriber loses events whenever another
/// test registers a callsite at the wrong moment (it caches "never").
/// Instead one global subscriber, installed once, is interested in every
/// event and writes each to the capture buffer of the thread that emitted
/// it, if that thread is capturing.
pub fn with_logs<T>(f: impl FnOnce() -> T) -> (T, String) {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let subscriber = tracing_subscriber::fmt()
            .with_writer(ThreadCapture)
            .with_ansi(false)
            .with_max_level(tracing::Level::DEBUG)
            .finish();
        // Another global subscriber (none is expected) would keep its own.
        let _ = tracing::subscriber::set_global_default(subscriber);
    });
    // Callsites that registered before the install cached "never".
    tracing::callsite::rebuild_interest_cache();
    let buf = LogBuf::default();
    CAPTURE.with(|c| *c.borrow_mut() = Some(buf.clone()));
    let out = f();
    CAPTURE.with(|c| *c.borrow_mut() = None);
    (out, buf.text())
}

thread_local! {
    static CAPTURE: std::cell::RefCell<Option<LogBuf>> = const { std::cell::RefCell::new(None) };
}

/// Writes to the capture buffer of the current thread, or nowhere.
struct ThreadCapture;

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for ThreadCapture {
    type Writer = Box<dyn std::io::Write>;

    fn make_writer(&'a self) -> Self::Writer {
        match CAPTURE.with(|c| c.borrow().clone()) {
            Some(buf) => Box::new(buf),
            None => Box::new(std::io::sink()),
        }
    }
}
