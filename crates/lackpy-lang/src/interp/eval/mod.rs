//! Evaluation of the lowered program ([`crate::interp::ir`]): expressions
//! ([`expr`]), statements ([`stmt`]), calls ([`call`]), comprehensions
//! ([`comp`]), binding to targets ([`bind`]), and the nodes lowering made
//! for particular shapes: numeric fast trees ([`fast`]), `+` chains
//! ([`concat`]), `%` with a constant template ([`percent`]) and the pieces
//! of a split read without building the list ([`pieces`]). Each is an
//! `impl` block of [`Interp`](crate::interp::Interp) named for what it
//! evaluates.

pub(crate) mod bind;
pub(crate) mod call;
pub(crate) mod comp;
pub(crate) mod concat;
pub(crate) mod expr;
pub(crate) mod fast;
pub(crate) mod percent;
pub(crate) mod pieces;
pub(crate) mod stmt;
