//! The trace under its cap ([`crate::Limits::max_trace_entries`]): the
//! first entries, a ring of the last ones, and a per-tool summary of those
//! in between, so that a run's trace holds at most the cap however many
//! calls it makes (runtime.md, "The trace is capped").
//!
//! Of a cap of `n`, the first `n / 2` entries and the last `n - n / 2` are
//! kept: the last call is the one a failed or paused run stopped at, so a
//! cap of 1 keeps it. The entries left out are always consecutive (steps
//! `n / 2` to `calls - (n - n / 2) - 1`).

use std::collections::VecDeque;
use std::time::Duration;

use super::trace::TraceEntry;
use crate::runtime::memory;

/// What a capped trace left out: exact counts, and per tool what the
/// entries left out would have said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceDropped {
    /// Every tool call of the run, kept or not.
    pub total_calls: usize,
    /// Entries left out (`total_calls` less the trace's length).
    pub dropped: usize,
    /// Step of the first entry left out.
    pub first_step: usize,
    /// Step of the last entry left out (those between are left out too).
    pub last_step: usize,
    /// The entries left out by tool, in the order each tool first lost one.
    pub by_tool: Vec<DroppedCalls>,
}

/// The entries of one tool that a capped trace left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DroppedCalls {
    /// The name the program called.
    pub tool: String,
    /// How many of its entries were left out.
    pub dropped: usize,
    /// Their calls' durations, added up.
    pub duration: Duration,
    /// How many of them failed.
    pub failed: usize,
    /// Who decided those that needed a decision (the entries' `approval`),
    /// with how many each decided, in the order first seen.
    pub approvals: Vec<(String, usize)>,
    /// How many were answered from a journal (the entries' `replayed`).
    pub replayed: usize,
    /// How many carried a note (the entries' `note`).
    pub notes: usize,
}

/// A run's trace as it grows: at most `keep_first + keep_last` entries,
/// whatever the number of calls.
#[derive(Debug)]
pub(crate) struct Trace {
    head: Vec<TraceEntry>,
    keep_first: usize,
    /// The last entries, each with the bytes it was charged.
    tail: VecDeque<(TraceEntry, usize)>,
    keep_last: usize,
    calls: usize,
    by_tool: Vec<DroppedCalls>,
    /// The `by_tool` item the last dropped entry went to: a loop calls one
    /// tool again and again.
    last_tool: usize,
    /// Estimated bytes held: the kept entries and the summary. Each change
    /// is charged to (or credited back to) the run's memory count as it
    /// happens, as the trace lives as long as the run.
    bytes: usize,
}

/// What a new tool's line in the summary holds besides its name.
const TOOL_BYTES: usize = std::mem::size_of::<DroppedCalls>();

/// What a new approver's count in a tool's line holds besides its name.
const APPROVAL_BYTES: usize = std::mem::size_of::<(String, usize)>();

impl Trace {
    /// An empty trace that keeps at most `cap` entries.
    pub(crate) fn new(cap: usize) -> Self {
        let keep_first = cap / 2;
        Trace {
            head: Vec::new(),
            keep_first,
            tail: VecDeque::new(),
            keep_last: cap - keep_first,
            calls: 0,
            by_tool: Vec::new(),
            last_tool: 0,
            bytes: 0,
        }
    }

    /// Calls recorded so far: the next call's step.
    #[inline]
    pub(crate) fn calls(&self) -> usize {
        self.calls
    }

    /// Estimated bytes the trace holds now (kept entries and summary).
    #[inline]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Records the next call's entry, which holds `bytes`, and charges
    /// them; once the cap is reached the oldest entry of the ring is
    /// summarised, freed and credited back, so what the trace holds stops
    /// growing.
    #[inline(always)]
    pub(crate) fn push(&mut self, entry: TraceEntry, bytes: usize) {
        self.calls += 1;
        if self.head.len() < self.keep_first {
            self.head.push(entry);
            self.hold(bytes);
        } else if self.tail.len() < self.keep_last {
            self.tail.push_back((entry, bytes));
            self.hold(bytes);
        } else {
            self.push_past_cap(entry, bytes);
        }
    }

    /// Counts `n` more bytes held, here and in the run's memory count.
    #[inline]
    fn hold(&mut self, n: usize) {
        memory::charge(n);
        self.bytes = self.bytes.saturating_add(n);
    }

    #[cold]
    fn push_past_cap(&mut self, entry: TraceEntry, bytes: usize) {
        let dropped = match self.tail.pop_front() {
            Some((old, old_bytes)) => {
                memory::credit(old_bytes);
                self.bytes = self.bytes.saturating_sub(old_bytes);
                self.hold(bytes);
                self.tail.push_back((entry, bytes));
                old
            }
            // No ring (a cap below 2 keeps no last entries): the new entry
            // goes straight to the summary.
            None => entry,
        };
        self.summarise(&dropped);
    }

