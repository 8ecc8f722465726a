//! "Did you mean": the known key or name nearest a misspelt one, found by
//! edit distance; and the keys a table knows, read from its `Deserialize`
//! implementation so the list cannot drift from the structs.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// The known name nearest `wrong`, when near enough to be a typo: at most
/// a third of its length in edits (one at least, and fewer than its
/// length), as cargo suggests.
pub fn did_you_mean<'a>(wrong: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = wrong.chars().count();
    let limit = (len / 3).max(1);
    known
        .into_iter()
        .filter(|k| *k != wrong)
        .map(|k| (distance(wrong, k), k))
        // Replacing every character is no typo (`z` is not near `w`).
        .filter(|(d, _)| *d <= limit && *d < len)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// ` (did you mean 'x'?)`, or nothing.
pub fn hint<'a>(wrong: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(wrong, known)
        .map(|k| format!(" (did you mean '{k}'?)"))
        .unwrap_or_default()
}

/// Edit distance over characters, a swap of neighbours counting as one
/// edit (`nmae` is one from `name`).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    if let Some(first) = d.first_mut() {
        for (j, cell) in first.iter_mut().enumerate() {
            *cell = j;
        }
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The field names a struct's derived `Deserialize` asks for (empty for
/// anything that is not a plain struct).
pub fn fields_of<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    let seen = Cell::new(&[][..]);
    let _ = T::deserialize(Probe(&seen));
    seen.get()
}

/// A deserializer that only records the fields a struct asks for.
struct Probe<'a>(&'a Cell<&'static [&'static str]>);

/// The probe's only answer: stop.
#[derive(Debug)]
struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("probe")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: fmt::Display>(_: T) -> Stop {
        Stop
    }
}

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Stop> {
        self.0.set(fields);
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct S {
        command: String,
        args: Vec<String>,
    }

    #[test]
    fn near_names_only() {
        let known = ["command", "args", "url"];
        assert_eq!(did_you_mean("comand", known), Some("command"));
        assert_eq!(did_you_mean("arg", known), Some("args"));
        assert_eq!(did_you_mean("zzz", known), None);
        assert_eq!(did_you_mean("z", ["w", "d"]), None);
        assert_eq!(hint("comand", known), " (did you mean 'command'?)");
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("nmae", "name"), 1);
        assert_eq!(did_you_mean("typ", ["type", "name"]), Some("type"));
    }

    #[test]
    fn reads_a_structs_fields() {
        assert_eq!(fields_of::<S>(), ["command", "args"]);
        assert!(fields_of::<String>().is_empty());
    }
}
