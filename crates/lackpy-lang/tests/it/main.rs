//! One test binary for lackpy-lang's integration tests (cargo test -p lackpy-lang --test it).
//!
//! The peak-memory measurements of interp_builtin_budget stay in a binary of
//! their own: they read this process's resident set, which other tests running
//! on other threads would grow.

mod corpus;
mod difftest;
mod fuzzgen;
mod progs;

mod args_diff;
mod arith2_diff;
mod bulk2_diff;
mod bulk_diff;
mod codecs_diff;
mod coll2_diff;
mod data_forms_diff;
mod dict2_diff;
mod dict_diff;
mod eval2_diff;
mod eval_diff;
mod fuzz_budget;
mod fuzz_parse;
mod fuzz_run;
mod fuzz_validate;
mod identity_diff;
mod interp_corpus;
mod interp_diff;
mod interp_host;
mod interp_limits;
mod interp_output_budget;
mod interp_ranges;
mod interp_semantics;
mod interp_trace_cap;
mod json_text;
mod lone_surrogates;
mod loop_diff;
mod mem_diff;
mod model_mistakes;
mod order_diff;
mod parser_corpus;
mod parser_diff;
mod parser_errors;
mod parser_hostile;
mod rows_diff;
mod run_teardown;
mod run_variables;
mod set_diff;
mod sort3_diff;
mod spec_export;
mod split2_diff;
mod str2_diff;
mod str_repr_diff;
mod suggest_diff;
mod text3_diff;
mod text4_diff;
mod text5_diff;
mod text6_diff;
mod text7_diff;
mod text_diff;
mod validate_corpus;
mod validate_diagnostics;
mod validate_rules;
mod values_diff;
mod walk_diff;
