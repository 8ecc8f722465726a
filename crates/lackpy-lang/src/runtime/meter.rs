//! The run's budget as seen from inside builtins, methods, iterators,
//! comparisons and hashing: the one place their work is metered.
//!
//! A builtin's work is proportional to its input, not to the program's
//! steps: `list(reversed(range(10**12)))`, `x in it`, `a == b` on two
//! shared-structure DAGs or `s.upper()` on a long string are one step each.
//! The rule (language.md §5): every loop proportional to input size calls
//! [`tick`] per item (cancel, clock and memory are read every
//! [`POLL_EVERY`] ticks), and every temporary buffer is a [`Buf`] or a
//! [`TextBuf`] (or is covered by a [`Charge`]), which checks the memory
//! budget before it grows and counts its bytes as live while it exists.
//!
//! The limits are installed per thread for the length of a run
//! ([`super::RunScope`]) so that deep helpers (`Dict::get`, `py_eq`,
//! `PyIter::next`) need no budget argument; a run nested on the same thread
//! saves and restores the outer run's limits. Builtin work does not count
//! steps: steps count the program's own iterations and calls.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::error::{Exc, ExceptionKind, R};
use super::memory;
use super::state::RUN;

/// How many ticks pass between two reads of the clock.
pub(crate) const POLL_EVERY: u32 = 256;

/// Counts one unit of builtin work; every [`POLL_EVERY`] units checks
/// cancellation, memory and the clock.
#[inline]
pub(crate) fn tick() -> R<()> {
    let n = RUN.with(|r| {
        let n = r.ticks.get().wrapping_add(1);
        r.ticks.set(n);
        n
    });
    if n.is_multiple_of(POLL_EVERY) {
        check_now()
    } else {
        Ok(())
    }
}

/// Counts `n` units of work at once (a bulk copy or transform of `n` items).
#[inline]
pub(crate) fn tick_n(n: usize) -> R<()> {
    let before = RUN.with(|r| {
        let b = r.ticks.get();
        r.ticks.set(b.wrapping_add(n.min(u32::MAX as usize) as u32));
        b
    });
    if n >= POLL_EVERY as usize || (before % POLL_EVERY) as usize + n >= POLL_EVERY as usize {
        check_now()
    } else {
        Ok(())
    }
}

/// Checks cancellation, memory and the clock now.
#[cold]
pub(crate) fn check_now() -> R<()> {
    RUN.with(|r| {
        let clock = r.clock.borrow();
        let Some(l) = clock.as_ref() else {
            return Ok(());
        };
        if let Some(c) = &l.cancel
            && c.load(Ordering::Relaxed)
        {
            return Err(Exc::limit(ExceptionKind::Cancelled, "execution cancelled"));
        }
        if r.used.get() > r.max_memory.get() {
            return Err(Exc::memory());
        }
        if Instant::now() >= l.deadline {
            return Err(Exc::limit(
                ExceptionKind::TimeoutError,
                "execution timed out",
            ));
        }
        Ok(())
    })
}

/// Moves the deadline of the run on this thread `by` later.
pub(crate) fn extend_deadline(by: std::time::Duration) {
    RUN.with(|r| {
        if let Some(l) = r.clock.borrow_mut().as_mut() {
            l.deadline += by;
        }
    });
}

/// MemoryError unless `extra` more bytes fit in the run's memory budget.
#[inline]
pub(crate) fn ensure(extra: usize) -> R<()> {
    if memory::used().saturating_add(extra) > max_memory() {
        Err(Exc::memory())
    } else {
        Ok(())
    }
}

/// The memory limit of the run on this thread (`usize::MAX` outside a run).
#[inline]
pub(crate) fn max_memory() -> usize {
    RUN.with(|r| r.max_memory.get())
}

/// The deadline and cancel flag of the run on this thread (none outside a
/// run), for code that reads the clock on its own schedule (the writers'
/// growth guard).
pub(crate) fn clock() -> (Option<Instant>, Option<Arc<AtomicBool>>) {
    RUN.with(|r| match r.clock.borrow().as_ref() {
        Some(l) => (Some(l.deadline), l.cancel.clone()),
        None => (None, None),
    })
}

/// Bytes of a temporary allocation counted as live while the guard exists.
pub(crate) struct Charge(usize);

impl Charge {
    /// Checks that `bytes` fit, then counts them until the guard drops.
    pub(crate) fn new(bytes: usize) -> R<Charge> {
        ensure(bytes)?;
        memory::charge(bytes);
        Ok(Charge(bytes))
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        memory::credit(self.0);
    }
}

