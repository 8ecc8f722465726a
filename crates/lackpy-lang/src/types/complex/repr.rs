//! The repr of a complex number, as CPython writes it.

use crate::text::format::float_repr;

/// CPython's repr of a complex number.
pub(crate) fn complex_repr(re: f64, im: f64) -> String {
    fn part(x: f64) -> String {
        let s = float_repr(x);
        match s.strip_suffix(".0") {
            Some(t) => t.to_owned(),
            None => s,
        }
    }
    if re == 0.0 && re.is_sign_positive() {
        return format!("{}j", part(im));
    }
    let im_s = part(im);
    let sign = if im_s.starts_with('-') || im.is_nan() && im_s.starts_with('-') {
        ""
    } else {
        "+"
    };
    format!("({}{}{}j)", part(re), sign, im_s)
}
