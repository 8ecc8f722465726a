//! The buffer pools of a run: opened when a run starts on a thread,
//! emptied when the last one ends ([`PoolScope`]), and the pool of value
//! vectors that lists draw from.
//!
//! The pool type itself and the count of runs in progress are in
//! [`crate::runtime::pool`]; each container keeps its own pools and free
//! lists, which this file opens and empties together.

use std::cell::RefCell;

use super::Value;
use crate::runtime::pool::{Pool, enter_run, leave_run, worth_pooling};

thread_local! {
    static VALUES: RefCell<Pool<Value>> = const { RefCell::new(Pool::new()) };
}

/// The value pools kept open while a run is in progress on this thread.
pub(crate) struct PoolScope(());

impl PoolScope {
    /// Opens the pools for a run (runs nest through tool calls).
    pub(crate) fn enter() -> Self {
        settle_allocator();
        enter_run();
        crate::types::str::open_free_list();
        crate::types::tuple::open_free_list::<Value>();
        PoolScope(())
    }
}

impl Drop for PoolScope {
    /// The last run to end frees the pooled buffers, so a thread keeps
    /// none between runs.
    fn drop(&mut self) {
        if leave_run() == 0 {
            release_all();
        }
    }
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
    crate::types::set::release_pools::<Value>();
    crate::types::dict::release_pools::<Value>();
    crate::types::str::close_free_list();
    crate::types::tuple::close_free_list::<Value>();
}
