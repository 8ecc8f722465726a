//! The sandboxed interpreter: runs a (validated) program with the tools a
//! [`Host`] hands it, under [`Limits`], and answers a [`RunOutcome`].
//!
//! A run lowers the tree once into the IR ([`ir`], by [`lower`]), then
//! evaluates it ([`eval`]).
//! The first uncaught exception ends the run; so does any limit. Nothing
//! here performs I/O: `print` writes to the run's captured stdout and tools
//! are reached only through the host.

#[cfg(test)]
mod budget_guard_tests;
mod caller;
pub(crate) mod eval;
pub(crate) mod host;
pub(crate) mod ir;
pub(crate) mod lower;
mod result;
#[cfg(test)]
mod table_tests;
#[cfg(test)]
pub(crate) mod test_run;
mod trace;
mod trace_cap;

use std::cell::RefCell;
use std::rc::Weak;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub use crate::runtime::Limits;
pub use host::{Host, NoTools, ToolException};
pub use result::RunOutcome;
pub use trace::{TraceEntry, preview_args};
pub use trace_cap::{DroppedCalls, TraceDropped};

use self::ir::{Fallback, NameRef, Program, StmtKind};
use self::trace_cap::Trace;
use crate::data::Data;
use crate::data::convert::{from_data, to_data_with, to_json_text_with};
use crate::data::json_text::JsonText;
use crate::runtime::Budget;
use crate::runtime::error::{Exc, ExceptionKind, R};
use crate::runtime::growth::Growth;
use crate::runtime::{RunLimits, RunScope};
use crate::syntax::ast;
use crate::syntax::catalog::builtin_by_name;
use crate::value::pool::PoolScope;
use crate::value::{Dict, List, Value, repr};

pub(crate) use crate::value::fast_clone;

/// How to run a program.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// The run's limits.
    pub limits: Limits,
    /// Set to `true` from another thread to stop the run (`Cancelled`).
    pub cancel: Option<Arc<AtomicBool>>,
    /// An absolute deadline; overrides `limits.timeout` when set.
    pub deadline: Option<Instant>,
    /// Whether the outcome carries the module-level variables
    /// ([`RunOutcome::variables`]); collected by default.
    pub variables: Variables,
    /// What happens to the program's values when the run ends; freed by
    /// default.
    pub teardown: Teardown,
    /// Whether the outcome also holds the output as a [`Data`] tree that
    /// keeps its Python forms (tuples, sets, non-string keys) in
    /// [`RunOutcome::output_value`], for a host that hands the value on to
    /// Python. Off by default: the tree takes many times the bytes of the
    /// JSON text every host gets.
    pub output_value: bool,
}

/// What happens to the program's values when a run ends.
///
/// Freeing them walks everything the program built: a run that leaves a
/// few hundred thousand strings or small dicts in its variables spends a
/// tenth of its time there. A process that exits right after the run (the
/// `lackpy run` command) can leave that to the exit, which returns all of
/// its memory at once. The outcome is the same either way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Teardown {
    /// Free every value before [`run`] returns (what a host that keeps
    /// running needs).
    #[default]
    Free,
    /// Leave the values allocated when [`run`] returns: for a process that
    /// exits right after the run and never runs again. Each run left this
    /// way keeps its memory until the process ends, so a host that serves
    /// more than one run must not use it.
    AtExit,
}

/// Whether a run writes its module-level variables into the outcome.
///
/// Writing them means turning every variable into JSON text once the
/// program ends, which costs time and result space in proportion to what
/// the variables hold: a caller that shows only the output and what was
/// printed (`lackpy run` without `--json`) asks to [`Omit`](Variables::Omit)
/// them, and then a large variable neither slows the run's end nor fails it
/// with `ResultTooLargeError`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Variables {
    /// Fill [`RunOutcome::variables`] (the `variables` of runtime.md's
    /// ExecutionResult).
    #[default]
    Collect,
    /// Leave [`RunOutcome::variables`] empty; nothing is written for them.
    Omit,
}

