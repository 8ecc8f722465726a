//! The layering guard must pass on good workspaces and fail, naming the
//! edge, on bad ones. Fixtures are real Cargo workspaces read through
//! `cargo metadata`. The module rules are also run on a small crate held
//! in memory: the clean crate passes, and each planted path yields exactly
//! the violation it should (so no rule can silently stop working).

use std::path::PathBuf;

use xtask::layers::modules::{AllowedCircle, LANG_MODULES, ModuleRules, Source, check_sources};

fn fixture(name: &str) -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "fixtures",
        name,
        "Cargo.toml",
    ]
    .iter()
    .collect();
    p.to_string_lossy().into_owned()
}

#[test]
fn passes_on_a_clean_stack() {
    let report =
        xtask::layers::check_manifest(Some(&fixture("clean"))).expect("clean fixture passes");
    assert!(report.contains("lackpy-sources"), "{report}");
    assert!(report.contains("check-layers: ok"), "{report}");
}

#[test]
fn fails_on_an_upward_edge() {
    let err = xtask::layers::check_manifest(Some(&fixture("upward"))).expect_err("must fail");
    assert!(
        err.contains("lackpy-lang -> lackpy-sources (normal)"),
        "names the edge: {err}"
    );
    assert!(
        err.contains("lackpy-sources -> lackpy-service (dev)"),
        "dev edges count too: {err}"
    );
}

#[test]
fn fails_when_lang_pulls_tokio_transitively() {
    let err = xtask::layers::check_manifest(Some(&fixture("impure"))).expect_err("must fail");
    assert!(
        err.contains("lackpy-lang -> middle -> tokio"),
        "names the path: {err}"
    );
}

#[test]
fn passes_on_the_real_workspace() {
    let root: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "Cargo.toml"]
        .iter()
        .collect();
    let report = xtask::layers::check_manifest(Some(&root.to_string_lossy()))
        .expect("the workspace itself is layered");
    for c in xtask::layers::STACK {
        assert!(report.contains(c), "{c} in the table: {report}");
    }
}

#[test]
fn fails_on_a_planted_upward_module_import() {
    let err =
        xtask::layers::check_manifest(Some(&fixture("modules_planted"))).expect_err("must fail");
    assert!(
        err.contains(
            "src/value/mod.rs:2: `value` (layer types) names crate::interp::Interp (layer interp)"
        ),
        "names the file, line and path: {err}"
    );
    assert!(!err.contains("src/interp/"), "interp may name value: {err}");
}

#[test]
fn the_real_language_crate_passes_its_module_layers() {
    let root: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "Cargo.toml"]
        .iter()
        .collect();
    let report = xtask::layers::check_manifest(Some(&root.to_string_lossy()))
        .expect("the workspace itself is layered");
    assert!(
        report.contains("check-layers: lackpy-lang modules ok"),
        "the module rules ran: {report}"
    );
}

