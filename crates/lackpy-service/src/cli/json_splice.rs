//! Finding where an object's members sit in JSON text, so that a file can
//! be edited by inserting or replacing one member while every other byte
//! stays as its author wrote it.

/// One `"key": value` member of an object, by byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The decoded key.
    pub key: String,
    /// Where the value starts.
    pub value_start: usize,
    /// Just past the value's end.
    pub value_end: usize,
}

/// The members of the object whose `{` is at `open`, and the offset of its
/// closing `}`. The text must be valid JSON (checked by the caller).
pub fn members(text: &str, open: usize) -> Result<(Vec<Member>, usize), String> {
    let b = text.as_bytes();
    if b.get(open) != Some(&b'{') {
        return Err("expected an object".to_string());
    }
    let mut i = skip_ws(b, open + 1);
    let mut out = Vec::new();
    if b.get(i) == Some(&b'}') {
        return Ok((out, i));
    }
    loop {
        let key_end = skip_string(b, i)?;
        let key: String = serde_json::from_str(&text[i..key_end])
            .map_err(|e| format!("bad key at byte {i}: {e}"))?;
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return Err(format!("expected ':' at byte {i}"));
        }
        let value_start = skip_ws(b, i + 1);
        let value_end = skip_value(b, value_start)?;
        out.push(Member {
            key,
            value_start,
            value_end,
        });
        i = skip_ws(b, value_end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Ok((out, i)),
            _ => return Err(format!("expected ',' or '}}' at byte {i}")),
        }
    }
}

/// The offset of the first non-space byte at or after `i`.
pub fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

/// Past the string starting at `i`.
fn skip_string(b: &[u8], i: usize) -> Result<usize, String> {
    if b.get(i) != Some(&b'"') {
        return Err(format!("expected a string at byte {i}"));
    }
    let mut j = i + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'"' => return Ok(j + 1),
            _ => j += 1,
        }
    }
    Err("unterminated string".to_string())
}

/// Past the value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> Result<usize, String> {
    match b.get(i) {
        Some(b'"') => skip_string(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            Err("unterminated value".to_string())
        }
        Some(_) => {
            let mut j = i;
            while b
                .get(j)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
            {
                j += 1;
            }
            Ok(j)
        }
        None => Err("unexpected end".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_with_nesting_escapes_and_odd_spacing() {
        let text = r#" { "a" :1,"b\"}" : {"x": [1, "}"]} , "c": null }"#;
        let open = text.find('{').unwrap_or_default();
        let (m, close) = members(text, open).expect("members");
        let keys: Vec<&str> = m.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["a", "b\"}", "c"]);
        assert_eq!(
            &text[m[1].value_start..m[1].value_end],
            r#"{"x": [1, "}"]}"#
        );
        assert_eq!(&text[m[0].value_start..m[0].value_end], "1");
        assert_eq!(&text[close..], "}");
        assert_eq!(members("{}", 0).map(|(m, c)| (m.len(), c)), Ok((0, 1)));
    }
}
