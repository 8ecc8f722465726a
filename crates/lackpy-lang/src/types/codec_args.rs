//! The interpreter's side of the codecs: `encoding` and `errors`
//! arguments checked as CPython's Argument Clinic does, the codec looked
//! up, the result charged to the memory budget and codec failures raised
//! as their exceptions.

use std::rc::Rc;

use crate::types::bytes::PyBytes;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, ExceptionKind, R};
use crate::text::codecs::{self, CodecError, Handler};
use crate::value::Value;

/// `encoding` or `errors` as a str: `{fname}() argument 'encoding' must be
/// str, not int` (None shown as `None`).
pub(crate) fn text_arg<'a>(fname: &str, what: &str, v: Option<&'a Value>) -> R<Option<&'a str>> {
    match v {
        None => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.as_str())),
        Some(other) => Err(Exc::type_error(format!(
            "{fname}() argument '{what}' must be str, not {}",
            match other {
                Value::None => "None",
                _ => other.type_name(),
            }
        ))),
    }
}

/// The codec and handler of a call's `encoding` and `errors` arguments
/// (UTF-8 and `strict` when absent); `LookupError: unknown encoding: x`.
fn codec_of(
    fname: &str,
    encoding: Option<&Value>,
    errors: Option<&Value>,
) -> R<(codecs::Codec, Handler)> {
    let encoding = text_arg(fname, "encoding", encoding)?;
    let errors = text_arg(fname, "errors", errors)?;
    let codec = match encoding {
        None => codecs::Codec::Utf8,
        Some(name) => codecs::lookup(name).ok_or_else(|| {
            Exc::new(
                ExceptionKind::Other("LookupError".to_owned()),
                format!("unknown encoding: {name}"),
            )
        })?,
    };
    Ok((codec, errors.map_or(Handler::Strict, Handler::named)))
}

/// A codec failure as its exception. Through CPython's codec registry
/// (any spelling but the shortcuts), a handler's failure is reworded as
/// `{encoding|decoding} with 'name' codec failed (Class: message)`; a
/// Unicode error is not (it carries more than a message).
fn raise(e: CodecError, operation: &str, name: Option<&str>) -> Box<Exc> {
    let class = e.class();
    let kind = match class {
        "TypeError" => ExceptionKind::TypeError,
        other => ExceptionKind::Other(other.to_owned()),
    };
    let message = match name {
        Some(name) if !matches!(e, CodecError::Unicode { .. }) && !codecs::is_shortcut(name) => {
            format!(
                "{operation} with '{name}' codec failed ({class}: {})",
                e.message()
            )
        }
        _ => e.message(),
    };
    Exc::new(kind, message)
}

/// A codec poll checking the run's deadline and cancellation, and the
/// memory budget with the output made so far; the limit error that
/// stopped it is left in `stopped`.
fn poller<'a>(
    budget: &'a mut Budget,
    stopped: &'a mut Option<Box<Exc>>,
) -> impl FnMut(usize) -> bool + 'a {
    move |produced| match budget
        .poll_now()
        .and_then(|()| budget.check_memory(produced))
    {
        Ok(()) => true,
        Err(e) => {
            *stopped = Some(e);
            false
        }
    }
}

