//! The language's vocabulary of builtins: the builtin types, the builtin
//! functions, every builtin a program may call by name with the positional
//! arguments it takes ([`BUILTINS`]), and every method name some type has.
//! (Each type's methods are declared in a table next to their handlers,
//! `types/<type>/methods.rs`.)
//!
//! Plain data below every other layer, so that the validator, the spec,
//! the value model and the interpreter can all read it.

/// No upper bound on the positional arguments ([`Arity::max`]).
pub(crate) const MANY: u8 = u8::MAX;

/// How many positional arguments a builtin or a method takes:
/// `min..=max`, [`MANY`] for no upper bound. Each handler checks its own
/// (CPython words the error differently from one function to the next);
/// the declaration is what the agreement test holds the handler to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Arity {
    /// The fewest positional arguments.
    pub min: u8,
    /// The most positional arguments, or [`MANY`].
    pub max: u8,
}

impl Arity {
    /// `min..=max` positional arguments.
    pub(crate) const fn new(min: u8, max: u8) -> Self {
        Arity { min, max }
    }

    /// Whether `n` positional arguments are within the declaration.
    #[cfg(test)]
    pub(crate) fn admits(self, n: usize) -> bool {
        n >= usize::from(self.min) && (self.max == MANY || n <= usize::from(self.max))
    }
}

