//! The JSON shapes of lackpy-lang's answers (a program's validation, the
//! language spec), for their JSON Schemas. lackpy-lang's types write their
//! own JSON but derive no schema: `cargo xtask check-layers` keeps
//! schemars out of the pure crate's graph (rmcp turns on its `chrono`
//! feature, which reaches `futures-util`). So each shape is declared here
//! and held to its type field by field when this compiles (the `From`
//! impls name every field) and to its JSON by `lang_json_tests`.

use lackpy_lang::{Diagnostic, Spec, Validation};
use schemars::JsonSchema;
use serde::Serialize;

/// The language's verdict on a program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct ValidationJson {
    /// Whether the program is valid (`errors` is empty).
    valid: bool,
    /// Every problem found, in check order, breadth-first within a check.
    errors: Vec<String>,
    /// The same problems, one for each of `errors` and in the same order,
    /// with where they are.
    diagnostics: Vec<DiagnosticJson>,
    /// Names of plainly called functions, breadth-first, duplicates kept.
    calls: Vec<String>,
    /// Direct `Name` targets of plain assignments, breadth-first.
    variables: Vec<String>,
}

/// One validation error and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(rename = "Diagnostic")]
pub(crate) struct DiagnosticJson {
    /// The error's text, as in `errors`.
    message: String,
    /// The 1-based line the error is reported at, when it names one.
    line: Option<u32>,
    /// The 1-based column of the node the error reports, in UTF-8 bytes,
    /// when known (a parse error has none).
    column: Option<u32>,
}

/// The lackpy language spec; every list is sorted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(rename = "Spec")]
pub(crate) struct SpecJson {
    /// AST node kinds a program may contain.
    allowed_nodes: Vec<&'static str>,
    /// Every other CPython AST node kind.
    forbidden_nodes: Vec<&'static str>,
    /// Names a program may never mention.
    forbidden_names: Vec<&'static str>,
    /// Builtin functions a program may call.
    allowed_builtins: Vec<&'static str>,
    /// Attribute names refused besides every name starting with `_`.
    denied_attributes: Vec<&'static str>,
    /// Extra rules a profile or a run may select by name.
    rules: Vec<&'static str>,
}

impl From<Validation> for ValidationJson {
    fn from(v: Validation) -> ValidationJson {
        let Validation {
            valid,
            errors,
            diagnostics,
            calls,
            variables,
        } = v;
        ValidationJson {
            valid,
            errors,
            diagnostics: diagnostics.into_iter().map(DiagnosticJson::from).collect(),
            calls,
            variables,
        }
    }
}

impl From<Diagnostic> for DiagnosticJson {
    fn from(d: Diagnostic) -> DiagnosticJson {
        let Diagnostic {
            message,
            line,
            column,
        } = d;
        DiagnosticJson {
            message,
            line,
            column,
        }
    }
}

impl From<Spec> for SpecJson {
    fn from(s: Spec) -> SpecJson {
        let Spec {
            allowed_nodes,
            forbidden_nodes,
            forbidden_names,
            allowed_builtins,
            denied_attributes,
            rules,
        } = s;
        SpecJson {
            allowed_nodes,
            forbidden_nodes,
            forbidden_names,
            allowed_builtins,
            denied_attributes,
            rules,
        }
    }
}

#[cfg(test)]
mod lang_json_tests {
    use super::*;

    fn same_json<A: Serialize, B: Serialize>(a: &A, b: &B) {
        assert_eq!(
            serde_json::to_string(a).expect("JSON"),
            serde_json::to_string(b).expect("JSON")
        );
    }

    #[test]
    fn the_shapes_write_what_the_language_types_write() {
        let spec = lackpy_lang::spec();
        same_json(&SpecJson::from(spec.clone()), &spec);
        for program in ["x = 1\nprint(x)", "import os\nx = os", "x = ("] {
            let v = lackpy_lang::validate(program, &["print"], &[]);
            same_json(&ValidationJson::from(v.clone()), &v);
        }
        let failed = Validation::failed("not text");
        same_json(&ValidationJson::from(failed.clone()), &failed);
    }
}
