//! Python int helpers: floor division, conversions, the digit limit.
//!
//! Ints use an `i64` fast path and fall back to `BigInt` on overflow; every
//! result goes through [`crate::value::Value::from_big`] so the
//! representation stays normalised (a value that fits `i64` is always
//! `Value::Int`).

pub(crate) mod big;
pub(crate) mod big_cost;
pub(crate) mod big_div;
pub(crate) mod big_mul;
pub(crate) mod methods;
pub(crate) mod values;

use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{FromPrimitive, Signed, ToPrimitive, Zero};

pub(crate) use self::values::{as_int, f64_to_int, int_abs, int_neg, retire};
use crate::runtime::memory;

/// An int too large for `i64`, with its memory charge.
pub(crate) struct BigVal(pub BigInt);

impl BigVal {
    /// A big int's value, charged to the run's memory count.
    pub(crate) fn new(b: BigInt) -> Self {
        memory::charge(big_bytes(&b));
        BigVal(b)
    }

    /// Changes the int in place (its buffer reused), keeping the memory
    /// charge equal to its new size.
    pub(crate) fn update(&mut self, f: impl FnOnce(&mut BigInt)) {
        memory::credit(big_bytes(&self.0));
        f(&mut self.0);
        memory::charge(big_bytes(&self.0));
    }

    /// Fills a retired value (zero, charged nothing) with `f` of its
    /// emptied buffer, charging the result.
    pub(crate) fn refill(&mut self, f: impl FnOnce(&mut BigInt)) {
        f(&mut self.0);
        memory::charge(big_bytes(&self.0));
    }

    /// Ends the value: its charge is returned and it becomes zero (charged
    /// nothing), keeping its digit buffer for a later value.
    pub(crate) fn retire(&mut self) {
        memory::credit(big_bytes(&self.0));
        num_traits::Zero::set_zero(&mut self.0);
    }
}

impl Drop for BigVal {
    fn drop(&mut self) {
        self.retire();
    }
}

/// The charge of a big int's value: none for zero (a retired value; a
/// live one is never zero, as it never fits `i64`).
fn big_bytes(b: &BigInt) -> usize {
    match b.bits() {
        0 => 0,
        bits => (bits / 8) as usize + 32,
    }
}

/// CPython's default `sys.get_int_max_str_digits()`.
pub(crate) const MAX_STR_DIGITS: usize = 4300;

/// An int operand borrowed from a value (bools count as ints).
pub(crate) enum IntRef<'a> {
    Small(i64),
    Big(&'a BigInt),
}

impl IntRef<'_> {
    pub(crate) fn to_big(&self) -> BigInt {
        match self {
            IntRef::Small(i) => BigInt::from(*i),
            IntRef::Big(b) => (*b).clone(),
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        match self {
            IntRef::Small(i) => *i == 0,
            IntRef::Big(b) => b.is_zero(),
        }
    }

    pub(crate) fn is_negative(&self) -> bool {
        match self {
            IntRef::Small(i) => *i < 0,
            IntRef::Big(b) => b.is_negative(),
        }
    }

    /// Bits needed for the magnitude.
    pub(crate) fn bits(&self) -> u64 {
        match self {
            IntRef::Small(i) => 64 - i.unsigned_abs().leading_zeros() as u64,
            IntRef::Big(b) => b.bits(),
        }
    }

    pub(crate) fn to_i64(&self) -> Option<i64> {
        match self {
            IntRef::Small(i) => Some(*i),
            IntRef::Big(b) => b.to_i64(),
        }
    }
}

/// Boxes of big int values that ended, kept with their digit buffers.
///
/// A loop over big ints makes and drops one or two per operation (`v * 3 +
/// w`, `v // 7 + big`). Where the arithmetic consumes a temporary or a name
/// is rebound, a value held by nothing else is [`retire`]d here instead of
/// freed, and a new result fills a kept box: neither the box nor the digits
/// are allocated and freed per operation. (Values are not pooled from their
/// drop: a drop hook on the handle made dropping any value dearer.) Only
/// values of at most [`SPARE_MAX_BITS`] bits are kept (num-bigint shrinks a
/// buffer past twice its length, so each holds at most a few KiB) and at
/// most [`SPARE_SLOTS`] of them: the retained memory stays far below
/// anything the memory budget measures. A kept box is retired (zero,
/// charged nothing) until it is reused.
const SPARE_SLOTS: usize = 8;
const SPARE_MAX_BITS: u64 = 4096;

