//! Reuse of freed reference-counted blocks of one type within a run.
//!
//! Every string object is one heap block of one size (a `PyStr` and its
//! count: 40 bytes, a 48-byte chunk of glibc's allocator), and programs
//! make and drop them in bursts: `line.split(',')` of a 20-field line makes
//! 20 and the next turn of the loop drops them all. glibc's per-thread
//! cache keeps only 7 freed chunks of a size; the rest of a burst goes
//! through its slower bins, and comes back through them (callgrind: about
//! 218 of the 500 instructions a part cost were malloc and free). CPython
//! keeps such objects in pools of its own allocator. A [`FreeList`] keeps
//! a thread's last emptied blocks, up to its cap, for the next values
//! made, so a burst of any size up to that never reaches the system
//! allocator. Tuples (`types/tuple/mod.rs`, one 56-byte block each) do the
//! same, with a cap sized for the bursts they come in.
//!
//! What a kept block holds is the owner's business (`types/str/mod.rs` keeps
//! an empty string there, `types/tuple/mod.rs` an empty tuple, never charged
//! to the budget and never dropped). Blocks are kept only while a run is
//! in progress on the thread, and the owner frees them when the last run
//! on it ends (`value/pool.rs`), so an idle thread holds none; at most
//! each list's cap (strings: [`MAX_FREE`] blocks, 12 KiB; tuples: 1 MiB)
//! is held beyond what the budget sees, as the other pools do.

use std::mem::ManuallyDrop;

/// The most blocks a list keeps unless made with another cap.
const MAX_FREE: usize = 256;

/// Emptied blocks kept for reuse.
pub(crate) struct FreeList<T> {
    /// Never dropped, so that a thread-local holding the list needs no
    /// destructor (whose registration check every access would pay);
    /// [`FreeList::close`] hands the blocks back when the last run ends.
    blocks: ManuallyDrop<Vec<rclite::Rc<T>>>,
    /// Whether a run is in progress (blocks are kept only then).
    open: bool,
    /// The most blocks kept.
    max: usize,
}

impl<T> FreeList<T> {
    /// An empty, closed list that keeps up to [`MAX_FREE`] blocks.
    pub(crate) const fn new() -> Self {
        Self::with_max(MAX_FREE)
    }

    /// An empty, closed list that keeps up to `max` blocks.
    pub(crate) const fn with_max(max: usize) -> Self {
        FreeList {
            blocks: ManuallyDrop::new(Vec::new()),
            open: false,
            max,
        }
    }

    /// A kept block, if there is one.
    #[inline]
    pub(crate) fn take(&mut self) -> Option<rclite::Rc<T>> {
        self.blocks.pop()
    }

    /// Keeps `rc` (emptied by the caller, with no other reference); gives
    /// it back when the list is closed or full.
    #[inline]
    pub(crate) fn keep(&mut self, rc: rclite::Rc<T>) -> Option<rclite::Rc<T>> {
        if self.open && self.blocks.len() < self.max {
            self.blocks.push(rc);
            None
        } else {
            Some(rc)
        }
    }

    /// How many blocks are kept.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> usize {
        self.blocks.len()
    }

    /// Starts keeping blocks (a run starts on the thread). Room for
    /// [`MAX_FREE`] is made now; a list allowed more grows when a burst
    /// needs it (a run that keeps few blocks pays for no more).
    pub(crate) fn open(&mut self) {
        self.open = true;
        self.blocks.reserve_exact(self.max.min(MAX_FREE));
    }

    /// Stops keeping blocks and hands back those kept (the last run on the
    /// thread ended), for the owner to free.
    pub(crate) fn close(&mut self) -> Vec<rclite::Rc<T>> {
        self.open = false;
        std::mem::take(&mut *self.blocks)
    }
}

/// A thread's free list of one block type, as its owner declares it.
pub(crate) type ThreadFreeList<T> = std::thread::LocalKey<std::cell::RefCell<FreeList<T>>>;

/// A kept block of `list`, if there is one.
#[inline]
pub(crate) fn take_kept<T>(list: &'static ThreadFreeList<T>) -> Option<rclite::Rc<T>> {
    list.with(|f| f.try_borrow_mut().ok().and_then(|mut f| f.take()))
}

/// Keeps `rc` (emptied, holding its owner's never-charged vacant value)
/// in `list`, or frees it when the list is closed, full or busy.
#[inline]
pub(crate) fn keep_or_free<T>(list: &'static ThreadFreeList<T>, rc: rclite::Rc<T>) {
    let left = list.with(|f| match f.try_borrow_mut() {
        Ok(mut f) => f.keep(rc),
        Err(_) => Some(rc),
    });
    if let Some(rc) = left {
        free_vacant(rc);
    }
}

/// Frees a block holding its owner's never-charged vacant value (which is
/// not dropped: it owns nothing and was never counted).
fn free_vacant<T>(rc: rclite::Rc<T>) {
    if let Ok(vacant) = rclite::Rc::try_unwrap(rc) {
        std::mem::forget(vacant);
    }
}

/// Starts keeping blocks in `list` on this thread (a run starts).
pub(crate) fn open_list<T>(list: &'static ThreadFreeList<T>) {
    list.with(|f| {
        if let Ok(mut f) = f.try_borrow_mut() {
            f.open();
        }
    });
}

/// Frees the blocks `list` kept and keeps no more (the last run on this
/// thread ended).
pub(crate) fn close_list<T>(list: &'static ThreadFreeList<T>) {
    let blocks = list.with(|f| match f.try_borrow_mut() {
        Ok(mut f) => f.close(),
        Err(_) => Vec::new(),
    });
    blocks.into_iter().for_each(free_vacant);
}

#[cfg(test)]
mod tests {
    use super::{FreeList, MAX_FREE};

    #[test]
    fn blocks_are_kept_only_while_open_and_up_to_the_cap() {
        let mut list = FreeList::new();
        assert!(list.keep(rclite::Rc::new(1)).is_some());
        list.open();
        for n in 0..MAX_FREE {
            assert!(list.keep(rclite::Rc::new(n)).is_none());
        }
        assert!(list.keep(rclite::Rc::new(0)).is_some());
        assert_eq!(list.take().map(|rc| *rc), Some(MAX_FREE - 1));
        assert_eq!(list.close().len(), MAX_FREE - 1);
        assert!(list.take().is_none());
    }

    #[test]
    fn a_list_made_with_a_cap_keeps_up_to_it() {
        let mut list = FreeList::with_max(MAX_FREE + 10);
        list.open();
        for n in 0..MAX_FREE + 10 {
            assert!(list.keep(rclite::Rc::new(n)).is_none());
        }
        assert!(list.keep(rclite::Rc::new(0)).is_some());
        assert_eq!(list.kept(), MAX_FREE + 10);
        assert_eq!(list.close().len(), MAX_FREE + 10);
        // Closed: nothing is kept, and it opens again with its cap.
        assert!(list.keep(rclite::Rc::new(0)).is_some());
        list.open();
        assert!(list.keep(rclite::Rc::new(0)).is_none());
        assert_eq!(list.close().len(), 1);
    }
}
