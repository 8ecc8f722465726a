//! What a paused run says in human mode: the call it waits at, the rule,
//! and the command that resumes it.

use std::path::Path;

use lackpy_bridge::{ApprovalRequest, Paused};

/// `paused at step 1: send(text='hi') needs approval ([policy] approve_above
/// (2, 1)); resume with: lackpy resume r… --approve (or --deny)`.
/// `workspace` is the `--workspace` the command was given, repeated in the
/// hint so it works from the same directory.
pub fn message(p: &Paused, workspace: Option<&Path>) -> String {
    // The prompt's rendering of a call, so both read the same.
    let call = ApprovalRequest {
        run_id: None,
        step: p.step,
        tool: p.tool.clone(),
        args: p.args.clone(),
        grade: p.grade,
        provenance: String::new(),
        rule: p.rule.clone(),
    }
    .call_text();
    let head = format!(
        "paused at step {}: {call} needs approval ({})",
        p.step, p.rule
    );
    if p.run_id.is_empty() {
        return format!("{head}; the run cannot be resumed");
    }
    let ws = workspace
        .map(|w| format!(" --workspace {}", shell_word(&w.display().to_string())))
        .unwrap_or_default();
    format!(
        "{head}; resume with: lackpy resume {}{ws} --approve (or --deny)",
        p.run_id
    )
}

/// `s` as one shell word: as is when it has no special characters, else in
/// single quotes.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./,:=@%+".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_paths_are_quoted_for_the_shell() {
        assert_eq!(shell_word("/tmp/ws-1"), "/tmp/ws-1");
        assert_eq!(shell_word("my ws"), "'my ws'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