/// Runs a program.
///
/// `params` are injected as module-level names first (a dict with a
/// `"value"` key is unwrapped to that value); a param named like a tool or a
/// builtin is refused before anything runs. The tree is expected to have
/// passed validation, but any tree is run safely: constructs the language
/// does not admit fail with `ValidationError`.
pub fn run(
    module: &ast::Module,
    host: &mut dyn Host,
    params: &[(String, Data)],
    opts: &RunOptions,
) -> RunOutcome {
    let start = Instant::now();
    let deadline = opts.deadline.unwrap_or_else(|| start + opts.limits.timeout);
    let pools = PoolScope::enter();
    let scope = RunScope::enter(RunLimits {
        deadline,
        cancel: opts.cancel.clone(),
        max_memory: opts.limits.max_memory,
    });
    let outcome = run_inner(module, host, params, opts, start);
    drop(scope);
    drop(pools);
    outcome
}

fn run_inner(
    module: &ast::Module,
    host: &mut dyn Host,
    params: &[(String, Data)],
    opts: &RunOptions,
    start: Instant,
) -> RunOutcome {
    let colliding: Vec<&str> = params
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| builtin_by_name(n).is_some() || host.tool_args(n).is_some())
        .collect();
    if !colliding.is_empty() {
        let mut names = String::new();
        for (i, n) in colliding.iter().enumerate() {
            if i > 0 {
                names.push_str(", ");
            }
            crate::types::str::repr::push_str_repr(&mut names, n, false);
        }
        return RunOutcome::refused(
            "ValueError",
            format!("Param names collide with tool/builtin names: {{{names}}}"),
            start.elapsed(),
        );
    }
    let budget = Budget::new(&opts.limits, opts.cancel.clone());
    let program = match lower::resolve(module, &*host, opts.limits.max_depth) {
        Ok(p) => p,
        Err(e) => return failure(*e, String::new(), Trace::new(0), start.elapsed()),
    };
    let trace = Trace::new(opts.limits.max_trace_entries);
    let mut interp = Interp::new(host, &program, budget, trace);
    let (outcome, output) = interp.run_program(params, start, opts.variables, opts.output_value);
    match opts.teardown {
        Teardown::Free => {
            drop(output);
            interp.break_cycles();
        }
        // The values are still counted in the memory meter; the scope
        // that `run` entered restores the count before it returns. The
        // output value is the program's too: freeing a large one would
        // queue its items (16 bytes each) beside the result's texts.
        Teardown::AtExit => {
            interp.release_big_lists();
            std::mem::forget(output);
            std::mem::forget(interp);
        }
    }
    outcome
}

fn failure(e: Exc, stdout: String, trace: Trace, duration: Duration) -> RunOutcome {
    let (trace, trace_dropped) = trace.finish();
    RunOutcome {
        success: false,
        output: None,
        output_value: None,
        output_repr: Some("None".to_owned()),
        stdout,
        error: Some(e.msg),
        error_type: Some(e.kind.name().to_owned()),
        error_line: if e.line > 0 { Some(e.line) } else { None },
        // Errors at run time know their line only.
        error_column: None,
        trace,
        trace_dropped,
        variables: Vec::new(),
        duration,
    }
}

/// The error for a part of the result the guard refused: the result limit
/// was reached while writing `what`. Other errors (a ValueError for an int
/// with no JSON form, the deadline) pass through.
fn too_large(e: Box<Exc>, g: &mut Growth, what: &str) -> Box<Exc> {
    if !g.capped() {
        return e;
    }
    Exc::limit(
        ExceptionKind::ResultTooLargeError,
        format!(
            "result too large: {what} would take the run's result past {} bytes",
            g.limit()
        ),
    )
}

/// The key of the marker that stands for a variable left out of the result.
const OMITTED_KEY: &str = "__lackpy_omitted__";

/// A module-level variable as JSON for the result. Writing it never fails
/// a run that succeeded for a reason the program could not see: a value
/// nested too deep for JSON, or too large for what the result (or the
/// run's time) has left, is replaced by `{"__lackpy_omitted__": "too deep"}`
/// or `"too large"`, and one holding an int past 4300 digits (which has no
/// JSON text, as in CPython's `json.dumps`) by `"int over 4300 digits"`
/// (runtime.md). A cancel still ends the run.
fn variable_json(v: &Value, g: &mut Growth) -> R<JsonText> {
    let before = g.used();
    let reason = match to_json_text_with(v, g) {
        Ok(text) => return Ok(text),
        Err(e) => match e.kind {
            ExceptionKind::RecursionError => "too deep",
            ExceptionKind::MemoryError
            | ExceptionKind::ResultTooLargeError
            | ExceptionKind::TimeoutError => "too large",
            ExceptionKind::ValueError if e.msg.starts_with("Exceeds the limit (4300 digits)") => {
                "int over 4300 digits"
            }
            _ => return Err(e),
        },
    };
    g.rewind(before);
    let text = format!("{{\"{OMITTED_KEY}\": \"{reason}\"}}");
    // The marker is a few bytes: it is charged, never refused.
    let _ = g.add(text.len());
    Ok(JsonText::from_written(text))
}

