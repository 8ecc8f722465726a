//! `[policy]`, `[runs]` and a profile's `limits`/`rules`/`policy`: every
//! key, the defaults, and every error with its line and key (the messages
//! are insta snapshots, like the other config errors).

use std::path::Path;

use lackpy_sources::lang::Grade;
use lackpy_sources::{
    ConfigError, LoadedConfig, Policy, PolicyRules, PolicySection, PolicyState, ProfileLimits,
    ProvenanceKind, RunsSection, parse_config,
};

const FILE: &str = ".lackpy/config.toml";

fn parse(text: &str) -> Result<LoadedConfig, ConfigError> {
    parse_config(text, Path::new(FILE))
}

fn error(text: &str) -> String {
    match parse(text) {
        Ok(c) => panic!("expected an error, got {:?}", c.config),
        Err(e) => e.to_string(),
    }
}

/// The line, column and key of an `Invalid` error.
fn place(text: &str) -> (usize, usize, String) {
    match parse(text) {
        Err(ConfigError::Invalid {
            file,
            line,
            column,
            key,
            ..
        }) => {
            assert_eq!(file, Path::new(FILE));
            (line, column, key)
        }
        other => panic!("expected an Invalid error, got {other:?}"),
    }
}

const EXAMPLE: &str = r#"
[profiles.reader]
tools = ["read_file", "find_files"]
limits = { timeout_ms = 5000, max_steps = 100000, max_memory_mb = 64, max_trace_entries = 500 }
rules = ["no_loops", "max_calls:5"]
policy = { max_grade = { w = 1, d = 0 }, approve_above = { w = 0, d = 0 }, approve_tools = ["x"] }

[policy]
max_grade = { w = 3, d = 2 }
approve_above = { w = 2, d = 1 }
approve_tools = ["send_email"]
auto_approve = ["read_file"]
approval_timeout_ms = 1000

[policy.provenance.host]
max_grade = { w = 2, d = 1 }
[policy.provenance.mcp]
approve_above = { w = 1, d = 0 }
[policy.provenance.config]
approve_tools = ["deploy"]
[policy.provenance.builtin]
max_grade = { w = 3, d = 3 }
[policy.provenance.virtual]
approve_above = { w = 0, d = 0 }

[runs]
journal = true
keep_hours = 48
max_journal_mb = 8
"#;

#[test]
fn every_policy_runs_and_profile_key_parses_into_typed_structs() {
    let loaded = parse(EXAMPLE).unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let c = loaded.config;
    let reader = c.profiles.get("reader").cloned().unwrap_or_default();
    assert_eq!(
        reader.limits,
        Some(ProfileLimits {
            timeout_ms: Some(5000),
            max_steps: Some(100_000),
            max_memory_mb: Some(64),
            max_trace_entries: Some(500),
        })
    );
    assert_eq!(reader.rules, vec!["no_loops", "max_calls:5"]);
    assert_eq!(
        reader.policy,
        Some(PolicyRules {
            max_grade: Some(Grade::new(1, 0)),
            approve_above: Some(Grade::new(0, 0)),
            approve_tools: vec!["x".into()],
        })
    );
    let p = &c.policy;
    assert_eq!(p.max_grade, Some(Grade::new(3, 2)));
    assert_eq!(p.approve_above, Some(Grade::new(2, 1)));
    assert_eq!(p.approve_tools, vec!["send_email"]);
    assert_eq!(p.auto_approve, vec!["read_file"]);
    assert_eq!(p.approval_timeout_ms(), 1000);
    let prov = &p.provenance;
    let rules = |max: Option<Grade>, above: Option<Grade>, tools: &[&str]| {
        Some(PolicyRules {
            max_grade: max,
            approve_above: above,
            approve_tools: tools.iter().map(|t| t.to_string()).collect(),
        })
    };
    assert_eq!(prov.host, rules(Some(Grade::new(2, 1)), None, &[]));
    assert_eq!(prov.mcp, rules(None, Some(Grade::new(1, 0)), &[]));
    assert_eq!(prov.config, rules(None, None, &["deploy"]));
    assert_eq!(prov.builtin, rules(Some(Grade::new(3, 3)), None, &[]));
    assert_eq!(prov.virtual_, rules(None, Some(Grade::new(0, 0)), &[]));
    assert_eq!(
        c.runs,
        RunsSection {
            journal: true,
            keep_hours: Some(48),
            max_journal_mb: Some(8),
            store: None,
        }
    );
    assert_eq!((c.runs.keep_hours(), c.runs.max_journal_mb()), (48, 8));

    let policy = Policy::from_config(&c).for_profile(&c, "reader");
    assert_eq!(
        policy.evaluate("write_file", Grade::new(3, 3), ProvenanceKind::Builtin),
        PolicyState::OverCeiling {
            ceiling: Grade::new(1, 0),
            scope: "profile 'reader'".into()
        }
    );
}

