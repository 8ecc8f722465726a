//! Runs the recorded conformance cases that call no file tool through the
//! pipeline of a run (validate against the tools and params, then
//! interpret) and compares what `check.py` compares: success, output,
//! effective output, variables, stdout and the error text. Every case must
//! pass except those in the known deviations (`tests/conformance/known_deviations.txt`), which must still fail.

use crate::corpus;

use lackpy_lang::{Data, JsonText};
use lackpy_lang::{Host, RunOptions, ToolException, run};

/// The host of a corpus case: its tools exist but are never called by the
/// programs this test runs.
struct CaseHost {
    tools: Vec<(String, Vec<String>)>,
}

impl Host for CaseHost {
    fn tool_args(&self, name: &str) -> Option<&[String]> {
        self.tools
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a.as_slice())
    }

    fn call(
        &mut self,
        tool: &str,
        _args: Vec<Data>,
        _kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ToolException> {
        Err(ToolException::new(
            "ToolError",
            format!("{tool} is not available in this test"),
        ))
    }
}

fn declared_args(tool: &str) -> Vec<String> {
    let names: &[&str] = match tool {
        "read_file" => &["path"],
        "find_files" => &["pattern"],
        "write_file" => &["path", "content"],
        "edit_file" => &["path", "old_str", "new_str"],
        _ => &[],
    };
    names.iter().map(|s| s.to_string()).collect()
}

fn field<'a>(d: &'a Data, key: &str) -> Option<&'a Data> {
    match d {
        Data::Dict(items) => items
            .iter()
            .find(|(k, _)| matches!(k, Data::Str(s) if s == key))
            .map(|(_, v)| v),
        _ => None,
    }
}

fn text(d: Option<&Data>) -> Option<String> {
    match d {
        Some(Data::Str(s)) => Some(s.clone()),
        _ => None,
    }
}

/// JSON equality that keeps bool, int and float apart (as check.py does).
fn same(a: &Data, b: &Data) -> bool {
    match (a, b) {
        (Data::Float(x), Data::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Data::List(x), Data::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Data::Dict(x), Data::Dict(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.iter().any(|(k2, v2)| k == k2 && same(v, v2)))
        }
        _ => a == b,
    }
}

/// Error lists must match exactly, except that a parse error only needs the
/// same line (as check.py).
fn same_errors(want: &[&str], got: &[String]) -> bool {
    fn parse_line(e: &str) -> Option<&str> {
        e.strip_prefix("Parse error: ")?
            .rsplit_once(" (line ")?
            .1
            .strip_suffix(')')
    }
    want.len() == got.len()
        && want
            .iter()
            .zip(got)
            .all(|(w, g)| match (parse_line(w), parse_line(g)) {
                (Some(a), Some(b)) => a == b,
                _ => *w == g.as_str(),
            })
}

/// Our value as JSON, read back (tuples become lists, keys strings).
fn as_json(d: Option<&JsonText>) -> Data {
    match d {
        Some(d) => Data::from_json(d.as_str()).unwrap_or(Data::Str("<bad json>".into())),
        None => Data::None,
    }
}