/// One conversion (`operation` is `"encoding"` or `"decoding"`) of an
/// input of `size` bytes with the codec and handler `args` name. UTF-8 is
/// one copy, made at once, so it is checked against memory first; the
/// others are metered as they go. A limit hit while polling wins over the
/// codec's own error.
fn convert<T>(
    budget: &mut Budget,
    fname: &str,
    (encoding, errors): (Option<&Value>, Option<&Value>),
    size: usize,
    operation: &str,
    run: impl FnOnce(codecs::Codec, &Handler, codecs::Poll<'_>) -> Result<T, CodecError>,
) -> R<T> {
    let (codec, handler) = codec_of(fname, encoding, errors)?;
    if codec == codecs::Codec::Utf8 {
        budget.check_memory(size)?;
    }
    let name = text_arg(fname, "encoding", encoding)?;
    let mut stopped = None;
    let result = {
        let mut poll = poller(budget, &mut stopped);
        run(codec, &handler, &mut poll)
    };
    result.map_err(|e| stopped.take().unwrap_or_else(|| raise(e, operation, name)))
}

/// `text.encode(encoding, errors)` for the method `fname`.
pub(crate) fn encode(
    budget: &mut Budget,
    fname: &str,
    text: &str,
    encoding: Option<&Value>,
    errors: Option<&Value>,
) -> R<Value> {
    let out = convert(
        budget,
        fname,
        (encoding, errors),
        text.len(),
        "encoding",
        |codec, handler, poll| codecs::encode(text, codec, handler, poll),
    )?;
    budget.check_memory(out.len())?;
    Ok(Value::Bytes(Rc::new(PyBytes::new(out))))
}

/// `data.decode(encoding, errors)` for the function `fname`.
pub(crate) fn decode(
    budget: &mut Budget,
    fname: &str,
    data: &[u8],
    encoding: Option<&Value>,
    errors: Option<&Value>,
) -> R<Value> {
    // Empty bytes are empty text whatever the codec (CPython looks none up).
    if data.is_empty() {
        text_arg(fname, "encoding", encoding)?;
        text_arg(fname, "errors", errors)?;
        return Ok(Value::str(""));
    }
    let out = convert(
        budget,
        fname,
        (encoding, errors),
        data.len(),
        "decoding",
        |codec, handler, poll| codecs::decode(data, codec, handler, poll),
    )?;
    Ok(Value::str(out))
}

#[cfg(test)]
mod tests {
    use crate::interp::test_run::outcome;

    /// Each case: a program and CPython 3.11's answer.
    const CASES: &[(&str, &str)] = &[
        ("'héllo'.encode('ascii', 'replace')", "=> b'h?llo'"),
        ("'hi'.encode('utf-16')", "=> b'\\xff\\xfeh\\x00i\\x00'"),
        (
            "'héllo'.encode('ascii')",
            "UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 1: ordinal not in range(128)",
        ),
        (
            "'a'.encode('bogus')",
            "LookupError: unknown encoding: bogus",
        ),
        ("'a'.encode('latin-1', 'bogus')", "=> b'a'"),
        (
            "'€'.encode('latin-1', 'bogus')",
            "LookupError: unknown error handler name 'bogus'",
        ),
        (
            "'€'.encode('l1', 'bogus')",
            "LookupError: encoding with 'l1' codec failed (LookupError: unknown error handler name 'bogus')",
        ),
        (
            "'a'.encode(1)",
            "TypeError: encode() argument 'encoding' must be str, not int",
        ),
        (
            "str(b'x', None)",
            "TypeError: str() argument 'encoding' must be str, not None",
        ),
        (
            "str('x', 1)",
            "TypeError: str() argument 'encoding' must be str, not int",
        ),
        (
            "str('x', 'ascii')",
            "TypeError: decoding str is not supported",
        ),
        ("str(b'\\xe9', 'latin-1')", "=> 'é'"),
        ("str(b'', 'bogus')", "=> ''"),
        (
            "b'a\\xe9b'.decode()",
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 1: invalid continuation byte",
        ),
        (
            "b'a\\xe9'.decode()",
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 1: unexpected end of data",
        ),
        (
            "b'a\\xe2\\x82'.decode('utf8')",
            "UnicodeDecodeError: 'utf-8' codec can't decode bytes in position 1-2: unexpected end of data",
        ),
        (
            "b'a\\xe2\\x82b'.decode('utf-8', 'replace')",
            "=> 'a\u{fffd}b'",
        ),
        (
            "b'\\xe9'.decode('ascii', 'xmlcharrefreplace')",
            "TypeError: don't know how to handle UnicodeDecodeError in error callback",
        ),
        (
            "b'a'.decode(errors=None)",
            "TypeError: decode() argument 'errors' must be str, not None",
        ),
    ];

    #[test]
    fn encode_and_decode_honour_the_codec_and_the_handler() {
        for (src, want) in CASES {
            assert_eq!(outcome(src), *want, "{src}");
        }
    }
}

#[cfg(test)]
mod deadline_tests {
    use std::time::Duration;

    use lackpy_test_support::cpu::measure;

    use crate::interp::{Limits, NoTools, RunOptions, run};

    #[test]
    fn a_long_conversion_stops_at_the_deadline() {
        for src in [
            "b = b'\\xff' * 20000000\nlen(b.decode('utf-8', 'replace'))",
            "b = b'\\x00\\xdc' * 10000000\nlen(b.decode('utf-16-le', 'ignore'))",
            "t = '\\u20ac' * 20000000\nlen(t.encode('latin-1', 'replace'))",
        ] {
            let module = crate::syntax::parse::parse(src).expect("parses");
            let opts = RunOptions {
                limits: Limits {
                    timeout: Duration::from_millis(200),
                    ..Limits::default()
                },
                ..RunOptions::default()
            };
            // CPU time: a bound on work that load does not stretch.
            let (out, took) = measure(|| run(&module, &mut NoTools, &[], &opts));
            assert_eq!(out.error_type.as_deref(), Some("TimeoutError"), "{src}");
            assert!(took < Duration::from_secs(2), "{src}: {took:?}");
        }
    }
}
