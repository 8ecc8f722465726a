//! Taking HTTP connections: at most a fixed number open at once, below the
//! open-file limit (a connection is a descriptor, and runs need theirs for
//! tool processes and files), and an `accept` that fails for want of
//! descriptors waits, doubling from 10 ms to 1 s, instead of retrying at
//! once (which spins a core while the table stays full).
//!
//! A connection that arrives while every place is taken closes the oldest
//! connection that has not yet sent a complete request head (a slow or
//! idle client holding its place), so that clients sending half a head
//! cannot keep out one that sends a whole request; when every connection
//! has sent one, the newcomer waits for a place.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Descriptors kept for everything but connections, at the least.
const FD_RESERVE: u64 = 64;
/// The default connection cap when the open-file limit is higher.
pub(crate) const DEFAULT_MAX_CONNECTIONS: usize = 4096;
/// The first wait after a descriptor shortage.
const BACKOFF_FIRST: Duration = Duration::from_millis(10);
/// The longest wait.
const BACKOFF_MAX: Duration = Duration::from_secs(1);

/// The ceiling the open-file limit `nofile` allows: it less a quarter (at
/// least [`FD_RESERVE`]), and at least 8.
fn ceiling(nofile: u64) -> usize {
    let reserve = (nofile / 4).max(FD_RESERVE);
    usize::try_from(nofile.saturating_sub(reserve))
        .unwrap_or(usize::MAX)
        .max(8)
}

/// The connection cap: `configured` (or the default), never above what
/// the process's soft open-file limit allows.
pub(crate) fn connection_cap(configured: Option<usize>) -> usize {
    let nofile = nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
        .map(|(soft, _)| soft)
        .unwrap_or(1024);
    configured
        .unwrap_or(DEFAULT_MAX_CONNECTIONS)
        .clamp(1, ceiling(nofile))
}

/// Accepts connections up to a cap.
pub(crate) struct Listener {
    listener: TcpListener,
    slots: Arc<Semaphore>,
    /// The cap: every slot is free again once every connection is over.
    cap: u32,
    backoff: Duration,
    headless: Arc<Headless>,
}

/// The connections a closed [`Listener`] had taken, to wait for.
pub(crate) struct OpenConnections {
    slots: Arc<Semaphore>,
    cap: u32,
}

impl OpenConnections {
    /// Waits until every connection is over, or `within` has passed.
    pub(crate) async fn closed(self, within: Duration) {
        let all = self.slots.acquire_many_owned(self.cap);
        let _ = tokio::time::timeout(within, all).await;
    }
}

/// Open connections that have not sent a complete request head yet, in
/// the order they were accepted, each with the token that closes it.
#[derive(Default)]
struct Headless {
    next: AtomicU64,
    open: Mutex<BTreeMap<u64, CancellationToken>>,
}

impl Headless {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, CancellationToken>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Closes the oldest; `false` when there is none.
    fn shed_oldest(&self) -> bool {
        let oldest = self.lock().pop_first();
        match oldest {
            Some((_, close)) => {
                close.cancel();
                true
            }
            None => false,
        }
    }
}

/// An open connection; dropping its slot (the connection is over) lets
/// another in.
pub(crate) struct Accepted {
    /// The connection.
    pub(crate) stream: TcpStream,
    /// Its place under the cap.
    pub(crate) slot: OwnedSemaphorePermit,
    /// Its entry among connections without a head yet.
    pub(crate) conn: Conn,
}

/// A connection's entry: [`Conn::headed`] once it sent a request head;
/// [`Conn::shed`] is cancelled when a newcomer needs its place first.
pub(crate) struct Conn {
    id: u64,
    headless: Arc<Headless>,
    /// Cancelled when the connection must close to make room.
    pub(crate) shed: CancellationToken,
}

impl Conn {
    /// The connection sent a complete request head: no longer shed first.
    pub(crate) fn headed(&self) {
        self.headless.lock().remove(&self.id);
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.headed();
    }
}