macro_rules! method_ids {
    ($($id:ident => $name:literal),* $(,)?) => {
        /// Every method name some builtin type has.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub(crate) enum MethodId { $($id),* }
        impl MethodId {
            /// Every method id, in declaration order.
            pub(crate) const ALL: &[MethodId] = &[$(MethodId::$id),*];
            /// How many method ids there are.
            pub(crate) const COUNT: usize = MethodId::ALL.len();
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
    Translate => "translate", Maketrans => "maketrans",
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

macro_rules! type_ids {
    ($($id:ident => $name:literal),* $(,)?) => {
        /// The builtin types a program can name or observe.
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        pub(crate) enum TypeId { $($id),* }
        impl TypeId {
            /// Every type id, in declaration order.
            #[cfg(test)]
            pub(crate) const ALL: &[TypeId] = &[$(TypeId::$id),*];
            /// Python's name for the type (`type(x).__name__`).
            pub(crate) const fn name(self) -> &'static str {
                match self { $(TypeId::$id => $name),* }
            }
        }
    };
}

type_ids! {
    NoneType => "NoneType",
    Bool => "bool",
    Int => "int",
    Float => "float",
    Complex => "complex",
    Str => "str",
    Bytes => "bytes",
    List => "list",
    Tuple => "tuple",
    Dict => "dict",
    Set => "set",
    Range => "range",
    Type => "type",
    BuiltinFunction => "builtin_function_or_method",
    Function => "function",
    MethodDescriptor => "method_descriptor",
    ListIterator => "list_iterator",
    ListReverseIterator => "list_reverseiterator",
    TupleIterator => "tuple_iterator",
    StrIterator => "str_ascii_iterator",
    RangeIterator => "range_iterator",
    LongRangeIterator => "longrange_iterator",
    SetIterator => "set_iterator",
    DictKeyIterator => "dict_keyiterator",
    DictValueIterator => "dict_valueiterator",
    DictItemIterator => "dict_itemiterator",
    DictReverseKeyIterator => "dict_reversekeyiterator",
    Reversed => "reversed",
    Enumerate => "enumerate",
    Zip => "zip",
    DictKeys => "dict_keys",
    DictValues => "dict_values",
    DictItems => "dict_items",
    Ellipsis => "ellipsis",
    GenericAlias => "types.GenericAlias",
    Object => "object",
    NotImplementedType => "NotImplementedType",
    // The builtin exception classes: values a program can name (there are
    // no instances: the language has no `raise` and no `try`).
    ExcArithmeticError => "ArithmeticError",
    ExcAssertionError => "AssertionError",
    ExcAttributeError => "AttributeError",
    ExcBaseException => "BaseException",
    ExcBaseExceptionGroup => "BaseExceptionGroup",
    ExcBlockingIOError => "BlockingIOError",
    ExcBrokenPipeError => "BrokenPipeError",
    ExcBufferError => "BufferError",
    ExcBytesWarning => "BytesWarning",
    ExcChildProcessError => "ChildProcessError",
    ExcConnectionAbortedError => "ConnectionAbortedError",
    ExcConnectionError => "ConnectionError",
    ExcConnectionRefusedError => "ConnectionRefusedError",
    ExcConnectionResetError => "ConnectionResetError",
    ExcDeprecationWarning => "DeprecationWarning",
    ExcEOFError => "EOFError",
    ExcEncodingWarning => "EncodingWarning",
    ExcException => "Exception",
    ExcExceptionGroup => "ExceptionGroup",
    ExcFileExistsError => "FileExistsError",
    ExcFileNotFoundError => "FileNotFoundError",
    ExcFloatingPointError => "FloatingPointError",
    ExcFutureWarning => "FutureWarning",
    ExcGeneratorExit => "GeneratorExit",
    ExcImportError => "ImportError",
    ExcImportWarning => "ImportWarning",
    ExcIndentationError => "IndentationError",
    ExcIndexError => "IndexError",
    ExcInterruptedError => "InterruptedError",
    ExcIsADirectoryError => "IsADirectoryError",
    ExcKeyError => "KeyError",
    ExcKeyboardInterrupt => "KeyboardInterrupt",
    ExcLookupError => "LookupError",
    ExcMemoryError => "MemoryError",
    ExcModuleNotFoundError => "ModuleNotFoundError",
    ExcNameError => "NameError",
    ExcNotADirectoryError => "NotADirectoryError",
    ExcNotImplementedError => "NotImplementedError",
    ExcOSError => "OSError",
    ExcOverflowError => "OverflowError",
    ExcPendingDeprecationWarning => "PendingDeprecationWarning",
    ExcPermissionError => "PermissionError",
    ExcProcessLookupError => "ProcessLookupError",
    ExcRecursionError => "RecursionError",
    ExcReferenceError => "ReferenceError",
    ExcResourceWarning => "ResourceWarning",
    ExcRuntimeError => "RuntimeError",
    ExcRuntimeWarning => "RuntimeWarning",
    ExcStopAsyncIteration => "StopAsyncIteration",
    ExcStopIteration => "StopIteration",
    ExcSyntaxError => "SyntaxError",
    ExcSyntaxWarning => "SyntaxWarning",
    ExcSystemError => "SystemError",
    ExcSystemExit => "SystemExit",
    ExcTabError => "TabError",
    ExcTimeoutError => "TimeoutError",
    ExcTypeError => "TypeError",
    ExcUnboundLocalError => "UnboundLocalError",
    ExcUnicodeDecodeError => "UnicodeDecodeError",
    ExcUnicodeEncodeError => "UnicodeEncodeError",
    ExcUnicodeError => "UnicodeError",
    ExcUnicodeTranslateError => "UnicodeTranslateError",
    ExcUnicodeWarning => "UnicodeWarning",
    ExcUserWarning => "UserWarning",
    ExcValueError => "ValueError",
    ExcWarning => "Warning",
    ExcZeroDivisionError => "ZeroDivisionError",
}

macro_rules! builtin_ids {
    ($($id:ident => $name:literal),* $(,)?) => {
        /// The builtin functions (the builtin types are [`TypeId`]s).
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub(crate) enum BuiltinId { $($id),* }
        impl BuiltinId {
            /// Every builtin function id, in declaration order.
            #[cfg(test)]
            pub(crate) const ALL: &[BuiltinId] = &[$(BuiltinId::$id),*];
            /// The function's name.
            pub(crate) const fn name(self) -> &'static str {
                match self { $(BuiltinId::$id => $name),* }
            }
        }
    };
}

builtin_ids! {
    Len => "len",
    Sorted => "sorted",
    Min => "min",
    Max => "max",
    Sum => "sum",
    Any => "any",
    All => "all",
    Abs => "abs",
    Round => "round",
    Isinstance => "isinstance",
    Print => "print",
    SortBy => "sort_by",
}

/// What a builtin name means when no program variable shadows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BuiltinName {
    /// A builtin function.
    Func(BuiltinId),
    /// A builtin type, called as a constructor or conversion.
    Type(TypeId),
}

