//! The one response type every HTTP answer of the server has, and the
//! plain-text answer the guard's refusals use.

use std::convert::Infallible;

use bytes::Bytes;
use http::{Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};

/// The response type of rmcp's HTTP service (and of this guard).
pub(crate) type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

/// A plain-text answer.
pub(crate) fn plain(status: StatusCode, text: &str) -> HttpResponse {
    let mut r = Response::new(Full::new(Bytes::from(text.to_string())).boxed());
    *r.status_mut() = status;
    r
}
