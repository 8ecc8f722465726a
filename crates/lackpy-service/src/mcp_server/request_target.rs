//! What a request names before anything else is looked at: only the
//! served path (`/mcp`) exists, and the host it is for must be one and
//! unambiguous (a second `Host`, or an absolute-form target naming another
//! host than `Host`, could let a proxy and this server disagree on which
//! host the Host/Origin check saw).

use http::{Request, StatusCode, header};

use super::response::{HttpResponse, plain};

/// The one path served.
pub(crate) const MCP_PATH: &str = "/mcp";

/// `Err` with the answer (404, 400) when `req` is not for [`MCP_PATH`] on
/// one host.
pub(crate) fn check<B>(req: &Request<B>) -> Result<(), Box<HttpResponse>> {
    if req.uri().path() != MCP_PATH {
        return Err(Box::new(plain(
            StatusCode::NOT_FOUND,
            "Not Found: lackpy serves MCP at /mcp only",
        )));
    }
    let mut hosts = req.headers().get_all(header::HOST).iter();
    let host = hosts.next();
    if hosts.next().is_some() {
        return Err(Box::new(plain(
            StatusCode::BAD_REQUEST,
            "Bad Request: more than one Host header",
        )));
    }
    if let Some(target) = req.uri().authority() {
        let same = host
            .and_then(|h| h.to_str().ok())
            .is_some_and(|h| h.trim().eq_ignore_ascii_case(target.as_str()));
        if !same {
            return Err(Box::new(plain(
                StatusCode::BAD_REQUEST,
                "Bad Request: the request target names another host than the Host header",
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(uri: &str, hosts: &[&str]) -> u16 {
        let mut b = Request::builder().uri(uri);
        for h in hosts {
            b = b.header(header::HOST, *h);
        }
        let req = b.body(()).unwrap_or_default();
        check(&req).err().map_or(200, |r| r.status().as_u16())
    }

    #[test]
    fn only_mcp_on_one_host_passes() {
        assert_eq!(status("/mcp", &["localhost:1"]), 200);
        assert_eq!(status("/mcp?x=1", &["localhost:1"]), 200);
        assert_eq!(status("/", &["localhost:1"]), 404);
        assert_eq!(status("/mcp/", &["localhost:1"]), 404);
        assert_eq!(status("/other", &["localhost:1"]), 404);
        assert_eq!(status("/mcp", &["localhost:1", "evil.example"]), 400);
        assert_eq!(status("http://localhost:1/mcp", &["localhost:1"]), 200);
        assert_eq!(status("http://evil.example/mcp", &["localhost:1"]), 400);
        assert_eq!(status("http://localhost:1/mcp", &[]), 400);
    }
}
