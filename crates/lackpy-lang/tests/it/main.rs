//! One test binary for lackpy-lang's integration tests (cargo test -p lackpy-lang --test it).
//!
//! The peak-memory measurements of interp_builtin_budget stay in a binary of
//! their own: they read this process's resident set, which other tests running
//! on other threads would grow.

mod corpus;
mod difftest;
mod programs;

mod args_diff;
mod arith_diff;
mod codecs_diff;
mod conversion_diff;
mod copy_drop_diff;
mod data_forms_diff;
mod dict_build_diff;
mod dict_diff;
mod format_float_diff;
mod format_int_diff;
mod format_percent_diff;
mod format_template_diff;
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
mod iter_diff;
mod json_text;
mod lone_surrogates;
mod loop_diff;
mod mem_diff;
mod model_mistakes;
mod order_diff;
mod output_value;
mod parser_corpus;
mod parser_diff;
mod parser_errors;
mod parser_hostile;
mod replace_diff;
mod rows_diff;
mod run_teardown;
mod run_variables;
mod seq_search_diff;
mod set_diff;
mod slice_diff;
mod sort_diff;
mod spec_export;
mod split_diff;
mod str_build_diff;
mod str_chars_diff;
mod str_repr_diff;
mod str_search_diff;
mod str_slice_diff;
mod suggest_diff;
mod unpack_diff;
mod validate_corpus;
mod validate_diagnostics;
mod validate_rules;
mod values_diff;
mod walk_diff;