    /// Counts `e` in its tool's line of the summary.
    fn summarise(&mut self, e: &TraceEntry) {
        let i = match self.by_tool.get(self.last_tool) {
            Some(d) if d.tool == e.tool => self.last_tool,
            _ => match self.by_tool.iter().position(|d| d.tool == e.tool) {
                Some(i) => i,
                None => {
                    self.hold(TOOL_BYTES + e.tool.len());
                    self.by_tool.push(DroppedCalls {
                        tool: e.tool.clone(),
                        ..DroppedCalls::default()
                    });
                    self.by_tool.len() - 1
                }
            },
        };
        self.last_tool = i;
        let Some(d) = self.by_tool.get_mut(i) else {
            return;
        };
        d.dropped += 1;
        d.duration = d.duration.saturating_add(e.duration);
        d.failed += usize::from(!e.success);
        d.replayed += usize::from(e.replayed);
        d.notes += usize::from(e.note.is_some());
        if let Some(by) = &e.approval {
            match d.approvals.iter_mut().find(|(k, _)| k == by) {
                Some((_, n)) => *n += 1,
                None => {
                    self.bytes = self.bytes.saturating_add(APPROVAL_BYTES + by.len());
                    memory::charge(APPROVAL_BYTES + by.len());
                    d.approvals.push((by.clone(), 1));
                }
            }
        }
    }

    /// The kept entries in step order, and what was left out (`None` when
    /// nothing was).
    pub(crate) fn finish(self) -> (Vec<TraceEntry>, Option<TraceDropped>) {
        let Trace {
            mut head,
            tail,
            calls,
            by_tool,
            ..
        } = self;
        let kept_last = tail.len();
        head.reserve_exact(kept_last);
        head.extend(tail.into_iter().map(|(e, _)| e));
        let dropped = calls - head.len();
        let summary = (dropped > 0).then(|| TraceDropped {
            total_calls: calls,
            dropped,
            first_step: calls - kept_last - dropped,
            last_step: calls - kept_last - 1,
            by_tool,
        });
        (head, summary)
    }