/// The state of one run. Its fields are private: only `interp` and its
/// submodules read them.
pub(crate) struct Interp<'a> {
    /// The door to tools.
    host: &'a mut dyn Host,
    /// The lowered program being run.
    program: &'a Program,
    /// Module-level names, by slot.
    globals: Vec<Option<Value>>,
    /// Global slots in the order they were first bound (the order of the
    /// result's variables).
    bind_order: Vec<u32>,
    /// Whether each global has ever been bound (for `bind_order`).
    ever_bound: Vec<bool>,
    /// The global slots the run's parameters were bound to (left out of
    /// the result's variables).
    param_slots: Vec<u32>,
    /// Locals of comprehension and lambda frames.
    stack: Vec<Option<Value>>,
    /// Base offset of each frame in `stack`.
    frames: Vec<usize>,
    /// The innermost frame's base (`frames.last()`, or 0 at module level),
    /// kept apart so that reading a local is one addition.
    base: usize,
    /// What `print` wrote.
    stdout: String,
    /// Whether `stdout` was cut at its limit.
    stdout_cut: bool,
    /// The tool calls, under the trace's cap; what it holds is charged to
    /// the memory budget and counted in the result.
    trace: Trace,
    /// Steps, clock, memory and cancellation.
    budget: Budget,
    /// The call depth (lambdas and comprehensions).
    depth: u32,
    /// Containers that received other containers by mutation: the only
    /// places a reference cycle can close, cleared at the end of the run.
    cyclic_lists: Vec<Weak<RefCell<List>>>,
    cyclic_dicts: Vec<Weak<RefCell<Dict>>>,
    /// The text of a chain of `+` being collected, kept between chains so
    /// that collecting allocates nothing (see `concat`).
    chain_text: String,
}

/// Rebinds a name that held a big int: the value ends here, and when
/// nothing else holds it its box is kept for the next result.
#[inline(never)]
fn rebind_big(slot: &mut Option<Value>, v: Value) {
    if let Some(old) = slot.replace(v) {
        crate::types::int::retire(old);
    }
}

/// Marker appended to stdout once the cap is reached.
const STDOUT_CUT_MARKER: &str = "\n... [stdout truncated]\n";

impl<'a> Interp<'a> {
    fn new(host: &'a mut dyn Host, program: &'a Program, budget: Budget, trace: Trace) -> Self {
        Interp {
            host,
            program,
            globals: vec![None; program.globals.len()],
            bind_order: Vec::new(),
            ever_bound: vec![false; program.globals.len()],
            param_slots: Vec::new(),
            stack: Vec::new(),
            frames: Vec::new(),
            base: 0,
            stdout: String::new(),
            stdout_cut: false,
            trace,
            budget,
            depth: 0,
            cyclic_lists: Vec::new(),
            cyclic_dicts: Vec::new(),
            chain_text: String::new(),
        }
    }

    fn run_program(
        &mut self,
        params: &[(String, Data)],
        start: Instant,
        variables: Variables,
        output_value: bool,
    ) -> (RunOutcome, Option<Value>) {
        let mut kept = None;
        let result = self.inject_params(params).and_then(|()| self.run_body());
        let result = result.and_then(|output| {
            kept = output;
            self.success(kept.as_ref(), start, variables, output_value)
        });
        let outcome = match result {
            Ok(o) => o,
            Err(e) => failure(
                *e,
                std::mem::take(&mut self.stdout),
                self.trace.take(),
                start.elapsed(),
            ),
        };
        (outcome, kept)
    }

