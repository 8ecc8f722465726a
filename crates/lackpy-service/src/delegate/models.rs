//! The model tiers a service is built with: the OpenAI-compatible
//! endpoints of `[inference]`, then the tiers given in code, and what
//! `lackpy status` shows of them (never a secret).

use std::sync::Arc;

use serde::Serialize;

use super::provider::{ChatModel, OpenAiCompatible, Reachability, without_credentials};
use super::providers_config::{self, ProviderEntry};
use super::tiers::{ModelSlot, ModelTier};

/// The model tiers, in order, and the configured endpoints behind them.
pub struct Models {
    /// The tiers, in order: `[inference]`'s, then the ones given in code.
    pub slots: Vec<ModelSlot>,
    /// `[inference]`'s endpoints (a client when the entry is usable), for
    /// status and probes.
    endpoints: Vec<(ProviderEntry, Option<Arc<OpenAiCompatible>>)>,
}

/// A configured model tier as `lackpy status` shows it: no secrets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ProviderStatus {
    /// The tier's name.
    pub name: String,
    /// The endpoint's base URL, without credentials.
    pub base_url: Option<String>,
    /// The model asked for.
    pub model: Option<String>,
    /// The variable the API key is read from (never its value).
    pub api_key_env: Option<String>,
    /// Whether the tier can be used at all.
    pub available: bool,
    /// Whether it answered just now (null when not asked).
    pub reachable: Option<bool>,
    /// Why it is unavailable or unreachable.
    pub reason: Option<String>,
}

impl Models {
    /// The tiers of `[inference]`, then `extra`.
    pub fn from_config(
        inference: &lackpy_sources::InferenceSection,
        extra: Vec<ModelSlot>,
    ) -> Models {
        let mut slots = Vec::new();
        let mut endpoints = Vec::new();
        for entry in providers_config::read(inference) {
            let client = entry
                .settings
                .clone()
                .and_then(|s| OpenAiCompatible::new(s).map(Arc::new));
            let tier = client.clone().map(|c| {
                let s = c.settings();
                ModelTier {
                    temperature: s.temperature,
                    retry_temperature: s.retry_temperature,
                    max_corrections: s.max_corrections,
                    model: c as Arc<dyn ChatModel>,
                }
            });
            slots.push(ModelSlot {
                name: entry.name.clone(),
                tier,
            });
            endpoints.push((entry, client.ok()));
        }
        slots.extend(extra);
        Models { slots, endpoints }
    }

    /// The tiers as configured, without asking them anything.
    pub fn status(&self) -> Vec<ProviderStatus> {
        let mut out: Vec<ProviderStatus> = self
            .endpoints
            .iter()
            .map(|(entry, _)| match &entry.settings {
                Ok(s) => ProviderStatus {
                    name: entry.name.clone(),
                    base_url: Some(without_credentials(&s.base_url)),
                    model: Some(s.model.clone()),
                    api_key_env: s.api_key_env.clone(),
                    available: true,
                    reachable: None,
                    reason: None,
                },
                Err(why) => ProviderStatus {
                    name: entry.name.clone(),
                    base_url: None,
                    model: None,
                    api_key_env: None,
                    available: false,
                    reachable: None,
                    reason: Some(why.clone()),
                },
            })
            .collect();
        for slot in self.slots.iter().skip(self.endpoints.len()) {
            out.push(ProviderStatus {
                name: slot.name.clone(),
                base_url: None,
                model: None,
                api_key_env: None,
                available: slot.tier.is_ok(),
                reachable: None,
                reason: slot.tier.as_ref().err().cloned(),
            });
        }
        out
    }

    /// The tiers, each endpoint asked whether it answers (all at once,
    /// each within a short limit).
    pub async fn status_probed(&self) -> Vec<ProviderStatus> {
        let mut out = self.status();
        let mut probes = tokio::task::JoinSet::new();
        for (i, (_, client)) in self.endpoints.iter().enumerate() {
            if let Some(c) = client {
                let c = Arc::clone(c);
                probes.spawn(async move { (i, c.probe().await) });
            }
        }
        while let Some(done) = probes.join_next().await {
            let Ok((i, reach)) = done else { continue };
            if let Some(p) = out.get_mut(i) {
                match reach {
                    Reachability::Reachable(_) => p.reachable = Some(true),
                    Reachability::Unreachable(why) => {
                        p.reachable = Some(false);
                        p.reason = Some(why);
                    }
                }
            }
        }
        out
    }
}