impl BuiltinName {
    /// The name a program calls it by.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            BuiltinName::Func(f) => f.name(),
            BuiltinName::Type(t) => t.name(),
        }
    }
}

/// A builtin a program may call by name: a function or a type, and the
/// positional arguments it takes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Builtin {
    /// The function or type (its name is the id's).
    pub what: BuiltinName,
    /// The positional arguments (`min` counts the required ones, which a
    /// few builtins also take by keyword).
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the agreement test holds each handler to it")
    )]
    pub arity: Arity,
}

const fn func(id: BuiltinId, min: u8, max: u8) -> Builtin {
    Builtin {
        what: BuiltinName::Func(id),
        arity: Arity::new(min, max),
    }
}

const fn ty(id: TypeId, min: u8, max: u8) -> Builtin {
    Builtin {
        what: BuiltinName::Type(id),
        arity: Arity::new(min, max),
    }
}

/// Every builtin a program may call (language.md §2): the one list the
/// validator's whitelist, the spec and the interpreter's name resolution
/// read. The interpreter runs each by its id (`builtins`).
pub(crate) const BUILTINS: &[Builtin] = &[
    func(BuiltinId::Len, 1, 1),
    func(BuiltinId::Sorted, 1, 1),
    ty(TypeId::Reversed, 1, 1),
    ty(TypeId::Enumerate, 1, 2),
    ty(TypeId::Zip, 0, MANY),
    ty(TypeId::Range, 1, 3),
    func(BuiltinId::Min, 1, MANY),
    func(BuiltinId::Max, 1, MANY),
    func(BuiltinId::Sum, 1, 2),
    func(BuiltinId::Any, 1, 1),
    func(BuiltinId::All, 1, 1),
    func(BuiltinId::Abs, 1, 1),
    func(BuiltinId::Round, 1, 2),
    ty(TypeId::Str, 0, 3),
    ty(TypeId::Int, 0, 2),
    ty(TypeId::Float, 0, 1),
    ty(TypeId::Bool, 0, 1),
    ty(TypeId::List, 0, 1),
    ty(TypeId::Dict, 0, 1),
    ty(TypeId::Set, 0, 1),
    ty(TypeId::Tuple, 0, 1),
    func(BuiltinId::Isinstance, 2, 2),
    func(BuiltinId::Print, 0, MANY),
    func(BuiltinId::SortBy, 2, 3),
];