    fn inject_params(&mut self, params: &[(String, Data)]) -> R<()> {
        for (name, data) in params {
            let data = match data {
                Data::Dict(items) => match items
                    .iter()
                    .find(|(k, _)| matches!(k, Data::Str(s) if s == "value"))
                {
                    Some((_, v)) => v,
                    None => data,
                },
                other => other,
            };
            let value = from_data(data)?;
            if let Some(slot) = self
                .program
                .globals
                .iter()
                .position(|g| &*g.name == name.as_str())
            {
                self.param_slots.push(slot as u32);
                if let Some(b) = self.ever_bound.get_mut(slot) {
                    *b = true;
                }
                if let Some(g) = self.globals.get_mut(slot) {
                    *g = Some(value);
                }
            }
        }
        Ok(())
    }

    /// Runs the module; the value of a final expression statement is the output.
    fn run_body(&mut self) -> R<Option<Value>> {
        let body: &'a [ir::Stmt] = &self.program.body;
        let Some((last, init)) = body.split_last() else {
            return Ok(None);
        };
        for s in init {
            self.exec(s)?;
        }
        if let StmtKind::Expr(e) = &last.kind {
            let v = self.eval(e).map_err(|mut ex| {
                if ex.line == 0 {
                    ex.line = last.line;
                }
                ex
            })?;
            return Ok(Some(v));
        }
        self.exec(last)?;
        Ok(None)
    }

    fn success(
        &mut self,
        output: Option<&Value>,
        start: Instant,
        variables: Variables,
        output_value: bool,
    ) -> R<RunOutcome> {
        let output = match output {
            Some(Value::None) | None => None,
            Some(v) => Some(v),
        };
        // Everything the result holds is written under one guard: the
        // result limit less what the trace holds. (The result is not the
        // program's values: it has a limit of its own, so that whether a
        // result fits does not depend on what else the run still holds.)
        let mut g = Growth::with_limit(self.budget.max_result.saturating_sub(self.trace.bytes()));
        let (out_json, out_repr, out_value) = match output {
            Some(v) => {
                let part = |g: &mut Growth| -> R<(JsonText, String, Option<Data>)> {
                    // Written straight from the value: a tree of `Data` would
                    // take many times the text's bytes. (An int past 4300
                    // digits has no text; its repr fails the same way.)
                    let json = to_json_text_with(v, g)?;
                    // The repr is about as long as the JSON (shorter for
                    // non-ASCII text and int keys, a little longer for
                    // one-item tuples): reserved with room to spare, it is
                    // not grown by copying beside it; pages it leaves
                    // untouched cost nothing, and the spare is given back.
                    let len = json.as_str().len();
                    let text = repr::repr_with_capacity(v, g, len + len / 8)?;
                    // Asked for, the tree too, under the same guard.
                    let value = if output_value {
                        Some(to_data_with(v, g)?)
                    } else {
                        None
                    };
                    Ok((json, text, value))
                };
                let (j, r, d) = part(&mut g).map_err(|e| too_large(e, &mut g, "the output"))?;
                (Some(j), r, d)
            }
            None => (None, "None".to_owned(), None),
        };
        let slots: &[_] = match variables {
            Variables::Collect => &self.bind_order,
            Variables::Omit => &[],
        };
        let mut variables = Vec::new();
        for &slot in slots {
            let Some(info) = self.program.globals.get(slot as usize) else {
                continue;
            };
            let name: &str = &info.name;
            if name.starts_with('_')
                || builtin_by_name(name).is_some()
                || matches!(info.fallback, Fallback::Tool(_))
                || self.param_slots.contains(&slot)
            {
                continue;
            }
            if let Some(Some(v)) = self.globals.get(slot as usize) {
                variables.push((name.to_owned(), variable_json(v, &mut g)?));
            }
        }
        let stdout = std::mem::take(&mut self.stdout);
        let (trace, trace_dropped) = self.trace.take().finish();
        Ok(RunOutcome {
            success: true,
            output: out_json,
            output_value: out_value,
            output_repr: Some(out_repr),
            stdout,
            error: None,
            error_type: None,
            error_line: None,
            error_column: None,
            trace,
            trace_dropped,
            variables,
            duration: start.elapsed(),
        })
    }

