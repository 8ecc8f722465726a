//! Tests of policy evaluation: every rule, the order of scopes, and the
//! texts that name them.

use std::path::Path;

use super::*;
use crate::config::parse_config;

fn config(text: &str) -> Config {
    match parse_config(text, Path::new("config.toml")) {
        Ok(loaded) => loaded.config,
        Err(e) => panic!("{e}"),
    }
}

fn policy(text: &str) -> Policy {
    Policy::from_config(&config(text))
}

fn g(w: u8, d: u8) -> Grade {
    Grade::new(w, d)
}

fn needs(rule: &str) -> PolicyState {
    PolicyState::NeedsApproval {
        rule: rule.to_string(),
    }
}

fn over(w: u8, d: u8, scope: &str) -> PolicyState {
    PolicyState::OverCeiling {
        ceiling: g(w, d),
        scope: scope.to_string(),
    }
}

const ALL_KINDS: [ProvenanceKind; 6] = [
    ProvenanceKind::Direct,
    ProvenanceKind::Config,
    ProvenanceKind::Builtin,
    ProvenanceKind::Virtual,
    ProvenanceKind::Mcp,
    ProvenanceKind::Host,
];

#[test]
fn provenance_kind_follows_precedence() {
    let cases = [
        (Precedence::Direct, ProvenanceKind::Direct, "direct"),
        (Precedence::USER_CONFIG, ProvenanceKind::Config, "config"),
        (Precedence::DEFAULTS, ProvenanceKind::Builtin, "builtin"),
        (Precedence::VIRTUAL, ProvenanceKind::Virtual, "virtual"),
        (Precedence::MCP, ProvenanceKind::Mcp, "mcp"),
        (Precedence::host_config(0), ProvenanceKind::Host, "host"),
        (Precedence::host_config(9), ProvenanceKind::Host, "host"),
        (Precedence::Level(99), ProvenanceKind::Config, "config"),
        (Precedence::Level(4), ProvenanceKind::Config, "config"),
    ];
    for (p, kind, name) in cases {
        assert_eq!(ProvenanceKind::of(p), kind, "{p:?}");
        assert_eq!(kind.name(), name);
        assert_eq!(kind.to_string(), name);
    }
}

#[test]
fn the_default_policy_is_empty_and_allows_everything() {
    let p = Policy::default();
    assert!(p.is_empty());
    assert_eq!(p.approval_timeout(), Duration::from_millis(600_000));
    for kind in ALL_KINDS {
        assert_eq!(
            p.evaluate("write_file", g(3, 3), kind),
            PolicyState::Allowed
        );
    }
    assert!(policy("").is_empty());
}

#[test]
fn approval_timeout_comes_from_the_config() {
    let p = policy("[policy]\napproval_timeout_ms = 1500\n");
    assert_eq!(p.approval_timeout(), Duration::from_millis(1500));
}

#[test]
fn a_grade_is_above_a_limit_when_either_component_is() {
    assert!(!is_above(g(3, 2), g(3, 2)));
    assert!(!is_above(g(0, 0), g(3, 2)));
    assert!(is_above(g(3, 3), g(3, 2)));
    assert!(is_above(g(2, 3), g(3, 2)), "d alone");
    assert!(is_above(g(1, 0), g(0, 3)), "w alone");
}

#[test]
fn top_level_ceiling() {
    let p = policy("[policy]\nmax_grade = { w = 3, d = 2 }\n");
    assert!(!p.is_empty());
    assert_eq!(
        p.evaluate("t", g(3, 3), ProvenanceKind::Direct),
        over(3, 2, "[policy]")
    );
    assert_eq!(
        p.evaluate("t", g(0, 3), ProvenanceKind::Mcp),
        over(3, 2, "[policy]")
    );
    assert_eq!(
        p.evaluate("t", g(3, 2), ProvenanceKind::Host),
        PolicyState::Allowed
    );
}

