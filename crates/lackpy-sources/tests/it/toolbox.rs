//! Precedence and shadowing in the toolbox.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::{s, with_logs};
use lackpy_sources::lang::{Data, Grade};
use lackpy_sources::{
    ArgSpec, CallContext, Precedence, Provider, Tool, ToolError, ToolSource, ToolSpec, Toolbox,
    tool_fn,
};

/// A source whose tools answer with the source's name; its availability
/// can be switched while the toolbox holds it.
struct TestSource {
    name: String,
    tools: Vec<ToolSpec>,
    up: Arc<AtomicBool>,
}

impl TestSource {
    fn new(name: &str, tools: &[&str]) -> (Arc<TestSource>, Arc<AtomicBool>) {
        let up = Arc::new(AtomicBool::new(true));
        let src = Arc::new(TestSource {
            name: name.to_string(),
            tools: tools
                .iter()
                .map(|t| {
                    ToolSpec::new(*t, Provider::Other(name.to_string()))
                        .with_arg(ArgSpec::new("x"))
                        .with_description(format!("{t} from {name}"))
                })
                .collect(),
            up: Arc::clone(&up),
        });
        (src, up)
    }
}

impl ToolSource for TestSource {
    fn name(&self) -> &str {
        &self.name
    }
    fn available(&self) -> bool {
        self.up.load(Ordering::SeqCst)
    }
    fn discover(&self) -> Vec<ToolSpec> {
        self.tools.clone()
    }
    fn unavailable_reason(&self, _name: &str) -> Option<String> {
        (!self.available()).then(|| "switched off".to_string())
    }
    fn resolve(&self, _spec: &ToolSpec) -> Result<Arc<dyn Tool>, ToolError> {
        let name = self.name.clone();
        Ok(tool_fn(move |_, _, _| Ok(Data::Str(name.clone()))))
    }
}

fn who(tb: &Toolbox, name: &str) -> String {
    match tb.resolve(name) {
        Ok(r) => {
            let ctx = CallContext::new(std::env::temp_dir());
            match r.tool.call(vec![], vec![], &ctx).wait() {
                Ok(Data::Str(s)) => s,
                other => format!("{other:?}"),
            }
        }
        Err(e) => format!("error: {}", e.message()),
    }
}

#[test]
fn higher_precedence_wins_regardless_of_order() {
    let (low, _) = TestSource::new("defaults", &["read_file"]);
    let (high, _) = TestSource::new("config", &["read_file"]);
    let mut tb = Toolbox::new();
    tb.add_source(high, Precedence::USER_CONFIG);
    tb.add_source(low, Precedence::DEFAULTS);
    assert_eq!(who(&tb, "read_file"), "config");

    let (low, _) = TestSource::new("defaults", &["read_file"]);
    let (high, _) = TestSource::new("config", &["read_file"]);
    let mut tb = Toolbox::new();
    tb.add_source(low, Precedence::DEFAULTS);
    tb.add_source(high, Precedence::USER_CONFIG);
    assert_eq!(who(&tb, "read_file"), "config");
}

#[test]
fn ties_go_to_the_later_source_and_are_logged() {
    let (first, _) = TestSource::new("host-a", &["search"]);
    let (second, _) = TestSource::new("host-b", &["search"]);
    let mut tb = Toolbox::new();
    let ((), logs) = with_logs(|| {
        tb.add_source(first, Precedence::Level(4));
        tb.add_source(second, Precedence::Level(4));
    });
    assert_eq!(who(&tb, "search"), "host-b");
    assert!(logs.contains("INFO"), "{logs}");
    assert!(
        logs.contains("tool 'search' from 'host-b' shadows the one from 'host-a' (equal precedence: the later source wins)"),
        "{logs}"
    );
    assert!(
        logs.contains("winner=host-b") && logs.contains("loser=host-a"),
        "{logs}"
    );
}

#[test]
fn every_shadowing_is_logged_with_winner_and_loser() {
    let (low, _) = TestSource::new("mcp:fs", &["read_file"]);
    let (high, _) = TestSource::new("defaults", &["read_file"]);
    let mut tb = Toolbox::new();
    let ((), logs) = with_logs(|| {
        tb.add_source(high, Precedence::DEFAULTS);
        tb.add_source(low, Precedence::MCP);
    });
    assert!(
        logs.contains("tool 'read_file' from 'defaults' shadows the one from 'mcp:fs'"),
        "{logs}"
    );
    assert!(
        logs.contains("winner_precedence=10") && logs.contains("loser_precedence=5"),
        "{logs}"
    );
}

#[test]
fn direct_registration_outranks_every_source() {
    let (src, _) = TestSource::new("config", &["read_file"]);
    let mut tb = Toolbox::new();
    tb.register(
        ToolSpec::new("read_file", Provider::Other("direct".into())),
        tool_fn(|_, _, _| Ok(s("direct"))),
    );
    tb.add_source(src, Precedence::Level(i64::MAX));
    assert_eq!(who(&tb, "read_file"), "direct");
    let listing = tb.listing();
    assert_eq!(
        listing[0].winner().map(|w| w.source.as_str()),
        Some("direct")
    );
    assert_eq!(
        listing[0].winner().map(|w| w.precedence),
        Some(Precedence::Direct)
    );
}

