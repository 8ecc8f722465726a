//! Reading a journal back: its header, completed calls and where it
//! stopped.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use lackpy_bridge::CallRecord;
use lackpy_lang::Grade;

use super::error::RunError;
use super::held::Held;
use super::info::RunInfo;
use super::record::{Line, RunHeader, VERSION};
use super::store::RunStore;
use super::time::rfc3339;

/// Where a journaled run stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum RunState {
    /// Waiting for an approval of call `step`.
    Paused {
        /// The waiting call.
        step: usize,
        /// Its tool.
        tool: String,
        /// Its grade.
        grade: Grade,
        /// The rule that asks.
        rule: String,
    },
    /// Its process ended during call `step`.
    InFlight {
        /// The call.
        step: usize,
        /// Its tool.
        tool: String,
        /// Who approved it, if it needed approval.
        approval: Option<String>,
    },
    /// Its process ended between calls.
    Interrupted,
}

/// A journal opened for resuming (held by this process).
#[derive(Debug)]
pub struct LoadedRun {
    /// What the run was started with.
    pub header: RunHeader,
    /// Its completed calls, in step order.
    pub records: Vec<CallRecord>,
    /// Where it stopped.
    pub state: RunState,
    /// A decision a resume already took for the next step, with who took it.
    pub decided: Option<(usize, bool, String)>,
    /// The stored journal, held.
    pub held: Held,
    /// Its size.
    pub bytes: u64,
}

/// What a journal's text says.
struct Parsed {
    header: RunHeader,
    records: Vec<CallRecord>,
    state: RunState,
    decided: Option<(usize, bool, String)>,
}

pub(super) fn open(store: &RunStore, run_id: &str) -> Result<LoadedRun, RunError> {
    let not_found = || RunError::NotFound(run_id.to_string());
    let path = store.path(run_id).ok_or_else(not_found)?;
    let mut file = match OpenOptions::new().read(true).append(true).open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(not_found()),
        Err(e) => return Err(io(run_id, format!("cannot open its journal: {e}"))),
    };
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Err(RunError::Busy(run_id.into())),
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(io(run_id, format!("cannot lock its journal: {e}")));
        }
    }
    let meta = file
        .metadata()
        .map_err(|e| io(run_id, format!("cannot read its journal: {e}")))?;
    check_expiry(store, run_id, modified_secs(&meta))?;
    let text = read_capped(&mut file, store, run_id)?;
    loaded(
        store,
        run_id,
        modified_secs(&meta),
        text,
        Held::File { path, file },
    )
}

/// A held journal's text, checked and read: expired, too large or corrupt
/// journals are errors naming the run.
pub(super) fn loaded(
    store: &RunStore,
    run_id: &str,
    written: u64,
    text: String,
    held: Held,
) -> Result<LoadedRun, RunError> {
    check_expiry(store, run_id, written)?;
    check_cap(store, run_id, text.len())?;
    let parsed = parse(&text).map_err(|reason| RunError::Corrupt {
        run_id: run_id.to_string(),
        reason,
    })?;
    if parsed.header.run_id != run_id {
        return Err(RunError::Corrupt {
            run_id: run_id.into(),
            reason: format!("it names run '{}'", parsed.header.run_id),
        });
    }
    Ok(LoadedRun {
        header: parsed.header,
        records: parsed.records,
        state: parsed.state,
        decided: parsed.decided,
        held,
        bytes: text.len() as u64,
    })
}

/// The run's state for listing, without taking it (file store).
pub(super) fn info(store: &RunStore, run_id: &str) -> RunInfo {
    let corrupt = |reason: Option<String>| RunInfo {
        state: "corrupt".into(),
        reason,
        ..RunInfo::blank(run_id)
    };
    let Some(path) = store.path(run_id) else {
        return corrupt(None);
    };
    let opened = File::open(&path).and_then(|f| f.metadata().map(|m| (f, m)));
    let (mut file, meta) = match opened {
        Ok(fm) => fm,
        Err(e) => return corrupt(Some(e.to_string())),
    };
    let written = modified_secs(&meta);
    let text = read_capped(&mut file, store, run_id).map_err(|e| e.to_string());
    let running = matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock));
    describe(store, run_id, written, text, running)
}

