//! The record of tool calls a run made.

use std::time::Duration;

use crate::data::Data;

/// One tool call of a run.
///
/// Arguments and results are bounded previews of the values: a string over
/// 500 characters is cut to its first 500 followed by `... ({len} chars)`;
/// a preview holds at most 2048 bytes of text, after which a container's
/// remaining items become one `"... ({n} more items)"` item; containers
/// nested deeper than 32 become `"..."`; an int over 4300 digits becomes
/// `"<int with more than 4300 digits>"`.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceEntry {
    /// 0-based index of the call in the run.
    pub step: usize,
    /// The name the program called.
    pub tool: String,
    /// Arguments, named after the tool's declared arguments (`arg{i}` past
    /// them), keyword arguments merged on top in call order; each a bounded
    /// preview of the value the tool received.
    pub args: Vec<(String, Data)>,
    /// A bounded preview of the result, `None` on failure.
    pub result: Option<Data>,
    /// How long the call took.
    pub duration: Duration,
    /// Whether the call succeeded.
    pub success: bool,
    /// The tool's error message on failure.
    pub error: Option<String>,
    /// What the host noted about the call (see [`crate::Host::call_note`]).
    pub note: Option<String>,
    /// Who decided the call could run, when it needed a decision (see
    /// [`crate::Host::call_approval`]).
    pub approval: Option<String>,
    /// Whether the call was answered from a journal (see
    /// [`crate::Host::call_replayed`]).
    pub replayed: bool,
}

/// The arguments of a call as its trace entry shows them (bounded
/// previews, named after the tool's declared arguments): what a host shows
/// a person asked to approve the call.
pub fn preview_args(
    declared: &[String],
    args: &[Data],
    kwargs: &[(String, Data)],
) -> Vec<(String, Data)> {
    name_args(declared, args, kwargs).0
}

/// Longest string kept whole in a trace preview (lackpy's cut for string
/// results, applied at every depth).
const MAX_STR_CHARS: usize = 500;

/// Bytes of content one traced value (one argument, or the result) keeps.
pub(crate) const PREVIEW_BYTES: usize = 2048;

/// Containers nested deeper than this in a preview are replaced by a marker.
const PREVIEW_DEPTH: usize = 32;

/// What one preview node costs besides its text (its place in its parent).
const NODE_BYTES: usize = std::mem::size_of::<Data>();

/// Names the arguments of a call as the trace shows them: previews, not
/// copies (the tool gets the full values). Returns the names and previews
/// with the bytes they hold.
pub(crate) fn name_args(
    declared: &[String],
    args: &[Data],
    kwargs: &[(String, Data)],
) -> (Vec<(String, Data)>, usize) {
    let mut held = 0;
    let mut out: Vec<(String, Data)> = Vec::with_capacity(args.len() + kwargs.len());
    for (i, a) in args.iter().enumerate() {
        let name = declared
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("arg{i}"));
        let (p, bytes) = preview(a);
        held += bytes + name.len();
        out.push((name, p));
    }
    for (k, v) in kwargs {
        let (p, bytes) = preview(v);
        held += bytes;
        match out.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = p,
            None => {
                held += k.len();
                out.push((k.clone(), p));
            }
        }
    }
    (out, held)
}

/// A value as the trace keeps it, with the bytes the preview holds.
///
/// A string over 500 characters is cut to its first 500 followed by
/// `... ({len} chars)` (lackpy's rule for string results, at every depth);
/// the whole preview keeps at most [`PREVIEW_BYTES`] of text: once they are
/// spent a string is cut shorter, and a container's remaining items are
/// replaced by one `"... ({n} more items)"` item (a dict's by the entry
/// `"...": "{n} more items"`); containers nested deeper than
/// [`PREVIEW_DEPTH`] become `"..."`; an int over 4300 digits (which has no
/// JSON form) becomes `"<int with more than 4300 digits>"`. The walk stops at the
/// budget, so its cost does not depend on the size of the value.
pub(crate) fn preview(d: &Data) -> (Data, usize) {
    let mut p = Preview {
        left: PREVIEW_BYTES,
        nodes: 0,
    };
    let out = p.at(d, 0);
    let held = (PREVIEW_BYTES - p.left) + p.nodes * NODE_BYTES;
    (out, held)
}

struct Preview {
    left: usize,
    nodes: usize,
}

impl Preview {
    fn spend(&mut self, n: usize) {
        self.left = self.left.saturating_sub(n);
    }

    fn at(&mut self, d: &Data, depth: usize) -> Data {
        self.nodes += 1;
        match d {
            Data::Str(s) => self.string(s),
            Data::Int(i) => {
                if i.bits() > 14_000
                    && crate::types::int::int_to_string(&crate::types::int::IntRef::Big(i))
                        .is_none()
                {
                    return self.marker(format!(
                        "<int with more than {} digits>",
                        crate::types::int::MAX_STR_DIGITS
                    ));
                }
                self.spend((i.bits() as usize / 3).max(1));
                d.clone()
            }
            Data::None | Data::Bool(_) | Data::Float(_) => {
                self.spend(4);
                d.clone()
            }
            Data::List(items) | Data::Tuple(items) | Data::Set(items) => {
                if depth >= PREVIEW_DEPTH {
                    return self.marker("...".to_owned());
                }
                let mut out = Vec::new();
                for (n, item) in items.iter().enumerate() {
                    if self.left == 0 {
                        out.push(Data::Str(format!("... ({} more items)", items.len() - n)));
                        self.nodes += 1;
                        break;
                    }
                    self.spend(2);
                    out.push(self.at(item, depth + 1));
                }
                match d {
                    Data::List(_) => Data::List(out),
                    Data::Tuple(_) => Data::Tuple(out),
                    _ => Data::Set(out),
                }
            }
            Data::Dict(items) => {
                if depth >= PREVIEW_DEPTH {
                    return self.marker("...".to_owned());
                }
                let mut out = Vec::new();
                for (n, (k, v)) in items.iter().enumerate() {
                    if self.left == 0 {
                        out.push((
                            Data::Str("...".to_owned()),
                            Data::Str(format!("{} more items", items.len() - n)),
                        ));
                        self.nodes += 2;
                        break;
                    }
                    self.spend(4);
                    let k = self.at(k, depth + 1);
                    let v = self.at(v, depth + 1);
                    out.push((k, v));
                }
                Data::Dict(out)
            }
        }
    }

    fn marker(&mut self, text: String) -> Data {
        self.spend(text.len());
        Data::Str(text)
    }

    fn string(&mut self, s: &str) -> Data {
        let room = self.left;
        if s.len() <= room && (s.len() <= MAX_STR_CHARS || s.chars().count() <= MAX_STR_CHARS) {
            self.spend(s.len());
            return Data::Str(s.to_owned());
        }
        let mut cut = 0;
        for (n, (i, c)) in s.char_indices().enumerate() {
            if n == MAX_STR_CHARS || i + c.len_utf8() > room {
                break;
            }
            cut = i + c.len_utf8();
        }
        let text = format!("{}... ({} chars)", &s[..cut], s.chars().count());
        self.spend(text.len());
        Data::Str(text)
    }
}
