//! The [`Toolbox`]: every source's tools merged under bare names.
//!
//! Each name keeps all its candidates, ordered by precedence (then by the
//! order they were added, later first). A name resolves to the highest
//! candidate that is available *now*, so a withdrawn virtual tool or a down
//! MCP server no longer hides a lower tool of the same name. Every shadowing
//! is logged at INFO with the winner and the loser, ties included.

use std::collections::HashMap;
use std::sync::Arc;

use lackpy_lang::{Grade, compute_grade};
use schemars::JsonSchema;
use serde::Serialize;

use crate::error::ToolError;
use crate::model::{ArgSpec, ToolSpec};
use crate::precedence::Precedence;
use crate::source::ToolSource;
use crate::tool::Tool;

/// The source name shown for tools registered directly.
const DIRECT_SOURCE: &str = "direct";

/// Where a candidate's implementation comes from.
#[derive(Clone)]
enum Origin {
    Source(Arc<dyn ToolSource>),
    Direct(Arc<dyn Tool>),
}

#[derive(Clone)]
struct Candidate {
    spec: ToolSpec,
    origin: Origin,
    precedence: Precedence,
    seq: u64,
}

impl Candidate {
    fn source_name(&self) -> &str {
        match &self.origin {
            Origin::Source(s) => s.name(),
            Origin::Direct(_) => DIRECT_SOURCE,
        }
    }

    fn available(&self) -> bool {
        match &self.origin {
            Origin::Source(s) => s.tool_available(&self.spec.name),
            Origin::Direct(_) => true,
        }
    }

    /// Sort key: higher precedence first, then later-added first.
    fn rank(&self) -> (Precedence, u64) {
        (self.precedence, self.seq)
    }
}

/// A name resolved to the implementation that serves it now.
#[derive(Clone)]
pub struct ResolvedTool {
    /// The winning candidate's spec.
    pub spec: ToolSpec,
    /// Its implementation.
    pub tool: Arc<dyn Tool>,
    /// The source it comes from (`direct` for directly registered tools).
    pub source: String,
    /// The precedence it holds the name with.
    pub precedence: Precedence,
}

impl std::fmt::Debug for ResolvedTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResolvedTool")
            .field("spec", &self.spec)
            .field("source", &self.source)
            .field("precedence", &self.precedence)
            .finish_non_exhaustive()
    }
}

/// One candidate for a name, as `lackpy tools` and `list_tools` show it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CandidateInfo {
    /// Which source it comes from (`mcp:time`, `config`, `defaults`,
    /// `host:<file>`, …).
    pub source: String,
    /// What kind of tool it is: `builtin`, `command`, `python`, `virtual`
    /// or `mcp` (its provider's kind).
    pub provider: String,
    /// Its signature as every prompt shows it:
    /// `name(arg: type = default) -> returns`.
    pub signature: String,
    /// Its one-line description.
    pub description: String,
    /// Longer documentation (a server's full description, or a path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docs: Option<String>,
    /// Its arguments: name, type, description, required, default, enum.
    pub args: Vec<ArgSpec>,
    /// Its result type.
    pub returns: String,
    /// The precedence the source was added with.
    pub precedence: Precedence,
    /// The tool's grade.
    #[schemars(with = "crate::GradeJson")]
    pub grade: Grade,
    /// Where the grade comes from, when the source can tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grade_reason: Option<String>,
    /// Whether it can be called right now.
    pub available: bool,
    /// Why not, when the source can tell.
    pub unavailable_reason: Option<String>,
}

/// One name in the toolbox with all its candidates.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ToolListing {
    /// The bare name.
    pub name: String,
    /// Every candidate, highest precedence first (later-added first on ties).
    pub candidates: Vec<CandidateInfo>,
    /// Index into `candidates` of the one the name resolves to now; null
    /// when no candidate is available.
    pub winner: Option<usize>,
}

impl ToolListing {
    /// The candidate the name resolves to now.
    pub fn winner(&self) -> Option<&CandidateInfo> {
        self.winner.and_then(|i| self.candidates.get(i))
    }

    /// Whether the name can be called now.
    pub fn available(&self) -> bool {
        self.winner.is_some()
    }

    /// The candidates the winner shadows (those below it); with no winner,
    /// everything below the top candidate.
    pub fn shadows(&self) -> &[CandidateInfo] {
        let from = self.winner.unwrap_or(0) + 1;
        self.candidates.get(from..).unwrap_or(&[])
    }
}

/// All tools from all sources, merged by bare name.
#[derive(Default, Clone)]
pub struct Toolbox {
    order: Vec<String>,
    candidates: HashMap<String, Vec<Candidate>>,
    next_seq: u64,
}

impl std::fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox")
            .field("names", &self.order)
            .finish_non_exhaustive()
    }
}

impl Toolbox {
    /// An empty toolbox.
    pub fn new() -> Toolbox {
        Toolbox::default()
    }

    /// Adds every tool `source` discovers at `precedence`; returns how many.
    ///
    /// Tools of a source that is unavailable now are still recorded (listed
    /// as unavailable) so that they serve as soon as it is available.
    pub fn add_source(&mut self, source: Arc<dyn ToolSource>, precedence: Precedence) -> usize {
        let specs = source.discover();
        let n = specs.len();
        for spec in specs {
            self.insert(spec, Origin::Source(Arc::clone(&source)), precedence);
        }
        n
    }

    /// Registers one tool directly: precedence ∞, above every source.
    pub fn register(&mut self, spec: ToolSpec, tool: Arc<dyn Tool>) {
        self.insert(spec, Origin::Direct(tool), Precedence::Direct);
    }

