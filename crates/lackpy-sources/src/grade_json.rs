//! [`GradeJson`]: the JSON shape of a `lackpy_lang::Grade`, with its JSON
//! Schema. The grade itself derives no schema: `cargo xtask check-layers`
//! keeps schemars out of the pure crate's graph (rmcp turns on its `chrono`
//! feature, which reaches `futures-util`), so the shape is declared here and
//! held to the grade field by field when this compiles.

use lackpy_lang::Grade;
use schemars::JsonSchema;
use serde::Serialize;

/// A tool set's grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GradeJson {
    /// World coupling, 0..=3.
    pub w: u8,
    /// Effects ceiling, 0..=3.
    pub d: u8,
}

impl From<Grade> for GradeJson {
    /// Every field by name: a field added to `Grade` fails to compile here.
    fn from(Grade { w, d }: Grade) -> GradeJson {
        GradeJson { w, d }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_the_grade_writes() {
        let g = Grade::new(2, 1);
        assert_eq!(
            serde_json::to_value(GradeJson::from(g)).ok(),
            serde_json::to_value(g).ok()
        );
    }
}
