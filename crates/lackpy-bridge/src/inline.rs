//! A run's first slice on the caller's own thread.
//!
//! Handing a run to a blocking thread and its result back costs two thread
//! wake-ups, which is most of a short program's time. So a run first goes
//! a short slice on the thread that awaits it, with a host that calls no
//! tool: until its first tool call a program has had no effect outside
//! itself (its prints are only buffered), so when it reaches one, or its
//! slice ends, the attempt is dropped and the run starts again from the
//! top on an interpreter thread, where the bridge's guarantees (waiting
//! for tool futures, cancellation, deadlines) hold as before. The slice
//! bounds how long the runtime's worker is held, and so also the work
//! done twice.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use lackpy_lang::{Data, ExceptionKind};
use lackpy_lang::{Host, RunOptions, RunOutcome, Teardown, ToolException, run as interpret};

use crate::cancel::CancelToken;
use crate::request::{NamespaceTool, RunRequest};

/// A host that knows the run's tools but calls none of them: the first
/// call ends the attempt.
struct NoCallsYet<'a> {
    tools: &'a [NamespaceTool],
    reached_a_call: bool,
}

impl Host for NoCallsYet<'_> {
    fn tool_args(&self, name: &str) -> Option<&[String]> {
        self.tools
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.args.as_slice())
    }

    fn call(
        &mut self,
        tool: &str,
        _args: Vec<Data>,
        _kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ToolException> {
        self.reached_a_call = true;
        // Never seen: the attempt is dropped.
        Err(ToolException::new(
            "ToolError",
            format!("tool '{tool}' runs on an interpreter thread"),
        ))
    }
}

/// What a slice gave.
pub(crate) enum Slice {
    /// The run is over: this is its outcome.
    Done(Box<RunOutcome>),
    /// The program reached a tool call or its slice ended: run it again
    /// on an interpreter thread.
    Again,
    /// The interpreter panicked.
    Panicked,
}

/// Runs `request` on this thread for at most `slice`.
pub(crate) fn first_slice(request: &RunRequest, cancel: &CancelToken, slice: Duration) -> Slice {
    let start = Instant::now();
    let deadline = start + request.limits.timeout;
    let slice_end = (start + slice).min(deadline);
    let mut host = NoCallsYet {
        tools: &request.tools,
        reached_a_call: false,
    };
    let opts = RunOptions {
        limits: request.limits.clone(),
        cancel: Some(cancel.flag()),
        deadline: Some(slice_end),
        variables: request.variables,
        // An attempt that is dropped runs again from the top: what it
        // built must not stay allocated beside the second run's values.
        teardown: Teardown::Free,
        output_value: request.output_value,
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        interpret(&request.module, &mut host, &request.params, &opts)
    }));
    let Ok(outcome) = outcome else {
        return Slice::Panicked;
    };
    let sliced = slice_end < deadline
        && outcome.error_type.as_deref() == Some(ExceptionKind::TimeoutError.name());
    if host.reached_a_call || sliced {
        Slice::Again
    } else {
        Slice::Done(Box::new(outcome))
    }
}