#[test]
fn corpus_cases_without_file_tools() {
    let corpus = corpus::corpus_text();
    let file_tools = ["read_file", "find_files", "write_file", "edit_file"];
    let mut total = 0;
    let mut ran: Vec<String> = Vec::new();
    let mut failures: Vec<(String, String)> = Vec::new();
    for line in corpus::corpus_lines(&corpus) {
        let case = Data::from_json(line).expect("corpus line is JSON");
        let id = text(field(&case, "id")).unwrap_or_default();
        let program = text(field(&case, "program")).unwrap_or_default();
        if file_tools.iter().any(|t| program.contains(t)) {
            continue;
        }
        let Some(exec) = field(&case, "expected").and_then(|e| field(e, "execution")) else {
            continue;
        };
        let want_error = text(field(exec, "error")).unwrap_or_default();
        total += 1;
        ran.push(id.clone());
        let tools: Vec<(String, Vec<String>)> = match field(&case, "tools") {
            Some(Data::List(ts)) => ts
                .iter()
                .filter_map(|t| match t {
                    Data::Str(s) => Some((s.clone(), declared_args(s))),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let params: Vec<(String, Data)> = match field(&case, "params") {
            Some(Data::Dict(items)) => items
                .iter()
                .filter_map(|(k, v)| match k {
                    Data::Str(k) => Some((k.clone(), v.clone())),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut allowed: Vec<String> = tools.iter().map(|(n, _)| n.clone()).collect();
        allowed.extend(params.iter().map(|(n, _)| n.clone()));
        let validation = lackpy_lang::validate_with(&program, &allowed, &[], &[]);
        if !validation.valid {
            let got = validation.errors;
            let want: Vec<&str> = want_error
                .strip_prefix("Validation failed: ")
                .map(|w| w.split("; ").collect())
                .unwrap_or_default();
            if !same_errors(&want, &got) {
                failures.push((
                    id.clone(),
                    format!("{id}:\n{program}\n    validation: want {want_error:?} got {got:?}"),
                ));
            }
            continue;
        }
        let module = match lackpy_lang::parse(&program) {
            Ok(m) => m,
            Err(e) => {
                failures.push((id.clone(), format!("{id}: parse error {e}")));
                continue;
            }
        };
        let mut host = CaseHost { tools };
        let got = run(&module, &mut host, &params, &RunOptions::default());
        let mut diffs = Vec::new();
        if let Some(exc) = field(exec, "exception") {
            if got.success {
                diffs.push(format!("want a refusal ({exc:?}) got success"));
            }
        } else {
            let want_success = matches!(field(exec, "success"), Some(Data::Bool(true)));
            if got.success != want_success {
                diffs.push(format!(
                    "success: want {want_success} got {} (error: {:?} {:?})",
                    got.success, got.error_type, got.error
                ));
            } else if want_success {
                let out = as_json(got.output.as_ref());
                let want = field(exec, "output").cloned().unwrap_or(Data::None);
                if !same(&want, &out) {
                    diffs.push(format!(
                        "output: want {} got {}",
                        want.to_json(),
                        out.to_json()
                    ));
                }
                let eff = as_json(got.effective_output().as_deref());
                let want = field(exec, "effective_output")
                    .cloned()
                    .unwrap_or(Data::None);
                if !same(&want, &eff) {
                    diffs.push(format!(
                        "effective_output: want {} got {}",
                        want.to_json(),
                        eff.to_json()
                    ));
                }
                let vars = Data::from_json(
                    &Data::Dict(
                        got.variables
                            .iter()
                            .map(|(k, v)| (Data::Str(k.clone()), v.to_data()))
                            .collect(),
                    )
                    .to_json(),
                )
                .unwrap_or(Data::None);
                let want = field(exec, "variables").cloned().unwrap_or(Data::None);
                if !same(&want, &vars) {
                    diffs.push(format!(
                        "variables: want {} got {}",
                        want.to_json(),
                        vars.to_json()
                    ));
                }
            } else if got.error.as_deref().unwrap_or("") != want_error {
                diffs.push(format!(
                    "error: want {want_error:?} got {:?} ({:?})",
                    got.error, got.error_type
                ));
            }
            let want_stdout = text(field(exec, "stdout")).unwrap_or_default();
            if got.stdout != want_stdout {
                diffs.push(format!("stdout: want {want_stdout:?} got {:?}", got.stdout));
            }
        }
        if !diffs.is_empty() {
            failures.push((
                id.clone(),
                format!("{id}:\n{program}\n    {}", diffs.join("\n    ")),
            ));
        }
    }
    assert!(total > 0);
    eprintln!("interp corpus: {}/{total} passed", total - failures.len());
    let known = corpus::known_deviations();
    let failed_ids: Vec<&str> = failures.iter().map(|(id, _)| id.as_str()).collect();
    let unlisted: Vec<&str> = failures
        .iter()
        .filter(|(id, _)| !known.iter().any(|(k, _)| k == id))
        .map(|(_, f)| f.as_str())
        .collect();
    // Only the cases run here can be stale here (those with file tools are
    // the binary conformance test's).
    let stale: Vec<String> = known
        .iter()
        .filter(|(id, _)| ran.contains(id) && !failed_ids.contains(&id.as_str()))
        .map(|(id, why)| format!("{id} ({why})"))
        .collect();
    assert!(
        unlisted.is_empty(),
        "{} cases fail that are not known deviations:\n{}",
        unlisted.len(),
        unlisted.join("\n")
    );
    assert!(
        stale.is_empty(),
        "known deviations that now pass (remove them from known_deviations.txt): {}",
        stale.join("; ")
    );
}