/// A listing's row for a journal last written at `written`, whose text is
/// `text` (or could not be read, why), held by a process if `running`.
pub(super) fn describe(
    store: &RunStore,
    run_id: &str,
    written: u64,
    text: Result<String, String>,
    running: bool,
) -> RunInfo {
    let mut out = RunInfo::blank(run_id);
    out.expires_at = rfc3339(written + store.keep().as_secs());
    let text = text.and_then(|t| {
        check_cap(store, run_id, t.len())
            .map(|()| t)
            .map_err(|e| e.to_string())
    });
    match text.and_then(|t| parse(&t)) {
        Err(reason) => {
            out.state = "corrupt".into();
            out.reason = Some(reason);
        }
        Ok(p) => {
            out.created_at = rfc3339(p.header.created_at);
            out.calls = p.records.len();
            out.program = p.header.program.lines().next().unwrap_or("").to_string();
            out.state = match p.state {
                RunState::Paused {
                    step, tool, rule, ..
                } => {
                    (out.step, out.tool, out.rule) = (Some(step), Some(tool), Some(rule));
                    "paused".into()
                }
                RunState::InFlight { step, tool, .. } => {
                    (out.step, out.tool) = (Some(step), Some(tool));
                    "in_flight".into()
                }
                RunState::Interrupted => "interrupted".into(),
            };
            if running {
                out.state = "running".into();
            } else if expired(store, written) {
                out.state = "expired".into();
            }
        }
    }
    out
}

fn io(run_id: &str, message: String) -> RunError {
    RunError::Io {
        run_id: run_id.to_string(),
        message,
    }
}

fn modified_secs(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

fn expired(store: &RunStore, written: u64) -> bool {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    now > written.saturating_add(store.keep().as_secs())
}

fn check_expiry(store: &RunStore, run_id: &str, written: u64) -> Result<(), RunError> {
    if expired(store, written) {
        return Err(RunError::Expired {
            run_id: run_id.to_string(),
            at: rfc3339(written),
            hours: store.keep().as_secs() / 3600,
        });
    }
    Ok(())
}

/// The most a journal may hold when read back: its cap, with room for the
/// lines a pause adds.
fn read_limit(store: &RunStore) -> u64 {
    store.cap().saturating_add(1024 * 1024)
}

/// A journal over [`read_limit`] is not read.
fn check_cap(store: &RunStore, run_id: &str, len: usize) -> Result<(), RunError> {
    if len as u64 > read_limit(store) {
        return Err(RunError::Corrupt {
            run_id: run_id.into(),
            reason: "it is larger than [runs] max_journal_mb".into(),
        });
    }
    Ok(())
}

/// A journal file's text; a file over the cap is not read.
fn read_capped(file: &mut File, store: &RunStore, run_id: &str) -> Result<String, RunError> {
    let limit = read_limit(store);
    let mut bytes = Vec::new();
    file.by_ref()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(run_id, format!("cannot read its journal: {e}")))?;
    check_cap(store, run_id, bytes.len())?;
    String::from_utf8(bytes).map_err(|_| RunError::Corrupt {
        run_id: run_id.into(),
        reason: "it is not UTF-8 text".into(),
    })
}

