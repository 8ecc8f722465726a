//! A `bytes` object: its data, charged to the live-value count while it
//! lives (as strings and containers are), so that bytes made by
//! `encode`, `replace`, repetition or slicing count against the memory
//! budget.

pub(crate) mod args;
pub(crate) mod methods;
pub(crate) mod ops;
pub(crate) mod repr;
pub(crate) mod text;

use std::ops::Deref;

use crate::runtime::memory;

/// Bytes charged for a bytes object besides its data: its block (the
/// reference counts and the vector).
const OVERHEAD: usize = 16 + std::mem::size_of::<Vec<u8>>();

/// The data of a `bytes` value.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct PyBytes(Vec<u8>);

impl PyBytes {
    /// Bytes of `data`, charged until dropped.
    pub(crate) fn new(data: Vec<u8>) -> Self {
        memory::charge(data.capacity() + OVERHEAD);
        PyBytes(data)
    }
}

impl Deref for PyBytes {
    type Target = Vec<u8>;

    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl Drop for PyBytes {
    fn drop(&mut self) {
        memory::credit(self.0.capacity() + OVERHEAD);
    }
}

#[cfg(test)]
mod tests {
    use super::PyBytes;
    use crate::runtime::memory;

    #[test]
    fn bytes_are_charged_while_they_live() {
        let _scope = crate::runtime::RunScope::counting();
        let before = memory::used();
        let b = PyBytes::new(vec![0; 1 << 20]);
        assert!(memory::used() >= before + (1 << 20));
        drop(b);
        assert_eq!(memory::used(), before);
    }
}
