//! A large value returned as a run's output is held once as JSON text (and
//! once as its repr), and each form is written once into the answer:
//! sizes, counted exactly, never timed. (The peak-RSS curve behind these
//! bounds is in BENCHMARKS.md.)

use std::borrow::Cow;
use std::io;
use std::time::Duration;

use lackpy_bridge::ExecutionResult;
use lackpy_lang::{Grade, NoTools, RunOptions, run};

/// A sink that counts the bytes written.
#[derive(Default)]
struct Counter {
    bytes: usize,
}

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn outcome(src: &str) -> ExecutionResult {
    let module = lackpy_lang::parse(src).expect("parses");
    let o = run(&module, &mut NoTools, &[], &RunOptions::default());
    assert!(o.success, "{:?}", o.error);
    ExecutionResult::from_outcome(o, Grade::PURE, Vec::new(), Vec::new(), Duration::ZERO)
}

#[test]
fn a_returned_list_of_dicts_is_held_once_and_written_once_per_field() {
    let r = outcome("[{'i': i, 's': 'x'} for i in range(20000)]");
    let json = r.output.as_ref().expect("an output").as_str().len();
    let repr = r.output_repr.as_deref().unwrap_or_default().len();
    assert!(json > 20000 * 15, "{json}");
    // The effective output is the output itself, not a copy.
    assert!(matches!(r.effective_output(), Some(Cow::Borrowed(_))));
    // What the result holds for the value: its JSON and its repr.
    assert!(json + repr <= 2 * json + 16, "{json} + {repr}");
    // The answer: output, output_repr and effective_output, once each,
    // plus a few hundred bytes of frame.
    let mut sink = Counter::default();
    r.write_json(&mut sink).expect("writes");
    assert!(
        sink.bytes <= 2 * json + repr + 1024,
        "{} for {json}",
        sink.bytes
    );
    assert_eq!(sink.bytes, r.to_json().len());
}

/// A large output's texts are each one buffer of exactly their length:
/// the JSON is measured before it is written (a buffer grown by doubling
/// leaves the blocks it outgrew resident), and the repr's spare room is
/// given back.
#[test]
fn large_outputs_are_written_into_buffers_of_their_exact_length() {
    for src in [
        "[{'i': i, 's': 'x'} for i in range(30000)]",
        "['item%d' % i for i in range(50000)]",
        "{'k%d' % i: {'a': i, 'b': {'c': [i, 'v']}} for i in range(20000)}",
        "[i * 0.5 + 0.25 for i in range(50000)]",
        "[i % 3 == 0 for i in range(100000)]",
        "[(i,) for i in range(50000)]",
        "['\\u00e9\\n\"' * 3 for i in range(30000)]",
        "'x' * 1000000",
    ] {
        let mut r = outcome(src);
        let repr = r.outcome.output_repr.take().unwrap_or_default();
        let json = r.outcome.output.take().expect("an output").into_string();
        assert!(json.len() > 64 * 1024, "{src}: {}", json.len());
        assert_eq!(json.capacity(), json.len(), "{src}");
        assert_eq!(repr.capacity(), repr.len(), "{src}");
    }
}

#[test]
fn a_long_string_output_is_one_text_in_the_result() {
    let r = outcome("'x' * 100000");
    let json = r.output.as_ref().expect("an output").as_str().len();
    assert_eq!(json, 100_002);
    assert_eq!(r.output_repr.as_deref().map(str::len), Some(100_002));
    let mut sink = Counter::default();
    r.write_json(&mut sink).expect("writes");
    assert!(sink.bytes <= 3 * json + 1024, "{}", sink.bytes);
}