    /// Takes the trace out, leaving an empty one with the same cap.
    pub(crate) fn take(&mut self) -> Trace {
        let cap = self.keep_first + self.keep_last;
        std::mem::replace(self, Trace::new(cap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Data;

    fn entry(step: usize, tool: &str) -> TraceEntry {
        TraceEntry {
            step,
            tool: tool.to_owned(),
            args: vec![("x".to_owned(), Data::Int(step.into()))],
            result: Some(Data::None),
            duration: Duration::from_millis(1),
            success: true,
            error: None,
            note: None,
            approval: None,
            replayed: false,
        }
    }

    /// Records `n` calls of `tool` under `cap`, each charged 100 bytes.
    fn run(cap: usize, n: usize, tool: &str) -> Trace {
        let mut t = Trace::new(cap);
        for step in 0..n {
            t.push(entry(step, tool), 100);
        }
        t
    }

    fn steps(entries: &[TraceEntry]) -> Vec<usize> {
        entries.iter().map(|e| e.step).collect()
    }

    #[test]
    fn under_the_cap_everything_is_kept_and_nothing_summarised() {
        for (cap, n) in [(10, 0), (10, 1), (10, 9), (10, 10), (1, 1), (3, 3)] {
            let t = run(cap, n, "f");
            assert_eq!(t.calls(), n);
            assert_eq!(t.bytes(), 100 * n);
            let (kept, dropped) = t.finish();
            assert_eq!(
                steps(&kept),
                (0..n).collect::<Vec<_>>(),
                "cap {cap}, {n} calls"
            );
            assert_eq!(dropped, None);
        }
    }

    #[test]
    fn an_even_cap_keeps_the_first_half_and_the_last_half() {
        let (kept, dropped) = run(4, 10, "f").finish();
        assert_eq!(steps(&kept), [0, 1, 8, 9]);
        let d = dropped.expect("some left out");
        assert_eq!((d.total_calls, d.dropped), (10, 6));
        assert_eq!((d.first_step, d.last_step), (2, 7));
        assert_eq!(d.by_tool.len(), 1);
        assert_eq!(d.by_tool[0].tool, "f");
        assert_eq!(d.by_tool[0].dropped, 6);
        assert_eq!(d.by_tool[0].duration, Duration::from_millis(6));
    }

    #[test]
    fn an_odd_cap_gives_its_extra_entry_to_the_last() {
        let (kept, dropped) = run(5, 12, "f").finish();
        assert_eq!(steps(&kept), [0, 1, 9, 10, 11]);
        let d = dropped.expect("some left out");
        assert_eq!(
            (d.total_calls, d.dropped, d.first_step, d.last_step),
            (12, 7, 2, 8)
        );
    }

    #[test]
    fn a_cap_of_one_keeps_the_last_call() {
        let (kept, dropped) = run(1, 7, "f").finish();
        assert_eq!(steps(&kept), [6]);
        let d = dropped.expect("some left out");
        assert_eq!(
            (d.total_calls, d.dropped, d.first_step, d.last_step),
            (7, 6, 0, 5)
        );
    }

    #[test]
    fn a_cap_of_zero_keeps_only_the_summary() {
        let t = run(0, 5, "f");
        // Only the summary's one line is held.
        assert_eq!(t.bytes(), TOOL_BYTES + 1);
        let (kept, dropped) = t.finish();
        assert!(kept.is_empty());
        let d = dropped.expect("all left out");
        assert_eq!(
            (d.total_calls, d.dropped, d.first_step, d.last_step),
            (5, 5, 0, 4)
        );
        assert_eq!(d.by_tool[0].dropped, 5);
        assert_eq!(run(0, 0, "f").finish(), (Vec::new(), None));
    }

    #[test]
    fn what_the_trace_holds_stops_growing_at_the_cap() {
        // The memory count (per thread) follows what the trace holds.
        let base = memory::used();
        let charged = || memory::used() - base;
        let mut t = Trace::new(6);
        for step in 0..6 {
            t.push(entry(step, "f"), 100);
        }
        let full = t.bytes();
        assert_eq!(full, 600);
        assert_eq!(charged(), full);
        for step in 6..10_000 {
            t.push(entry(step, "f"), 100);
            assert_eq!(t.bytes(), full + TOOL_BYTES + 1, "step {step}");
        }
        assert_eq!(charged(), t.bytes());
        assert!(t.tail.len() <= 3 && t.head.len() <= 3);
        // An entry that holds more than the one it pushes out is charged
        // the difference.
        t.push(entry(10_000, "f"), 250);
        assert_eq!(t.bytes(), full + 150 + TOOL_BYTES + 1);
        // A new approver's count is charged too, once its entry leaves the
        // ring (which also lets the larger entry go).
        let mut e = entry(10_001, "f");
        e.approval = Some("api".to_owned());
        t.push(e, 100);
        for step in 10_002..10_005 {
            t.push(entry(step, "f"), 100);
        }
        assert_eq!(t.bytes(), full + TOOL_BYTES + 1 + APPROVAL_BYTES + 3);
        assert_eq!(charged(), t.bytes());
        memory::credit(charged());
    }

    #[test]
    fn the_summary_counts_each_tool_and_what_its_entries_said() {
        let mut t = Trace::new(2);
        let tools = ["a", "b", "a", "c", "a", "b", "a", "a"];
        for (step, tool) in tools.iter().enumerate() {
            let mut e = entry(step, tool);
            match step {
                1 => e.approval = Some("policy".to_owned()),
                2 => e.replayed = true,
                3 => e.note = Some("hard links".to_owned()),
                4 => e.approval = Some("api".to_owned()),
                5 => e.approval = Some("policy".to_owned()),
                // The last call failed (and is kept).
                7 => e.success = false,
                _ => {}
            }
            t.push(e, 10);
        }
        let (kept, dropped) = t.finish();
        assert_eq!(steps(&kept), [0, 7]);
        assert!(!kept[1].success);
        let d = dropped.expect("some left out");
        assert_eq!(
            (d.total_calls, d.dropped, d.first_step, d.last_step),
            (8, 6, 1, 6)
        );
        let line = |name: &str| d.by_tool.iter().find(|l| l.tool == name).cloned();
        let order: Vec<&str> = d.by_tool.iter().map(|l| l.tool.as_str()).collect();
        assert_eq!(order, ["b", "a", "c"]);
        let a = line("a").expect("a");
        assert_eq!((a.dropped, a.replayed, a.notes, a.failed), (3, 1, 0, 0));
        assert_eq!(a.approvals, [("api".to_owned(), 1)]);
        let b = line("b").expect("b");
        assert_eq!(b.dropped, 2);
        assert_eq!(b.approvals, [("policy".to_owned(), 2)]);
        let c = line("c").expect("c");
        assert_eq!((c.dropped, c.notes), (1, 1));
        assert_eq!(
            d.by_tool.iter().map(|l| l.dropped).sum::<usize>(),
            d.dropped
        );
    }

    #[test]
    fn a_failed_call_past_a_cap_of_zero_is_counted() {
        let mut t = Trace::new(0);
        t.push(entry(0, "f"), 10);
        let mut e = entry(1, "f");
        e.success = false;
        t.push(e, 10);
        let d = t.finish().1.expect("all left out");
        assert_eq!((d.by_tool[0].dropped, d.by_tool[0].failed), (2, 1));
    }

    #[test]
    fn counts_are_exact_for_every_small_cap() {
        for cap in 0..=9 {
            for n in 0..=25 {
                let (kept, dropped) = run(cap, n, "f").finish();
                let first = cap / 2;
                let last = cap - first;
                let want: Vec<usize> = if n <= cap {
                    (0..n).collect()
                } else {
                    (0..first).chain(n - last..n).collect()
                };
                assert_eq!(steps(&kept), want, "cap {cap}, {n} calls");
                let dropped_n = dropped.as_ref().map_or(0, |d| d.dropped);
                assert_eq!(kept.len() + dropped_n, n);
                if let Some(d) = dropped {
                    assert_eq!(d.total_calls, n);
                    assert_eq!(d.last_step + 1 - d.first_step, d.dropped);
                    assert_eq!(d.by_tool[0].dropped, d.dropped);
                }
            }
        }
    }
}
