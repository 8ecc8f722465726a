//! Call signatures: what a tool or builtin takes, for checking calls
//! before a program runs and for showing them to people and models.

use std::fmt;

/// A literal value a signature names (a default or an enum choice): the
/// JSON-like scalars a program can write as a constant.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    /// `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// Anything else (a list, a dict): shown, never compared.
    Other(String),
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lit::None => f.write_str("None"),
            Lit::Bool(true) => f.write_str("True"),
            Lit::Bool(false) => f.write_str("False"),
            Lit::Int(i) => write!(f, "{i}"),
            Lit::Float(x) => write!(f, "{x:?}"),
            Lit::Str(s) => {
                f.write_str("'")?;
                for c in s.chars() {
                    match c {
                        '\\' => f.write_str("\\\\")?,
                        '\'' => f.write_str("\\'")?,
                        '\n' => f.write_str("\\n")?,
                        '\t' => f.write_str("\\t")?,
                        '\r' => f.write_str("\\r")?,
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("'")
            }
            Lit::Other(s) => f.write_str(s),
        }
    }
}

/// A parameter's type, parsed from its display string (`str`,
/// `list[str]`, `Literal['c', 'f']`, `str | None`); anything not
/// understood is [`TypeHint::Other`], which accepts every value.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeHint {
    /// Any value.
    Any,
    /// `None`.
    None,
    /// `bool`.
    Bool,
    /// `int` (a `bool` is accepted, as in Python).
    Int,
    /// `float` (an `int` is accepted, as in Python's typing).
    Float,
    /// `str`.
    Str,
    /// `list[...]`, `tuple[...]`, `set[...]` and friends; the text shown.
    Seq(String),
    /// `dict[...]`; the text shown.
    Dict(String),
    /// A function (`Callable`).
    Callable,
    /// `Literal[...]`: one of these values.
    Literal(Vec<Lit>),
    /// `a | b` or `Optional[a]`.
    Union(Vec<TypeHint>),
    /// A type not checked (`Iterable`, a class name): accepts every
    /// value, shown as written.
    Other(String),
}

impl TypeHint {
    /// Parses a type's display string; unknown forms are [`TypeHint::Other`].
    pub fn parse(text: &str) -> TypeHint {
        let t = text.trim();
        let parts = split_top(t, '|');
        if parts.len() > 1 {
            return TypeHint::Union(parts.iter().map(|p| TypeHint::parse(p)).collect());
        }
        let (head, inner) = match t.split_once('[') {
            Some((h, rest)) => (h.trim(), rest.strip_suffix(']').unwrap_or(rest)),
            None => (t, ""),
        };
        let head = head.rsplit('.').next().unwrap_or(head);
        match head {
            "str" | "string" => TypeHint::Str,
            "int" | "integer" => TypeHint::Int,
            "float" | "number" => TypeHint::Float,
            "bool" | "boolean" => TypeHint::Bool,
            "None" | "NoneType" | "null" => TypeHint::None,
            "list" | "List" | "tuple" | "Tuple" | "set" | "Set" | "Sequence" | "array" => {
                TypeHint::Seq(t.to_string())
            }
            "dict" | "Dict" | "Mapping" | "object" => TypeHint::Dict(t.to_string()),
            "Callable" | "callable" => TypeHint::Callable,
            "Optional" => TypeHint::Union(vec![TypeHint::parse(inner), TypeHint::None]),
            "Union" => TypeHint::Union(
                split_top(inner, ',')
                    .iter()
                    .map(|p| TypeHint::parse(p))
                    .collect(),
            ),
            "Literal" => {
                let lits: Option<Vec<Lit>> =
                    split_top(inner, ',').iter().map(|p| parse_lit(p)).collect();
                lits.map_or(TypeHint::Any, TypeHint::Literal)
            }
            "Any" | "any" | "" => TypeHint::Any,
            _ => TypeHint::Other(t.to_string()),
        }
    }
}

/// `text` split at `sep` outside brackets and quotes.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[' | '(') => depth += 1,
            (None, ']' | ')') => depth -= 1,
            (None, c) if c == sep && depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts.retain(|p| !p.is_empty());
    parts
}

/// A literal as written in a `Literal[...]`.
fn parse_lit(text: &str) -> Option<Lit> {
    let t = text.trim();
    for q in ['\'', '"'] {
        if let Some(s) = t.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return Some(Lit::Str(s.to_string()));
        }
    }
    match t {
        "None" => Some(Lit::None),
        "True" => Some(Lit::Bool(true)),
        "False" => Some(Lit::Bool(false)),
        _ => t
            .parse::<i64>()
            .map(Lit::Int)
            .or_else(|_| t.parse::<f64>().map(Lit::Float))
            .ok(),
    }
}

