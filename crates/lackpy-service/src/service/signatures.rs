//! Tool signatures for the validator: each namespace tool's declared
//! arguments ([`ArgSpec`]) as a [`CallSignature`], so a call's keywords,
//! count and constant values are checked before a program runs.

use lackpy_lang::{CallSignature, Lit, ParamSig, TypeHint};
use lackpy_sources::{ArgSpec, Toolbox};

use super::profile::Namespace;

/// A JSON value as a literal a program could write.
fn lit(v: &serde_json::Value) -> Lit {
    match v {
        serde_json::Value::Null => Lit::None,
        serde_json::Value::Bool(b) => Lit::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Lit::Int(i),
            None => n
                .as_f64()
                .map_or_else(|| Lit::Other(n.to_string()), Lit::Float),
        },
        serde_json::Value::String(s) => Lit::Str(s.clone()),
        other => Lit::Other(other.to_string()),
    }
}

/// One declared argument as a parameter.
fn param(a: &ArgSpec) -> ParamSig {
    let mut p = ParamSig::new(a.name.clone(), &a.type_name, a.required);
    p.default = a.default.as_ref().map(lit);
    p.choices = a.choices.iter().map(lit).collect();
    p
}

/// The signature a tool is called by (`called`, an alias or its name).
pub(crate) fn signature(called: &str, args: &[ArgSpec], returns: &str) -> CallSignature {
    let mut sig = CallSignature::new(called, args.iter().map(param).collect());
    if args.is_empty() {
        // A tool that declares nothing may take anything.
        sig.variadic = true;
        sig.open_keywords = true;
    }
    if TypeHint::parse(returns) != TypeHint::Any {
        sig.returns = Some(returns.to_string());
    }
    sig
}

/// The signatures of `ns`'s tools, by the names programs call them.
pub(crate) fn of_namespace(toolbox: &Toolbox, ns: &Namespace) -> Vec<CallSignature> {
    ns.entries
        .iter()
        .filter_map(|(called, name)| {
            let spec = toolbox.spec(name)?;
            Some(signature(called, &spec.args, &spec.returns))
        })
        .collect()
}
