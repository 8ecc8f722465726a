//! The methods of `int` (which `bool` inherits): their table and one
//! function per method.

use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{Kw, none};
use crate::types::int::{IntRef, as_int};
use crate::types::table::{Methods, m};
use crate::value::Value;

/// A method of `int` (and `bool`): the receiver, positional and keyword
/// arguments.
pub(crate) type IntMethod = fn(&Value, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `int`, which `bool` inherits.
pub(crate) static INT: Methods<IntMethod> = Methods::new(&[
    m(M::AsIntegerRatio, 0, 0, int_as_integer_ratio),
    m(M::BitCount, 0, 0, bit_count),
    m(M::BitLength, 0, 0, bit_length),
    m(M::Conjugate, 0, 0, int_conjugate),
]);

/// The receiver as an int and `type.method` for messages.
fn int_recv<'v>(recv: &'v Value, id: M) -> R<(IntRef<'v>, String)> {
    match as_int(recv) {
        Some(i) => Ok((i, format!("{}.{}", recv.type_name(), id.name()))),
        None => Err(Exc::no_attr(recv, id.name())),
    }
}

fn bit_length(recv: &Value, args: &[Value], kwargs: Kw) -> R<Value> {
    let (i, qual) = int_recv(recv, M::BitLength)?;
    none(&qual, args, kwargs)?;
    Ok(Value::int(i.bits() as i64))
}

fn bit_count(recv: &Value, args: &[Value], kwargs: Kw) -> R<Value> {
    let (i, qual) = int_recv(recv, M::BitCount)?;
    none(&qual, args, kwargs)?;
    let b = i.to_big();
    let ones: u64 = b
        .magnitude()
        .to_u64_digits()
        .iter()
        .map(|d| d.count_ones() as u64)
        .sum();
    Ok(Value::int(ones as i64))
}

fn int_conjugate(recv: &Value, args: &[Value], kwargs: Kw) -> R<Value> {
    let (i, qual) = int_recv(recv, M::Conjugate)?;
    none(&qual, args, kwargs)?;
    Ok(Value::from_big(i.to_big()))
}

fn int_as_integer_ratio(recv: &Value, args: &[Value], kwargs: Kw) -> R<Value> {
    let (i, qual) = int_recv(recv, M::AsIntegerRatio)?;
    none(&qual, args, kwargs)?;
    Ok(Value::tuple(vec![
        Value::from_big(i.to_big()),
        Value::int(1),
    ]))
}
