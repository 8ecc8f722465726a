//! Reuse of large freed buffers within a run.
//!
//! A loop that builds and drops a big table each turn (`a.union(s)` on a
//! ten-thousand-member set) frees a large block and asks for one of the same
//! size right after. The system allocator hands such blocks back to the
//! kernel and the next turn faults every page in again, which costs more
//! than the work itself. A [`Pool`] keeps a few such buffers (emptied: they
//! hold no values) for the next allocation of a similar size.
//!
//! Pooled bytes are not counted against the run's memory budget, which
//! counts the bytes of live values; a pool is bounded by [`POOL_MAX_BYTES`],
//! keeps buffers only while a run is in progress on its thread, and is
//! emptied when the run ends ([`PoolScope`]), so a run holds at
//! most that much beyond what the budget sees and an idle thread none.

use std::cell::{Cell, RefCell};

use super::Value;

thread_local! {
    static VALUES: RefCell<Pool<Value>> = const { RefCell::new(Pool::new()) };
    /// Runs in progress on this thread (runs nest through tool calls).
    static RUNS: Cell<usize> = const { Cell::new(0) };
}

/// The value pools kept open while a run is in progress on this thread.
pub(crate) struct PoolScope(());

impl PoolScope {
    /// Opens the pools for a run (runs nest through tool calls).
    pub(crate) fn enter() -> Self {
        enter_run();
        PoolScope(())
    }
}

impl Drop for PoolScope {
    fn drop(&mut self) {
        leave_run();
    }
}

/// Notes that a run starts on this thread.
fn enter_run() {
    settle_allocator();
    let _ = RUNS.try_with(|r| r.set(r.get() + 1));
    crate::types::str::open_free_list();
    crate::types::tuple::open_free_list();
}

/// Notes that a run ends; the last one to end frees the pooled buffers,
/// so a thread keeps none between runs.
fn leave_run() {
    let left = RUNS
        .try_with(|r| {
            let n = r.get().saturating_sub(1);
            r.set(n);
            n
        })
        .unwrap_or(0);
    if left == 0 {
        release_all();
    }
}

/// Whether a run is in progress on this thread (buffers freed outside a
/// run, such as a result the host drops later, are not kept).
fn in_run() -> bool {
    RUNS.try_with(|r| r.get() > 0).unwrap_or(false)
}

/// An empty vector with room for `n` values (a pooled one when a large
/// one is free).
pub(crate) fn values(n: usize) -> Vec<Value> {
    VALUES
        .try_with(|p| p.borrow_mut().take(n))
        .unwrap_or_else(|_| Vec::with_capacity(n))
}

/// Keeps an emptied vector of values for reuse (a large one, while the
/// pool has room).
#[inline]
pub(crate) fn recycle_values(v: Vec<Value>) {
    // Most lists are small: they go straight back to the allocator (and
    // the drop code inlined everywhere a value drops stays small).
    if worth_pooling::<Value>(v.capacity()) && v.is_empty() {
        give_values(v);
    }
}

#[inline(never)]
fn give_values(v: Vec<Value>) {
    let _ = VALUES.try_with(|p| p.borrow_mut().give(v));
}

/// The size of the block [`settle_allocator`] lets go of.
const SETTLE_BYTES: usize = 512 * 1024;

/// Lets the system allocator settle on keeping blocks up to
/// [`SETTLE_BYTES`] in its heap rather than mapping and unmapping them.
///
/// glibc maps a block of 128 KiB or more from the kernel and unmaps it when
/// freed, and trims the top of its heap once more than 128 KiB there is
/// free; a loop that makes and drops a table of a few hundred KiB then
/// faults every page of it in again each turn. glibc raises both limits
/// when it frees a mapped block bigger than the current limit (to that
/// block's size, and twice it for trimming), so one untouched block,
/// allocated and freed once per process, moves them to 512 KiB and 1 MiB
/// (what `mallopt` would set). Bigger blocks stay mapped, so a list that
/// grows to megabytes is still moved by remapping, not copied (a 2 MiB
/// limit made such a program 15% slower). Other allocators just free the
/// block. It is never written, so it costs no resident memory.
fn settle_allocator() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let block: Vec<u8> = Vec::with_capacity(SETTLE_BYTES);
        drop(std::hint::black_box(block));
    });
}

/// Frees every pooled buffer of this thread.
fn release_all() {
    let _ = VALUES.try_with(|p| p.borrow_mut().clear());
    crate::types::set::release_pools();
    crate::types::dict::release_pools();
    crate::types::str::close_free_list();
    crate::types::tuple::close_free_list();
}

/// Whether a buffer of `cap` items of `T` is big enough to pool.
#[inline]
pub(crate) fn worth_pooling<T>(cap: usize) -> bool {
    cap.saturating_mul(std::mem::size_of::<T>()) >= MIN_POOLED_BYTES
}

