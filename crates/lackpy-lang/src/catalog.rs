//! The language's vocabulary of builtins: every method name some builtin
//! type has.
//!
//! Plain data below every other layer, so that the validator, the spec,
//! the value model and the interpreter can all read it.

macro_rules! method_ids {
    ($($id:ident => $name:literal),* $(,)?) => {
        /// Every method name some builtin type has.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub(crate) enum MethodId { $($id),* }
        impl MethodId {
            /// Every method id, in declaration order.
            #[cfg(test)]
            pub(crate) const ALL: &[MethodId] = &[$(MethodId::$id),*];
            /// The id of a method name, if any type has such a method.
            pub(crate) fn from_name(name: &str) -> Option<MethodId> {
                Some(match name { $($name => MethodId::$id,)* _ => return None })
            }
            /// The method's name.
            pub(crate) fn name(self) -> &'static str {
                match self { $(MethodId::$id => $name),* }
            }
        }
    };
}

method_ids! {
    // str
    Capitalize => "capitalize", Casefold => "casefold", Center => "center", Count => "count",
    Encode => "encode", Endswith => "endswith", Expandtabs => "expandtabs", Find => "find",
    Format => "format", FormatMap => "format_map", Index => "index", Isalnum => "isalnum",
    Isalpha => "isalpha", Isascii => "isascii", Isdecimal => "isdecimal", Isdigit => "isdigit",
    Isidentifier => "isidentifier", Islower => "islower", Isnumeric => "isnumeric",
    Isprintable => "isprintable", Isspace => "isspace", Istitle => "istitle", Isupper => "isupper",
    Join => "join", Ljust => "ljust", Lower => "lower", Lstrip => "lstrip", Partition => "partition",
    Removeprefix => "removeprefix", Removesuffix => "removesuffix", Replace => "replace",
    Rfind => "rfind", Rindex => "rindex", Rjust => "rjust", Rpartition => "rpartition",
    Rsplit => "rsplit", Rstrip => "rstrip", Split => "split", Splitlines => "splitlines",
    Startswith => "startswith", Strip => "strip", Swapcase => "swapcase", Title => "title",
    Upper => "upper", Zfill => "zfill", Decode => "decode", Hex => "hex",
    // list
    Append => "append", Clear => "clear", Copy => "copy", Extend => "extend", Insert => "insert",
    Pop => "pop", Remove => "remove", Reverse => "reverse", Sort => "sort",
    // dict
    Fromkeys => "fromkeys", Get => "get", Items => "items", Keys => "keys", Popitem => "popitem",
    Setdefault => "setdefault", Update => "update", Values => "values",
    // set
    Add => "add", Difference => "difference", DifferenceUpdate => "difference_update",
    Discard => "discard", Intersection => "intersection", IntersectionUpdate => "intersection_update",
    Isdisjoint => "isdisjoint", Issubset => "issubset", Issuperset => "issuperset",
    SymmetricDifference => "symmetric_difference",
    SymmetricDifferenceUpdate => "symmetric_difference_update", Union => "union",
    // numbers
    BitLength => "bit_length", BitCount => "bit_count", Conjugate => "conjugate",
    AsIntegerRatio => "as_integer_ratio", IsInteger => "is_integer",
}
