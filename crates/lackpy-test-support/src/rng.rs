//! The one seeded random source of the workspace's tests, and the
//! environment knobs of the generated (fuzz) tests.
//!
//! Every generated case comes from [`Rng::for_case`] of a fixed seed, so CI
//! runs the same cases every time and a failing case can be replayed alone;
//! `LACKPY_FUZZ_SEED` ([`seed`]) and `LACKPY_FUZZ_CASES` ([`cases`]) run
//! other or more cases, `LACKPY_FUZZ_VERBOSE` ([`verbose`]) prints each one.

/// SplitMix64: tiny, fast, and the same on every platform (no dependency,
/// so any crate's tests can use it).
#[derive(Clone, Debug)]
pub struct Rng(u64);

/// SplitMix64's increment (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl Rng {
    /// A generator for one case: the run's seed mixed with the case index,
    /// so a failing case can be replayed alone.
    pub fn for_case(seed: u64, case: u64) -> Rng {
        Rng(seed ^ case.wrapping_mul(GAMMA))
    }

    /// A generator for a single stream: `for_case(seed, 0)`.
    pub fn new(seed: u64) -> Rng {
        Rng::for_case(seed, 0)
    }

    /// The next 64 random bits.
    #[allow(
        clippy::should_implement_trait,
        reason = "an endless source of bits, not an iterator: callers never stop on None"
    )]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// `true` with probability `percent` percent.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// One element of a non-empty slice (a copy: the tables drawn from
    /// hold `&str`s, numbers and small tuples).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// How many cases a generated test runs: `LACKPY_FUZZ_CASES` when set (for
/// long runs, e.g. `LACKPY_FUZZ_CASES=100000`), else `default`.
pub fn cases(default: u64) -> u64 {
    env_u64("LACKPY_FUZZ_CASES").unwrap_or(default)
}

/// The seed of a generated test: `LACKPY_FUZZ_SEED` when set, else
/// `default` (fixed, so CI runs the same cases every time).
pub fn seed(default: u64) -> u64 {
    env_u64("LACKPY_FUZZ_SEED").unwrap_or(default)
}

/// `LACKPY_FUZZ_VERBOSE=1`: print every case before it runs, to find the
/// one that aborted the process (a stack overflow cannot be caught).
pub fn verbose() -> bool {
    std::env::var_os("LACKPY_FUZZ_VERBOSE").is_some()
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream is SplitMix64's: the reference outputs for state 0
    /// (Vigna's splitmix64.c), so every platform draws the same cases.
    #[test]
    fn matches_the_reference_splitmix64() {
        let mut r = Rng::new(0);
        assert_eq!(r.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn helpers_stay_in_range() {
        let mut r = Rng::for_case(7, 3);
        for n in [1, 2, 3, 10, 1000] {
            assert!((0..200).all(|_| r.below(n) < n));
        }
        assert_eq!(r.below(0), 0);
        assert!((0..200).all(|_| !r.chance(0)));
        assert!((0..200).all(|_| r.chance(100)));
        let items = ["a", "b"];
        assert!((0..50).all(|_| items.contains(&r.pick(&items))));
    }

    #[test]
    fn cases_are_independent_and_replayable() {
        let first = |case| Rng::for_case(42, case).next();
        assert_eq!(first(5), first(5));
        assert_ne!(first(5), first(6));
    }
}
