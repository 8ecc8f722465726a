//! Putting the local sources of a config into a toolbox: shipped defaults
//! (10), the user's `[[tools]]` (20) and `[[virtual_tools]]` (7). MCP
//! sources are added by the MCP client.

use std::sync::Arc;

use crate::builtin::FilePolicy;
use crate::config::{Config, ConfigError};
use crate::config_source::ConfigToolSource;
use crate::defaults::defaults_source;
use crate::precedence::Precedence;
use crate::python::PythonRuntime;
use crate::toolbox::Toolbox;
use crate::virtual_tools::{HarnessResolver, VirtualToolSource};

/// The source name of the user's `[[tools]]`.
pub const CONFIG_SOURCE: &str = "config";

/// Adds the shipped defaults, `config`'s tools and its virtual tools to
/// `toolbox`, each at its precedence.
pub fn add_local_sources(
    toolbox: &mut Toolbox,
    config: &Config,
    python: &Arc<PythonRuntime>,
    harness: Option<Arc<dyn HarnessResolver>>,
) -> Result<(), ConfigError> {
    // One policy for every builtin file tool, whichever source serves it.
    let policy = Arc::new(FilePolicy::from_config(config));
    toolbox.add_source(
        Arc::new(defaults_source(Arc::clone(python))?.with_file_policy(Arc::clone(&policy))),
        Precedence::DEFAULTS,
    );
    if !config.virtual_tools.0.is_empty() {
        toolbox.add_source(
            Arc::new(VirtualToolSource::new(
                config.virtual_tools.0.clone(),
                harness,
            )),
            Precedence::VIRTUAL,
        );
    }
    if !config.tools.is_empty() {
        toolbox.add_source(
            Arc::new(
                ConfigToolSource::new(CONFIG_SOURCE, config.tools.clone(), Arc::clone(python))
                    .with_file_policy(policy),
            ),
            Precedence::USER_CONFIG,
        );
    }
    Ok(())
}
