//! Cancelling a run from outside its interpreter thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Thread;

/// Cancels one run: the interpreter stops within one step and the tool call
/// in flight, if any, is dropped.
///
/// Cloning gives another handle to the same run.
#[derive(Debug, Clone, Default)]
pub struct CancelToken {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    flag: Arc<AtomicBool>,
    /// The interpreter thread, unparked on cancel so a wait for a tool
    /// answer notices at once rather than at its next timeout.
    thread: Mutex<Option<Thread>>,
    /// Wakes async waiters ([`CancelToken::cancelled`]).
    notify: tokio::sync::Notify,
}

impl CancelToken {
    /// A token for a run not yet cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Cancels the run.
    pub fn cancel(&self) {
        self.inner.flag.store(true, Ordering::SeqCst);
        let thread = self
            .inner
            .thread
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(t) = thread.as_ref() {
            t.unpark();
        }
        self.inner.notify.notify_waiters();
    }

    /// Completes when the run is cancelled (at once if it already is): for
    /// async work done on the run's behalf before or beside it.
    pub async fn cancelled(&self) {
        let mut notified = std::pin::pin!(self.inner.notify.notified());
        // Registered before the flag is read: a cancel in between still wakes it.
        notified.as_mut().enable();
        if self.is_cancelled() {
            return;
        }
        notified.await;
    }

    /// Whether the run was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.inner.flag.load(Ordering::SeqCst)
    }

    /// The flag the interpreter polls at every step.
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.inner.flag)
    }

    /// Records the current thread as the run's interpreter thread.
    pub(crate) fn attach_current_thread(&self) {
        *self
            .inner
            .thread
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(std::thread::current());
    }

    /// Forgets the interpreter thread (the run is over).
    pub(crate) fn detach_thread(&self) {
        *self
            .inner
            .thread
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
    }
}
