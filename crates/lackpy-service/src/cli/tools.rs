//! `lackpy tools`: every tool grouped by source, with the signature a
//! program calls it by; `lackpy tools NAME`: one tool in full.

use clap::Args;
use lackpy_service::PolicyView;
use lackpy_sources::{CandidateInfo, Precedence, ToolListing, first_sentence, py_repr};

use super::common::{WorkspaceArg, block_on, print_json, start_service};
use super::error::CliError;

/// Arguments of `lackpy tools`.
#[derive(Debug, Args)]
pub struct ToolsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Show this one tool in full: signature, description, arguments,
    /// grade and why, provenance, shadowed candidates, policy.
    pub name: Option<String>,
}

/// Runs `lackpy tools`.
pub fn run(args: ToolsArgs) -> Result<u8, CliError> {
    let workspace = args.workspace.path()?;
    let list = block_on(async {
        let service = start_service(workspace).await?;
        let list = service.tool_list(None);
        service.shutdown().await;
        Ok::<_, CliError>(list?)
    })??;
    if let Some(name) = &args.name {
        let Some(t) = list.tools.iter().find(|t| t.listing.name == *name) else {
            return Err(CliError::usage(format!(
                "no tool '{name}' (`lackpy tools` lists them)"
            )));
        };
        if args.json {
            print_json(t)?;
        } else {
            super::output::out(&render_one(&t.listing, t.policy.as_ref()));
        }
        return Ok(0);
    }
    if args.json {
        print_json(&list)?;
    } else {
        let (listing, policies): (Vec<ToolListing>, Vec<Option<PolicyView>>) = list
            .tools
            .into_iter()
            .map(|t| (t.listing, t.policy))
            .unzip();
        super::output::out(&render(&listing, &policies));
    }
    Ok(0)
}

fn precedence(p: &Precedence) -> String {
    serde_json::to_value(p)
        .map(|v| match v {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        })
        .unwrap_or_default()
}

fn candidate(c: &CandidateInfo) -> String {
    format!(
        "{} ({}, {})",
        c.source,
        c.provider,
        precedence(&c.precedence)
    )
}

/// What the policy says of a tool, with the rule: `needs approval
/// ([policy] approve_above (2, 1))`; `-` for a tool it does not judge
/// (an unavailable one).
fn policy_cell(p: Option<&PolicyView>) -> String {
    match p {
        Some(PolicyView {
            state,
            rule: Some(rule),
        }) => format!("{state} ({rule})"),
        Some(PolicyView { state, rule: None }) => (*state).to_string(),
        None => "-".to_string(),
    }
}

fn grade(c: &CandidateInfo) -> String {
    format!("({}, {})", c.grade.w, c.grade.d)
}

/// `yes`, or `no: why`.
fn availability(t: &ToolListing, c: &CandidateInfo) -> String {
    if t.available() {
        "yes".to_string()
    } else {
        format!(
            "no: {}",
            c.unavailable_reason.as_deref().unwrap_or("unavailable")
        )
    }
}

/// The text `lackpy tools` prints: tools grouped by the source that serves
/// them (in the order sources first appear), each with its signature and
/// the first sentence of its description, then a line with its provider,
/// grade, policy state and what it shadows or why it is unavailable.
/// `policies[i]` is what the policy says of `listing[i]`.
pub fn render(listing: &[ToolListing], policies: &[Option<PolicyView>]) -> String {
    // (source, precedence) groups in first-seen order, each with its rows.
    let mut groups: Vec<((String, String), Vec<String>)> = Vec::new();
    for (i, t) in listing.iter().enumerate() {
        let Some(c) = t.winner().or_else(|| t.candidates.first()) else {
            continue;
        };
        let mut facts = vec![c.provider.clone(), format!("grade {}", grade(c))];
        // The policy judges only available tools.
        if let Some(p) = policies.get(i).and_then(Option::as_ref) {
            facts.push(policy_cell(Some(p)));
        }
        if !t.available() {
            facts.push(format!(
                "unavailable: {}",
                availability(t, c).trim_start_matches("no: ")
            ));
        }
        let shadows: Vec<String> = t.shadows().iter().map(candidate).collect();
        if !shadows.is_empty() {
            facts.push(format!("shadows {}", shadows.join("; ")));
        }
        let description = first_sentence(&c.description);
        let head = if description.is_empty() {
            c.signature.clone()
        } else {
            format!("{}  # {description}", c.signature)
        };
        let row = format!("  {head}\n      {}", facts.join(" · "));
        let key = (c.source.clone(), precedence(&c.precedence));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, rows)) => rows.push(row),
            None => groups.push((key, vec![row])),
        }
    }
    let mut out = String::new();
    for ((source, prec), rows) in &groups {
        out.push_str(&format!("{source} (precedence {prec})\n"));
        for r in rows {
            out.push_str(r);
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "{} tool{}. `lackpy tools NAME` shows one in full; `lackpy stubs` prints them as a .pyi.\n",
        listing.len(),
        if listing.len() == 1 { "" } else { "s" }
    ));
    out
}

