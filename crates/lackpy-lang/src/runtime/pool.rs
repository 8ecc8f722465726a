//! Emptied buffers kept for reuse within a run ([`Pool`]), and the count
//! of runs in progress on this thread that bounds their life.
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
//! keeps buffers only while a run is in progress on its thread
//! ([`enter_run`], [`leave_run`]), and the value layer empties every pool
//! when the last run ends, so a run holds at most that much beyond what
//! the budget sees and an idle thread none.

use std::cell::Cell;

thread_local! {
    /// Runs in progress on this thread (runs nest through tool calls).
    static RUNS: Cell<usize> = const { Cell::new(0) };
}

/// Notes that a run starts on this thread.
pub(crate) fn enter_run() {
    let _ = RUNS.try_with(|r| r.set(r.get() + 1));
}

/// Notes that a run ends; returns how many are still in progress.
pub(crate) fn leave_run() -> usize {
    RUNS.try_with(|r| {
        let n = r.get().saturating_sub(1);
        r.set(n);
        n
    })
    .unwrap_or(0)
}

/// Whether a run is in progress on this thread (buffers freed outside a
/// run, such as a result the host drops later, are not kept).
fn in_run() -> bool {
    RUNS.try_with(|r| r.get() > 0).unwrap_or(false)
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
