//! A thread's CPU time, for tests that bound how much work a run does
//! after a cancel or a deadline: measured in CPU time rather than on the
//! wall clock, a bound holds on a loaded machine too (two cores shared
//! with builds run a test thread at a fraction of a core).

use std::path::PathBuf;
use std::time::Duration;

/// The CPU time of one thread of this process, readable from any thread.
#[derive(Debug, Clone)]
pub struct ThreadCpu {
    /// `/proc/<pid>/task/<tid>/schedstat`.
    schedstat: PathBuf,
}

impl ThreadCpu {
    /// The calling thread's; `None` where `/proc` does not say (not
    /// Linux, or a kernel without scheduler statistics).
    pub fn current() -> Option<ThreadCpu> {
        let task = std::fs::read_link("/proc/thread-self").ok()?;
        let schedstat = PathBuf::from("/proc").join(task).join("schedstat");
        let cpu = ThreadCpu { schedstat };
        cpu.used().map(|_| cpu)
    }

    /// The time the thread has run on a CPU so far (the first field of its
    /// `schedstat`, in nanoseconds); `None` once the thread has ended.
    pub fn used(&self) -> Option<Duration> {
        let text = std::fs::read_to_string(&self.schedstat).ok()?;
        let ns = text.split_whitespace().next()?.parse::<u64>().ok()?;
        Some(Duration::from_nanos(ns))
    }
}

/// Runs `f` on this thread: its result and the CPU time it took. Panics
/// where the thread's CPU time cannot be read, so that a bound on it is
/// never checked against nothing.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let cpu = ThreadCpu::current().expect("the thread's CPU time (/proc)");
    let read = || cpu.used().expect("the thread's CPU time");
    let before = read();
    let out = f();
    (out, read().saturating_sub(before))
}

#[cfg(test)]
mod tests {
    use super::{ThreadCpu, measure};
    use std::time::{Duration, Instant};

    #[test]
    fn a_busy_thread_uses_cpu_and_a_sleeping_one_does_not() {
        let cpu = ThreadCpu::current().expect("/proc/thread-self/schedstat");
        let before = cpu.used().expect("readable");
        let start = Instant::now();
        let mut x = 0u64;
        while start.elapsed() < Duration::from_millis(50) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(1));
        }
        let busy = cpu.used().expect("readable") - before;
        assert!(busy >= Duration::from_millis(5), "{busy:?}");
        let before = cpu.used().expect("readable");
        std::thread::sleep(Duration::from_millis(50));
        let idle = cpu.used().expect("readable") - before;
        assert!(idle < Duration::from_millis(10), "{idle:?}");
        // Read from another thread, the same thread's time.
        let other = std::thread::spawn({
            let cpu = cpu.clone();
            move || cpu.used()
        });
        assert!(other.join().expect("joins").is_some());
        let ((), slept) = measure(|| std::thread::sleep(Duration::from_millis(30)));
        assert!(slept < Duration::from_millis(10), "{slept:?}");
    }
}