/// Moves a buffer's charge from `charged` to `now` bytes.
fn recharge(charged: &mut usize, now: usize) {
    if now > *charged {
        memory::charge(now - *charged);
    } else {
        memory::credit(*charged - now);
    }
    *charged = now;
}

/// The capacity a buffer of `len` items (`cap` allocated, `size` bytes
/// each) grows to for `n` more, after checking that growth against the
/// budget; `None` when it has room already. Growth is at least geometric.
fn grow_target(len: usize, cap: usize, n: usize, size: usize) -> R<Option<usize>> {
    if n <= cap - len {
        return Ok(None);
    }
    let target = len.saturating_add(n).max(cap.saturating_mul(2)).max(8);
    ensure((target - cap).saturating_mul(size))?;
    Ok(Some(target))
}

/// A temporary vector a builtin grows: charged by capacity, checked before
/// each growth, and one tick per pushed item.
pub(crate) struct Buf<T> {
    items: Vec<T>,
    charged: usize,
}

impl<T> Default for Buf<T> {
    fn default() -> Self {
        Buf {
            items: Vec::new(),
            charged: 0,
        }
    }
}

impl<T> Buf<T> {
    /// An empty buffer.
    pub(crate) fn new() -> Self {
        Buf::default()
    }

    /// An empty buffer with room for exactly `n` items (checked and
    /// charged; a display of two items stays two items long).
    pub(crate) fn with_capacity(n: usize) -> R<Self> {
        ensure(n.saturating_mul(std::mem::size_of::<T>()))?;
        let mut items = Vec::new();
        items.try_reserve_exact(n).map_err(|_| Exc::memory())?;
        let mut b = Buf { items, charged: 0 };
        b.sync();
        Ok(b)
    }

    /// Wraps an existing vector, charging it (the vector exists already, so
    /// this is accounting, not a check).
    pub(crate) fn adopt(items: Vec<T>) -> Self {
        let mut b = Buf { items, charged: 0 };
        b.sync();
        b
    }

    fn sync(&mut self) {
        let now = self
            .items
            .capacity()
            .saturating_mul(std::mem::size_of::<T>());
        recharge(&mut self.charged, now);
    }

    /// Makes room for `n` more items, checking the budget first.
    pub(crate) fn reserve(&mut self, n: usize) -> R<()> {
        let (len, cap) = (self.items.len(), self.items.capacity());
        let Some(target) = grow_target(len, cap, n, std::mem::size_of::<T>())? else {
            return Ok(());
        };
        self.items
            .try_reserve_exact(target - len)
            .map_err(|_| Exc::memory())?;
        self.sync();
        Ok(())
    }

    /// Appends an item (one tick; the budget is checked before growing).
    #[inline(always)]
    pub(crate) fn push(&mut self, x: T) -> R<()> {
        tick()?;
        if self.items.len() == self.items.capacity() {
            self.reserve(1)?;
        }
        self.items.push(x);
        Ok(())
    }

    /// Appends clones of `xs` (the budget is checked before growing).
    pub(crate) fn extend_from_slice(&mut self, xs: &[T]) -> R<()>
    where
        T: Clone,
    {
        self.reserve(xs.len())?;
        for chunk in xs.chunks(4096) {
            tick_n(chunk.len())?;
            self.items.extend_from_slice(chunk);
        }
        Ok(())
    }

    /// Appends every item of an exact-size iterator: one budget check and
    /// one tick count for the lot, then a plain loop.
    pub(crate) fn extend_exact(&mut self, xs: impl ExactSizeIterator<Item = T>) -> R<()> {
        self.reserve(xs.len())?;
        tick_n(xs.len())?;
        self.items.extend(xs);
        Ok(())
    }

    /// Appends the `n` items of `xs` (an iterator known to give exactly
    /// `n`): one budget check and one tick count for the lot.
    pub(crate) fn extend_counted(&mut self, n: usize, xs: impl Iterator<Item = T>) -> R<()> {
        self.reserve(n)?;
        tick_n(n)?;
        self.items.extend(xs);
        Ok(())
    }

    /// Number of items.
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// Hands the vector over (to become a program value, which charges it
    /// itself).
    pub(crate) fn into_vec(mut self) -> Vec<T> {
        memory::credit(self.charged);
        self.charged = 0;
        std::mem::take(&mut self.items)
    }
}

