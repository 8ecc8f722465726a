//! The admin listener (`--admin ADDR`): a second port serving only
//! `/healthz`, `/readyz` and `/metrics`, without MCP and without the
//! bearer token, so probes and scraping stay off the MCP port (and an
//! stdio server can be probed and scraped too).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http::{Request, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use super::health::{self, Draining};
use super::response::{HttpResponse, plain};
use super::scrape::Scrape;

/// Connections the admin port holds open at once (probes and scrapers
/// are few; the rest wait in the kernel's backlog).
const MAX_CONNECTIONS: usize = 64;
/// How long a request's headers may take.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// A bound admin port, not yet serving.
pub(crate) struct Admin {
    listener: TcpListener,
}

impl Admin {
    /// Binds `addr`; an error is one line for stderr.
    pub(crate) async fn bind(addr: SocketAddr) -> Result<Admin, String> {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr} (--admin): {e}"))?;
        Ok(Admin { listener })
    }

    /// Serves the probes and the metrics until `stop` is cancelled.
    pub(crate) fn serve(self, draining: Draining, scrape: Scrape, stop: CancellationToken) {
        if let Ok(local) = self.listener.local_addr() {
            eprintln!(
                "lackpy mcp serve: admin endpoints on http://{local} (/healthz, /readyz, /metrics)"
            );
        }
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        tokio::spawn(async move {
            loop {
                let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
                    return;
                };
                let accepted = tokio::select! {
                    a = self.listener.accept() => a,
                    () = stop.cancelled() => return,
                };
                let Ok((stream, _)) = accepted else {
                    // A failed accept (descriptors short): wait a little.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let (draining, scrape, stop) = (draining.clone(), scrape.clone(), stop.clone());
                tokio::spawn(async move {
                    let svc = hyper::service::service_fn(move |req| {
                        let (draining, scrape) = (draining.clone(), scrape.clone());
                        async move {
                            Ok::<_, std::convert::Infallible>(answer(req, &draining, &scrape).await)
                        }
                    });
                    let served = hyper::server::conn::http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(HEADER_TIMEOUT)
                        .serve_connection(TokioIo::new(stream), svc);
                    tokio::select! {
                        _ = served => {}
                        () = stop.cancelled() => {}
                    }
                    drop(slot);
                });
            }
        });
    }
}

async fn answer<B>(req: Request<B>, draining: &Draining, scrape: &Scrape) -> HttpResponse {
    if let Some(probe) = health::answer(&req, draining) {
        return probe;
    }
    if Scrape::wants(&req) {
        return scrape.answer(req.method().clone()).await;
    }
    plain(
        StatusCode::NOT_FOUND,
        "Not Found: the admin port serves /healthz, /readyz and /metrics",
    )
}
