//! Fuzz target: config loading.
//!
//! Generated `lackpy.toml` text (every section and key the schema knows,
//! unknown ones, values of every TOML type in the wrong places, `${VAR}`
//! expansions, huge strings, deep arrays, inline tables and dotted keys,
//! and byte-level mangling of all of it) must give a config or a clean
//! `ConfigError`; a config must then give its tool specs, its own MCP
//! servers and each profile's policy. Generated host-config JSON (`mcpServers`, VS Code `servers`
//! with `inputs`, `mcp.servers`, bare objects; comments and trailing
//! commas; every JSON type in every field; deep nesting) must give servers
//! and skipped servers or a clean error. All on a 2 MiB stack, each case
//! within a bounded wall time, never a panic or an overflow.
//!
//! CI runs a fixed number of cases from a fixed seed. For a longer run:
//! `LACKPY_FUZZ_CASES=100000 cargo test -p lackpy-sources --test it fuzz_config::`
//! (`LACKPY_FUZZ_SEED=N` for other cases).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lackpy_sources::lang::Grade;
use lackpy_sources::parse_host_config;
use lackpy_sources::{
    ExpandContext, Policy, Precedence, ProvenanceKind, own_servers, parse_config,
};
use lackpy_test_support::rng::{self as fuzz, Rng};

const CASE_WALL: Duration = Duration::from_secs(2);

const SECTIONS: &[&str] = &[
    "[profile]",
    "[profiles.reader]",
    "[profiles.\"we ird\"]",
    "[limits]",
    "[[tools]]",
    "[[virtual_tools]]",
    "[virtual_tools.ask]",
    "[mcp_servers.time]",
    "[mcp_servers.remote]",
    "[mcp_servers.time.tools.get_time]",
    "[mcp]",
    "[policy]",
    "[policy.provenance.host]",
    "[policy.provenance.virtual]",
    "[profiles.reader.policy]",
    "[runs]",
    "[inference]",
    "[kit]",
    "[sandbox]",
    "[tool_providers.p]",
    "[unknown_section]",
    "[[mcp_servers]]",
    "[tools]",
];

const KEYS: &[&str] = &[
    "default",
    "tools",
    "extra_tools",
    "timeout_ms",
    "max_steps",
    "max_memory_mb",
    "name",
    "provider",
    "command",
    "description",
    "returns",
    "grade_w",
    "effects_ceiling",
    "args",
    "transport",
    "url",
    "headers",
    "env",
    "cwd",
    "connect_timeout_ms",
    "call_timeout_ms",
    "enabled",
    "include",
    "exclude",
    "grade",
    "host_configs",
    "module",
    "function",
    "timeout",
    "examples",
    "type",
    "required",
    "default_value",
    "max_grade",
    "approve_above",
    "approve_tools",
    "auto_approve",
    "approval_timeout_ms",
    "rules",
    "limits",
    "policy",
    "w",
    "d",
    "journal",
    "keep_hours",
    "max_journal_mb",
    "bogus",
    "\"quoted key\"",
    "a.b.c",
];

const STRINGS: &[&str] = &[
    "\"\"",
    "\"read_file\"",
    "\"stdio\"",
    "\"http\"",
    "\"command\"",
    "\"python\"",
    "\"builtin\"",
    "\"http://127.0.0.1:1/mcp\"",
    "\"${API_TOKEN}\"",
    "\"${UNSET_VAR}\"",
    "\"${input:key}\"",
    "\"${env:HOME}/x\"",
    "\"~/.cursor/mcp.json\"",
    "\"../../etc\"",
    "\"${\"",
    "\"$${X}\"",
    "'literal \\ string'",
    "\"\"\"multi\nline\"\"\"",
    "\"\\u0000\"",
    "\"é😀\"",
    "\"__class__\"",
    "\"no_loops\"",
    "\"max_calls:3\"",
];

