//! Library side of `cargo xtask`, so the tasks can be tested.
#![forbid(unsafe_code)]

pub mod codegen;
pub mod layers;
