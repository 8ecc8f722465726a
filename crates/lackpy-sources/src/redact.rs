//! [`redact_urls`]: the one place a URL's secrets leave a text that is
//! shown (status, logs, error messages).

use std::borrow::Cow;

/// What replaces a secret.
pub const REDACTED: &str = "<redacted>";

/// `text` with every URL's userinfo (`user:pw@`) and every query value
/// (`?key=…&b=…`, a bare `?token` too) replaced by `<redacted>`; the
/// scheme, host, port, path, query keys and fragment are kept. A URL is
/// `scheme://` up to a blank, a quote, `<`, `>`, `` ` ``, `)`, `]` or `}`
/// (trailing `.`, `,`, `;` and `:` are not part of it). Applying it twice
/// changes nothing more.
pub fn redact_urls(text: &str) -> Cow<'_, str> {
    if !text.contains("://") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let after = at + 3;
        let end = rest[after..]
            .find(|c: char| {
                c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`' | ')' | ']' | '}')
            })
            .map_or(rest.len(), |p| after + p);
        let url_end = after
            + rest[after..end]
                .trim_end_matches(['.', ',', ';', ':'])
                .len();
        out.push_str(&rest[..after]);
        redact_one(&rest[after..url_end], &mut out);
        rest = &rest[url_end..];
    }
    out.push_str(rest);
    if out == text {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(out)
    }
}

/// One URL after its `scheme://`.
fn redact_one(url: &str, out: &mut String) {
    let authority_end = url.find(['/', '?', '#']).unwrap_or(url.len());
    let (authority, tail) = url.split_at(authority_end);
    match authority.rfind('@') {
        Some(at) => {
            out.push_str(REDACTED);
            out.push_str(&authority[at..]);
        }
        None => out.push_str(authority),
    }
    let Some(q) = tail.find('?') else {
        out.push_str(tail);
        return;
    };
    out.push_str(&tail[..=q]);
    let query_and_fragment = &tail[q + 1..];
    let (query, fragment) = match query_and_fragment.find('#') {
        Some(h) => query_and_fragment.split_at(h),
        None => (query_and_fragment, ""),
    };
    for (i, pair) in query.split('&').enumerate() {
        if i > 0 {
            out.push('&');
        }
        match pair.split_once('=') {
            Some((key, value)) if !value.is_empty() => {
                out.push_str(key);
                out.push('=');
                out.push_str(REDACTED);
            }
            Some(_) => out.push_str(pair),
            None if pair.is_empty() => {}
            None => out.push_str(REDACTED),
        }
    }
    out.push_str(fragment);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_and_query_values_go_the_rest_stays() {
        for (text, want) in [
            (
                "the handshake with http://user:pw@127.0.0.1:9/mcp?key=SECRET&x=1 failed",
                "the handshake with http://<redacted>@127.0.0.1:9/mcp?key=<redacted>&x=<redacted> failed",
            ),
            (
                "error sending request for url (https://h/v1?token#frag), when",
                "error sending request for url (https://h/v1?<redacted>#frag), when",
            ),
            ("url: \"http://a@b\".", "url: \"http://<redacted>@b\"."),
            ("http://h/p?k=", "http://h/p?k="),
            ("no url here: a://", "no url here: a://"),
            ("http://host:8080/plain.", "http://host:8080/plain."),
        ] {
            let once = redact_urls(text);
            assert_eq!(once, want, "{text}");
            assert_eq!(redact_urls(&once), want, "twice: {text}");
        }
    }
}