thread_local! {
    static SPARE: RefCell<Vec<Rc<BigVal>>> = const { RefCell::new(Vec::new()) };
}

/// A kept box (each is held by nothing else).
#[inline]
fn spare() -> Option<Rc<BigVal>> {
    SPARE
        .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
        .ok()
        .flatten()
}

/// A value's box holding `b` (which does not fit `i64`).
pub(crate) fn new_big(b: BigInt) -> Rc<BigVal> {
    if let Some(mut rc) = spare()
        && let Some(v) = Rc::get_mut(&mut rc)
    {
        v.refill(move |x| *x = b);
        return rc;
    }
    Rc::new(BigVal::new(b))
}

/// A value's box holding what `f` makes of a copy of `x`: the copy goes
/// into a kept box's buffer when there is one.
pub(crate) fn computed_big(x: &BigInt, f: impl FnOnce(&mut BigInt)) -> Rc<BigVal> {
    if let Some(mut rc) = spare()
        && let Some(v) = Rc::get_mut(&mut rc)
    {
        v.refill(move |b| {
            b.clone_from(x);
            f(b);
        });
        return rc;
    }
    let mut b = x.clone();
    f(&mut b);
    Rc::new(BigVal::new(b))
}

/// Keeps a big int's box for a later value when nothing else holds it.
#[inline(never)]
pub(crate) fn retire_big(mut rc: Rc<BigVal>) {
    let Some(v) = Rc::get_mut(&mut rc) else {
        return;
    };
    if v.0.bits() > SPARE_MAX_BITS {
        return;
    }
    v.retire();
    // During thread teardown the pool may be gone: then the box is freed.
    let _ = SPARE.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut()
            && s.len() < SPARE_SLOTS
        {
            s.push(rc);
        }
    });
}

