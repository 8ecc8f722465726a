//! Delegation: intent → program. Three tiers are tried in order until one
//! yields a program that validates against the namespace ([`tiers`]):
//!
//! 1. **templates** ([`templates`]): `.lackpy/templates/*.tmpl`, a pattern
//!    that captures from the intent and a body the captures fill in, always
//!    as string literals or escaped text where lackpy-lang's tokenizer
//!    places each placeholder (`placement.rs`, `literal.rs`);
//! 2. **rules** ([`rules`]): a few fixed intents ("read file X");
//! 3. **models** ([`provider`]): OpenAI-compatible chat-completions
//!    endpoints from `[inference]` ([`providers_config`]), prompted with the
//!    namespace ([`prompt`]); an answer is cleaned up ([`cleanup`]) and
//!    validated, and an invalid one goes back with the errors.
//!
//! One call ([`Call`], `call.rs`) gives the tiers the namespace's prompt
//! lines and, for `delegate`, hands the program to the caller's runner
//! (the service's `run_program`: delegation knows nothing of the service)
//! and reports a [`DelegateResult`] ([`result`]). The model tiers of a
//! service and their status are [`Models`] (`models.rs`). Everything but
//! [`provider`] is pure text work and file reads: the templates and rules
//! tiers never touch the network.

mod call;
pub mod cleanup;
mod literal;
mod models;
mod placement;
pub mod prompt;
pub mod provider;
pub mod providers_config;
pub mod result;
pub mod rules;
mod scan;
pub mod templates;
pub mod tiers;

pub use call::Call;
pub use models::{Models, ProviderStatus};
pub use prompt::{Message, ParamInfo, Role, ToolLine};
pub use provider::{ChatModel, ModelError, ModelFuture, OpenAiCompatible, Reachability};
pub use providers_config::{ProviderEntry, ProviderSettings};
pub use result::{
    DelegateOutcome, DelegateResult, DelegateResultJson, GenerateResult, not_generated_error,
};
pub use tiers::{Generated, Generation, Generator, ModelSlot, ModelTier, Request, TierErrors};
