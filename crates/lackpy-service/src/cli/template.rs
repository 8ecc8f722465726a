//! `lackpy template create` / `lackpy template list`: the templates tier's
//! files in `.lackpy/templates/`.

use clap::{Args, Subcommand};
use serde::Serialize;

use super::common::{WorkspaceArg, block_on, print_json, start_service};
use super::error::{CliError, EXIT_FAILED};
use super::input::{read_program, tool_list};
use super::output;
use lackpy_service::delegate::templates;

/// Arguments of `lackpy template`.
#[derive(Debug, Args)]
pub struct TemplateArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TemplateCommand,
}

/// The `template` subcommands.
#[derive(Debug, Subcommand)]
pub enum TemplateCommand {
    /// Write a template whose program validates against the namespace.
    #[command(after_help = super::help::TEMPLATE)]
    Create(CreateArgs),
    /// List the templates with their patterns and counts.
    #[command(after_help = super::help::TEMPLATE_LIST)]
    List(ListArgs),
}

/// Arguments of `lackpy template create`.
#[derive(Debug, Args)]
pub struct CreateArgs {
    /// The template's name (the file is `.lackpy/templates/NAME.tmpl`).
    pub name: String,
    /// The intent pattern: a regular expression whose `{var}` placeholders
    /// capture text the body's `{var}`s receive.
    #[arg(long)]
    pub pattern: String,
    /// The program file; `-` or nothing reads stdin.
    pub file: Option<String>,
    /// Comma-separated tool names the program may call.
    #[arg(long)]
    pub tools: Option<String>,
    /// A profile naming the tools.
    #[arg(long)]
    pub profile: Option<String>,
    /// Replace an existing template of that name.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print `{created, path, errors}` as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `lackpy template list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Print `{"templates": [...]}` as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lackpy template`.
pub fn run(args: TemplateArgs) -> Result<u8, CliError> {
    match args.command {
        TemplateCommand::Create(a) => create(a),
        TemplateCommand::List(a) => list(a),
    }
}

/// What `template create --json` prints.
#[derive(Debug, Serialize)]
struct Created {
    created: bool,
    path: Option<String>,
    errors: Vec<String>,
}

fn create(args: CreateArgs) -> Result<u8, CliError> {
    templates::check_name(&args.name).map_err(CliError::usage)?;
    let samples = templates::sample_captures(&args.pattern).map_err(|e| {
        CliError::usage(format!("--pattern: {}", e.replacen("its pattern", "it", 1)))
    })?;
    let body = read_program(args.file.as_deref())?
        .map_err(|e| CliError::usage(format!("the program is not UTF-8 text: {e}")))?;
    let text = templates::render(&args.name, &args.pattern, &body)
        .map_err(|e| CliError::usage(format!("--pattern: {e}")))?;
    let tools = tool_list(args.tools.as_deref());
    let workspace = args.workspace.path()?;
    let (validation, dir) = block_on(async {
        let service = start_service(workspace).await?;
        // The body as a delegate would run it: every placeholder filled.
        let program = templates::substitute(&body, &samples);
        let v = match program {
            Ok(p) => service.validate(&p, tools.as_deref(), args.profile.as_deref(), &[], &[]),
            Err(e) => service
                .namespace(tools.as_deref(), args.profile.as_deref())
                .map(|_| lackpy_lang::Validation::failed(e)),
        };
        let dir = service.templates_dir().to_path_buf();
        service.shutdown().await;
        Ok::<_, CliError>((v?, dir))
    })??;
    if !validation.valid {
        if args.json {
            print_json(&Created {
                created: false,
                path: None,
                errors: validation.errors,
            })?;
        } else {
            output::err_line("error: the template's program does not validate:");
            for e in &validation.errors {
                output::err_line(&format!("  {e}"));
            }
        }
        return Ok(EXIT_FAILED);
    }
    let path =
        templates::write_new(&dir, &args.name, &text, args.force).map_err(CliError::usage)?;
    if args.json {
        print_json(&Created {
            created: true,
            path: Some(path.display().to_string()),
            errors: Vec::new(),
        })?;
    } else {
        output::out_line(&format!("created {}", path.display()));
    }
    Ok(0)
}

/// One template as `template list --json` shows it.
#[derive(Debug, Serialize)]
struct Listed {
    name: String,
    pattern: Option<String>,
    success_count: Option<u64>,
    fail_count: Option<u64>,
    path: String,
    error: Option<String>,
}

fn list(args: ListArgs) -> Result<u8, CliError> {
    let workspace = args.workspace.path()?;
    let dir = workspace.join(".lackpy").join("templates");
    let listed: Vec<Listed> = templates::load_dir(&dir)
        .into_iter()
        .map(|f| {
            let stem = f
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let path = f.path.display().to_string();
            match f.template {
                Ok(t) => Listed {
                    name: t.name.clone(),
                    pattern: Some(t.pattern.clone()),
                    success_count: Some(t.success_count),
                    fail_count: Some(t.fail_count),
                    path,
                    error: None,
                },
                Err(e) => Listed {
                    name: stem,
                    pattern: None,
                    success_count: None,
                    fail_count: None,
                    path,
                    error: Some(e),
                },
            }
        })
        .collect();
    if args.json {
        print_json(&serde_json::json!({ "templates": listed }))?;
        return Ok(0);
    }
    if listed.is_empty() {
        output::out_line(&format!("no templates in {}", dir.display()));
        return Ok(0);
    }
    for t in &listed {
        match (&t.pattern, &t.error) {
            (Some(p), _) => output::out_line(&format!(
                "{:<20} {:<40} {} ok, {} failed",
                t.name,
                format!("\"{p}\""),
                t.success_count.unwrap_or(0),
                t.fail_count.unwrap_or(0)
            )),
            (None, e) => output::out_line(&format!(
                "{:<20} unusable: {}",
                t.name,
                e.as_deref().unwrap_or("")
            )),
        }
    }
    Ok(0)
}