/// Buffers smaller than this are left to the allocator (which reuses small
/// blocks well by itself).
pub(crate) const MIN_POOLED_BYTES: usize = 64 * 1024;
/// The most bytes one pool keeps.
pub(crate) const POOL_MAX_BYTES: usize = 4 * 1024 * 1024;
/// The most buffers one pool keeps.
const POOL_MAX_BUFFERS: usize = 8;

/// Emptied buffers of `T` kept for reuse.
pub(crate) struct Pool<T> {
    bufs: Vec<Vec<T>>,
    bytes: usize,
}

impl<T> Pool<T> {
    /// An empty pool.
    pub(crate) const fn new() -> Self {
        Pool {
            bufs: Vec::new(),
            bytes: 0,
        }
    }

    fn bytes_of(cap: usize) -> usize {
        cap.saturating_mul(std::mem::size_of::<T>())
    }

    /// A pooled empty buffer whose capacity is at least `n` and at most
    /// twice `n`, if there is one.
    pub(crate) fn reuse(&mut self, n: usize) -> Option<Vec<T>> {
        if Self::bytes_of(n) < MIN_POOLED_BYTES {
            return None;
        }
        let i = self
            .bufs
            .iter()
            .position(|b| b.capacity() >= n && b.capacity() / 2 <= n)?;
        let b = self.bufs.swap_remove(i);
        self.bytes -= Self::bytes_of(b.capacity());
        Some(b)
    }

    /// An empty buffer with capacity for `n` items, pooled if one fits.
    pub(crate) fn take(&mut self, n: usize) -> Vec<T> {
        self.reuse(n).unwrap_or_else(|| Vec::with_capacity(n))
    }

    /// Keeps an emptied buffer for reuse if it is large and the pool has
    /// room; otherwise frees it.
    pub(crate) fn give(&mut self, mut buf: Vec<T>) {
        buf.clear();
        let bytes = Self::bytes_of(buf.capacity());
        if !(MIN_POOLED_BYTES..=POOL_MAX_BYTES).contains(&bytes) || !in_run() {
            return;
        }
        // Make room by dropping the oldest buffers.
        while !self.bufs.is_empty()
            && (self.bufs.len() >= POOL_MAX_BUFFERS || self.bytes + bytes > POOL_MAX_BYTES)
        {
            let old = self.bufs.remove(0);
            self.bytes -= Self::bytes_of(old.capacity());
        }
        self.bytes += bytes;
        self.bufs.push(buf);
    }

    /// Frees every pooled buffer.
    pub(crate) fn clear(&mut self) {
        self.bufs = Vec::new();
        self.bytes = 0;
    }
}

impl Pool<u32> {
    /// `n` zeros, in a pooled buffer when one fits.
    pub(crate) fn zeroed(&mut self, n: usize) -> Vec<u32> {
        match self.reuse(n) {
            Some(mut b) => {
                b.resize(n, 0);
                b
            }
            // A fresh zeroed allocation needs no writes of its own.
            None => vec![0; n],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reuses_a_buffer_of_similar_size_and_skips_small_ones() {
        enter_run();
        let mut p: Pool<u64> = Pool::new();
        let big = Vec::<u64>::with_capacity(16 * 1024);
        let ptr = big.as_ptr();
        p.give(big);
        let again = p.take(10 * 1024);
        assert_eq!(again.as_ptr(), ptr);
        assert!(again.is_empty());
        p.give(Vec::<u64>::with_capacity(16));
        assert_eq!(p.bufs.len(), 0);
        // Too small a request for the pooled buffer's size is not served from it.
        p.give(again);
        let other = p.take(8 * 1024 - 1);
        assert_ne!(other.as_ptr(), ptr);
        leave_run();
        // Outside a run nothing is kept.
        p.clear();
        p.give(other);
        assert!(p.bufs.is_empty());
    }

    #[test]
    fn stays_within_its_byte_bound() {
        enter_run();
        let mut p: Pool<u8> = Pool::new();
        for _ in 0..20 {
            p.give(Vec::with_capacity(3 * 1024 * 1024));
        }
        assert!(p.bytes <= POOL_MAX_BYTES);
        assert_eq!(p.bytes, p.bufs.iter().map(Vec::capacity).sum::<usize>());
        p.clear();
        assert_eq!(p.bytes, 0);
        leave_run();
    }

    #[test]
    fn zeroed_is_zero_even_from_a_dirty_buffer() {
        enter_run();
        let mut p: Pool<u32> = Pool::new();
        p.give(vec![7u32; 32 * 1024]);
        let z = p.zeroed(32 * 1024);
        assert_eq!(z.len(), 32 * 1024);
        assert!(z.iter().all(|&x| x == 0));
        leave_run();
    }
}