/// A crate laid out as lackpy-lang is, every import legal: the exception,
/// root re-exports, inline test modules, `#[path]` files, and mentions of
/// `crate::interp` in comments, strings and char literals.
fn clean() -> Vec<Source> {
    let files: &[(&str, &str)] = &[
        (
            "lib.rs",
            "mod syntax;\nmod text;\npub mod data;\npub mod interp;\npub mod value;\npub use data::Data;\npub use interp::{Host, run as run_program};\npub use syntax::ast;\n",
        ),
        (
            "syntax/mod.rs",
            "pub mod ast;\npub mod catalog;\npub mod validate;\n",
        ),
        ("syntax/ast.rs", "pub struct Module;\n"),
        (
            "syntax/catalog.rs",
            "use crate::syntax::ast::Module;\npub struct MethodId;\n",
        ),
        (
            "syntax/validate/mod.rs",
            "use crate::syntax::{ast::Module, catalog};\nuse super::ast;\nuse crate::text::format;\n",
        ),
        ("text/mod.rs", "pub mod format;\n"),
        ("text/format/mod.rs", "pub fn float_repr() {}\n"),
        ("data.rs", "pub struct Data;\n"),
        (
            "value/mod.rs",
            "//! Not `crate::interp::Interp`: a comment.\n/// Nor [`crate::interp::run`].\n#[cfg(test)]\n#[path = \"mod_tests.rs\"]\nmod tests;\nuse crate::text::format::float_repr;\nuse super::Data;\nuse crate::syntax::catalog::MethodId;\nconst S: &str = \"crate::interp::Interp\";\nconst R: &str = r#\"use crate::interp;\"#;\nconst C: char = '\\'';\nfn f<'a>(x: &'a str) -> &'a str { x }\npub struct Value;\nuse crate::interp::ir::LambdaDef;\n",
        ),
        (
            "value/mod_tests.rs",
            "use super::super::Value;\nuse super::*;\n",
        ),
        (
            "value/dict.rs",
            "use super::Value;\nuse crate::value::{self, Value as V};\n#[cfg(test)]\nmod tests {\n    use super::super::Value;\n    use super::*;\n}\n",
        ),
        (
            "interp/mod.rs",
            "pub mod ir;\nuse crate::value::Value;\nuse crate::{syntax::ast, text::format, data::Data};\npub trait Host {}\npub fn run() {}\n",
        ),
        ("interp/ir.rs", "pub struct LambdaDef;\npub struct Other;\n"),
    ];
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

/// The clean crate with `file` set to `text` (added or replaced).
fn with(file: &str, text: &str) -> Vec<Source> {
    let mut files: Vec<Source> = clean().into_iter().filter(|(p, _)| p != file).collect();
    files.push((file.to_owned(), text.to_owned()));
    files
}

/// Exactly one violation, containing every piece of `wanted`.
fn one_violation(files: &[Source], wanted: &[&str]) {
    let found = check_sources(&LANG_MODULES, files);
    assert_eq!(found.len(), 1, "one violation expected: {found:#?}");
    for w in wanted {
        assert!(found[0].contains(w), "{w:?} in {:?}", found[0]);
    }
}

#[test]
fn the_clean_crate_passes() {
    let found = check_sources(&LANG_MODULES, &clean());
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn value_may_not_use_interp() {
    one_violation(
        &with("value/dict.rs", "use crate::interp::errors::Exc;\n"),
        &[
            "src/value/dict.rs:1",
            "`value` (layer types) names crate::interp::errors::Exc (layer interp)",
        ],
    );
}

#[test]
fn a_use_group_is_expanded() {
    one_violation(
        &with(
            "value/dict.rs",
            "use crate::{ast, format::float_repr, interp::Interp};\n",
        ),
        &["names crate::interp::Interp"],
    );
}

#[test]
fn super_paths_are_resolved() {
    one_violation(
        &with("value/dict.rs", "\n\nuse super::super::interp::Interp;\n"),
        &["src/value/dict.rs:3", "names crate::interp::Interp"],
    );
}

#[test]
fn a_path_in_an_expression_counts() {
    one_violation(
        &with(
            "value/dict.rs",
            "fn f() {\n    let _ = crate::interp::run();\n}\n",
        ),
        &["src/value/dict.rs:2", "names crate::interp::run"],
    );
}

#[test]
fn a_path_through_a_root_reexport_counts() {
    // `crate::run_program` is `interp::run`, re-exported by lib.rs.
    one_violation(
        &with("value/dict.rs", "fn f() {\n    crate::run_program();\n}\n"),
        &["names crate::run_program (layer interp)"],
    );
    one_violation(
        &with("value/dict.rs", "fn f(h: &dyn crate::Host) {}\n"),
        &["names crate::Host (layer interp)"],
    );
}

#[test]
fn a_reexport_counts_as_an_import() {
    one_violation(
        &with(
            "text/format/mod.rs",
            "pub(crate) use crate::value::Value;\n",
        ),
        &[
            "src/text/format/mod.rs:1",
            "`text` (layer text) names crate::value::Value (layer types)",
        ],
    );
}

#[test]
fn text_may_use_neither_syntax_nor_interp() {
    one_violation(
        &with("text/format/mod.rs", "use crate::interp::Host;\n"),
        &["`text` (layer text) names crate::interp::Host (layer interp)"],
    );
    one_violation(
        &with("text/format/mod.rs", "use crate::syntax::ast::Module;\n"),
        &["`text` (layer text) names crate::syntax::ast::Module (layer syntax)"],
    );
}

#[test]
fn syntax_may_use_neither_value_nor_interp() {
    one_violation(
        &with("syntax/validate/mod.rs", "use crate::value::Value;\n"),
        &["`syntax` (layer syntax) names crate::value::Value (layer types)"],
    );
    one_violation(
        &with("syntax/catalog.rs", "use crate::interp::Host;\n"),
        &["`syntax` (layer syntax) names crate::interp::Host (layer interp)"],
    );
    one_violation(
        &with("syntax/ast.rs", "use crate::data::Data;\n"),
        &["`syntax` (layer syntax) names crate::data::Data (layer types)"],
    );
}

#[test]
fn inline_modules_shift_super() {
    // From value::dict::tests, three `super`s reach the root.
    one_violation(
        &with(
            "value/dict.rs",
            "mod tests {\n    use super::super::super::interp::Interp;\n}\n",
        ),
        &["src/value/dict.rs:2", "names crate::interp::Interp"],
    );
}

#[test]
fn path_attribute_files_sit_in_their_declaring_module() {
    // dict_parts.rs is value::dict::parts, not value::dict_parts (not
    // test code, which may reach any layer).
    let mut files = with("value/dict.rs", "#[path = \"dict_parts.rs\"]\nmod parts;\n");
    files.push((
        "value/dict_parts.rs".to_owned(),
        "use super::super::super::interp::Interp;\n".to_owned(),
    ));
    one_violation(
        &files,
        &["src/value/dict_parts.rs:1", "names crate::interp::Interp"],
    );
}

#[test]
fn the_exception_is_one_item_in_one_file() {
    one_violation(
        &with("value/mod.rs", "use crate::interp::ir::Other;\n"),
        &["src/value/mod.rs:1", "names crate::interp::ir::Other"],
    );
    one_violation(
        &with("value/dict.rs", "use crate::interp::ir::LambdaDef;\n"),
        &["src/value/dict.rs:1", "names crate::interp::ir::LambdaDef"],
    );
}

#[test]
fn a_glob_of_the_root_reaches_every_layer() {
    one_violation(
        &with("value/dict.rs", "use crate::*;\n"),
        &["`value` (layer types) names the crate root (crate::*)"],
    );
}

#[test]
fn macro_and_alias_paths_count() {
    one_violation(
        &with(
            "value/dict.rs",
            "macro_rules! m {\n    () => {\n        $crate::interp::run()\n    };\n}\n",
        ),
        &["src/value/dict.rs:3", "names crate::interp::run"],
    );
    one_violation(
        &with(
            "value/dict.rs",
            "extern crate self as lang;\nfn f() {\n    lang::interp::run();\n}\n",
        ),
        &["src/value/dict.rs:3", "names crate::interp::run"],
    );
}

#[test]
fn a_module_in_no_layer_is_refused() {
    one_violation(
        &with("tools/mod.rs", "pub struct Tool;\n"),
        &["src/tools/mod.rs: module `tools` is in no layer"],
    );
}

#[test]
fn the_test_support_crate_is_a_dev_dependency_only() {
    let err = xtask::layers::check_manifest(Some(&fixture("test_only"))).expect_err("must fail");
    assert!(
        err.contains("lackpy-sources -> lackpy-test-support (normal)"),
        "names the normal edge: {err}"
    );
    assert!(
        !err.contains("lackpy-service -> lackpy-test-support"),
        "a dev edge is allowed: {err}"
    );
    assert!(
        !err.contains("lackpy-lang -> lackpy-test-support"),
        "the pure crate's tests may use it too: {err}"
    );
    assert!(
        !err.contains("lackpy-test-support ->"),
        "the test-support crate may use the stack: {err}"
    );
}

#[test]
fn fails_on_a_planted_import_circle() {
    let err =
        xtask::layers::check_manifest(Some(&fixture("modules_circle"))).expect_err("must fail");
    assert!(
        err.contains(
            "import circle: lackpy-lang files src/interp/code.rs, src/interp/eval.rs import each other"
        ),
        "names the files: {err}"
    );
    assert!(
        err.contains("src/interp/code.rs:2 names crate::interp::eval::Node"),
        "names an import of the circle: {err}"
    );
    assert!(!err.contains("mod.rs"), "a re-export is no edge: {err}");
    assert!(!err.contains("lower.rs"), "test code is no edge: {err}");
    assert_eq!(err.matches("import circle").count(), 1, "{err}");
}

/// Two interpreter files that name each other.
fn circle() -> Vec<Source> {
    let mut files = with(
        "interp/ir.rs",
        "pub struct LambdaDef;\npub struct Other;\nuse super::eval::f;\n",
    );
    files.push((
        "interp/eval.rs".to_owned(),
        "use crate::interp::ir::Other;\npub fn f() {}\n".to_owned(),
    ));
    files
}

#[test]
fn files_of_one_layer_may_not_import_each_other() {
    one_violation(
        &circle(),
        &[
            "import circle: lackpy-lang files src/interp/eval.rs, src/interp/ir.rs",
            "src/interp/ir.rs:3 names crate::interp::eval::f",
            "src/interp/eval.rs:1 names crate::interp::ir::Other",
        ],
    );
}

#[test]
fn a_circle_through_a_glob_or_a_bare_child_counts() {
    // `use eval::f;` from interp/mod.rs names the child module by its bare
    // name; eval.rs names mod.rs's Host back.
    let mut files = with(
        "interp/mod.rs",
        "pub mod ir;\nmod eval;\nuse eval::f;\npub trait Host {}\npub fn run() {}\n",
    );
    files.push((
        "interp/eval.rs".to_owned(),
        "use super::*;\npub fn f() {}\n".to_owned(),
    ));
    one_violation(
        &files,
        &["import circle: lackpy-lang files src/interp/eval.rs, src/interp/mod.rs"],
    );
}

#[test]
fn reexports_and_test_code_are_no_edges() {
    // mod.rs re-exports ir.rs's item; ir.rs names mod.rs; ir.rs's
    // tests name eval.rs, which names ir.rs.
    let mut files = with(
        "interp/mod.rs",
        "pub mod ir;\nmod eval;\npub use self::ir::Other;\npub trait Host {}\npub fn run() {}\n",
    );
    files.retain(|(p, _)| p != "interp/ir.rs");
    files.push((
        "interp/ir.rs".to_owned(),
        "use super::Host;\npub struct LambdaDef;\npub struct Other;\n#[cfg(test)]\nmod tests {\n    use super::super::eval::f;\n}\n".to_owned(),
    ));
    files.push((
        "interp/eval.rs".to_owned(),
        "use crate::interp::Other;\npub fn f() {}\n".to_owned(),
    ));
    let found = check_sources(&LANG_MODULES, &files);
    assert!(found.is_empty(), "{found:#?}");
}

/// The clean crate with `interp/mod.rs` as `mod_text`, and an
/// `interp/ir.rs` that names mod.rs's `Host`: mod.rs naming ir.rs back
/// makes a circle.
fn mod_naming_ir(mod_text: &str) -> Vec<Source> {
    let mut files = with("interp/mod.rs", mod_text);
    files.retain(|(p, _)| p != "interp/ir.rs");
    files.push((
        "interp/ir.rs".to_owned(),
        "use super::Host;\npub struct LambdaDef;\npub struct Other;\n".to_owned(),
    ));
    files
}

#[test]
fn a_reexported_name_the_file_uses_is_an_edge() {
    // mod.rs re-exports ir.rs's item and uses it in its own code; ir.rs
    // names mod.rs back: a circle.
    let files = mod_naming_ir(
        "pub mod ir;\npub use self::ir::Other;\npub trait Host {}\npub fn run(_: Other) {}\n",
    );
    one_violation(
        &files,
        &["import circle: lackpy-lang files src/interp/ir.rs, src/interp/mod.rs"],
    );
    // The same name as a method, a field or a definition is no use of it.
    let files = mod_naming_ir(
        "pub mod ir;\npub use self::ir::Other;\npub trait Host {}\npub fn run(x: &u8) { x.Other(); }\nfn Other() {}\n",
    );
    let found = check_sources(&LANG_MODULES, &files);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_bare_path_into_a_child_module_in_code_is_an_edge() {
    // `ir::LambdaDef` in mod.rs's code needs no `use`; ir.rs names mod.rs.
    let files = mod_naming_ir(
        "pub mod ir;\npub trait Host {}\npub fn run() -> ir::LambdaDef { ir::LambdaDef }\n",
    );
    one_violation(
        &files,
        &[
            "import circle: lackpy-lang files src/interp/ir.rs, src/interp/mod.rs",
            "names crate::interp::ir::LambdaDef",
        ],
    );
}

#[test]
fn an_allowed_circle_that_is_gone_must_leave_the_list() {
    const ALLOWED: &[AllowedCircle] = &[AllowedCircle {
        files: &["interp/eval.rs", "interp/ir.rs"],
        reason: "a test",
    }];
    let rules = ModuleRules {
        allowed_circles: ALLOWED,
        ..LANG_MODULES
    };
    let found = check_sources(&rules, &clean());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].contains("stale allowed circle"), "{found:#?}");
    assert!(found[0].contains("src/interp/eval.rs, src/interp/ir.rs"));
}

#[test]
fn test_code_may_reach_a_later_layer_and_nothing_else_may() {
    // A type's tests run whole programs (the interpreter is a later layer);
    // its own code after the test module is still held to its layer.
    let dict = "use super::Value;\n#[cfg(test)]\nmod tests {\n    use crate::interp::run;\n    #[test]\n    fn t() { crate::interp::run(); }\n}\n#[cfg(test)]\nfn helper() { crate::interp::run(); }\nfn after() { crate::interp::run(); }\n";
    one_violation(
        &with("value/dict.rs", dict),
        &[
            "src/value/dict.rs:10",
            "names crate::interp::run (layer interp)",
        ],
    );
    // A test module in a file of its own (`#[cfg(test)] mod tests;`).
    let files = with(
        "value/mod_tests.rs",
        "use crate::interp::run;\nuse super::*;\n",
    );
    let found = check_sources(&LANG_MODULES, &files);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn an_allowed_circle_is_exactly_its_files() {
    const ALLOWED: &[AllowedCircle] = &[AllowedCircle {
        files: &["interp/eval.rs", "interp/ir.rs"],
        reason: "a test",
    }];
    let rules = ModuleRules {
        allowed_circles: ALLOWED,
        ..LANG_MODULES
    };
    assert!(check_sources(&rules, &circle()).is_empty());
    // A third file joining the circle makes it another circle.
    let mut files = circle();
    files.retain(|(p, _)| p != "interp/eval.rs");
    files.push((
        "interp/eval.rs".to_owned(),
        "use crate::interp::ir::Other;\nuse super::more::g;\npub fn f() {}\n".to_owned(),
    ));
    files.push((
        "interp/more.rs".to_owned(),
        "use super::ir::Other;\npub fn g() {}\n".to_owned(),
    ));
    // (And the listed circle, gone as such, is reported stale.)
    let found = check_sources(&rules, &files);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].contains("src/interp/eval.rs, src/interp/ir.rs, src/interp/more.rs"));
    assert!(found[1].starts_with("stale allowed circle"), "{found:#?}");
}

