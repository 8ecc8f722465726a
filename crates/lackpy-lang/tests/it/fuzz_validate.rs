//! Fuzz target: the validator on generated programs.
//!
//! The runnable mode of the generator in `programs` writes lackpy programs
//! and, in this target, mixes in every construct the whitelist refuses
//! (statements the grammar mode builds: def, class, while, try, match,
//! import, global, del, raise, assert, yield, …; and walrus, `**`, bitwise
//! operators, generator expressions, lambdas outside `key=`, dunder strings
//! and attributes, forbidden names, async), with the named extra rules on
//! or off. Validation must return (never panic or overflow)
//! with only the documented messages, agree between source and tree, call
//! a program with a forbidden construct invalid and one without valid.
//!
//! CI runs a fixed number of cases. For a longer run:
//! `LACKPY_FUZZ_CASES=100000 cargo test -p lackpy-lang --test it fuzz_validate::`
//! (`LACKPY_FUZZ_SEED=N`, `LACKPY_FUZZ_VERBOSE=1` as in the other targets).

use crate::programs;

use lackpy_lang::{Rule, validate, validate_module};
use programs::{Gen, Rng};

/// The start of every message the validator may give (language.md §2).
const MESSAGES: &[&str] = &[
    "Forbidden AST node: ",
    "Forbidden name: '",
    "Forbidden attribute access: '.",
    "Unknown function: '",
    "Unsupported call target (",
    "For-loop at line ",
    "Lambda at line ",
    "String containing '__' at line ",
    "For-loop forbidden (line ",
    "Nesting depth ",
    "Too many calls: ",
    "Nested call at line ",
    "Nested call in keyword arg at line ",
];

/// A call checked against its callee's signature (language.md §2.4):
/// `name() <what> (line N)`. Generated programs call builtins wrongly on
/// purpose, so a program without a forbidden construct may get these.
fn is_call_error(e: &str) -> bool {
    const WHAT: &[&str] = &[
        "takes ",
        "got an unexpected keyword argument ",
        "got multiple values for argument ",
        "got some positional-only arguments ",
        "missing ",
        "argument '",
    ];
    e.split_once("() ").is_some_and(|(name, rest)| {
        name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && WHAT.iter().any(|w| rest.starts_with(w))
    }) && e.contains(" (line ")
}

fn rules(rng: &mut Rng) -> Vec<Rule> {
    let mut rules = Vec::new();
    if rng.chance(20) {
        rules.push(Rule::NoLoops);
    }
    if rng.chance(20) {
        rules.push(Rule::MaxDepth(rng.below(4) as u32));
    }
    if rng.chance(20) {
        rules.push(Rule::MaxCalls(rng.below(8) as u32));
    }
    if rng.chance(20) {
        rules.push(Rule::NoNestedCalls);
    }
    rules
}

/// Validates one generated program; `Err` says what is wrong.
fn check(src: &str, forbidden: usize, rules: &[Rule]) -> Result<(), String> {
    let module = lackpy_lang::parse(src).map_err(|e| format!("does not parse: {e}"))?;
    let allowed = ["tool", "v1"];
    let v = validate_module(&module, &allowed, rules);
    if v.valid != v.errors.is_empty() {
        return Err(format!("valid={} with errors {:?}", v.valid, v.errors));
    }
    if let Some(e) = v
        .errors
        .iter()
        .find(|e| !MESSAGES.iter().any(|m| e.starts_with(m)) && !is_call_error(e))
    {
        return Err(format!("undocumented message {e:?}"));
    }
    let again = validate(src, &allowed, rules);
    if again.errors != v.errors || again.calls != v.calls || again.variables != v.variables {
        return Err("source and tree validate differently".to_owned());
    }
    if forbidden > 0 && v.valid {
        return Err(format!("{forbidden} forbidden statement(s) passed"));
    }
    if forbidden == 0 && rules.is_empty() && v.errors.iter().any(|e| !is_call_error(e)) {
        return Err(format!("a whitelisted program refused: {:?}", v.errors));
    }
    Ok(())
}

#[test]
fn generated_programs_validate_without_panics() {
    let seed = programs::seed(0x5eed_0002);
    let cases = programs::cases(3000);
    let verbose = programs::verbose();
    let failures = programs::on_small_stack(move || {
        let mut failures = Vec::new();
        for case in 0..cases {
            let mut rng = Rng::for_case(seed, case);
            let rules = rules(&mut rng);
            let mut g = Gen::runnable(&mut rng);
            g.forbidden = case % 3 != 0;
            let src = g.program();
            let forbidden = g.forbidden_emitted;
            if verbose {
                eprintln!("--- case {case} {rules:?}\n{src}");
            }
            let res = std::panic::catch_unwind(|| check(&src, forbidden, &rules))
                .unwrap_or_else(|_| Err("panicked".to_owned()));
            if let Err(why) = res {
                failures.push(format!("case {case} (seed {seed}) {rules:?}: {why}\n{src}"));
            }
        }
        failures
    })
    .expect("the fuzz thread ended cleanly");
    assert!(
        failures.is_empty(),
        "{} of {cases} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}
