//! The config file `<workspace>/.lackpy/config.toml`: its typed shape
//! ([`schema`]), how it is read ([`load`]) and what can go wrong ([`error`]).

pub mod error;
pub mod load;
mod nesting;
pub mod ordered;
pub mod schema;

pub use error::{ConfigError, ConfigWarning};
pub use load::{
    LoadedConfig, MAX_CONFIG_BYTES, config_path, load_config, load_config_file, parse_config,
};
pub use nesting::MAX_NESTING;
pub use ordered::OrderedMap;
pub use schema::{
    CommandDef, Config, FilesSection, GradeOverride, InferenceSection, Level, LimitsSection,
    McpSection, McpServerConfig, McpToolOverride, Profile, ProfileSection, ServerSection, ToolDef,
    ToolImpl, ToolSelection, TransportKind, VirtualToolDef, VirtualTools,
};
