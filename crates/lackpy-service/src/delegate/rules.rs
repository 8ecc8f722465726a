//! The rules tier: a few deterministic intents answered without a model,
//! each only when its tool is in the namespace (lackpy's rules):
//!
//! * `read [the] file X` → `content = read_file('X')` / `content`
//! * `find [the] definition(s) [of|for] N` → `results = find_definitions('N')`
//! * `find [all] callers/usages/references [of|for] N` → `results = find_callers('N')`
//! * `(find|list) all <lang> files` → `files = find_files('**/*.<ext>')`
//! * `glob P` → `files = find_files('P')`
//!
//! Text taken from the intent becomes a string literal, never code.

use std::sync::LazyLock;

use regex::Regex;

use super::literal::py_str_literal;

struct Rule {
    tool: &'static str,
    regex: Regex,
    program: fn(&regex::Captures<'_>) -> String,
}

fn rule(tool: &'static str, pattern: &str, program: fn(&regex::Captures<'_>) -> String) -> Rule {
    // The patterns below are fixed expressions that compile.
    #[allow(clippy::unwrap_used)]
    let regex = Regex::new(pattern).unwrap();
    Rule {
        tool,
        regex,
        program,
    }
}

/// The intent's text in group 1, trimmed of spaces and quotes.
fn arg(c: &regex::Captures<'_>) -> String {
    let text = c.get(1).map_or("", |m| m.as_str());
    py_str_literal(text.trim().trim_matches(['\'', '"']))
}

/// A language name's file extension (others are taken as the extension).
fn extension(lang: &str) -> String {
    let lang = lang.to_lowercase();
    match lang.as_str() {
        "python" => "py",
        "javascript" => "js",
        "typescript" => "ts",
        "rust" => "rs",
        "ruby" => "rb",
        "yaml" => "yml",
        other => other,
    }
    .to_string()
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    vec![
        rule(
            "read_file",
            r#"(?i)^read (?:the )?file ['"]?(\S+?)['"]?\s*$"#,
            |c| format!("content = read_file({})\ncontent", arg(c)),
        ),
        rule(
            "find_definitions",
            r"(?i)^find (?:the )?definitions? (?:of |for )?(.+)",
            |c| format!("results = find_definitions({})\nresults", arg(c)),
        ),
        rule(
            "find_callers",
            r"(?i)^find (?:all )?(?:callers?|usages?|references?) (?:of |for )?(.+)",
            |c| format!("results = find_callers({})\nresults", arg(c)),
        ),
        rule(
            "find_files",
            r"(?i)^(?:find|list) all (\w+) files\s*$",
            |c| {
                let ext = extension(c.get(1).map_or("", |m| m.as_str()));
                format!(
                    "files = find_files({})\nfiles",
                    py_str_literal(&format!("**/*.{ext}"))
                )
            },
        ),
        rule("find_files", r"(?i)^glob (.+)", |c| {
            format!("files = find_files({})\nfiles", arg(c))
        }),
    ]
});

/// The program of the first rule that matches `intent` and whose tool
/// `has_tool` says is in the namespace.
pub fn program_for(intent: &str, has_tool: impl Fn(&str) -> bool) -> Option<String> {
    let intent = intent.trim();
    RULES
        .iter()
        .filter(|r| has_tool(r.tool))
        .find_map(|r| r.regex.captures(intent).map(|c| (r.program)(&c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(_: &str) -> bool {
        true
    }

    #[test]
    fn the_patterns_of_the_spec() {
        assert_eq!(
            program_for("Read the file notes/a.txt", all).as_deref(),
            Some("content = read_file('notes/a.txt')\ncontent")
        );
        assert_eq!(
            program_for("read file 'a b'", all),
            None,
            "a path with spaces goes to the model"
        );
        assert_eq!(
            program_for("read file \"a.txt\"  ", all).as_deref(),
            Some("content = read_file('a.txt')\ncontent")
        );
        assert_eq!(
            program_for("list all Python files", all).as_deref(),
            Some("files = find_files('**/*.py')\nfiles")
        );
        assert_eq!(
            program_for("find all md files", all).as_deref(),
            Some("files = find_files('**/*.md')\nfiles")
        );
        assert_eq!(
            program_for("glob 'src/**/*.rs'", all).as_deref(),
            Some("files = find_files('src/**/*.rs')\nfiles")
        );
        assert_eq!(
            program_for("find definitions of parse_args", all).as_deref(),
            Some("results = find_definitions('parse_args')\nresults")
        );
        assert_eq!(
            program_for("find all callers of run", all).as_deref(),
            Some("results = find_callers('run')\nresults")
        );
        assert_eq!(program_for("summarise the notes", all), None);
    }

    #[test]
    fn only_when_the_tool_is_there() {
        assert_eq!(program_for("read file a.txt", |t| t != "read_file"), None);
        assert_eq!(program_for("glob *.md", |t| t == "read_file"), None);
    }

    #[test]
    fn intent_text_stays_text() {
        assert_eq!(
            program_for("read file x')+write_file('p','y')#", all).as_deref(),
            Some("content = read_file(\"x')+write_file('p','y')#\")\ncontent")
        );
        assert_eq!(
            program_for("glob a\\'\n", all).as_deref(),
            Some("files = find_files('a\\\\')\nfiles")
        );
    }
}
