//! Lone surrogates (language.md, "Strings"): a surrogate escape in a
//! program is a syntax error instead of a silent U+FFFD; surrogates in data
//! read from JSON (params, tool results) become U+FFFD, pairs combine.

use lackpy_lang::Data;
use lackpy_lang::parse;

fn parse_error(src: &str) -> String {
    match parse(src) {
        Ok(_) => format!("{src}: parsed"),
        Err(e) => format!("{src}\n  {e}"),
    }
}

#[test]
fn surrogate_escapes_in_a_program_are_refused() {
    let cases = [
        r"s = '\ud800'",
        r"s = 'ab\udfff'",
        r"s = '\U0000d800'",
        r"s = '\ud83d\ude00'",
        r"s = f'{1}\udc00'",
    ];
    let text: Vec<String> = cases.iter().map(|c| parse_error(c)).collect();
    insta::assert_snapshot!(text.join("\n"));
}

#[test]
fn escapes_around_the_surrogates_still_work() {
    for ok in [
        r"s = '\ud7ff'",
        r"s = '\ue000'",
        r"s = '\U0001F600'",
        r"s = '\N{GRINNING FACE}'",
        r"s = r'\ud800'",
        r"s = b'\ud800'",
    ] {
        assert!(parse(ok).is_ok(), "{ok}");
    }
}

#[test]
fn surrogates_in_json_data_become_replacement_characters() {
    let lone = Data::from_json(r#""a\ud800b""#).expect("valid JSON");
    assert_eq!(lone, Data::Str("a\u{fffd}b".to_owned()));
    let pair = Data::from_json(r#""\ud83d\ude00""#).expect("valid JSON");
    assert_eq!(pair, Data::Str("\u{1f600}".to_owned()));
}