    /// Records a tool call whose entry holds `bytes`: what the trace holds
    /// is charged to the memory budget, as it lives as long as the run;
    /// past its cap an entry it lets go is credited back. Inlined so that
    /// the entry is built where it is stored (an out-of-line call moved
    /// it: +1% instructions per call).
    #[inline(always)]
    pub(crate) fn record(&mut self, entry: TraceEntry, bytes: usize) {
        self.trace.push(entry, bytes);
    }

    /// Appends program output to the captured stdout, up to the cap.
    pub(crate) fn write_stdout(&mut self, text: &str) {
        if self.stdout_cut {
            return;
        }
        let room = self.budget.max_stdout.saturating_sub(self.stdout.len());
        if text.len() <= room {
            self.stdout.push_str(text);
            return;
        }
        let mut cut = room;
        while cut > 0 && !text.is_char_boundary(cut) {
            cut -= 1;
        }
        self.stdout.push_str(&text[..cut]);
        self.stdout.push_str(STDOUT_CUT_MARKER);
        self.stdout_cut = true;
    }

    /// Empties every container that may be part of a reference cycle, so
    /// that cyclic garbage does not outlive the run.
    /// Returns the buffers of large module-level lists, leaving their
    /// items allocated: what the process does after the run then reuses
    /// that memory instead of adding to the peak. Leaving an item is a
    /// move, so this costs a pass over the slots and one `free` per list,
    /// not a drop per item.
    fn release_big_lists(&mut self) {
        const BIG: usize = 64 * 1024;
        for v in self.globals.iter().flatten() {
            if let Value::List(l) = v
                && let Ok(mut l) = l.try_borrow_mut()
                && l.items.capacity() * std::mem::size_of::<Value>() >= BIG
            {
                let mut items = std::mem::take(&mut l.items);
                crate::types::item::forget_plain(&mut items);
            }
        }
    }

    fn break_cycles(&mut self) {
        self.globals.clear();
        self.stack.clear();
        for w in std::mem::take(&mut self.cyclic_lists) {
            if let Some(l) = w.upgrade() {
                let items = match l.try_borrow_mut() {
                    Ok(mut l) => std::mem::take(&mut l.items),
                    Err(_) => Vec::new(),
                };
                let mut items = items;
                crate::value::mem::drop_values(&mut items);
            }
        }
        for w in std::mem::take(&mut self.cyclic_dicts) {
            if let Some(d) = w.upgrade()
                && let Ok(mut d) = d.try_borrow_mut()
            {
                d.clear();
            }
        }
    }

    /// Raises the error for a name that has no value.
    #[cold]
    pub(crate) fn unbound(&self, r: NameRef, name: &str) -> Box<Exc> {
        match r {
            NameRef::Global(_) => Exc::name_error(format!("name '{name}' is not defined")),
            NameRef::Local(_) => Exc::new(
                ExceptionKind::UnboundLocalError,
                format!(
                    "cannot access local variable '{name}' where it is not associated with a value"
                ),
            ),
            NameRef::Outer(..) => Exc::name_error(format!(
                "cannot access free variable '{name}' where it is not associated with a value in enclosing scope"
            )),
        }
    }

    /// Loads a name.
    #[inline]
    pub(crate) fn load(&self, r: NameRef, name: &str) -> R<Value> {
        match r {
            NameRef::Global(slot) => match self.globals.get(slot as usize) {
                Some(Some(v)) => Ok(fast_clone(v)),
                _ => self.load_fallback(slot, name),
            },
            NameRef::Local(slot) => match self.stack.get(self.base + slot as usize) {
                Some(Some(v)) => Ok(fast_clone(v)),
                _ => Err(self.unbound(r, name)),
            },
            NameRef::Outer(depth, slot) => {
                let n = self.frames.len();
                let base = n
                    .checked_sub(1 + depth as usize)
                    .and_then(|i| self.frames.get(i))
                    .copied();
                match base.and_then(|b| self.stack.get(b + slot as usize)) {
                    Some(Some(v)) => Ok(v.clone()),
                    _ => Err(self.unbound(r, name)),
                }
            }
        }
    }