impl fmt::Display for TypeHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeHint::Any => f.write_str("Any"),
            TypeHint::None => f.write_str("None"),
            TypeHint::Bool => f.write_str("bool"),
            TypeHint::Int => f.write_str("int"),
            TypeHint::Float => f.write_str("float"),
            TypeHint::Str => f.write_str("str"),
            TypeHint::Seq(t) | TypeHint::Dict(t) | TypeHint::Other(t) => f.write_str(t),
            TypeHint::Callable => f.write_str("Callable"),
            TypeHint::Literal(ls) => {
                let items: Vec<String> = ls.iter().map(ToString::to_string).collect();
                write!(f, "Literal[{}]", items.join(", "))
            }
            TypeHint::Union(ts) => {
                let items: Vec<String> = ts.iter().map(ToString::to_string).collect();
                f.write_str(&items.join(" | "))
            }
        }
    }
}

/// One parameter of a [`CallSignature`].
#[derive(Debug, Clone, PartialEq)]
pub struct ParamSig {
    /// Its name (also its keyword).
    pub name: String,
    /// Its type.
    pub ty: TypeHint,
    /// Whether a call must pass it.
    pub required: bool,
    /// Its default, shown when it has one.
    pub default: Option<Lit>,
    /// The values it accepts, when it is an enum (empty: any of its type).
    pub choices: Vec<Lit>,
    /// Whether it can be passed by keyword (builtins' are mostly not).
    pub keyword: bool,
    /// Whether it can be passed by position.
    pub positional: bool,
    /// Whether a constant argument's type and value are checked (a
    /// builtin's are left to its own, CPython's, run-time errors).
    pub checked: bool,
}

impl ParamSig {
    /// A positional-or-keyword parameter of type `ty` (a display string).
    pub fn new(name: impl Into<String>, ty: &str, required: bool) -> ParamSig {
        ParamSig {
            name: name.into(),
            ty: TypeHint::parse(ty),
            required,
            default: None,
            choices: Vec::new(),
            keyword: true,
            positional: true,
            checked: true,
        }
    }
}

/// What a callable takes: checked at every call the validator can see.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSignature {
    /// The name programs call it by.
    pub name: String,
    /// Its parameters, in positional order.
    pub params: Vec<ParamSig>,
    /// Takes any number of further positional arguments (`*args`).
    pub variadic: bool,
    /// Takes any further keyword arguments (`**kwargs`).
    pub open_keywords: bool,
    /// What it returns, for display (`None`: not shown).
    pub returns: Option<String>,
}

impl CallSignature {
    /// A signature with these parameters, closed to other arguments.
    pub fn new(name: impl Into<String>, params: Vec<ParamSig>) -> CallSignature {
        CallSignature {
            name: name.into(),
            params,
            variadic: false,
            open_keywords: false,
            returns: None,
        }
    }
}

impl fmt::Display for CallSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        let positional_only = self.params.iter().any(|p| !p.keyword);
        let mut star_shown = false;
        for (i, p) in self.params.iter().enumerate() {
            if !p.positional && !star_shown {
                parts.push(if self.variadic { "*args" } else { "*" }.into());
                star_shown = true;
            }
            let mut s = p.name.clone();
            let eq = if p.ty == TypeHint::Any {
                "="
            } else {
                s.push_str(&format!(": {}", p.ty));
                " = "
            };
            match (&p.default, p.required) {
                (Some(d), _) => s.push_str(&format!("{eq}{d}")),
                (None, false) => s.push_str(&format!("{eq}...")),
                (None, true) => {}
            }
            parts.push(s);
            let next_keyword = self.params.get(i + 1).is_some_and(|n| n.keyword);
            if positional_only && !p.keyword && (next_keyword || i + 1 == self.params.len()) {
                parts.push("/".into());
            }
        }
        if self.variadic && !star_shown {
            parts.push("*args".into());
        }
        if self.open_keywords {
            parts.push("**kwargs".into());
        }
        write!(f, "{}({})", self.name, parts.join(", "))?;
        if let Some(r) = &self.returns {
            write!(f, " -> {r}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_display_strings() {
        assert_eq!(TypeHint::parse("str"), TypeHint::Str);
        assert_eq!(
            TypeHint::parse("str | None"),
            TypeHint::Union(vec![TypeHint::Str, TypeHint::None])
        );
        assert_eq!(
            TypeHint::parse("Literal['c', 'f']"),
            TypeHint::Literal(vec![Lit::Str("c".into()), Lit::Str("f".into())])
        );
        assert_eq!(TypeHint::parse("list[str]").to_string(), "list[str]");
        assert_eq!(
            TypeHint::parse("Whatever[x]"),
            TypeHint::Other("Whatever[x]".into())
        );
        assert_eq!(
            TypeHint::parse("Optional[int]"),
            TypeHint::Union(vec![TypeHint::Int, TypeHint::None])
        );
    }
}
