//! [`Precedence`]: which source holds a bare tool name.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Serialize, Serializer};

/// How strongly a source claims its tool names; higher wins, and at equal
/// precedence the later-added source wins.
///
/// Ordering: every [`Precedence::Level`] is below [`Precedence::Direct`];
/// host config files at the same level are ordered by their position, the
/// earlier file above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precedence {
    /// A finite level.
    Level(i64),
    /// A host config file's level and its 0-based position in
    /// `[mcp].host_configs`: at the same level an earlier file is higher.
    /// Shown (and serialised) as its level.
    HostFile {
        /// The level.
        level: i64,
        /// The file's position.
        file: usize,
    },
    /// Tools registered directly through the API: ∞, above every source.
    Direct,
}

impl Precedence {
    /// What orders precedences: direct first; then the level; then, among
    /// host files, the earlier file.
    fn key(&self) -> (u8, i64, std::cmp::Reverse<usize>) {
        use std::cmp::Reverse;
        match *self {
            Precedence::Level(n) => (0, n, Reverse(0)),
            Precedence::HostFile { level, file } => (0, level, Reverse(file)),
            Precedence::Direct => (1, 0, Reverse(0)),
        }
    }

    /// The level shown: a number, `None` for direct registration.
    pub fn level(&self) -> Option<i64> {
        match *self {
            Precedence::Level(n) | Precedence::HostFile { level: n, .. } => Some(n),
            Precedence::Direct => None,
        }
    }
}

impl PartialOrd for Precedence {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Precedence {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl Precedence {
    /// User config `[[tools]]`.
    pub const USER_CONFIG: Precedence = Precedence::Level(20);
    /// Shipped defaults (`default_tools.toml`).
    pub const DEFAULTS: Precedence = Precedence::Level(10);
    /// `[[virtual_tools]]`.
    pub const VIRTUAL: Precedence = Precedence::Level(7);
    /// Own `[mcp_servers.<id>]`.
    pub const MCP: Precedence = Precedence::Level(5);

    /// Host config file `index` (0-based, in `[mcp].host_configs` order):
    /// level `max(1, 4 - index)`, and among files at level 1 the earlier
    /// one is higher, so an earlier file always wins.
    pub fn host_config(index: usize) -> Precedence {
        let i = i64::try_from(index).unwrap_or(i64::MAX);
        Precedence::HostFile {
            level: 4i64.saturating_sub(i).max(1),
            file: index,
        }
    }
}

impl fmt::Display for Precedence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Precedence::Level(n) | Precedence::HostFile { level: n, .. } => write!(f, "{n}"),
            Precedence::Direct => f.write_str("∞"),
        }
    }
}

impl Serialize for Precedence {
    /// A level is a number; direct registration is the string `"direct"`
    /// (JSON has no infinity).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Precedence::Level(n) | Precedence::HostFile { level: n, .. } => s.serialize_i64(*n),
            Precedence::Direct => s.serialize_str("direct"),
        }
    }
}

/// What [`Precedence`]'s `Serialize` writes: an integer, or `"direct"`.
impl JsonSchema for Precedence {
    fn schema_name() -> Cow<'static, str> {
        "Precedence".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "The source's precedence level; \"direct\" for a tool registered \
                            through the API (above every level).",
            "anyOf": [
                {"type": "integer", "format": "int64"},
                {"type": "string", "const": "direct"}
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_holds() {
        let order = [
            Precedence::Direct,
            Precedence::USER_CONFIG,
            Precedence::DEFAULTS,
            Precedence::VIRTUAL,
            Precedence::MCP,
            Precedence::host_config(0),
        ];
        assert!(order.windows(2).all(|w| w[0] > w[1]));
    }

    #[test]
    fn host_configs_descend_to_one() {
        let levels: Vec<Option<i64>> = (0..6).map(|i| Precedence::host_config(i).level()).collect();
        assert_eq!(levels, [4, 3, 2, 1, 1, 1].map(Some));
        assert_eq!(Precedence::host_config(usize::MAX).level(), Some(1));
        // Earlier files are higher, past the fourth too.
        let order: Vec<Precedence> = (0..6).map(Precedence::host_config).collect();
        assert!(order.windows(2).all(|w| w[0] > w[1]), "{order:?}");
        assert!(Precedence::host_config(5) < Precedence::MCP);
    }
}
