//! What a config that loads still deserves to be told: each unknown key
//! with the known key it is nearest, a provider table `[inference].order`
//! leaves out, an `api_key` written into the file. And the one
//! `[inference]` mistake that is an error: an order naming no tier.

use std::path::Path;

use super::check::Problem;
use super::error::ConfigWarning;
use super::keypath::{KeyPath, Part};
use super::known_keys::keys_of;
use super::load::position;
use super::schema::Config;
use super::suggest::hint;

/// The tiers `[inference].order` may name besides its provider tables.
const FIXED_TIERS: [&str; 2] = ["templates", "rules"];

/// `unknown config key 'comand' in [mcp_servers.x] (did you mean 'command'?)`.
pub(super) fn unknown_key_message(path: &KeyPath) -> String {
    let Some((Part::Key(last), parent)) = path.0.split_last() else {
        return format!("unknown config key '{path}'");
    };
    let parent = KeyPath(parent.to_vec());
    let suggestion = hint(last, keys_of(&parent).iter().copied());
    if parent.0.is_empty() {
        format!("unknown config key '{last}'{suggestion}")
    } else {
        format!("unknown config key '{last}' in [{parent}]{suggestion}")
    }
}

/// The file's warnings, in file order of their kind: unknown keys, then
/// `[inference]`'s.
pub(super) fn warnings(
    config: &Config,
    unknown: &[KeyPath],
    text: &str,
    file: &Path,
) -> Vec<ConfigWarning> {
    let warning = |path: KeyPath, message: String| ConfigWarning {
        file: file.to_path_buf(),
        line: path.offset_in(text).map(|at| position(text, at).0),
        key: path.to_string(),
        message,
    };
    let mut out: Vec<ConfigWarning> = unknown
        .iter()
        .map(|path| warning(path.clone(), unknown_key_message(path)))
        .collect();
    let inference = &config.inference;
    for (name, table) in inference.providers.iter() {
        let at = KeyPath::keys(&["inference", "providers", name]);
        if let Some(order) = &inference.order
            && !order.iter().any(|n| n.as_str() == name)
        {
            out.push(warning(
                at.clone(),
                format!(
                    "[inference.providers.{name}] is not in [inference].order, so it is never \
                     asked (add \"{name}\" to the order)"
                ),
            ));
        }
        if table.contains_key("api_key") {
            out.push(warning(
                at.key("api_key"),
                format!(
                    "`api_key` in [inference.providers.{name}] is never used: keys come from the \
                     environment only (name the variable with `api_key_env`)"
                ),
            ));
        }
    }
    out
}

/// Every name in `[inference].order` is `templates`, `rules` or a
/// provider table: a misspelt name would silently drop a tier.
pub(super) fn inference_order(config: &Config) -> Result<(), Problem> {
    let inference = &config.inference;
    let Some(order) = &inference.order else {
        return Ok(());
    };
    let tables: Vec<&str> = inference.providers.iter().map(|(k, _)| k).collect();
    for (i, name) in order.iter().enumerate() {
        if FIXED_TIERS.contains(&name.as_str()) || tables.contains(&name.as_str()) {
            continue;
        }
        let known = FIXED_TIERS.iter().copied().chain(tables.iter().copied());
        return Err(Problem {
            path: KeyPath::keys(&["inference", "order"]).index(i),
            message: format!(
                "'{name}' is not a tier: neither templates, rules nor an \
                 [inference.providers.{name}] table{}",
                hint(name, known)
            ),
        });
    }
    Ok(())
}
