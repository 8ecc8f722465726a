//! FNV-1a: a fast hasher for short keys in the interpreter's private maps
//! (template caches, word tables of one `split`). No program controls such a
//! map's lifetime beyond one call or a small bounded cache, so collisions
//! have nothing to degrade that SipHash would protect.

/// Builds [`Fnv`] hashers.
#[derive(Default, Clone, Copy)]
pub(crate) struct FnvBuild;

/// The running FNV-1a state.
pub(crate) struct Fnv(u64);

impl std::hash::BuildHasher for FnvBuild {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