#[test]
fn absent_sections_give_the_defaults() {
    let c = parse("").unwrap_or_else(|e| panic!("{e}")).config;
    assert_eq!(c.policy, PolicySection::default());
    assert_eq!(c.policy.approval_timeout_ms(), 600_000);
    assert!(!c.runs.journal);
    assert_eq!(c.runs.keep_hours(), 24);
    assert_eq!(c.runs.max_journal_mb(), 64);
    let p = parse("[profiles.p]\ntools = \"none\"\n")
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let profile = p.profiles.get("p").cloned().unwrap_or_default();
    assert_eq!(
        (profile.limits, profile.rules, profile.policy),
        (None, vec![], None)
    );
    assert!(Policy::from_config(&p).for_profile(&p, "p").is_empty());
}

#[test]
fn the_config_example_of_tools_md_parses_without_warnings() {
    let doc = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/spec/tools.md");
    let text = std::fs::read_to_string(doc).unwrap_or_else(|e| panic!("{doc}: {e}"));
    let block = text
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_else(|| panic!("no toml block in {doc}"));
    let loaded = parse(block).unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let c = loaded.config;
    assert!(c.policy.max_grade.is_some() && c.policy.provenance.host.is_some());
    let reader = c.profiles.get("reader").cloned().unwrap_or_default();
    assert!(reader.limits.is_some() && reader.policy.is_some());
    assert_eq!(reader.rules, vec!["no_loops"]);
    assert_eq!(c.runs.keep_hours, Some(24));
}

#[test]
fn a_profile_may_tighten_or_match_the_top_level() {
    let text = "\
[policy]
max_grade = { w = 2, d = 2 }
approve_above = { w = 1, d = 1 }
[profiles.same]
policy = { max_grade = { w = 2, d = 2 }, approve_above = { w = 1, d = 1 } }
[profiles.tighter]
policy = { max_grade = { w = 0, d = 2 }, approve_above = { w = 1, d = 0 } }
";
    assert!(parse(text).is_ok());
    // With no top-level limit there is nothing to loosen.
    assert!(parse("[profiles.p]\npolicy = { max_grade = { w = 3, d = 3 } }\n").is_ok());
}

// ---- errors: one snapshot each, and their line and key -------------------

macro_rules! error_case {
    ($name:ident, $text:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), error($text));
        }
    };
}