fn toml_value(rng: &mut Rng, depth: u32) -> String {
    match rng.below(if depth > 3 { 6 } else { 10 }) {
        0 | 1 => rng.pick(STRINGS).to_owned(),
        2 => rng
            .pick(&[
                "0",
                "-1",
                "1",
                "30000",
                "9223372036854775807",
                "-9223372036854775808",
                "0x7f",
                "1_000",
            ])
            .to_owned(),
        3 => rng
            .pick(&["1.5", "-0.0", "inf", "nan", "1e300", "-inf"])
            .to_owned(),
        4 => rng.pick(&["true", "false"]).to_owned(),
        5 => rng
            .pick(&["1979-05-27T07:32:00Z", "07:32:00", "1979-05-27"])
            .to_owned(),
        6 | 7 => {
            let items: Vec<String> = (0..rng.below(4))
                .map(|_| toml_value(rng, depth + 1))
                .collect();
            format!("[{}]", items.join(", "))
        }
        _ => {
            let items: Vec<String> = (0..rng.below(4))
                .map(|_| {
                    let k = rng.pick(KEYS);
                    format!("{k} = {}", toml_value(rng, depth + 1))
                })
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
    }
}

fn toml_structured(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(6) {
        s.push_str(rng.pick(SECTIONS));
        s.push('\n');
        for _ in 0..rng.below(7) {
            let k = rng.pick(KEYS);
            s.push_str(&format!("{k} = {}\n", toml_value(rng, 0)));
        }
    }
    s
}

/// Nesting and sizes far past anything a person writes.
fn toml_extreme(rng: &mut Rng) -> String {
    let n = [64, 500, 5_000, 20_000][rng.below(4)];
    match rng.below(7) {
        0 => format!("x = {}{}", "[".repeat(n), "]".repeat(n)),
        1 => format!("x = {}1{}", "{a = ".repeat(n), "}".repeat(n)),
        2 => format!("{} = 1", vec!["a"; n].join(".")),
        3 => format!("[{}]\nx = 1", vec!["t"; n].join(".")),
        4 => format!(
            "[[tools]]\nname = \"{}\"\ndescription = \"{}\"",
            "n".repeat(n * 20),
            "d".repeat(1 << 20)
        ),
        5 => format!("[limits]\ntimeout_ms = {}", "9".repeat(n)),
        _ => format!("x = [{}]", "1, ".repeat(n)),
    }
}

fn mangle(rng: &mut Rng, text: String) -> Vec<u8> {
    let mut b = text.into_bytes();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let at = rng.below(b.len());
        match rng.below(4) {
            0 => {
                let end = (at + rng.below(10)).min(b.len());
                b.drain(at..end);
            }
            1 => b.insert(at, rng.pick(b"[]\"=\n{\\")),
            2 => b[at] = rng.next() as u8,
            _ => b.truncate(at),
        }
    }
    b
}

fn ctx() -> ExpandContext {
    ExpandContext::with_vars(
        Some(PathBuf::from("/ws/project")),
        Some(PathBuf::from("/home/tester")),
        vec![("API_TOKEN".into(), "tok".into())],
    )
}

