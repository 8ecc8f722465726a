//! Each Python type in one folder: its representation, its methods and
//! the operations that belong to it alone (`str/`, `bytes/`, `int/`,
//! `float/`, `complex/`, `list/`, `tuple/`, `dict/`, `set/`, `range/`).
//! What several types share sits beside them: the method tables and their
//! dispatch ([`methods`], [`table`]), the argument binder ([`args`],
//! [`codec_args`]), the operators whose operands may be of different
//! types ([`ops`]) and the formatting mini-languages' dispatch ([`formatting`]).
//!
//! The representations form one layer with [`crate::value`]: the `Value`
//! enum names every representation and each container holds values.
//! Behaviour that must call back into the program (a sort's key function,
//! a list noting a possible cycle) goes through [`caller::Caller`], which
//! the interpreter implements, so nothing here names the interpreter.

pub(crate) mod args;
pub(crate) mod bytes;
pub(crate) mod caller;
pub(crate) mod codec_args;
pub(crate) mod complex;
pub(crate) mod dict;
pub(crate) mod float;
pub(crate) mod formatting;
pub(crate) mod int;
pub(crate) mod item;
pub(crate) mod list;
pub(crate) mod methods;
pub(crate) mod ops;
pub(crate) mod range;
pub(crate) mod set;
pub(crate) mod str;
pub(crate) mod table;
pub(crate) mod tuple;
