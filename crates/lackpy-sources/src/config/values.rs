//! Value shapes that several sections share, read with checks serde's
//! plain types lack.

use std::fmt;

use lackpy_lang::Grade;
use serde::Deserialize;
use serde::de::{self, Deserializer, Unexpected, Visitor};

use super::schema::Level;

/// A whole grade: both components, nothing else (a half-written ceiling
/// must not pass as a looser one).
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a grade table with both `w` and `d`, each from 0 to 3"
)]
struct GradeTable {
    w: Level,
    d: Level,
}

/// `{ w = …, d = … }` as a grade.
pub(super) fn grade<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Grade>, D::Error> {
    let t = GradeTable::deserialize(d)?;
    Ok(Some(Grade::new(t.w.0, t.d.0)))
}

/// A count where 0 would mean "never" and is surely a slip.
pub(super) fn positive<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match u64::deserialize(d)? {
        0 => Err(de::Error::invalid_value(
            Unexpected::Unsigned(0),
            &"a number above 0",
        )),
        n => Ok(Some(n)),
    }
}

/// A validation rule's name (`no_loops`, `max_calls:5`): kept as written
/// once `lackpy_lang` understands it. Checked in the visitor, so the
/// error carries the item's own span, not its array's.
struct RuleName(String);

impl<'de> Deserialize<'de> for RuleName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RuleName, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RuleName;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a rule name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RuleName, E> {
                match v.parse::<lackpy_lang::Rule>() {
                    Ok(_) => Ok(RuleName(v.to_string())),
                    Err(e) => Err(E::custom(e)),
                }
            }
        }
        d.deserialize_str(V)
    }
}

/// A list of rule names, each checked as it is read so an error points at it.
pub(super) fn rule_names<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let names = Vec::<RuleName>::deserialize(d)?;
    Ok(names.into_iter().map(|r| r.0).collect())
}
