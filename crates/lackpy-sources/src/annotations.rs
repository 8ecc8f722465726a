//! Grades from MCP tool annotations: untrusted hints, so anything missing
//! means the worst case, and a config override always wins.

use lackpy_lang::Grade;

use crate::config::GradeOverride;

/// The MCP hints that bear on a grade; `None` when the server did not say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolAnnotations {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

impl ToolAnnotations {
    /// Reads an MCP `annotations` object; hints that are absent or not
    /// booleans count as absent.
    pub fn from_json(v: &serde_json::Value) -> ToolAnnotations {
        let hint = |k: &str| v.get(k).and_then(serde_json::Value::as_bool);
        ToolAnnotations {
            read_only: hint("readOnlyHint"),
            destructive: hint("destructiveHint"),
            idempotent: hint("idempotentHint"),
            open_world: hint("openWorldHint"),
        }
    }
}

/// The grade the annotations justify:
///
/// | annotations | (w, d) |
/// |---|---|
/// | read-only, closed world | (1, 0) |
/// | read-only, open world | (2, 1) |
/// | writes, idempotent, not destructive | (3, 2) |
/// | writes, otherwise | (3, 3) |
/// | a hint the row needs is absent | (3, 3) |
pub fn grade_from_annotations(a: Option<&ToolAnnotations>) -> Grade {
    let Some(a) = a else {
        return Grade::UNKNOWN;
    };
    match (a.read_only, a.open_world, a.idempotent, a.destructive) {
        (Some(true), Some(false), _, _) => Grade::new(1, 0),
        (Some(true), Some(true), _, _) => Grade::new(2, 1),
        (Some(false), _, Some(true), Some(false)) => Grade::new(3, 2),
        _ => Grade::UNKNOWN,
    }
}

/// `derived` with a config override applied; a partial override keeps the
/// derived value for the component it leaves out.
pub fn apply_grade_override(derived: Grade, over: Option<&GradeOverride>) -> Grade {
    match over {
        None => derived,
        Some(o) => Grade::new(
            o.w.map_or(derived.w, |l| l.0),
            o.d.map_or(derived.d, |l| l.0),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Level;

    fn g(
        read_only: Option<bool>,
        open: Option<bool>,
        idem: Option<bool>,
        destr: Option<bool>,
    ) -> Grade {
        grade_from_annotations(Some(&ToolAnnotations {
            read_only,
            destructive: destr,
            idempotent: idem,
            open_world: open,
        }))
    }

    #[test]
    fn the_table() {
        let (t, f, n) = (Some(true), Some(false), None);
        assert_eq!(g(t, f, n, n), Grade::new(1, 0));
        assert_eq!(g(t, t, n, n), Grade::new(2, 1));
        assert_eq!(g(t, n, t, f), Grade::new(3, 3), "open-world hint missing");
        assert_eq!(g(f, n, t, f), Grade::new(3, 2));
        assert_eq!(g(f, t, t, f), Grade::new(3, 2));
        assert_eq!(g(f, n, t, t), Grade::new(3, 3));
        assert_eq!(g(f, n, f, f), Grade::new(3, 3));
        assert_eq!(g(f, n, n, f), Grade::new(3, 3), "idempotent hint missing");
        assert_eq!(g(f, n, t, n), Grade::new(3, 3), "destructive hint missing");
        assert_eq!(g(n, f, t, f), Grade::new(3, 3), "read-only hint missing");
        assert_eq!(grade_from_annotations(None), Grade::new(3, 3));
    }

    #[test]
    fn from_json_ignores_non_booleans() {
        let a = ToolAnnotations::from_json(&serde_json::json!({
            "readOnlyHint": true, "openWorldHint": "no", "title": "x"
        }));
        assert_eq!(a.read_only, Some(true));
        assert_eq!(a.open_world, None);
        assert_eq!(grade_from_annotations(Some(&a)), Grade::new(3, 3));
    }

    #[test]
    fn overrides_win_and_partial_ones_fill_in() {
        let derived = Grade::new(2, 1);
        assert_eq!(apply_grade_override(derived, None), derived);
        let full = GradeOverride {
            w: Some(Level(1)),
            d: Some(Level(0)),
        };
        assert_eq!(apply_grade_override(derived, Some(&full)), Grade::new(1, 0));
        let only_w = GradeOverride {
            w: Some(Level(3)),
            d: None,
        };
        assert_eq!(
            apply_grade_override(derived, Some(&only_w)),
            Grade::new(3, 1)
        );
        let only_d = GradeOverride {
            w: None,
            d: Some(Level(0)),
        };
        assert_eq!(
            apply_grade_override(derived, Some(&only_d)),
            Grade::new(2, 0)
        );
    }
}
