//! Grades: how strongly a tool set couples a program to the world.

use serde::{Deserialize, Serialize};

/// A tool's or a tool set's grade.
///
/// `w` is world coupling (0 pure, 1 pinhole read, 2 scoped exec, 3 scoped
/// write); `d` is the effects ceiling, 0 to 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Grade {
    /// World coupling, 0..=3.
    pub w: u8,
    /// Effects ceiling, 0..=3.
    pub d: u8,
}

impl Grade {
    /// The grade of a tool that declares none: the worst case, (3, 3).
    pub const UNKNOWN: Grade = Grade { w: 3, d: 3 };
    /// The grade of an empty tool set: (0, 0).
    pub const PURE: Grade = Grade { w: 0, d: 0 };

    /// A grade from its two components.
    pub const fn new(w: u8, d: u8) -> Grade {
        Grade { w, d }
    }

    /// The component-wise maximum of two grades.
    pub fn join(self, other: Grade) -> Grade {
        Grade {
            w: self.w.max(other.w),
            d: self.d.max(other.d),
        }
    }
}

impl Default for Grade {
    /// A tool without a grade is the worst case.
    fn default() -> Grade {
        Grade::UNKNOWN
    }
}

/// The grade of a tool set: the component-wise maximum; (0, 0) when empty.
pub fn compute_grade<I: IntoIterator<Item = Grade>>(grades: I) -> Grade {
    grades.into_iter().fold(Grade::PURE, Grade::join)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_set_is_pure() {
        assert_eq!(compute_grade([]), Grade::new(0, 0));
    }

    #[test]
    fn set_is_componentwise_max() {
        let g = compute_grade([Grade::new(1, 3), Grade::new(3, 0), Grade::new(2, 2)]);
        assert_eq!(g, Grade::new(3, 3));
        assert_eq!(compute_grade([Grade::new(1, 1)]), Grade::new(1, 1));
    }

    #[test]
    fn missing_grade_is_worst_case() {
        assert_eq!(Grade::default(), Grade::new(3, 3));
    }
}