/// Python floor division of i64s; `None` on overflow (`MIN // -1`).
#[inline]
pub(crate) fn floordiv_i64(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

/// Python modulo of i64s (`b != 0`); the sign follows the divisor.
#[inline]
pub(crate) fn mod_i64(a: i64, b: i64) -> i64 {
    match a.checked_rem(b) {
        Some(r) => {
            if r != 0 && ((r < 0) != (b < 0)) {
                r + b
            } else {
                r
            }
        }
        None => 0,
    }
}

/// "00" to "99", for writing two digits at a time.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes the decimal text of `i` at the end of `digits`, returning where
/// it starts. Hand-written because the formatting machinery costs several
/// times more than the digits, and programs print and return many ints.
#[inline]
pub(crate) fn i64_digits(i: i64, digits: &mut [u8; 20]) -> usize {
    let mut pos = digits.len();
    let mut n = i.unsigned_abs();
    while n >= 100 {
        let r = (n % 100) as usize * 2;
        n /= 100;
        pos -= 2;
        digits[pos..pos + 2].copy_from_slice(&PAIRS[r..r + 2]);
    }
    if n >= 10 {
        let r = n as usize * 2;
        pos -= 2;
        digits[pos..pos + 2].copy_from_slice(&PAIRS[r..r + 2]);
    } else {
        pos -= 1;
        digits[pos] = b'0' + n as u8;
    }
    if i < 0 {
        pos -= 1;
        digits[pos] = b'-';
    }
    pos
}

/// Appends the decimal text of an `i64`.
#[inline]
pub(crate) fn push_i64(out: &mut String, i: i64) {
    let mut digits = [0u8; 20];
    let start = i64_digits(i, &mut digits);
    // Digits and '-' are ASCII: the check cannot fail.
    out.push_str(std::str::from_utf8(&digits[start..]).unwrap_or_default());
}

/// Decimal text of an int, or `None` past the 4300-digit limit.
pub(crate) fn int_to_string(i: &IntRef) -> Option<String> {
    match i {
        IntRef::Small(i) => {
            let mut s = String::new();
            push_i64(&mut s, *i);
            Some(s)
        }
        IntRef::Big(b) => {
            // 4300 digits need at least 14281 bits; far larger values fail
            // fast without converting.
            if b.bits() > 14_300 {
                return None;
            }
            let s = b.to_string();
            let digits = s.len() - usize::from(b.sign() == Sign::Minus);
            if digits > MAX_STR_DIGITS {
                None
            } else {
                Some(s)
            }
        }
    }
}

/// The ValueError text for `str(n)` past the digit limit.
pub(crate) fn str_limit_message() -> String {
    format!(
        "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
    )
}

/// Exact comparison of an int with a float (`None` if the float is NaN).
#[inline]
pub(crate) fn cmp_int_float(i: &IntRef, f: f64) -> Option<Ordering> {
    // An int of at most 53 bits is exactly a float: compare as floats
    // (None for NaN, as below).
    if let IntRef::Small(i) = i
        && i.unsigned_abs() <= 1 << 53
    {
        return (*i as f64).partial_cmp(&f);
    }
    cmp_int_float_wide(i, f)
}

fn cmp_int_float_wide(i: &IntRef, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f == f64::INFINITY {
        return Some(Ordering::Less);
    }
    if f == f64::NEG_INFINITY {
        return Some(Ordering::Greater);
    }
    let fl = f.floor();
    let frac = f != fl;
    let ord = match i {
        IntRef::Small(i) => {
            // Every i64 lies in [-2**63, 2**63); both bounds are exact floats.
            const LOW: f64 = -9_223_372_036_854_775_808.0;
            if fl < LOW {
                Ordering::Greater
            } else if fl >= -LOW {
                Ordering::Less
            } else {
                i.cmp(&(fl as i64))
            }
        }
        IntRef::Big(b) => match BigInt::from_f64(fl) {
            Some(fb) => (*b).cmp(&fb),
            None => return None,
        },
    };
    Some(if ord == Ordering::Equal && frac {
        Ordering::Less
    } else {
        ord
    })
}

/// Why [`parse_int`] refused a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IntParseError {
    /// The run was cancelled or timed out while a long text was read
    /// (`Cancelled` or `TimeoutError`).
    Stopped(crate::runtime::error::ExceptionKind),
    /// Not an int literal in that base (`invalid literal for int()`).
    Invalid,
    /// A base that is not a power of two with more than [`MAX_STR_DIGITS`]
    /// digits: CPython refuses it by the count of the digits it scanned,
    /// before it looks at what follows them.
    TooManyDigits(usize),
}

