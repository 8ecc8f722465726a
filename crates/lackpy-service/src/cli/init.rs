//! `lackpy init`: a commented starter config.

use std::path::Path;

use clap::Args;

use super::common::WorkspaceArg;
use super::error::CliError;

/// Arguments of `lackpy init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Overwrite an existing config.
    #[arg(long)]
    pub force: bool,
}

/// The starter config: every section, commented out where optional.
pub const STARTER: &str = include_str!("starter_config.toml");

/// Runs `lackpy init`.
pub fn run(args: InitArgs) -> Result<u8, CliError> {
    let workspace = args.workspace.path()?;
    let file = write_starter(&workspace, args.force)?;
    super::output::out_line(&format!("wrote {}", file.display()));
    Ok(0)
}

/// Writes the starter config into `workspace`; refuses to overwrite unless `force`.
pub fn write_starter(workspace: &Path, force: bool) -> Result<std::path::PathBuf, CliError> {
    if !workspace.is_dir() {
        return Err(CliError::usage(format!(
            "workspace '{}' is not a directory",
            workspace.display()
        )));
    }
    let dir = workspace.join(".lackpy");
    let file = dir.join("config.toml");
    if file.exists() && !force {
        return Err(CliError::usage(format!(
            "{} already exists (use --force to overwrite)",
            file.display()
        )));
    }
    std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(&file, STARTER))
        .map_err(|e| CliError::usage(format!("cannot write {}: {e}", file.display())))?;
    Ok(file)
}