/// The builtin exception classes, by name (`IOError` and
/// `EnvironmentError` are `OSError` itself, as in CPython).
pub(crate) fn exception_type(name: &str) -> Option<TypeId> {
    Some(match name {
        "ArithmeticError" => TypeId::ExcArithmeticError,
        "AssertionError" => TypeId::ExcAssertionError,
        "AttributeError" => TypeId::ExcAttributeError,
        "BaseException" => TypeId::ExcBaseException,
        "BaseExceptionGroup" => TypeId::ExcBaseExceptionGroup,
        "BlockingIOError" => TypeId::ExcBlockingIOError,
        "BrokenPipeError" => TypeId::ExcBrokenPipeError,
        "BufferError" => TypeId::ExcBufferError,
        "BytesWarning" => TypeId::ExcBytesWarning,
        "ChildProcessError" => TypeId::ExcChildProcessError,
        "ConnectionAbortedError" => TypeId::ExcConnectionAbortedError,
        "ConnectionError" => TypeId::ExcConnectionError,
        "ConnectionRefusedError" => TypeId::ExcConnectionRefusedError,
        "ConnectionResetError" => TypeId::ExcConnectionResetError,
        "DeprecationWarning" => TypeId::ExcDeprecationWarning,
        "EOFError" => TypeId::ExcEOFError,
        "EncodingWarning" => TypeId::ExcEncodingWarning,
        "Exception" => TypeId::ExcException,
        "ExceptionGroup" => TypeId::ExcExceptionGroup,
        "FileExistsError" => TypeId::ExcFileExistsError,
        "FileNotFoundError" => TypeId::ExcFileNotFoundError,
        "FloatingPointError" => TypeId::ExcFloatingPointError,
        "FutureWarning" => TypeId::ExcFutureWarning,
        "GeneratorExit" => TypeId::ExcGeneratorExit,
        "ImportError" => TypeId::ExcImportError,
        "ImportWarning" => TypeId::ExcImportWarning,
        "IndentationError" => TypeId::ExcIndentationError,
        "IndexError" => TypeId::ExcIndexError,
        "InterruptedError" => TypeId::ExcInterruptedError,
        "IsADirectoryError" => TypeId::ExcIsADirectoryError,
        "KeyError" => TypeId::ExcKeyError,
        "KeyboardInterrupt" => TypeId::ExcKeyboardInterrupt,
        "LookupError" => TypeId::ExcLookupError,
        "MemoryError" => TypeId::ExcMemoryError,
        "ModuleNotFoundError" => TypeId::ExcModuleNotFoundError,
        "NameError" => TypeId::ExcNameError,
        "NotADirectoryError" => TypeId::ExcNotADirectoryError,
        "NotImplementedError" => TypeId::ExcNotImplementedError,
        "OSError" => TypeId::ExcOSError,
        "OverflowError" => TypeId::ExcOverflowError,
        "PendingDeprecationWarning" => TypeId::ExcPendingDeprecationWarning,
        "PermissionError" => TypeId::ExcPermissionError,
        "ProcessLookupError" => TypeId::ExcProcessLookupError,
        "RecursionError" => TypeId::ExcRecursionError,
        "ReferenceError" => TypeId::ExcReferenceError,
        "ResourceWarning" => TypeId::ExcResourceWarning,
        "RuntimeError" => TypeId::ExcRuntimeError,
        "RuntimeWarning" => TypeId::ExcRuntimeWarning,
        "StopAsyncIteration" => TypeId::ExcStopAsyncIteration,
        "StopIteration" => TypeId::ExcStopIteration,
        "SyntaxError" => TypeId::ExcSyntaxError,
        "SyntaxWarning" => TypeId::ExcSyntaxWarning,
        "SystemError" => TypeId::ExcSystemError,
        "SystemExit" => TypeId::ExcSystemExit,
        "TabError" => TypeId::ExcTabError,
        "TimeoutError" => TypeId::ExcTimeoutError,
        "TypeError" => TypeId::ExcTypeError,
        "UnboundLocalError" => TypeId::ExcUnboundLocalError,
        "UnicodeDecodeError" => TypeId::ExcUnicodeDecodeError,
        "UnicodeEncodeError" => TypeId::ExcUnicodeEncodeError,
        "UnicodeError" => TypeId::ExcUnicodeError,
        "UnicodeTranslateError" => TypeId::ExcUnicodeTranslateError,
        "UnicodeWarning" => TypeId::ExcUnicodeWarning,
        "UserWarning" => TypeId::ExcUserWarning,
        "ValueError" => TypeId::ExcValueError,
        "Warning" => TypeId::ExcWarning,
        "ZeroDivisionError" => TypeId::ExcZeroDivisionError,
        "IOError" | "EnvironmentError" => TypeId::ExcOSError,
        _ => return None,
    })
}

/// The names of [`BUILTINS`], in order.
pub(crate) const BUILTIN_NAMES: [&str; BUILTINS.len()] = {
    let mut names = [""; BUILTINS.len()];
    let mut i = 0;
    while i < BUILTINS.len() {
        names[i] = BUILTINS[i].what.name();
        i += 1;
    }
    names
};

/// The builtin a name means, if any.
pub(crate) fn builtin_by_name(name: &str) -> Option<BuiltinName> {
    BUILTINS
        .iter()
        .find(|b| b.what.name() == name)
        .map(|b| b.what)
}