impl<T> std::ops::Deref for Buf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<T> std::ops::DerefMut for Buf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items
    }
}

impl<T> Drop for Buf<T> {
    fn drop(&mut self) {
        memory::credit(self.charged);
    }
}

/// A temporary string a builtin grows: charged by capacity and checked
/// before each growth; pushes tick.
#[derive(Default)]
pub(crate) struct TextBuf {
    text: String,
    charged: usize,
}

impl TextBuf {
    /// An empty buffer.
    pub(crate) fn new() -> Self {
        TextBuf::default()
    }

    /// An empty buffer with room for exactly `n` bytes (checked and charged).
    pub(crate) fn with_capacity(n: usize) -> R<Self> {
        ensure(n)?;
        let mut text = String::new();
        text.try_reserve_exact(n).map_err(|_| Exc::memory())?;
        let mut b = TextBuf { text, charged: 0 };
        b.sync();
        Ok(b)
    }

    fn sync(&mut self) {
        recharge(&mut self.charged, self.text.capacity());
    }

    /// Makes room for `n` more bytes, checking the budget first.
    pub(crate) fn reserve(&mut self, n: usize) -> R<()> {
        let (len, cap) = (self.text.len(), self.text.capacity());
        let Some(target) = grow_target(len, cap, n, 1)? else {
            return Ok(());
        };
        self.text
            .try_reserve_exact(target - len)
            .map_err(|_| Exc::memory())?;
        self.sync();
        Ok(())
    }

    /// Appends text (ticks per 4 KiB appended).
    #[inline]
    pub(crate) fn push_str(&mut self, s: &str) -> R<()> {
        if s.len() > self.text.capacity() - self.text.len() {
            self.reserve(s.len())?;
        }
        tick_n(1 + s.len() / 4096)?;
        self.text.push_str(s);
        Ok(())
    }

    /// Appends one character (one tick).
    #[inline]
    pub(crate) fn push(&mut self, c: char) -> R<()> {
        if c.len_utf8() > self.text.capacity() - self.text.len() {
            self.reserve(c.len_utf8())?;
        }
        tick()?;
        self.text.push(c);
        Ok(())
    }

    /// Hands the string over (to become a program value, which charges it).
    pub(crate) fn into_string(mut self) -> String {
        memory::credit(self.charged);
        self.charged = 0;
        std::mem::take(&mut self.text)
    }
}

impl Drop for TextBuf {
    fn drop(&mut self) {
        memory::credit(self.charged);
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::runtime::{RunLimits, RunScope};

    fn scope(max_memory: usize) -> RunScope {
        RunScope::enter(RunLimits {
            deadline: Instant::now() + Duration::from_secs(60),
            cancel: None,
            max_memory,
        })
    }

    #[test]
    fn a_buffer_is_charged_while_it_lives_and_exact_when_sized() {
        let _s = scope(1 << 20);
        let before = memory::used();
        let mut b: Buf<u64> = Buf::with_capacity(2).expect("fits");
        assert_eq!(memory::used() - before, 16);
        b.push(1).expect("fits");
        b.push(2).expect("fits");
        assert_eq!(
            b.into_vec().capacity(),
            2,
            "sized buffers are not rounded up"
        );
        assert_eq!(memory::used(), before);
        let mut t = TextBuf::with_capacity(3).expect("fits");
        t.push_str("abcdef").expect("fits");
        assert!(memory::used() - before >= 6);
        drop(t);
        assert_eq!(memory::used(), before);
    }

    #[test]
    fn growth_past_the_budget_is_refused_before_it_happens() {
        let _s = scope(1024);
        let mut b: Buf<u64> = Buf::new();
        let mut pushed = 0;
        let err = loop {
            match b.push(0) {
                Ok(()) => pushed += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(err.kind, ExceptionKind::MemoryError);
        assert!(pushed * 8 <= 1024, "{pushed} items");
        assert!(Buf::<u64>::with_capacity(1000).is_err());
        assert!(TextBuf::with_capacity(2000).is_err());
    }

    #[test]
    fn ticks_read_the_clock() {
        let _s = RunScope::enter(RunLimits {
            deadline: Instant::now(),
            cancel: None,
            max_memory: usize::MAX,
        });
        let mut result = Ok(());
        for _ in 0..POLL_EVERY {
            result = result.and_then(|()| tick());
        }
        assert_eq!(result.map_err(|e| e.kind), Err(ExceptionKind::TimeoutError));
    }
}