error_case!(
    err_grade_component_out_of_range,
    "[policy]\nmax_grade = { w = 4, d = 0 }\n"
);
error_case!(
    err_grade_component_missing,
    "[policy]\napprove_above = { w = 1 }\n"
);
error_case!(
    err_grade_extra_key,
    "[policy.provenance.mcp]\nmax_grade = { w = 1, d = 0, x = 2 }\n"
);
error_case!(err_grade_not_a_table, "[policy]\nmax_grade = 3\n");
error_case!(
    err_auto_approve_in_provenance,
    "[policy]\nauto_approve = [\"a\"]\n[policy.provenance.mcp]\nauto_approve = [\"b\"]\n"
);
error_case!(
    err_auto_approve_in_profile_policy,
    "[profiles.reader]\npolicy = { auto_approve = [\"b\"] }\n"
);
error_case!(
    err_approve_and_auto_approve,
    "[policy]\napprove_tools = [\"a\", \"send_email\"]\nauto_approve = [\"send_email\"]\n"
);
error_case!(
    err_profile_loosens_max_grade,
    "[policy]\nmax_grade = { w = 3, d = 2 }\n[profiles.reader]\npolicy = { max_grade = { w = 1, d = 3 } }\n"
);
error_case!(
    err_profile_loosens_approve_above,
    "[policy]\napprove_above = { w = 1, d = 1 }\n[profiles.reader.policy]\napprove_above = { w = 2, d = 0 }\n"
);
error_case!(
    err_unknown_rule,
    "[profiles.reader]\nrules = [\"no_loops\", \"no_whiles\"]\n"
);
error_case!(
    err_approval_timeout_zero,
    "[policy]\napproval_timeout_ms = 0\n"
);
error_case!(err_keep_hours_zero, "[runs]\nkeep_hours = 0\n");
error_case!(err_max_journal_mb_zero, "[runs]\nmax_journal_mb = 0\n");
error_case!(err_journal_wrong_type, "[runs]\njournal = \"yes\"\n");
error_case!(
    err_store_password_in_url,
    "[runs]\nstore = \"postgres://lackpy:secret@db:5432/lackpy\"\n"
);
error_case!(
    err_store_not_a_url,
    "[runs]\nstore = \"mysql://db/lackpy\"\n"
);

#[test]
fn a_run_store_url_without_a_password_parses() {
    for url in [
        "postgres://lackpy@db:5432/lackpy",
        "postgresql://db/x",
        "files",
    ] {
        let c = parse(&format!("[runs]\nstore = \"{url}\"\n"))
            .unwrap_or_else(|e| panic!("{e}"))
            .config;
        assert_eq!(c.runs.store.as_deref(), Some(url));
    }
}

error_case!(
    err_profile_limits_wrong_type,
    "[profiles.p]\nlimits = { timeout_ms = \"5s\" }\n"
);

#[test]
fn grade_errors_name_the_component() {
    let (line, _, key) = place("[runs]\njournal = true\n[policy]\nmax_grade = { w = 3, d = 7 }\n");
    assert_eq!((line, key.as_str()), (4, "policy.max_grade.d"));
    let (line, _, key) =
        place("[profiles.r]\n\npolicy.approve_above.w = 9\npolicy.approve_above.d = 0\n");
    assert_eq!(
        (line, key.as_str()),
        (3, "profiles.r.policy.approve_above.w")
    );
}

#[test]
fn auto_approve_outside_policy_is_an_error_at_its_line() {
    let cases = [
        (
            "[policy]\nauto_approve = [\"a\"]\n\n[policy.provenance.host]\nmax_grade = { w = 1, d = 1 }\nauto_approve = [\"a\"]\n",
            6,
            "policy.provenance.host.auto_approve",
        ),
        (
            "[policy.provenance.virtual]\nauto_approve = []\n",
            2,
            "policy.provenance.virtual.auto_approve",
        ),
        (
            "[profiles.\"a.b\"]\ntools = []\npolicy = { approve_tools = [], auto_approve = [\"x\"] }\n",
            3,
            "profiles.a.b.policy.auto_approve",
        ),
        (
            "[profiles.p]\nauto_approve = [\"x\"]\n",
            2,
            "profiles.p.auto_approve",
        ),
    ];
    for (text, want_line, want_key) in cases {
        let (line, _, key) = place(text);
        assert_eq!((line, key.as_str()), (want_line, want_key), "{text}");
        assert!(error(text).contains("auto_approve is only allowed in [policy]"));
    }
}

#[test]
fn approve_and_auto_approve_clash_in_every_scope() {
    let cases = [
        (
            "[policy]\nauto_approve = [\"t\"]\napprove_tools = [\n  \"a\",\n  \"t\",\n]\n",
            5,
            "policy.approve_tools[1]",
            "[policy] approve_tools",
        ),
        (
            "[policy]\nauto_approve = [\"t\"]\n[policy.provenance.builtin]\napprove_tools = [\"t\"]\n",
            4,
            "policy.provenance.builtin.approve_tools[0]",
            "[policy.provenance.builtin] approve_tools",
        ),
        (
            "[policy]\nauto_approve = [\"t\"]\n[profiles.r]\npolicy = { approve_tools = [\"t\"] }\n",
            4,
            "profiles.r.policy.approve_tools[0]",
            "profile 'r' approve_tools",
        ),
    ];
    for (text, want_line, want_key, scope) in cases {
        let (line, _, key) = place(text);
        assert_eq!((line, key.as_str()), (want_line, want_key), "{text}");
        let msg = error(text);
        assert!(
            msg.contains(&format!("tool 't' is in both {scope}")),
            "{msg}"
        );
    }
}