#[test]
fn the_real_service_crate_passes_its_rooms() {
    let root: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "Cargo.toml"]
        .iter()
        .collect();
    let report = xtask::layers::check_manifest(Some(&root.to_string_lossy()))
        .expect("the workspace itself is layered");
    assert!(
        report.contains("check-layers: lackpy-service modules ok"),
        "the service's rules ran: {report}"
    );
}

#[test]
fn the_service_api_may_not_reach_into_the_mcp_server() {
    let files: Vec<Source> = vec![
        (
            "lib.rs".to_owned(),
            "mod service;\nmod mcp_server;\nmod delegate;\n".to_owned(),
        ),
        (
            "delegate/mod.rs".to_owned(),
            "pub struct DelegateResult;\n".to_owned(),
        ),
        (
            "service/mod.rs".to_owned(),
            "use crate::delegate::DelegateResult;\nuse crate::mcp_server::tools::all;\n".to_owned(),
        ),
        (
            "mcp_server/mod.rs".to_owned(),
            "pub mod tools;\nuse crate::service::LackpyService;\n".to_owned(),
        ),
        (
            "mcp_server/tools.rs".to_owned(),
            "pub fn all() {}\n".to_owned(),
        ),
    ];
    let found = check_sources(&xtask::layers::modules::SERVICE_MODULES, &files);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("src/service/mod.rs:2")
            && found[0].contains("crate::mcp_server::tools::all"),
        "{found:?}"
    );
}

#[test]
fn nothing_may_depend_on_the_python_package() {
    let err = xtask::layers::check_manifest(Some(&fixture("leaf"))).expect_err("must fail");
    assert!(
        err.contains("lackpy-service -> lackpy-py (dev): lackpy-py is a leaf"),
        "a dev edge to the leaf counts: {err}"
    );
    assert!(
        err.contains("lackpy-test-support -> lackpy-py (normal): lackpy-py is a leaf"),
        "so does a crate outside the stack: {err}"
    );
    assert!(
        !err.contains("lackpy-py -> lackpy-service"),
        "the leaf may use the stack: {err}"
    );
}
