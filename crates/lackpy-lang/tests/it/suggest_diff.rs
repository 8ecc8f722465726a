//! "Did you mean" agrees with CPython 3.11's own suggestion: each name
//! is looked up as an attribute of an object holding only the candidates
//! (CPython prints its suggestion for an `AttributeError`), and compared
//! with the one the validator gives for a call of that name.

use std::process::Command;

use lackpy_lang::validate_with;

const CASES: &[(&str, &[&str])] = &[
    ("find_file", &["find_files", "read_file", "write_file"]),
    ("readfile", &["find_files", "read_file", "write_file"]),
    ("Read_File", &["find_files", "read_file", "write_file"]),
    ("get_time", &["get_current_time", "convert_time"]),
    ("convert_tim", &["get_current_time", "convert_time"]),
    ("serch_web", &["search_web", "send_email"]),
    ("send_mail", &["search_web", "send_email"]),
    ("zzz_qqq", &["search_web", "send_email"]),
    ("list_issue", &["list_issues", "get_issue", "list_pulls"]),
    ("get_issues", &["list_issues", "get_issue", "list_pulls"]),
    ("fetch_url", &["fetch", "fetch_json", "post_url"]),
];

/// CPython's suggestion for each case, or `""`.
fn cpython() -> Vec<String> {
    let script = r#"
import json, subprocess, sys
cases = json.loads(sys.argv[1])
out = []
for name, cands in cases:
    src = "class C: pass\nc = C()\n" + "".join(f"c.{n} = 1\n" for n in cands) + f"c.{name}\n"
    err = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True).stderr
    mark = "Did you mean: '"
    out.append(err.split(mark, 1)[1].split("'", 1)[0] if mark in err else "")
print(json.dumps(out))
"#;
    let cases: Vec<(&str, &[&str])> = CASES.to_vec();
    let arg = serde_json::to_string(&cases).expect("JSON");
    let out = Command::new("python3")
        .args(["-c", script, &arg])
        .output()
        .expect("python3 is required for the differential test");
    serde_json::from_slice(&out.stdout).expect("JSON from python3")
}

#[test]
fn suggestions_match_cpython() {
    let want = cpython();
    for ((name, cands), want) in CASES.iter().zip(want) {
        let v = validate_with(&format!("{name}()"), cands, &[], &[]);
        let got = v
            .errors
            .first()
            .and_then(|e| e.split_once("Did you mean '"))
            .and_then(|(_, rest)| rest.split_once('\''))
            .map_or("", |(s, _)| s);
        assert_eq!(got, want, "{name} among {cands:?}");
    }
}
