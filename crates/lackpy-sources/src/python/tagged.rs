//! The Python worker's wire encoding: JSON as lackpy-lang writes and reads
//! it (`json.dumps`' text, Python's `json.loads` on the other side), with
//! the values JSON has no form for tagged so they come back exactly:
//! tuples, sets and dicts whose keys are not all plain strings travel as
//! one-key objects (`{"$tuple": […]}`, `{"$set": […]}`,
//! `{"$dict": [[k, v], …]}`). `worker.py` holds the other half.

use lackpy_lang::Data;

/// `v` as tagged JSON text.
pub(crate) fn to_tagged(v: Data) -> String {
    tag(v).to_json()
}

/// Reads tagged JSON text back into the value it encodes.
pub(crate) fn parse_tagged(text: &str) -> Result<Data, String> {
    untag(Data::from_json(text)?)
}

// Plain loops rather than iterator adapters below: one small frame per
// level, so the deepest value a run can pass fits what is left of a 2 MiB
// thread's stack in a debug build.

/// The plain JSON value that stands for `v`: what JSON cannot tell apart
/// is wrapped in a tag.
fn tag(v: Data) -> Data {
    match v {
        Data::List(items) => Data::List(tag_all(items)),
        Data::Tuple(items) => tagged("$tuple", tag_all(items)),
        Data::Set(items) => tagged("$set", tag_all(items)),
        Data::Dict(pairs) if pairs.iter().all(|(k, _)| is_plain_key(k)) => {
            let mut out = Vec::with_capacity(pairs.len());
            for (k, v) in pairs {
                out.push((k, tag(v)));
            }
            Data::Dict(out)
        }
        Data::Dict(pairs) => {
            let mut out = Vec::with_capacity(pairs.len());
            for (k, v) in pairs {
                out.push(Data::List(vec![tag(k), tag(v)]));
            }
            tagged("$dict", out)
        }
        scalar => scalar,
    }
}

fn tag_all(items: Vec<Data>) -> Vec<Data> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(tag(item));
    }
    out
}

/// A key that travels as itself: a string that cannot be read as a tag.
fn is_plain_key(k: &Data) -> bool {
    matches!(k, Data::Str(s) if !s.starts_with('$'))
}

fn tagged(tag: &str, items: Vec<Data>) -> Data {
    Data::Dict(vec![(Data::Str(tag.to_string()), Data::List(items))])
}

/// The value a plain JSON value stands for (the reverse of [`tag`]).
fn untag(v: Data) -> Result<Data, String> {
    match v {
        Data::List(items) => Ok(Data::List(untag_all(items)?)),
        Data::Dict(pairs) => untag_dict(pairs),
        scalar => Ok(scalar),
    }
}

fn untag_dict(mut pairs: Vec<(Data, Data)>) -> Result<Data, String> {
    let tag = match pairs.as_slice() {
        [(Data::Str(t), _)] if matches!(t.as_str(), "$tuple" | "$set" | "$dict") => t.clone(),
        _ => {
            let mut out = Vec::with_capacity(pairs.len());
            for (k, v) in pairs {
                out.push((k, untag(v)?));
            }
            return Ok(Data::Dict(out));
        }
    };
    let Some((_, Data::List(items))) = pairs.pop() else {
        return Err("a tagged value must hold a list".to_string());
    };
    let items = untag_all(items)?;
    Ok(match tag.as_str() {
        "$tuple" => Data::Tuple(items),
        "$set" => Data::Set(items),
        _ => {
            let mut out = Vec::with_capacity(items.len());
            for pair in items {
                let Data::List(kv) = pair else {
                    return Err(NOT_PAIRS.to_string());
                };
                let Ok([k, v]) = <[Data; 2]>::try_from(kv) else {
                    return Err(NOT_PAIRS.to_string());
                };
                out.push((k, v));
            }
            Data::Dict(out)
        }
    })
}

const NOT_PAIRS: &str = "a tagged dict must hold [key, value] pairs";

fn untag_all(items: Vec<Data>) -> Result<Vec<Data>, String> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(untag(item)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Data {
        Data::Str(x.to_string())
    }

    #[test]
    fn tagged_round_trips_exactly() {
        let v = Data::List(vec![
            Data::Tuple(vec![Data::Int(1.into())]),
            Data::Set(vec![s("a")]),
            Data::Dict(vec![(Data::Int(2.into()), s("two"))]),
            Data::Dict(vec![(s("$tuple"), s("not a tag"))]),
            Data::Dict(vec![(s("plain"), Data::List(vec![]))]),
            Data::Dict(vec![(
                Data::Tuple(vec![Data::Int(1.into())]),
                Data::Tuple(vec![]),
            )]),
            Data::Float(f64::INFINITY),
            s("é\u{1}"),
        ]);
        assert_eq!(parse_tagged(&to_tagged(v.clone())), Ok(v));
    }

    #[test]
    fn the_text_is_json_dumps_text_with_tags() {
        let v = Data::Dict(vec![
            (s("t"), Data::Tuple(vec![Data::Int(1.into()), s("é")])),
            (s("n"), Data::Float(f64::NAN)),
        ]);
        assert_eq!(
            to_tagged(v),
            r#"{"t": {"$tuple": [1, "\u00e9"]}, "n": NaN}"#
        );
    }

    #[test]
    fn the_deepest_value_fits_a_small_stack() {
        // Nested tuples double in depth once tagged: 450 of them are 900
        // levels of JSON, near what a run can pass and the reader takes.
        let mut v = Data::Int(0.into());
        for _ in 0..450 {
            v = Data::Tuple(vec![v]);
        }
        let want = v.clone();
        let back = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || parse_tagged(&to_tagged(v)))
            .expect("thread")
            .join()
            .expect("no overflow");
        assert_eq!(back, Ok(want));
    }

    #[test]
    fn broken_tags_are_errors() {
        assert!(parse_tagged(r#"{"$tuple": 3}"#).is_err());
        assert!(parse_tagged(r#"{"$dict": [[1]]}"#).is_err());
        assert!(parse_tagged("[1,]").is_err());
        // Two keys: a plain dict that happens to use the names.
        assert_eq!(
            parse_tagged(r#"{"$tuple": [], "x": 1}"#),
            Ok(Data::Dict(vec![
                (s("$tuple"), Data::List(vec![])),
                (s("x"), Data::Int(1.into()))
            ]))
        );
    }
}
