//! `lackpy -v`'s log lines: the message a person reads, with no level for
//! progress and no module path (`-vv` keeps the full format).

use std::fmt;

use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// The crates whose progress `-v` shows; others (the MCP SDK, hyper) only
/// warn unless `-vv` or `RUST_LOG`.
const OURS: &[&str] = &[
    "lackpy",
    "lackpy_service",
    "lackpy_mcp_client",
    "lackpy_sources",
    "lackpy_bridge",
    "lackpy_lang",
];

/// The filter for `-v` (1) or `-vv` (2 and more).
pub fn filter_for(verbose: u8) -> String {
    let (others, ours) = if verbose >= 2 {
        ("info", "debug")
    } else {
        ("warn", "info")
    };
    let mut f = others.to_string();
    for c in OURS {
        f.push_str(&format!(",{c}={ours}"));
    }
    f
}

/// Info lines as bare messages, others prefixed by their level.
pub struct Human;

impl<S, N> FormatEvent<S, N> for Human
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        match *event.metadata().level() {
            Level::INFO => {}
            level => write!(writer, "{level:>5} ")?,
        }
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters() {
        assert!(filter_for(1).starts_with("warn,lackpy=info,"));
        assert!(filter_for(2).starts_with("info,lackpy=debug,"));
        assert_eq!(filter_for(3), filter_for(2));
    }
}