    fn insert(&mut self, spec: ToolSpec, origin: Origin, precedence: Precedence) {
        let name = spec.name.clone();
        let cand = Candidate {
            spec,
            origin,
            precedence,
            seq: self.next_seq,
        };
        self.next_seq += 1;
        let list = match self.candidates.get_mut(&name) {
            Some(list) => list,
            None => {
                self.order.push(name.clone());
                self.candidates.entry(name.clone()).or_default()
            }
        };
        if let Some(top) = list.first() {
            let (winner, loser) = if cand.rank() > top.rank() {
                (&cand, top)
            } else {
                (top, &cand)
            };
            let tie = winner.precedence == loser.precedence;
            tracing::info!(
                tool = %name,
                winner = %winner.source_name(),
                winner_precedence = %winner.precedence,
                loser = %loser.source_name(),
                loser_precedence = %loser.precedence,
                tie,
                "tool '{}' from '{}' shadows the one from '{}'{}",
                name,
                winner.source_name(),
                loser.source_name(),
                if tie { " (equal precedence: the later source wins)" } else { "" }
            );
        }
        let at = list
            .iter()
            .position(|c| c.rank() < cand.rank())
            .unwrap_or(list.len());
        list.insert(at, cand);
    }

    /// Every name, available or not, in the order first added.
    pub fn names(&self) -> Vec<String> {
        self.order.clone()
    }

    /// The names that can be called right now: the tool set validation and
    /// generation see.
    pub fn available_names(&self) -> Vec<String> {
        self.order
            .iter()
            .filter(|n| self.winner(n).is_some())
            .cloned()
            .collect()
    }

    fn winner(&self, name: &str) -> Option<&Candidate> {
        self.candidates.get(name)?.iter().find(|c| c.available())
    }

    /// Whether `name` can be called right now.
    pub fn is_available(&self, name: &str) -> bool {
        self.winner(name).is_some()
    }

    /// The spec of the candidate `name` resolves to now.
    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.winner(name).map(|c| &c.spec)
    }

    /// The precedence of the candidate `name` resolves to now (what
    /// policy reads a tool's provenance from).
    pub fn precedence(&self, name: &str) -> Option<Precedence> {
        self.winner(name).map(|c| c.precedence)
    }

    /// Resolves `name` to the highest candidate available now.
    ///
    /// A candidate whose source fails to resolve it is skipped (logged) in
    /// favour of the next one.
    pub fn resolve(&self, name: &str) -> Result<ResolvedTool, ToolError> {
        let Some(list) = self.candidates.get(name) else {
            return Err(ToolError::unavailable(format!("unknown tool '{name}'")));
        };
        let mut first_error = None;
        for cand in list {
            let tool = match &cand.origin {
                Origin::Direct(tool) => Arc::clone(tool),
                Origin::Source(src) => {
                    if !src.tool_available(name) {
                        first_error.get_or_insert_with(|| src.unavailable_error(name));
                        continue;
                    }
                    match src.resolve(&cand.spec) {
                        Ok(tool) => tool,
                        Err(e) => {
                            tracing::warn!(tool = %name, source = %src.name(), error = %e, "cannot resolve tool; trying the next candidate");
                            first_error.get_or_insert(e);
                            continue;
                        }
                    }
                }
            };
            return Ok(ResolvedTool {
                spec: cand.spec.clone(),
                tool,
                source: cand.source_name().to_string(),
                precedence: cand.precedence,
            });
        }
        Err(first_error
            .unwrap_or_else(|| ToolError::unavailable(format!("tool '{name}' is unavailable"))))
    }

    /// The prompt lines for `names`, one
    /// `  name(arg: type) -> returns  # description` per line, within
    /// [`DESCRIPTION_BUDGET`](crate::DESCRIPTION_BUDGET) (descriptions are
    /// shortened past it, signatures never); names that are unknown or
    /// unavailable now are skipped.
    pub fn format_description<S: AsRef<str>>(&self, names: &[S]) -> String {
        let specs: Vec<&ToolSpec> = names.iter().filter_map(|n| self.spec(n.as_ref())).collect();
        crate::signature::describe_within(&specs, crate::signature::DESCRIPTION_BUDGET)
    }

    /// The grade of the tool set `names` as it resolves now (unknown and
    /// unavailable names contribute nothing).
    pub fn grade<S: AsRef<str>>(&self, names: &[S]) -> Grade {
        compute_grade(
            names
                .iter()
                .filter_map(|n| self.spec(n.as_ref()))
                .map(|s| s.grade),
        )
    }

    /// Every name with its candidates, for `lackpy tools`.
    pub fn listing(&self) -> Vec<ToolListing> {
        self.order
            .iter()
            .filter_map(|name| {
                let list = self.candidates.get(name)?;
                let candidates: Vec<CandidateInfo> = list
                    .iter()
                    .map(|c| {
                        let available = c.available();
                        let unavailable_reason = match (&c.origin, available) {
                            (Origin::Source(s), false) => s.unavailable_reason(name),
                            _ => None,
                        };
                        CandidateInfo {
                            source: c.source_name().to_string(),
                            provider: c.spec.provider.kind().to_string(),
                            signature: c.spec.signature(),
                            description: c.spec.description.clone(),
                            docs: c.spec.docs.clone(),
                            args: c.spec.args.clone(),
                            returns: c.spec.returns.clone(),
                            precedence: c.precedence,
                            grade: c.spec.grade,
                            grade_reason: match &c.origin {
                                Origin::Source(s) => s.grade_reason(name),
                                Origin::Direct(_) => Some("registered directly".to_string()),
                            },
                            available,
                            unavailable_reason,
                        }
                    })
                    .collect();
                let winner = candidates.iter().position(|c| c.available);
                Some(ToolListing {
                    name: name.clone(),
                    candidates,
                    winner,
                })
            })
            .collect()
    }
}
