//! Virtual tools: gated before validation/generation and again at call time.

use crate::common;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use common::{outcome, s};
use lackpy_sources::lang::Data;
use lackpy_sources::parse_config;
use lackpy_sources::{
    CallContext, HarnessResolver, Precedence, PythonRuntime, Tool, ToolAnswer, ToolErrorKind,
    ToolSpec, Toolbox, VirtualToolSource, add_local_sources, tool_fn,
};

/// A harness whose offered tools change while runs go on.
#[derive(Default)]
struct Harness {
    offered: Mutex<HashMap<String, Arc<dyn Tool>>>,
}

impl Harness {
    fn offer(&self, name: &str, tool: Arc<dyn Tool>) {
        self.offered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_string(), tool);
    }
    fn withdraw(&self, name: &str) {
        self.offered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(name);
    }
}

impl HarnessResolver for Harness {
    fn resolve(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.offered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned()
    }
}

const CONFIG: &str = r#"
[[virtual_tools]]
name = "ask_user"
description = "Ask the human a question"
args = [{ name = "question", type = "str" }, { name = "default", type = "str", required = false }]
returns = "str"
grade_w = 0
effects_ceiling = 0

[virtual_tools.read_file]
description = "The harness's own reader"
args = [{ name = "path", type = "str" }]
"#;

/// Echoes the keywords it was called with.
fn echo_tool() -> Arc<dyn Tool> {
    tool_fn(|args, kwargs, _| {
        assert!(args.is_empty(), "virtual tools get keywords");
        Ok(Data::Dict(
            kwargs.into_iter().map(|(k, v)| (s(&k), v)).collect(),
        ))
    })
}