#[test]
fn a_loosening_profile_is_an_error_at_its_key() {
    let text = "\
[policy]
max_grade = { w = 2, d = 2 }
approve_above = { w = 1, d = 1 }

[profiles.ok]
policy = { max_grade = { w = 1, d = 1 } }

[profiles.loose]
tools = []
policy = { approve_above = { w = 0, d = 0 }, max_grade = { w = 3, d = 0 } }
";
    let (line, column, key) = place(text);
    assert_eq!(
        (line, column, key.as_str()),
        (10, 46, "profiles.loose.policy.max_grade")
    );
    let msg = error(text);
    assert!(msg.contains("a profile's policy can only tighten"), "{msg}");
    let (line, _, key) = place(
        "[policy]\napprove_above = { w = 1, d = 1 }\n[profiles.p.policy]\napprove_above = { w = 1, d = 2 }\n",
    );
    assert_eq!((line, key.as_str()), (4, "profiles.p.policy.approve_above"));
}

#[test]
fn a_profile_trace_cap_may_only_tighten_with_line_and_key() {
    // Above [limits]'s own value.
    let text = "[limits]\nmax_trace_entries = 100\n\n[profiles.ok]\nlimits = { max_trace_entries = 100 }\n\n[profiles.wide]\nlimits = { timeout_ms = 5, max_trace_entries = 101 }\n";
    let (line, column, key) = place(text);
    assert_eq!(
        (line, column, key.as_str()),
        (8, 28, "profiles.wide.limits.max_trace_entries")
    );
    assert_eq!(
        error(text),
        ".lackpy/config.toml:8:28: key 'profiles.wide.limits.max_trace_entries': profile 'wide' \
         max_trace_entries 101 is above [limits] max_trace_entries 100; a profile's limits can \
         only tighten"
    );
    // Above the default when [limits] sets none.
    let text = "[profiles.p.limits]\nmax_trace_entries = 20000\n";
    let (line, _, key) = place(text);
    assert_eq!(
        (line, key.as_str()),
        (2, "profiles.p.limits.max_trace_entries")
    );
    assert!(error(text).contains("[limits] max_trace_entries 10000 (the default)"));
    // At or below it is fine, 0 (only the summary) included.
    for ok in [
        "[profiles.p.limits]\nmax_trace_entries = 10000\n",
        "[profiles.p.limits]\nmax_trace_entries = 0\n",
        "[limits]\nmax_trace_entries = 0\n[profiles.p.limits]\nmax_trace_entries = 0\n",
    ] {
        assert!(parse(ok).is_ok(), "{ok}");
    }
}

#[test]
fn zero_and_unknown_rule_errors_carry_line_and_key() {
    let cases = [
        (
            "[policy]\napprove_tools = []\napproval_timeout_ms = 0\n",
            3,
            "policy.approval_timeout_ms",
        ),
        (
            "[runs]\njournal = true\nkeep_hours = 0\n",
            3,
            "runs.keep_hours",
        ),
        ("\n[runs]\nmax_journal_mb = 0\n", 3, "runs.max_journal_mb"),
        (
            "[profiles.p]\nrules = [\n  \"no_loops\",\n  \"max_depth:x\",\n]\n",
            4,
            "profiles.p.rules[1]",
        ),
    ];
    for (text, want_line, want_key) in cases {
        let (line, _, key) = place(text);
        assert_eq!((line, key.as_str()), (want_line, want_key), "{text}");
    }
    let msg = error("[profiles.p]\nrules = [\"loops\"]\n");
    for known in lackpy_sources::lang::KNOWN_RULES {
        assert!(msg.contains(known), "{msg}");
    }
}