/// Reads a journal's lines. A last line without its newline was being
/// written when the process died: it is left out.
fn parse(text: &str) -> Result<Parsed, String> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    // What follows the last newline is empty, or a line torn by a crash
    // mid-write (its call did not complete): either way it is not read.
    lines.pop();
    let mut header: Option<RunHeader> = None;
    let mut records: Vec<CallRecord> = Vec::new();
    let mut in_flight = None;
    let mut paused = None;
    let mut decided = None;
    for (i, raw) in lines.iter().enumerate() {
        let n = i + 1;
        let line: Line = serde_json::from_str(raw).map_err(|e| format!("line {n}: {e}"))?;
        match (line, &header) {
            (Line::Run(h), None) => {
                if h.version != VERSION {
                    return Err(format!(
                        "line 1: journal version {} (this lackpy reads {VERSION})",
                        h.version
                    ));
                }
                header = Some(h);
            }
            (_, None) => return Err("line 1: not a journal header".into()),
            (Line::Run(_), Some(_)) => return Err(format!("line {n}: a second header")),
            (Line::Begin(s), Some(_)) => {
                if s.step != records.len() {
                    return Err(format!("line {n}: call {} starts out of order", s.step));
                }
                in_flight = Some(s);
            }
            (Line::Call(c), Some(_)) => {
                if c.step != records.len() {
                    return Err(format!("line {n}: call {} completes out of order", c.step));
                }
                in_flight = None;
                paused = None;
                records.push(c);
            }
            (
                Line::Paused {
                    step,
                    tool,
                    grade,
                    rule,
                    ..
                },
                Some(_),
            ) => {
                if step != records.len() {
                    return Err(format!("line {n}: a pause at call {step} out of order"));
                }
                in_flight = None;
                decided = None;
                paused = Some(RunState::Paused {
                    step,
                    tool,
                    grade,
                    rule,
                });
            }
            (Line::Resumed { step, approve, by }, Some(_)) => {
                paused = None;
                decided = Some((step, approve, by));
            }
        }
    }
    let header = header.ok_or("the file is empty")?;
    let state = match (paused, in_flight) {
        (Some(p), _) => p,
        (None, Some(s)) => RunState::InFlight {
            step: s.step,
            tool: s.tool,
            approval: s.approval,
        },
        (None, None) => RunState::Interrupted,
    };
    let decided = decided.filter(|(step, _, _)| *step == records.len());
    Ok(Parsed {
        header,
        records,
        state,
        decided,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> String {
        serde_json::to_string(&Line::Run(RunHeader {
            version: VERSION,
            run_id: "r0000000000000001".into(),
            created_at: 0,
            program: "x".into(),
            params: vec![],
            tools: None,
            profile: None,
            rules: vec![],
            timeout_ms: None,
            max_trace_entries: None,
            namespace_digest: "d".into(),
            durable: true,
        }))
        .expect("header")
    }

    #[test]
    fn a_torn_last_line_is_left_out_and_an_open_call_is_in_flight() {
        let text = format!(
            "{}\n{}\n{}\n{{\"kind\":\"call\",\"st",
            header(),
            r#"{"kind":"call","step":0,"tool":"t","args":{"args":[],"kwargs":[]},"result":1}"#,
            r#"{"kind":"begin","step":1,"tool":"w","args":{"args":[],"kwargs":[]}}"#,
        );
        let p = parse(&text).expect("parses");
        assert_eq!(p.records.len(), 1);
        assert!(matches!(p.state, RunState::InFlight { step: 1, .. }));
    }

    #[test]
    fn broken_journals_say_where() {
        for (text, want) in [
            (String::new(), "empty"),
            ("{}\n".to_string(), "line 1"),
            (format!("{}\nnot json\n", header()), "line 2"),
            (
                format!(
                    "{}\n{}\n",
                    header(),
                    r#"{"kind":"call","step":3,"tool":"t","args":{},"result":1}"#
                ),
                "out of order",
            ),
        ] {
            let e = parse(&text).err().unwrap_or_default();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_decision_for_the_next_step_survives_a_crash() {
        let text = format!(
            "{}\n{}\n{}\n",
            header(),
            r#"{"kind":"paused","step":0,"tool":"w","grade":{"w":3,"d":3},"rule":"r","args":{}}"#,
            r#"{"kind":"resumed","step":0,"approve":true,"by":"flag"}"#,
        );
        let p = parse(&text).expect("parses");
        assert_eq!(p.state, RunState::Interrupted);
        assert_eq!(p.decided, Some((0, true, "flag".into())));
    }
}