/// Parses Python int literal text (`int(s, base)`) as CPython does: sign
/// and prefix, then the run of digits (single underscores between them);
/// a base that is not a power of two refuses more than [`MAX_STR_DIGITS`]
/// digits before anything after the run is checked (and before the
/// quadratic conversion); then the rest must be empty.
pub(crate) fn parse_int(text: &str, base: u32) -> Result<BigInt, IntParseError> {
    use IntParseError::{Invalid, TooManyDigits};
    let s = text.trim_matches(crate::text::unicode::is_number_space);
    let (neg, s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    // Digits are read in either case; only a prefix is compared (the text
    // may be tens of megabytes: no copy in one case).
    let mut base = base;
    let mut body: &str = s;
    let prefixed = |p: &str| s.get(..2).is_some_and(|h| h.eq_ignore_ascii_case(p));
    // Base 0 with a leading 0 and no prefix: only zeros are allowed.
    let mut zeros_only = false;
    if base == 0 {
        if prefixed("0x") {
            base = 16;
            body = &s[2..];
        } else if prefixed("0o") {
            base = 8;
            body = &s[2..];
        } else if prefixed("0b") {
            base = 2;
            body = &s[2..];
        } else {
            base = 10;
            zeros_only = s.starts_with('0');
        }
        if base != 10 && body.starts_with('_') {
            body = &body[1..];
        }
    } else if (base == 16 && prefixed("0x"))
        || (base == 8 && prefixed("0o"))
        || (base == 2 && prefixed("0b"))
    {
        body = &s[2..];
        if body.starts_with('_') {
            body = &body[1..];
        }
    }
    if body.starts_with('_') {
        return Err(Invalid);
    }
    let mut digits = String::with_capacity(body.len());
    let mut underscore = false;
    let mut rest = "";
    for (at, c) in body.char_indices() {
        if digits.len() % PARSE_PIECE_DIGITS == PARSE_PIECE_DIGITS - 1 {
            poll()?;
        }
        if c == '_' {
            if underscore {
                return Err(Invalid);
            }
            underscore = true;
            continue;
        }
        match c.to_digit(36).or_else(|| unicode_decimal(c)) {
            Some(d) if d < base => {
                underscore = false;
                digits.push(std::char::from_digit(d, 36).ok_or(Invalid)?);
            }
            _ => {
                rest = &body[at..];
                break;
            }
        }
    }
    if underscore || digits.is_empty() {
        return Err(Invalid);
    }
    if !base.is_power_of_two() && digits.len() > MAX_STR_DIGITS {
        return Err(TooManyDigits(digits.len()));
    }
    if !rest.is_empty() || (zeros_only && digits.bytes().any(|d| d != b'0')) {
        return Err(Invalid);
    }
    let mut n = if base.is_power_of_two() && digits.len() > PARSE_PIECE_DIGITS {
        BigInt::from(parse_in_pieces(digits.as_bytes(), base)?)
    } else {
        BigInt::parse_bytes(digits.as_bytes(), base).ok_or(Invalid)?
    };
    if neg {
        n = -n;
    }
    Ok(n)
}

/// Digits of a power-of-two base read between two reads of the cancel flag
/// and the clock (a few milliseconds; such a text may be 2**26 digits).
const PARSE_PIECE_DIGITS: usize = 1 << 18;

/// The run's cancel flag and deadline, read while a long text is parsed.
fn poll() -> Result<(), IntParseError> {
    crate::runtime::work::poll().map_err(|e| IntParseError::Stopped(e.kind))
}

/// Valid digits of a power-of-two `base` as a magnitude, converted
/// [`PARSE_PIECE_DIGITS`] at a time from the least significant end (each
/// piece a whole number of 32-bit words), polling between pieces.
fn parse_in_pieces(digits: &[u8], base: u32) -> Result<BigUint, IntParseError> {
    let bits = base.trailing_zeros() as usize;
    let piece_words = PARSE_PIECE_DIGITS * bits / 32;
    let mut words = vec![0u32; (digits.len() * bits).div_ceil(32)];
    for (i, piece) in digits.rchunks(PARSE_PIECE_DIGITS).enumerate() {
        poll()?;
        let part = BigUint::parse_bytes(piece, base)
            .ok_or(IntParseError::Invalid)?
            .to_u32_digits();
        let at = i * piece_words;
        if let Some(slots) = words.get_mut(at..at + part.len()) {
            slots.copy_from_slice(&part);
        }
    }
    Ok(BigUint::new(words))
}

/// The ZeroDivisionError of int `op` by zero (`/`, `//`, `%` and
/// `divmod`, which words itself as `//`), as CPython words each; every
/// path of an int division (the small-int fast path, the general one, the
/// big-int one) raises this one.
#[cold]
pub(crate) fn zero_division(op: crate::syntax::ast::Operator) -> Box<crate::runtime::error::Exc> {
    use crate::syntax::ast::Operator;
    crate::runtime::error::Exc::zero_division(match op {
        Operator::Mod => "integer modulo by zero",
        Operator::Div => "division by zero",
        _ => "integer division or modulo by zero",
    })
}

#[cfg(test)]
mod parse_int_tests {
    use super::{IntParseError, MAX_STR_DIGITS, PARSE_PIECE_DIGITS, parse_int};
    use num_bigint::BigInt;

    #[test]
    fn long_power_of_two_texts_parse_in_pieces_exactly() {
        let mut rng = lackpy_test_support::rng::Rng::new(0x7061_7273);
        for base in [2u32, 4, 8, 16, 32] {
            for len in [PARSE_PIECE_DIGITS + 1, 3 * PARSE_PIECE_DIGITS - 7] {
                let text: String = (0..len)
                    .map(|_| std::char::from_digit((rng.next() % u64::from(base)) as u32, base))
                    .collect::<Option<String>>()
                    .expect("digits");
                let want = BigInt::parse_bytes(text.as_bytes(), base);
                assert_eq!(
                    parse_int(&text, base).ok(),
                    want,
                    "base {base}, {len} digits"
                );
                let minus = format!("-{}", &text[..len - 1]);
                let want = BigInt::parse_bytes(minus.as_bytes(), base);
                assert_eq!(
                    parse_int(&minus, base).ok(),
                    want,
                    "base {base}, {len} digits"
                );
            }
        }
    }

    #[test]
    fn the_digit_limit_counts_the_scanned_digits_in_every_non_binary_base() {
        let long = "1".repeat(MAX_STR_DIGITS + 1);
        let limit = Err(IntParseError::TooManyDigits(MAX_STR_DIGITS + 1));
        for base in [0, 10, 3, 7, 36] {
            assert_eq!(parse_int(&long, base), limit, "base {base}");
            // What follows the digits is looked at only after the count.
            assert_eq!(parse_int(&format!("{long}!"), base), limit, "base {base}");
        }
        // Powers of two are not limited.
        assert!(parse_int(&long, 16).is_ok());
        assert!(parse_int(&format!("0x{long}"), 0).is_ok());
        // Leading zeros count; base 0 refuses them only after the count.
        let zeros = format!("0{long}");
        assert_eq!(
            parse_int(&zeros, 0),
            Err(IntParseError::TooManyDigits(MAX_STR_DIGITS + 2))
        );
        assert_eq!(parse_int("0123", 0), Err(IntParseError::Invalid));
        assert_eq!(parse_int("0_0", 0).map(|n| n.to_string()), Ok("0".into()));
        // Misplaced underscores are invalid before the count.
        assert_eq!(
            parse_int(&format!("{long}_"), 10),
            Err(IntParseError::Invalid)
        );
        assert_eq!(
            parse_int(&format!("1__{long}"), 10),
            Err(IntParseError::Invalid)
        );
        assert_eq!(
            parse_int(&format!("_{long}"), 10),
            Err(IntParseError::Invalid)
        );
    }
}

/// The value of a non-ASCII decimal digit (`int('٣')` is 3).
pub(crate) fn decimal_value(c: char) -> Option<u32> {
    unicode_decimal(c)
}

fn unicode_decimal(c: char) -> Option<u32> {
    if c.is_ascii() || !crate::text::unicode::is_decimal(c) {
        return None;
    }
    // Decimal digits come in contiguous runs of ten starting at zero.
    let cp = c as u32;
    let mut zero = cp;
    while zero > 0
        && crate::text::unicode::is_decimal(char::from_u32(zero - 1)?)
        && cp - (zero - 1) < 10
    {
        zero -= 1;
    }
    Some(cp - zero)
}

#[cfg(test)]
mod push_tests {
    use super::push_i64;

    #[test]
    fn push_i64_matches_display() {
        for i in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            12345,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            let mut s = String::from("x");
            push_i64(&mut s, i);
            assert_eq!(s, format!("x{i}"));
        }
    }
}

#[cfg(test)]
mod pool_tests {
    use num_bigint::BigInt;

    use super::{computed_big, retire};
    use crate::runtime::memory::used;
    use crate::value::Value;

    #[test]
    fn kept_boxes_are_charged_nothing_and_reused_exactly() {
        let _scope = crate::runtime::RunScope::counting();
        let big = |shift: u32, add: i64| (BigInt::from(1u8) << shift) + add;
        let a = Value::from_big(big(100, 7));
        let shared = a.clone();
        let charged = used();
        assert!(charged > 0);
        retire(a);
        assert_eq!(used(), charged, "a shared value stays charged");
        retire(shared);
        assert_eq!(used(), 0, "a retired value is charged nothing");
        // A kept box (holding a longer buffer) takes a shorter value, and a
        // copy made into one gets the copied value, not the old digits.
        let b = Value::from_big(big(70, -3));
        let c = computed_big(&big(300, 1), |x| *x += 1u8);
        assert_eq!(c.0, big(300, 2));
        match &b {
            Value::Big(h) => assert_eq!(h.0, big(70, -3)),
            _ => panic!("not big"),
        }
        drop(b);
        retire(Value::Big(c));
        assert_eq!(used(), 0);
    }
}