const LAYERED: &str = "\
[policy]
max_grade = { w = 3, d = 2 }
[policy.provenance.host]
max_grade = { w = 2, d = 1 }
[profiles.reader]
policy = { max_grade = { w = 1, d = 0 } }
[profiles.open]
tools = [\"x\"]
";

#[test]
fn ceilings_are_checked_profile_then_provenance_then_top() {
    let c = config(LAYERED);
    let top = Policy::from_config(&c);
    let reader = top.for_profile(&c, "reader");
    let host = ProvenanceKind::Host;
    assert_eq!(
        reader.evaluate("t", g(3, 3), host),
        over(1, 0, "profile 'reader'")
    );
    assert_eq!(
        reader.evaluate("t", g(1, 1), host),
        over(1, 0, "profile 'reader'")
    );
    assert_eq!(
        top.evaluate("t", g(3, 3), host),
        over(2, 1, "[policy.provenance.host]")
    );
    assert_eq!(top.evaluate("t", g(2, 1), host), PolicyState::Allowed);
    assert_eq!(
        top.evaluate("t", g(3, 3), ProvenanceKind::Mcp),
        over(3, 2, "[policy]"),
        "the host table does not apply to MCP tools"
    );
    assert_eq!(
        top.evaluate("t", g(3, 2), ProvenanceKind::Mcp),
        PolicyState::Allowed
    );
    assert_eq!(reader.evaluate("t", g(1, 0), host), PolicyState::Allowed);
}

#[test]
fn every_provenance_table_applies_to_its_kind_only() {
    for (kind, table) in [
        (ProvenanceKind::Host, "host"),
        (ProvenanceKind::Mcp, "mcp"),
        (ProvenanceKind::Config, "config"),
        (ProvenanceKind::Builtin, "builtin"),
        (ProvenanceKind::Virtual, "virtual"),
    ] {
        let p = policy(&format!(
            "[policy.provenance.{table}]\nmax_grade = {{ w = 0, d = 0 }}\n"
        ));
        assert!(!p.is_empty());
        for other in ALL_KINDS {
            let want = if other == kind {
                over(0, 0, &format!("[policy.provenance.{table}]"))
            } else {
                PolicyState::Allowed
            };
            assert_eq!(p.evaluate("t", g(1, 0), other), want, "{table} vs {other}");
        }
    }
}

#[test]
fn top_level_approval_line_and_list() {
    let p =
        policy("[policy]\napprove_above = { w = 2, d = 1 }\napprove_tools = [\"send_email\"]\n");
    let k = ProvenanceKind::Config;
    assert_eq!(p.evaluate("t", g(2, 1), k), PolicyState::Allowed);
    assert_eq!(
        p.evaluate("t", g(2, 2), k),
        needs("[policy] approve_above (2, 1)")
    );
    assert_eq!(
        p.evaluate("t", g(3, 0), k),
        needs("[policy] approve_above (2, 1)")
    );
    assert_eq!(
        p.evaluate("send_email", g(0, 0), k),
        needs("[policy] approve_tools")
    );
    assert_eq!(
        p.evaluate("send_email", g(3, 3), ProvenanceKind::Direct),
        needs("[policy] approve_tools"),
        "a listing is named before a line of the same scope"
    );
}

#[test]
fn provenance_and_profile_approval_rules() {
    let text = "\
[policy.provenance.mcp]
approve_above = { w = 1, d = 0 }
approve_tools = [\"push\"]
[profiles.reader]
policy = { approve_above = { w = 0, d = 0 }, approve_tools = [\"ls\"] }
";
    let c = config(text);
    let top = Policy::from_config(&c);
    let reader = top.for_profile(&c, "reader");
    let mcp = ProvenanceKind::Mcp;
    assert_eq!(
        top.evaluate("t", g(1, 1), mcp),
        needs("[policy.provenance.mcp] approve_above (1, 0)")
    );
    assert_eq!(
        top.evaluate("push", g(0, 0), mcp),
        needs("[policy.provenance.mcp] approve_tools")
    );
    assert_eq!(
        top.evaluate("push", g(0, 0), ProvenanceKind::Host),
        PolicyState::Allowed
    );
    assert_eq!(top.evaluate("t", g(1, 0), mcp), PolicyState::Allowed);
    assert_eq!(
        reader.evaluate("t", g(1, 0), mcp),
        needs("profile 'reader' approve_above (0, 0)")
    );
    assert_eq!(
        reader.evaluate("ls", g(0, 0), ProvenanceKind::Builtin),
        needs("profile 'reader' approve_tools")
    );
    assert_eq!(
        reader.evaluate("push", g(0, 0), mcp),
        needs("[policy.provenance.mcp] approve_tools"),
        "the profile's line is not crossed, the provenance list holds"
    );
    assert_eq!(
        reader.evaluate("t", g(0, 0), ProvenanceKind::Direct),
        PolicyState::Allowed
    );
}

#[test]
fn approval_names_the_first_scope_in_order() {
    let text = "\
[policy]
approve_above = { w = 0, d = 0 }
[policy.provenance.host]
approve_above = { w = 0, d = 0 }
[profiles.p]
policy = { approve_above = { w = 0, d = 0 } }
";
    let c = config(text);
    let top = Policy::from_config(&c);
    let host = ProvenanceKind::Host;
    assert_eq!(
        top.for_profile(&c, "p").evaluate("t", g(1, 0), host),
        needs("profile 'p' approve_above (0, 0)")
    );
    assert_eq!(
        top.evaluate("t", g(1, 0), host),
        needs("[policy.provenance.host] approve_above (0, 0)")
    );
    assert_eq!(
        top.evaluate("t", g(1, 0), ProvenanceKind::Virtual),
        needs("[policy] approve_above (0, 0)")
    );
}

#[test]
fn auto_approve_waives_approval_never_a_ceiling() {
    let text = "\
[policy]
max_grade = { w = 3, d = 2 }
approve_above = { w = 1, d = 1 }
auto_approve = [\"read_file\", \"fetch\"]
[policy.provenance.mcp]
approve_above = { w = 0, d = 0 }
";
    let p = policy(text);
    let auto = PolicyState::AutoApproved {
        rule: "[policy] auto_approve".to_string(),
    };
    assert_eq!(
        p.evaluate("read_file", g(2, 1), ProvenanceKind::Builtin),
        auto
    );
    assert_eq!(p.evaluate("fetch", g(1, 0), ProvenanceKind::Mcp), auto);
    assert_eq!(
        p.evaluate("read_file", g(1, 1), ProvenanceKind::Builtin),
        PolicyState::Allowed,
        "nothing to waive"
    );
    assert_eq!(
        p.evaluate("read_file", g(3, 3), ProvenanceKind::Builtin),
        over(3, 2, "[policy]")
    );
    assert_eq!(
        p.evaluate("other", g(2, 1), ProvenanceKind::Builtin),
        needs("[policy] approve_above (1, 1)")
    );
}

#[test]
fn for_profile_applies_only_a_profile_with_a_policy_and_replaces_the_last() {
    let c = config(LAYERED);
    let top = Policy::from_config(&c);
    let k = ProvenanceKind::Direct;
    for name in ["open", "missing"] {
        let p = top.for_profile(&c, name);
        assert_eq!(p.evaluate("t", g(3, 2), k), PolicyState::Allowed, "{name}");
    }
    let reader = top.for_profile(&c, "reader");
    assert_eq!(
        reader.evaluate("t", g(2, 0), k),
        over(1, 0, "profile 'reader'")
    );
    assert_eq!(
        reader.for_profile(&c, "open").evaluate("t", g(2, 0), k),
        PolicyState::Allowed
    );
}

#[test]
fn is_empty_only_when_nothing_can_be_refused_or_gated() {
    let empty = [
        "",
        "[policy]\nauto_approve = [\"x\"]\napproval_timeout_ms = 5\n",
        "[policy.provenance.mcp]\n",
        "[profiles.p]\npolicy = {}\n",
    ];
    for text in empty {
        let c = config(text);
        assert!(
            Policy::from_config(&c).for_profile(&c, "p").is_empty(),
            "{text}"
        );
    }
    let gated = [
        "[policy]\napprove_tools = [\"x\"]\n",
        "[policy]\napprove_above = { w = 3, d = 3 }\n",
        "[policy.provenance.virtual]\napprove_tools = [\"x\"]\n",
        "[policy.provenance.builtin]\nmax_grade = { w = 3, d = 3 }\n",
        "[profiles.p]\npolicy = { approve_tools = [\"x\"] }\n",
    ];
    for text in gated {
        let c = config(text);
        assert!(
            !Policy::from_config(&c).for_profile(&c, "p").is_empty(),
            "{text}"
        );
    }
}

#[test]
fn labels_and_rules() {
    let cases = [
        (PolicyState::Allowed, "allowed", None),
        (
            needs("[policy] approve_tools"),
            "needs approval",
            Some("[policy] approve_tools"),
        ),
        (
            PolicyState::AutoApproved {
                rule: "[policy] auto_approve".to_string(),
            },
            "auto-approved",
            Some("[policy] auto_approve"),
        ),
        (
            over(1, 0, "profile 'reader'"),
            "over the ceiling",
            Some("profile 'reader' max_grade (1, 0)"),
        ),
    ];
    for (state, label, rule) in cases {
        assert_eq!(state.label(), label);
        assert_eq!(state.rule().as_deref(), rule);
    }
}

#[test]
fn over_ceiling_message_names_the_scope() {
    assert_eq!(
        over_ceiling_message("write_file", g(3, 3), g(1, 0), "profile 'reader'"),
        "Tool 'write_file' has grade (3, 3), above the policy ceiling (1, 0) of profile 'reader'"
    );
    assert_eq!(
        over_ceiling_message("write_file", g(3, 3), g(3, 2), "[policy]"),
        "Tool 'write_file' has grade (3, 3), above the policy ceiling (3, 2) of [policy]"
    );
    assert_eq!(
        over_ceiling_message("fetch", g(2, 1), g(1, 0), "[policy.provenance.host]"),
        "Tool 'fetch' has grade (2, 1), above the policy ceiling (1, 0) of [policy.provenance.host]"
    );
}
