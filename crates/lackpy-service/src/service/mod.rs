//! [`LackpyService`]: the API the CLI and the MCP server are thin layers over.
//!
//! The service and its parts are in `inventory.rs` (built in `start.rs`);
//! each file beside them adds one concern's methods (`plan.rs`, `run.rs`,
//! `resume.rs`, `status.rs`, …). This module only re-exports.

mod approver;
mod config_view;
mod delegate;
mod error;
mod execute;
mod inventory;
mod lang_json;
mod live;
mod observe;
mod params;
mod plan;
mod policy_view;
pub mod profile;
mod profile_info;
mod resume;
mod run;
mod run_program;
mod signatures;
mod start;
mod status;
mod tool_list;
mod validate;
mod watch;

pub use approver::ApproverHandle;
pub use delegate::Delegate;
pub use error::{ServiceError, ToolOrigin};
pub use inventory::LackpyService;
pub(crate) use lang_json::SpecJson;
pub use live::LiveService;
pub use observe::{RunControl, ToolCallEvent, ToolCallObserver};
pub use params::{params_from_json, params_from_value};
pub use policy_view::{GatedCall, PolicyView, ValidationReport};
pub use profile::{Namespace, Selection};
pub use profile_info::ProfileInfo;
pub use resume::Resume;
pub use run_program::RunProgram;
pub use start::ServiceOptions;
pub use status::{InventoryInfo, LimitsInfo, SkippedServerInfo, Status};
pub use tool_list::{ListedTool, ToolList};
pub use watch::watch_config;
