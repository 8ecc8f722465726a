//! Binding a call's arguments to a tool's declared arguments, with Python's
//! `TypeError` texts when they do not fit.
//!
//! Positional values fill the declared arguments in order; keyword values go
//! by name. Checks run in CPython's order: keywords first (unknown, then
//! given twice), then too many positionals, then missing required ones.

use lackpy_lang::Data;

use crate::error::ToolError;
use crate::model::ArgSpec;

/// Binds `args` and `kwargs` to `params`; the result holds one value per
/// declared argument that was supplied, in declared order.
///
/// `function` names the callee in messages (`read_file() takes …`).
pub fn bind_args(
    function: &str,
    params: &[ArgSpec],
    args: Vec<Data>,
    kwargs: Vec<(String, Data)>,
) -> Result<Vec<(String, Data)>, ToolError> {
    let n_pos = args.len();
    let mut slots: Vec<Option<Data>> = vec![None; params.len()];
    for (slot, value) in slots.iter_mut().zip(args) {
        *slot = Some(value);
    }
    for (name, value) in kwargs {
        let Some(i) = params.iter().position(|p| p.name == name) else {
            return Err(ToolError::type_error(format!(
                "{function}() got an unexpected keyword argument '{name}'"
            )));
        };
        if slots[i].is_some() {
            return Err(ToolError::type_error(format!(
                "{function}() got multiple values for argument '{name}'"
            )));
        }
        slots[i] = Some(value);
    }
    if n_pos > params.len() {
        return Err(ToolError::type_error(too_many_positional(
            function, params, n_pos,
        )));
    }
    let missing: Vec<&str> = params
        .iter()
        .zip(&slots)
        .filter(|(p, v)| p.required && v.is_none())
        .map(|(p, _)| p.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(ToolError::type_error(format!(
            "{function}() missing {} required positional argument{}: {}",
            missing.len(),
            if missing.len() == 1 { "" } else { "s" },
            name_list(&missing)
        )));
    }
    Ok(params
        .iter()
        .zip(slots)
        .filter_map(|(p, v)| v.map(|v| (p.name.clone(), v)))
        .collect())
}

fn too_many_positional(function: &str, params: &[ArgSpec], given: usize) -> String {
    let max = params.len();
    let min = params.iter().filter(|p| p.required).count();
    let takes = if min == max {
        format!(
            "{max} positional argument{}",
            if max == 1 { "" } else { "s" }
        )
    } else {
        format!("from {min} to {max} positional arguments")
    };
    let verb = if given == 1 { "was" } else { "were" };
    format!("{function}() takes {takes} but {given} {verb} given")
}

/// `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'` — CPython's list of names.
fn name_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
        [] => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(names: &[&str]) -> Vec<ArgSpec> {
        names.iter().map(|n| ArgSpec::new(*n)).collect()
    }

    fn s(x: &str) -> Data {
        Data::Str(x.into())
    }

    fn err(r: Result<Vec<(String, Data)>, ToolError>) -> String {
        match r {
            Ok(v) => format!("bound {v:?}"),
            Err(e) => format!("{}: {}", e.error_type(), e.message()),
        }
    }

    #[test]
    fn positional_and_keyword_values_fill_declared_order() {
        let p = params(&["path", "old_str", "new_str"]);
        let bound = bind_args(
            "edit_file",
            &p,
            vec![s("a.txt")],
            vec![("new_str".into(), s("N")), ("old_str".into(), s("O"))],
        );
        assert_eq!(
            bound,
            Ok(vec![
                ("path".into(), s("a.txt")),
                ("old_str".into(), s("O")),
                ("new_str".into(), s("N"))
            ])
        );
    }

    #[test]
    fn errors_read_like_cpython() {
        let p = params(&["path"]);
        assert_eq!(
            err(bind_args("read_file", &p, vec![s("a"), s("b")], vec![])),
            "TypeError: read_file() takes 1 positional argument but 2 were given"
        );
        assert_eq!(
            err(bind_args(
                "read_file",
                &p,
                vec![],
                vec![("name".into(), s("a"))]
            )),
            "TypeError: read_file() got an unexpected keyword argument 'name'"
        );
        assert_eq!(
            err(bind_args("read_file", &p, vec![], vec![])),
            "TypeError: read_file() missing 1 required positional argument: 'path'"
        );
        assert_eq!(
            err(bind_args(
                "read_file",
                &p,
                vec![s("a")],
                vec![("path".into(), s("b"))]
            )),
            "TypeError: read_file() got multiple values for argument 'path'"
        );
        let three = params(&["a", "b", "c"]);
        assert_eq!(
            err(bind_args("f", &three, vec![], vec![])),
            "TypeError: f() missing 3 required positional arguments: 'a', 'b', and 'c'"
        );
        assert_eq!(
            err(bind_args("f", &three, vec![s("x")], vec![])),
            "TypeError: f() missing 2 required positional arguments: 'b' and 'c'"
        );
        assert_eq!(
            err(bind_args("g", &[], vec![s("x")], vec![])),
            "TypeError: g() takes 0 positional arguments but 1 was given"
        );
        let opt = vec![ArgSpec::new("a"), ArgSpec::new("b").optional()];
        assert_eq!(
            err(bind_args("h", &opt, vec![s("1"), s("2"), s("3")], vec![])),
            "TypeError: h() takes from 1 to 2 positional arguments but 3 were given"
        );
        assert_eq!(
            bind_args("h", &opt, vec![s("1")], vec![]),
            Ok(vec![("a".into(), s("1"))])
        );
    }
}
