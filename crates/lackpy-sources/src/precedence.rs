//! [`Precedence`]: which source holds a bare tool name.

use std::fmt;

use serde::{Serialize, Serializer};

/// How strongly a source claims its tool names; higher wins, and at equal
/// precedence the later-added source wins.
///
/// Ordering: every [`Precedence::Level`] is below [`Precedence::Direct`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Precedence {
    /// A finite level.
    Level(i64),
    /// Tools registered directly through the API: ∞, above every source.
    Direct,
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
    /// `max(1, 4 - index)`, so earlier files win.
    pub fn host_config(index: usize) -> Precedence {
        let i = i64::try_from(index).unwrap_or(i64::MAX);
        Precedence::Level(4i64.saturating_sub(i).max(1))
    }
}

impl fmt::Display for Precedence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Precedence::Level(n) => write!(f, "{n}"),
            Precedence::Direct => f.write_str("∞"),
        }
    }
}

impl Serialize for Precedence {
    /// A level is a number; direct registration is the string `"direct"`
    /// (JSON has no infinity).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Precedence::Level(n) => s.serialize_i64(*n),
            Precedence::Direct => s.serialize_str("direct"),
        }
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
        let levels: Vec<Precedence> = (0..6).map(Precedence::host_config).collect();
        let want = [4, 3, 2, 1, 1, 1].map(Precedence::Level);
        assert_eq!(levels, want);
        assert_eq!(Precedence::host_config(usize::MAX), Precedence::Level(1));
    }
}