    #[cold]
    fn load_fallback(&self, slot: u32, name: &str) -> R<Value> {
        match self.program.globals.get(slot as usize).map(|g| &g.fallback) {
            Some(Fallback::Builtin(crate::syntax::catalog::BuiltinName::Func(b))) => {
                Ok(Value::Builtin(*b))
            }
            Some(Fallback::Builtin(crate::syntax::catalog::BuiltinName::Type(t))) => {
                Ok(Value::Type(*t))
            }
            Some(Fallback::Tool(v) | Fallback::Value(v)) => Ok(v.clone()),
            _ => Err(self.unbound(NameRef::Global(slot), name)),
        }
    }

    /// Whether a name currently has a value (builtins and tools count).
    pub(crate) fn is_bound(&self, r: NameRef) -> bool {
        match r {
            NameRef::Global(slot) => {
                matches!(self.globals.get(slot as usize), Some(Some(_)))
                    || !matches!(
                        self.program.globals.get(slot as usize).map(|g| &g.fallback),
                        Some(Fallback::None) | None
                    )
            }
            _ => self.slot_mut_ref(r).is_some_and(|s| s.is_some()),
        }
    }

    fn slot_mut_ref(&self, r: NameRef) -> Option<&Option<Value>> {
        let idx = self.slot_index(r)?;
        self.stack.get(idx)
    }

    pub(crate) fn slot_index(&self, r: NameRef) -> Option<usize> {
        match r {
            NameRef::Global(_) => None,
            NameRef::Local(slot) => {
                self.frames.last()?;
                Some(self.base + slot as usize)
            }
            NameRef::Outer(depth, slot) => {
                let n = self.frames.len();
                Some(*self.frames.get(n.checked_sub(1 + depth as usize)?)? + slot as usize)
            }
        }
    }

    /// Records the first binding of a global (for the order of `variables`).
    fn first_bind(&mut self, slot: usize) {
        if let Some(b) = self.ever_bound.get_mut(slot)
            && !*b
        {
            *b = true;
            self.bind_order.push(slot as u32);
        }
    }

    /// The storage of a name, without side effects on the binding order.
    #[inline]
    pub(crate) fn slot_ref(&mut self, r: NameRef) -> Option<&mut Option<Value>> {
        match r {
            NameRef::Global(slot) => self.globals.get_mut(slot as usize),
            _ => {
                let i = self.slot_index(r)?;
                self.stack.get_mut(i)
            }
        }
    }

    /// The storage of a name, recording a global's first binding.
    pub(crate) fn slot_mut(&mut self, r: NameRef) -> Option<&mut Option<Value>> {
        if let NameRef::Global(slot) = r {
            self.first_bind(slot as usize);
        }
        self.slot_ref(r)
    }

    /// Binds a name.
    #[inline]
    pub(crate) fn store(&mut self, r: NameRef, v: Value) {
        match r {
            NameRef::Global(slot) => {
                let i = slot as usize;
                match self.globals.get_mut(i) {
                    Some(g @ Some(Value::Big(_))) => rebind_big(g, v),
                    Some(g @ Some(_)) => {
                        *g = Some(v);
                    }
                    Some(g) => {
                        *g = Some(v);
                        self.first_bind(i);
                    }
                    None => {}
                }
            }
            NameRef::Local(slot) => {
                if let Some(g) = self.stack.get_mut(self.base + slot as usize) {
                    *g = Some(v);
                }
            }
            NameRef::Outer(..) => {
                if let Some(g) = self.slot_mut(r) {
                    *g = Some(v);
                }
            }
        }
    }

    /// Pushes a frame of `n` unbound locals, charging `cost` to the
    /// evaluation depth (a lambda call costs its body's nesting depth).
    #[inline]
    pub(crate) fn push_frame(&mut self, n: usize, cost: u32) -> R<()> {
        self.depth += cost;
        if self.depth > self.budget.max_depth {
            self.depth -= cost;
            return Err(Exc::limit(
                ExceptionKind::RecursionError,
                "maximum recursion depth exceeded",
            ));
        }
        self.base = self.stack.len();
        self.frames.push(self.base);
        if n > 0 {
            self.stack.resize(self.stack.len() + n, None);
        }
        Ok(())
    }

    /// Pops the innermost frame.
    #[inline]
    pub(crate) fn pop_frame(&mut self, cost: u32) {
        if let Some(base) = self.frames.pop() {
            self.stack.truncate(base);
        }
        self.base = self.frames.last().copied().unwrap_or(0);
        self.depth = self.depth.saturating_sub(cost);
    }
}