fn setup() -> (Toolbox, Arc<Harness>) {
    let cfg = parse_config(CONFIG, Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let harness = Arc::new(Harness::default());
    let mut tb = Toolbox::new();
    add_local_sources(
        &mut tb,
        &cfg,
        &PythonRuntime::new(),
        Some(harness.clone() as Arc<dyn HarnessResolver>),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (tb, harness)
}

#[test]
fn an_unoffered_virtual_tool_is_gone_before_validation_and_generation() {
    let (tb, _harness) = setup();
    assert!(!tb.available_names().contains(&"ask_user".to_string()));
    assert!(tb.names().contains(&"ask_user".to_string()), "still listed");
    assert_eq!(tb.format_description(&["ask_user"]), "");
    let err = tb.resolve("ask_user").err();
    assert_eq!(
        err.as_ref().map(|e| e.message()),
        Some("virtual tool 'ask_user' is unavailable")
    );
    assert_eq!(err.map(|e| e.kind()), Some(ToolErrorKind::Unavailable));
    let listing = tb.listing();
    let ask = listing
        .iter()
        .find(|l| l.name == "ask_user")
        .unwrap_or_else(|| panic!("listed"));
    assert!(!ask.available());
    assert_eq!(
        ask.candidates[0].unavailable_reason.as_deref(),
        Some("the harness does not offer it")
    );
}

#[test]
fn an_offered_virtual_tool_is_called_with_its_declared_names() {
    let (tb, harness) = setup();
    harness.offer("ask_user", echo_tool());
    assert!(tb.available_names().contains(&"ask_user".to_string()));
    assert_eq!(
        tb.format_description(&["ask_user"]),
        "  ask_user(question: str, default: str = None) -> str  # Ask the human a question"
    );
    let ask = tb.resolve("ask_user").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ask.source, "virtual");
    assert_eq!(ask.precedence, Precedence::VIRTUAL);
    let ctx = CallContext::new(std::env::temp_dir());
    assert_eq!(
        outcome(&ask.tool.call(vec![s("why?")], vec![], &ctx).wait()),
        "ok Dict([(Str(\"question\"), Str(\"why?\"))])"
    );
    assert_eq!(
        outcome(
            &ask.tool
                .call(vec![s("q"), s("d"), s("extra")], vec![], &ctx)
                .wait()
        ),
        "TypeError: ask_user() takes from 1 to 2 positional arguments but 3 were given"
    );
}

#[test]
fn a_tool_withdrawn_between_check_and_call_fails_cleanly() {
    let (tb, harness) = setup();
    harness.offer("ask_user", echo_tool());
    let ask = tb.resolve("ask_user").unwrap_or_else(|e| panic!("{e}"));
    harness.withdraw("ask_user");
    let ctx = CallContext::new(std::env::temp_dir());
    let r = ask.tool.call(vec![s("still there?")], vec![], &ctx).wait();
    assert_eq!(
        outcome(&r),
        "ToolError: virtual tool 'ask_user' is unavailable"
    );
    assert_eq!(r.err().map(|e| e.kind()), Some(ToolErrorKind::Unavailable));
}

#[test]
fn virtual_tools_shadow_lower_sources_only_while_offered() {
    let cfg = parse_config(CONFIG, Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let harness = Arc::new(Harness::default());
    let mut tb = Toolbox::new();
    tb.add_source(
        Arc::new(VirtualToolSource::new(
            cfg.virtual_tools.0.clone(),
            Some(harness.clone() as Arc<dyn HarnessResolver>),
        )),
        Precedence::VIRTUAL,
    );
    // An MCP-level tool of the same name.
    struct Lower;
    impl lackpy_sources::ToolSource for Lower {
        fn name(&self) -> &str {
            "mcp:chat"
        }
        fn available(&self) -> bool {
            true
        }
        fn discover(&self) -> Vec<ToolSpec> {
            vec![ToolSpec::new(
                "ask_user",
                lackpy_sources::Provider::Mcp("chat".into()),
            )]
        }
        fn resolve(&self, _: &ToolSpec) -> Result<Arc<dyn Tool>, lackpy_sources::ToolError> {
            Ok(tool_fn(|_, _, _| Ok(s("from mcp"))))
        }
    }
    tb.add_source(Arc::new(Lower), Precedence::MCP);
    let ctx = CallContext::new(std::env::temp_dir());
    let call = |tb: &Toolbox| {
        let r = tb.resolve("ask_user").unwrap_or_else(|e| panic!("{e}"));
        (
            r.source.clone(),
            outcome(&r.tool.call(vec![s("q")], vec![], &ctx).wait()),
        )
    };
    assert_eq!(
        call(&tb),
        ("mcp:chat".to_string(), "ok Str(\"from mcp\")".to_string())
    );
    harness.offer("ask_user", tool_fn(|_, _, _| Ok(s("from harness"))));
    assert_eq!(
        call(&tb),
        (
            "virtual".to_string(),
            "ok Str(\"from harness\")".to_string()
        )
    );
    harness.withdraw("ask_user");
    assert_eq!(call(&tb).0, "mcp:chat");
}

#[test]
fn a_harness_may_answer_later() {
    let (tb, harness) = setup();
    struct Later;
    impl Tool for Later {
        fn call(&self, _: Vec<Data>, kwargs: Vec<(String, Data)>, _: &CallContext) -> ToolAnswer {
            ToolAnswer::Pending(Box::pin(async move {
                Ok(kwargs
                    .into_iter()
                    .next()
                    .map(|(_, v)| v)
                    .unwrap_or(Data::None))
            }))
        }
    }
    harness.offer("ask_user", Arc::new(Later));
    let ask = tb.resolve("ask_user").unwrap_or_else(|e| panic!("{e}"));
    let ctx = CallContext::new(std::env::temp_dir());
    let answer = ask.tool.call(vec![s("async?")], vec![], &ctx);
    assert!(matches!(answer, ToolAnswer::Pending(_)));
    assert_eq!(answer.wait(), Ok(s("async?")));
}

#[test]
fn without_a_resolver_every_virtual_tool_is_unavailable() {
    let cfg = parse_config(CONFIG, Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let mut tb = Toolbox::new();
    add_local_sources(&mut tb, &cfg, &PythonRuntime::new(), None).unwrap_or_else(|e| panic!("{e}"));
    assert!(!tb.is_available("ask_user"));
    assert!(tb.is_available("read_file"));
}
