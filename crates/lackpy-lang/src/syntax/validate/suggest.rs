//! "Did you mean": the closest candidate by CPython's edit distance
//! (`Python/suggestions.c`: a case change costs 1, any other edit 2, and
//! a suggestion is made only within `(len(a) + len(b) + 3) // 3` of it).

const MOVE_COST: usize = 2;
const CASE_COST: usize = 1;

/// The cost of substituting `a` for `b`.
fn substitution_cost(a: char, b: char) -> usize {
    if a == b {
        0
    } else if a.eq_ignore_ascii_case(&b) {
        CASE_COST
    } else {
        MOVE_COST
    }
}

/// CPython's `levenshtein_distance`, giving up past `max_cost`.
fn distance(a: &str, b: &str, max_cost: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) * MOVE_COST > max_cost {
        return max_cost + 1;
    }
    let mut row: Vec<usize> = (0..=b.len()).map(|j| j * MOVE_COST).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = (i + 1) * MOVE_COST;
        let mut best = row[0];
        for (j, &cb) in b.iter().enumerate() {
            let up = row[j + 1];
            let v = (diag + substitution_cost(ca, cb))
                .min(up + MOVE_COST)
                .min(row[j] + MOVE_COST);
            diag = up;
            row[j + 1] = v;
            best = best.min(v);
        }
        if best > max_cost {
            return max_cost + 1;
        }
    }
    row[b.len()]
}

/// The candidate closest to `name`, if one is close enough.
pub(crate) fn suggest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let max_cost = (name.chars().count() + c.chars().count() + 3) * MOVE_COST / 6;
        let limit = best.map_or(max_cost, |(d, _)| max_cost.min(d.saturating_sub(1)));
        let d = distance(name, c, limit);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::suggest;

    #[test]
    fn suggests_like_cpython() {
        let tools = ["find_files", "read_file", "write_file"];
        assert_eq!(suggest("find_file", tools), Some("find_files"));
        assert_eq!(suggest("readfile", tools), Some("read_file"));
        assert_eq!(suggest("zzz", tools), None);
        assert_eq!(suggest("Len", ["len", "min"]), Some("len"));
    }
}