#[test]
fn unavailable_winner_falls_back_to_the_next_candidate() {
    let (virt, virt_up) = TestSource::new("virtual", &["search"]);
    let (mcp, mcp_up) = TestSource::new("mcp:web", &["search"]);
    let (host, _) = TestSource::new("host:a.json", &["search"]);
    let mut tb = Toolbox::new();
    tb.add_source(mcp, Precedence::MCP);
    tb.add_source(host, Precedence::host_config(0));
    tb.add_source(virt, Precedence::VIRTUAL);
    assert_eq!(who(&tb, "search"), "virtual");

    virt_up.store(false, Ordering::SeqCst);
    assert_eq!(who(&tb, "search"), "mcp:web");
    assert_eq!(
        tb.spec("search").map(|s| s.description.as_str()),
        Some("search from mcp:web")
    );

    mcp_up.store(false, Ordering::SeqCst);
    assert_eq!(who(&tb, "search"), "host:a.json");

    virt_up.store(true, Ordering::SeqCst);
    assert_eq!(
        who(&tb, "search"),
        "virtual",
        "the winner comes back when available again"
    );
}

#[test]
fn a_name_with_no_available_candidate_drops_out() {
    let (only, up) = TestSource::new("mcp:down", &["fetch"]);
    let (other, _) = TestSource::new("defaults", &["read_file"]);
    let mut tb = Toolbox::new();
    tb.add_source(other, Precedence::DEFAULTS);
    tb.add_source(only, Precedence::MCP);
    assert_eq!(tb.available_names(), vec!["read_file", "fetch"]);
    up.store(false, Ordering::SeqCst);
    assert_eq!(tb.available_names(), vec!["read_file"]);
    assert_eq!(tb.names(), vec!["read_file", "fetch"]);
    assert!(!tb.is_available("fetch"));
    assert_eq!(
        who(&tb, "fetch"),
        "error: tool 'fetch' is unavailable: switched off"
    );
    assert_eq!(who(&tb, "nope"), "error: unknown tool 'nope'");
    assert_eq!(
        tb.format_description(&["read_file", "fetch", "nope"]),
        "  read_file(x: Any) -> Any  # read_file from defaults"
    );
}

#[test]
fn listing_shows_provenance_precedence_grade_availability_and_shadows() {
    let (virt, virt_up) = TestSource::new("virtual", &["ask"]);
    let (mcp, _) = TestSource::new("mcp:chat", &["ask"]);
    let mut tb = Toolbox::new();
    tb.add_source(mcp, Precedence::MCP);
    tb.add_source(virt, Precedence::VIRTUAL);
    virt_up.store(false, Ordering::SeqCst);
    let listing = tb.listing();
    assert_eq!(listing.len(), 1);
    let ask = &listing[0];
    assert_eq!(ask.name, "ask");
    assert!(ask.available());
    let sources: Vec<(&str, Precedence, bool)> = ask
        .candidates
        .iter()
        .map(|c| (c.source.as_str(), c.precedence, c.available))
        .collect();
    assert_eq!(
        sources,
        vec![
            ("virtual", Precedence::VIRTUAL, false),
            ("mcp:chat", Precedence::MCP, true)
        ]
    );
    assert_eq!(ask.winner().map(|c| c.source.as_str()), Some("mcp:chat"));
    assert_eq!(
        ask.candidates[0].unavailable_reason.as_deref(),
        Some("switched off")
    );
    assert_eq!(ask.candidates[1].grade, Grade::UNKNOWN);
    assert!(ask.shadows().is_empty());
    let json = serde_json::to_value(&listing).unwrap_or_default();
    assert_eq!(json[0]["candidates"][0]["precedence"], 7);
    assert_eq!(json[0]["candidates"][0]["provider"], "virtual");
}

#[test]
fn grade_of_a_tool_set_uses_the_current_winners() {
    let mut tb = Toolbox::new();
    tb.register(
        ToolSpec::new("a", Provider::Builtin).with_grade(Grade::new(1, 0)),
        tool_fn(|_, _, _| Ok(Data::None)),
    );
    tb.register(
        ToolSpec::new("b", Provider::Builtin).with_grade(Grade::new(0, 2)),
        tool_fn(|_, _, _| Ok(Data::None)),
    );
    assert_eq!(tb.grade(&["a", "b"]), Grade::new(1, 2));
    assert_eq!(tb.grade::<&str>(&[]), Grade::new(0, 0));
}

#[test]
fn among_five_host_files_the_earlier_file_wins_in_any_order_added() {
    // Files 3 and 4 both have level 1: the position decides, not the order
    // the sources were added in (discovery finishes in any order).
    for order in [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [3, 4, 0, 2, 1]] {
        let mut tb = Toolbox::new();
        for i in order {
            let tools: &[&str] = if i >= 3 { &["late", "all"] } else { &["all"] };
            let (src, _) = TestSource::new(&format!("host:{i}.json"), tools);
            tb.add_source(src, Precedence::host_config(i));
        }
        assert_eq!(who(&tb, "late"), "host:3.json", "added {order:?}");
        assert_eq!(who(&tb, "all"), "host:0.json", "added {order:?}");
    }
}