/// Loads one config text and everything derived from it.
fn check_toml(text: &str) {
    let file = Path::new("/ws/project/lackpy.toml");
    match parse_config(text, file) {
        Ok(loaded) => {
            for t in &loaded.config.tools {
                let _ = t.spec();
            }
            let _ = own_servers(&loaded.config, &ctx());
            let _ = format!("{:?}", loaded.warnings);
            let c = &loaded.config;
            let top = Policy::from_config(c);
            for (name, _) in c.profiles.iter() {
                let _ = top.for_profile(c, name).evaluate(
                    "read_file",
                    Grade::UNKNOWN,
                    ProvenanceKind::Host,
                );
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

fn json_value(rng: &mut Rng, depth: u32) -> String {
    match rng.below(if depth > 3 { 5 } else { 8 }) {
        0 => rng
            .pick(&[
                "\"npx\"",
                "\"http://127.0.0.1:1/mcp\"",
                "\"${env:API_TOKEN}\"",
                "\"${input:api-key}\"",
                "\"${workspaceFolder}/x\"",
                "\"${userHome}\"",
                "\"${\"",
                "\"stdio\"",
                "\"sse\"",
                "\"http\"",
                "\"\\u0000\\ud800\"",
                "\"\"",
            ])
            .to_owned(),
        1 => rng
            .pick(&[
                "0",
                "-1",
                "1e400",
                "123456789012345678901234567890",
                "-0.0",
                "1.5",
            ])
            .to_owned(),
        2 => rng.pick(&["true", "false", "null"]).to_owned(),
        3 => format!("\"{}\"", "y".repeat(rng.below(3) * 1000)),
        4 => rng
            .pick(&["NaN", "Infinity", "'single'", "01", "+1"])
            .to_owned(),
        5 => {
            let items: Vec<String> = (0..rng.below(4))
                .map(|_| json_value(rng, depth + 1))
                .collect();
            format!("[{}]", items.join(", "))
        }
        _ => json_server(rng, depth + 1),
    }
}

fn json_server(rng: &mut Rng, depth: u32) -> String {
    let keys = [
        "command",
        "args",
        "env",
        "url",
        "type",
        "headers",
        "cwd",
        "envFile",
        "disabled",
        "transport",
        "timeout",
        "serverUrl",
        "httpUrl",
    ];
    let items: Vec<String> = (0..rng.below(5))
        .map(|_| {
            let k = keys[rng.below(keys.len())];
            let comment = if rng.chance(10) { " /* c */ " } else { "" };
            format!("\"{k}\":{comment} {}", json_value(rng, depth + 1))
        })
        .collect();
    let trailing = if rng.chance(15) { "," } else { "" };
    format!("{{{}{trailing}}}", items.join(", "))
}

fn json_structured(rng: &mut Rng) -> String {
    let servers: Vec<String> = (0..rng.below(5))
        .map(|i| format!("\"s{i}\": {}", json_server(rng, 0)))
        .collect();
    let servers = format!("{{{}}}", servers.join(", "));
    let body = match rng.below(5) {
        0 => format!("{{\"mcpServers\": {servers}}}"),
        1 => format!(
            "{{\"inputs\": [{{\"id\": \"api-key\", \"type\": \"promptString\"}}], \"servers\": {servers}}}"
        ),
        2 => format!("{{\"mcp\": {{\"servers\": {servers}}}}}"),
        3 => servers,
        _ => json_value(rng, 0),
    };
    if rng.chance(20) {
        format!("// header\n{body}\n")
    } else {
        body
    }
}

fn json_extreme(rng: &mut Rng) -> String {
    let n = [64, 300, 5_000, 100_000][rng.below(4)];
    match rng.below(5) {
        0 => format!("{{\"mcpServers\": {}{}}}", "[".repeat(n), "]".repeat(n)),
        1 => format!("{}1{}", "{\"a\": ".repeat(n), "}".repeat(n)),
        2 => format!(
            "{{\"mcpServers\": {{\"s\": {{\"command\": \"{}\"}}}}}}",
            "c".repeat(n * 10)
        ),
        3 => format!("/*{}", "*".repeat(n)),
        _ => format!(
            "{{\"mcpServers\": {{\"s\": {{\"command\": \"x\", \"args\": [{}\"a\"]}}}}}}",
            "\"${env:API_TOKEN}\", ".repeat(n)
        ),
    }
}

fn check_json(text: &str) {
    let file = Path::new("/home/tester/.cursor/mcp.json");
    match parse_host_config(text, file, Precedence::Level(3), &ctx()) {
        Ok((found, skipped)) => {
            let _ = format!("{found:?}{skipped:?}");
        }
        Err(e) => {
            let _ = e.len();
        }
    }
}

/// Runs `cases` generated inputs through `check` on a 2 MiB stack.
fn fuzz(
    name: &str,
    seed: u64,
    cases: u64,
    gen_case: fn(&mut Rng, u64) -> Vec<u8>,
    check: fn(&str),
) {
    let verbose = fuzz::verbose();
    let name = name.to_owned();
    let failures = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut failures = Vec::new();
            for case in 0..cases {
                let mut rng = Rng::for_case(seed, case);
                let bytes = gen_case(&mut rng, case);
                let text = String::from_utf8_lossy(&bytes).into_owned();
                if verbose {
                    eprintln!("--- {name} case {case}\n{}", &text[..text.len().min(2000)]);
                }
                let start = Instant::now();
                let ok = std::panic::catch_unwind(|| check(&text)).is_ok();
                let took = start.elapsed();
                if !ok || took > CASE_WALL {
                    let what = if ok {
                        format!("took {took:?}")
                    } else {
                        "panicked".to_owned()
                    };
                    failures.push(format!(
                        "{name} case {case} (seed {seed}): {what}\n{:?}",
                        &text[..text.len().min(500)]
                    ));
                }
            }
            failures
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow or abort");
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn generated_toml_gives_a_config_or_a_clean_error() {
    let seed = fuzz::seed(0x5eed_0003);
    let cases = fuzz::cases(800);
    fuzz(
        "toml",
        seed,
        cases,
        |rng, case| match case % 8 {
            0 => toml_extreme(rng).into_bytes(),
            1..=3 => {
                let text = toml_structured(rng);
                mangle(rng, text)
            }
            _ => toml_structured(rng).into_bytes(),
        },
        check_toml,
    );
}

#[test]
fn generated_host_config_json_gives_servers_or_a_clean_error() {
    let seed = fuzz::seed(0x5eed_0004);
    let cases = fuzz::cases(1500);
    fuzz(
        "json",
        seed,
        cases,
        |rng, case| match case % 8 {
            0 => json_extreme(rng).into_bytes(),
            1..=2 => {
                let text = json_structured(rng);
                mangle(rng, text)
            }
            _ => json_structured(rng).into_bytes(),
        },
        check_json,
    );
}
