//! Namespace descriptions: the one signature rendering, and their size for
//! realistic tool counts against the description budget.

use lackpy_sources::{
    ArgSpec, CallContext, DESCRIPTION_BUDGET, Provider, ToolResult, ToolSpec, Toolbox, tool_fn,
};
use serde_json::json;

/// A typed MCP-like tool: four arguments (one enum with a default, one
/// optional union), a two-sentence description.
fn typical(i: usize) -> ToolSpec {
    let mut unit = ArgSpec::new("unit").with_type("str").optional();
    unit.choices = vec![json!("celsius"), json!("fahrenheit")];
    unit.default = Some(json!("celsius"));
    ToolSpec::new(format!("get_reading_{i}"), Provider::Mcp("sensors".into()))
        .with_arg(ArgSpec::new("station_id").with_type("str"))
        .with_arg(ArgSpec::new("hours").with_type("int"))
        .with_arg(unit)
        .with_arg(
            ArgSpec::new("tags")
                .with_type("list[str] | None")
                .optional(),
        )
        .with_returns("{'value': float, 'unit': str, 'at': str}")
        .with_description(
            "Read the latest measurement of a weather station. Returns the value, \
             its unit and when it was taken, averaged over the given hours.",
        )
}

fn toolbox(n: usize) -> (Toolbox, Vec<String>) {
    let mut tb = Toolbox::new();
    let mut names = Vec::new();
    for i in 0..n {
        let spec = typical(i);
        names.push(spec.name.clone());
        tb.register(
            spec,
            tool_fn(|_, _, _: &CallContext| -> ToolResult { Ok(lackpy_sources::lang::Data::None) }),
        );
    }
    (tb, names)
}

#[test]
fn description_sizes_for_10_50_200_tools() {
    for n in [10, 50, 200] {
        let (tb, names) = toolbox(n);
        let text = tb.format_description(&names);
        let full: usize = names
            .iter()
            .filter_map(|n| tb.spec(n))
            .map(|s| s.description_line().len() + 1)
            .sum();
        // `--nocapture` shows the numbers BENCHMARKS.md reports.
        println!(
            "{n} tools: {} bytes (uncut: {} bytes; budget {DESCRIPTION_BUDGET})",
            text.len(),
            full.saturating_sub(1)
        );
        assert!(
            text.len() <= DESCRIPTION_BUDGET || !text.contains("  # "),
            "over the budget only when every description is gone"
        );
        // Every tool keeps its whole signature.
        for name in &names {
            let sig = tb.spec(name).map(ToolSpec::signature).unwrap_or_default();
            assert!(text.contains(&format!("  {sig}")), "{sig}");
        }
    }
}

#[test]
fn the_budget_shortens_long_namespaces() {
    let (tb, names) = toolbox(10);
    let ten = tb.format_description(&names);
    assert!(
        ten.contains("averaged over the given hours"),
        "10 tools fit whole"
    );
    let (tb, names) = toolbox(50);
    let fifty = tb.format_description(&names);
    assert!(
        fifty.len() <= DESCRIPTION_BUDGET && fifty.contains("averaged"),
        "50 fit whole"
    );
    let (tb, names) = toolbox(60);
    let sixty = tb.format_description(&names);
    assert!(sixty.contains("  # Read the latest measurement of a weather station.\n"));
    assert!(!sixty.contains("averaged"));
    let (tb, names) = toolbox(200);
    let many = tb.format_description(&names);
    assert!(
        !many.contains("  # "),
        "descriptions go before signatures do"
    );
    assert_eq!(many.lines().count(), 200);
}

#[test]
fn a_typed_namespace_reads_like_a_stub() {
    let (tb, names) = toolbox(1);
    insta::assert_snapshot!(tb.format_description(&names));
}