/// The text `lackpy tools NAME` prints: everything known about one tool.
pub fn render_one(t: &ToolListing, policy: Option<&PolicyView>) -> String {
    let Some(c) = t.winner().or_else(|| t.candidates.first()) else {
        return format!("{}: no candidates\n", t.name);
    };
    let mut out = format!("{}\n", c.signature);
    if let Some(text) = super::stubs::full_description(&c.description, c.docs.as_deref()) {
        out.push('\n');
        for line in text.lines() {
            out.push_str(format!("    {line}").trim_end());
            out.push('\n');
        }
    }
    // A one-word `docs` is a reference (a path), shown with the facts.
    let docs_ref = c
        .docs
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty() && !d.contains(char::is_whitespace));
    if !c.args.is_empty() {
        out.push_str("\narguments:\n");
        let rows: Vec<[String; 3]> = c
            .args
            .iter()
            .map(|a| {
                let need = match (&a.required, &a.default) {
                    (true, _) => "required".to_string(),
                    (false, Some(d)) => format!("optional, default {}", py_repr(d)),
                    (false, None) => "optional".to_string(),
                };
                [
                    format!("  {}: {}", a.name, a.shown_type()),
                    need,
                    a.description.clone(),
                ]
            })
            .collect();
        out.push_str(&super::table::render(&rows));
    }
    out.push_str(&format!("returns: {}\n\n", c.returns));
    let shadows: Vec<String> = t.shadows().iter().map(candidate).collect();
    let mut facts = vec![
        ["provider".to_string(), c.provider.clone()],
        ["source".to_string(), c.source.clone()],
        ["precedence".to_string(), precedence(&c.precedence)],
        [
            "grade".to_string(),
            match &c.grade_reason {
                Some(why) => format!("{} — {why}", grade(c)),
                None => grade(c),
            },
        ],
        ["policy".to_string(), policy_cell(policy)],
        ["available".to_string(), availability(t, c)],
    ];
    if let Some(r) = docs_ref {
        facts.push(["docs".to_string(), r.to_string()]);
    }
    facts.push([
        "shadows".to_string(),
        if shadows.is_empty() {
            "-".to_string()
        } else {
            shadows.join("; ")
        },
    ]);
    let facts: Vec<[String; 2]> = facts
        .into_iter()
        .map(|[k, v]| [format!("{k}:"), v])
        .collect();
    out.push_str(&super::table::render(&facts));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lackpy_lang::Grade;
    use lackpy_sources::ArgSpec;

    fn cand(source: &str, provider: &str, level: i64, available: bool) -> CandidateInfo {
        CandidateInfo {
            source: source.into(),
            provider: provider.into(),
            signature: "fetch(url: str) -> str".into(),
            description: "Fetch a URL. Follows redirects.".into(),
            docs: None,
            args: vec![ArgSpec::new("url").with_type("str")],
            returns: "str".into(),
            precedence: Precedence::Level(level),
            grade: Grade::new(2, 1),
            grade_reason: None,
            available,
            unavailable_reason: (!available).then(|| "MCP server 'web' is down".into()),
        }
    }

    #[test]
    fn unavailable_and_shadowing_tools() {
        let listing = vec![
            ToolListing {
                name: "fetch".into(),
                candidates: vec![cand("mcp:web", "mcp", 40, false)],
                winner: None,
            },
            ToolListing {
                name: "fetch2".into(),
                candidates: vec![
                    cand("config", "command", 20, true),
                    cand("defaults", "builtin", 10, true),
                ],
                winner: Some(0),
            },
        ];
        let policy = PolicyView {
            state: "needs approval",
            rule: Some("[policy] approve_above (1, 1)".into()),
        };
        insta::assert_snapshot!(render(&listing, &[None, Some(policy.clone())]));
        insta::assert_snapshot!(render_one(&listing[1], Some(&policy)));
    }
}