impl Listener {
    /// Takes connections from `listener`, at most `cap` at once.
    pub(crate) fn new(listener: TcpListener, cap: usize) -> Listener {
        // `u32`, as a wait for every slot at once takes its count so.
        let cap = u32::try_from(cap.clamp(1, Semaphore::MAX_PERMITS)).unwrap_or(u32::MAX);
        Listener {
            listener,
            slots: Arc::new(Semaphore::new(cap as usize)),
            cap,
            backoff: Duration::ZERO,
            headless: Arc::default(),
        }
    }

    /// Takes no more connections (the socket is closed); the ones taken
    /// can still be waited for.
    pub(crate) fn close(self) -> OpenConnections {
        OpenConnections {
            slots: self.slots,
            cap: self.cap,
        }
    }

    /// The next connection with a place under the cap (one descriptor past
    /// it at most, while a newcomer waits for its place). Cancel-safe.
    pub(crate) async fn accept(&mut self) -> Accepted {
        loop {
            let stream = match self.listener.accept().await {
                Ok((stream, _)) => {
                    self.backoff = Duration::ZERO;
                    stream
                }
                Err(e) => {
                    if let Some(wait) = self.after_error(&e) {
                        tokio::time::sleep(wait).await;
                    }
                    continue;
                }
            };
            let slot = match Arc::clone(&self.slots).try_acquire_owned() {
                Ok(slot) => slot,
                Err(_) => {
                    if self.headless.shed_oldest() {
                        tracing::debug!(
                            "connection limit reached: closed the oldest without a request"
                        );
                    }
                    // The semaphore is never closed.
                    let Ok(slot) = Arc::clone(&self.slots).acquire_owned().await else {
                        continue;
                    };
                    slot
                }
            };
            let id = self.headless.next.fetch_add(1, Ordering::Relaxed);
            let shed = CancellationToken::new();
            self.headless.lock().insert(id, shed.clone());
            let conn = Conn {
                id,
                headless: Arc::clone(&self.headless),
                shed,
            };
            return Accepted { stream, slot, conn };
        }
    }

    /// The wait after a failed `accept`: a growing one when descriptors
    /// or memory ran out, none for a connection that failed on its own.
    fn after_error(&mut self, e: &io::Error) -> Option<Duration> {
        if !is_shortage(e) {
            return None;
        }
        self.backoff = if self.backoff.is_zero() {
            tracing::warn!("accept failed ({e}): waiting before taking more connections");
            BACKOFF_FIRST
        } else {
            (self.backoff * 2).min(BACKOFF_MAX)
        };
        Some(self.backoff)
    }
}

/// Out of descriptors (process or system) or kernel memory.
fn is_shortage(e: &io::Error) -> bool {
    use nix::errno::Errno;
    e.raw_os_error().is_some_and(|n| {
        [Errno::EMFILE, Errno::ENFILE, Errno::ENOBUFS, Errno::ENOMEM].contains(&Errno::from_raw(n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_stays_below_the_open_file_limit() {
        assert_eq!(ceiling(256), 192);
        assert_eq!(ceiling(1024), 768);
        assert_eq!(ceiling(100), 36);
        assert_eq!(ceiling(10), 8);
        assert!(ceiling(u64::MAX) > 1 << 20);
    }

    #[tokio::test]
    async fn a_descriptor_shortage_backs_off_doubling_to_a_second() {
        let Ok(bound) = TcpListener::bind("127.0.0.1:0").await else {
            return;
        };
        let mut l = Listener::new(bound, 4);
        assert!(!l.headless.shed_oldest());
        let emfile = io::Error::from_raw_os_error(nix::errno::Errno::EMFILE as i32);
        let waits: Vec<_> = (0..9).map(|_| l.after_error(&emfile)).collect();
        assert_eq!(waits[0], Some(Duration::from_millis(10)));
        assert_eq!(waits[1], Some(Duration::from_millis(20)));
        assert_eq!(waits[8], Some(Duration::from_secs(1)));
        let reset = io::Error::from_raw_os_error(nix::errno::Errno::ECONNABORTED as i32);
        assert_eq!(l.after_error(&reset), None);
    }
}
