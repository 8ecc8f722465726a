//! The operations in flight on one session, polled by its supervisor.
//!
//! Like `futures`' `FuturesUnordered`, each operation has its own waker, so
//! a wake-up polls only the operations it concerns. Unlike it, polling
//! never wakes the supervisor itself once every operation has had its turn
//! (`FuturesUnordered`'s cooperative yield): on tokio's multi-thread
//! runtime a task woken while it runs goes to the back of the run queue and
//! another worker is woken to steal it, a cross-thread wake-up per call.
//! An operation here only awaits the SDK, so there is nothing to yield for.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

use crate::operation::BoxFuture;

/// A set of operation futures, each polled when its own waker fires.
pub(crate) struct InFlight {
    /// The futures by slot; a finished one leaves its slot empty.
    slots: Vec<Option<BoxFuture<()>>>,
    /// Each slot's waker, made once and reused by the slot's next futures.
    wakers: Vec<Waker>,
    /// Empty slots.
    free: Vec<usize>,
    ready: Arc<Ready>,
}

/// What the wakers share: the slots woken since the last poll, and the
/// supervisor's waker.
#[derive(Default)]
struct Ready {
    state: Mutex<ReadyState>,
}

#[derive(Default)]
struct ReadyState {
    slots: Vec<usize>,
    owner: Option<Waker>,
}

impl Ready {
    fn lock(&self) -> std::sync::MutexGuard<'_, ReadyState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One slot's waker.
struct SlotWaker {
    slot: usize,
    ready: Arc<Ready>,
}

impl Wake for SlotWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let owner = {
            let mut state = self.ready.lock();
            state.slots.push(self.slot);
            state.owner.take()
        };
        if let Some(owner) = owner {
            owner.wake();
        }
    }
}

impl InFlight {
    pub(crate) fn new() -> InFlight {
        InFlight {
            slots: Vec::new(),
            wakers: Vec::new(),
            free: Vec::new(),
            ready: Arc::default(),
        }
    }

    /// Adds an operation; the next [`poll`](InFlight::poll) starts it.
    pub(crate) fn push(&mut self, fut: BoxFuture<()>) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot] = Some(fut);
                slot
            }
            None => {
                let slot = self.slots.len();
                self.slots.push(Some(fut));
                self.wakers.push(Waker::from(Arc::new(SlotWaker {
                    slot,
                    ready: Arc::clone(&self.ready),
                })));
                slot
            }
        };
        self.ready.lock().slots.push(slot);
    }

    /// Polls the operations woken since the last call (and new ones);
    /// never completes: the supervisor has nothing to learn from an
    /// operation's end (its caller hears of it).
    pub(crate) fn poll(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let woken = {
            let mut state = self.ready.lock();
            state.owner = Some(cx.waker().clone());
            std::mem::take(&mut state.slots)
        };
        for slot in woken {
            // A stale wake-up (for a future already finished, or the slot's
            // earlier occupant) polls nothing or polls spuriously; both are
            // harmless.
            let Some(fut) = self.slots.get_mut(slot).and_then(Option::as_mut) else {
                continue;
            };
            let mut op_cx = Context::from_waker(&self.wakers[slot]);
            // A panicking operation ends alone, as it did in a task of its
            // own: its caller hears the session's state, the rest go on.
            let polled = catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(&mut op_cx)));
            if !matches!(polled, Ok(Poll::Pending)) {
                if polled.is_err() {
                    tracing::error!("an MCP operation panicked; it is dropped");
                }
                self.slots[slot] = None;
                self.free.push(slot);
            }
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn polls_only_woken_operations_and_reuses_slots() {
        let polls = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let mut set = InFlight::new();
        let p = Arc::clone(&polls);
        set.push(Box::pin(async move {
            p.fetch_add(1, Ordering::SeqCst);
            let _ = rx.await;
        }));
        let p = Arc::clone(&polls);
        set.push(Box::pin(async move {
            p.fetch_add(1, Ordering::SeqCst);
        }));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(set.poll(&mut cx).is_pending());
        assert_eq!(polls.load(Ordering::SeqCst), 2);
        // The finished one's slot is free; nothing is woken, nothing polled.
        assert_eq!(set.free, vec![1]);
        assert!(set.poll(&mut cx).is_pending());
        let _ = tx.send(());
        assert!(set.poll(&mut cx).is_pending());
        assert_eq!(set.free.len(), 2);
        set.push(Box::pin(async {}));
        assert_eq!(set.slots.len(), 2);
    }

    #[test]
    fn a_panicking_operation_is_dropped_alone() {
        let (tx, mut rx) = tokio::sync::oneshot::channel::<()>();
        let mut set = InFlight::new();
        set.push(Box::pin(async move {
            let _tx = tx;
            panic!("boom");
        }));
        set.push(Box::pin(std::future::pending()));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(set.poll(&mut cx).is_pending());
        // The panicking one's sender is gone; the other is still in flight.
        assert!(matches!(
            rx.try_recv(),
            Err(tokio::sync::oneshot::error::TryRecvError::Closed)
        ));
        assert_eq!(set.free, vec![0]);
        assert!(set.slots[1].is_some());
    }
}
