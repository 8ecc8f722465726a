//! The config file `<workspace>/.lackpy/config.toml`: its typed shape
//! ([`schema`], with [`policy_schema`] and [`runs`]), how it is read
//! ([`load`]) and what can go wrong ([`error`]).

mod check;
pub mod error;
mod keypath;
mod known_keys;
pub mod load;
mod nesting;
mod notes;
pub mod ordered;
pub mod policy_schema;
pub mod runs;
pub mod schema;
mod suggest;
pub mod telemetry;
mod values;

pub use error::{ConfigError, ConfigWarning};
pub use load::{
    LoadedConfig, MAX_CONFIG_BYTES, config_path, load_config, load_config_file, parse_config,
};
pub use nesting::MAX_NESTING;
pub use ordered::OrderedMap;
pub use policy_schema::{PolicyRules, PolicySection, ProvenancePolicies};
pub use runs::{RunsSection, check_run_store};
pub use schema::{
    CommandDef, Config, FilesSection, GradeOverride, InferenceSection, Level, LimitsSection,
    McpSection, McpServerConfig, McpToolOverride, Profile, ProfileLimits, ProfileSection,
    ServerSection, ToolDef, ToolImpl, ToolSelection, TransportKind, VirtualToolDef, VirtualTools,
};
pub use telemetry::TelemetrySection;
