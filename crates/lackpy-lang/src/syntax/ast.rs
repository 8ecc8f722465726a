//! The syntax tree, mirroring CPython 3.11's `ast` module node for node.
//!
//! Every node kind of CPython's grammar is here, the forbidden ones included,
//! because the validator reports forbidden constructs by their CPython node
//! name and line. Children are stored in CPython's field order so that a
//! breadth-first walk ([`crate::walk`]) visits nodes exactly as `ast.walk`
//! does. Every node that has a position in CPython (statements,
//! expressions, `except` clauses, parameters, keywords, import names,
//! patterns) has its line, 1-based, and its column, CPython's 0-based
//! `col_offset`. Nodes that carry no position in CPython (operators,
//! contexts, `arguments`, `comprehension`, `withitem`, `match_case`) carry
//! none here either.

use num_bigint::BigInt;

/// A source line number, 1-based.
pub type Line = u32;

/// A node's column as CPython's `col_offset` gives it: the 0-based UTF-8
/// byte offset of its first character within its line. A node starts
/// where its first token does, parentheses around a leading operand
/// included (`(a) + b` starts at the `(`, its `a` one byte later).
pub type Col = u32;

/// An identifier or string literal's text. Most are short and held inline
/// (up to 24 bytes), so a program's many names and keys cost no allocation
/// each, to build or to free.
pub type Text = compact_str::CompactString;

/// A whole program (`ast.Module`).
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// The top-level statements.
    pub body: Vec<Stmt>,
}

/// A statement with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    /// The line the statement starts on.
    pub line: Line,
    /// The column it starts at (`col_offset`).
    pub col: Col,
    /// What the statement is.
    pub kind: StmtKind,
}

/// A function definition (`def` / `async def`).
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionDef {
    /// The function's name.
    pub name: String,
    /// Its parameters.
    pub args: Box<Arguments>,
    /// Its body.
    pub body: Vec<Stmt>,
    /// Decorators, outermost first.
    pub decorator_list: Vec<Expr>,
    /// The return annotation.
    pub returns: Option<Box<Expr>>,
}

/// A `for` loop (`for` / `async for`).
#[derive(Debug, Clone, PartialEq)]
pub struct For {
    /// The loop target.
    pub target: Box<Expr>,
    /// The iterated expression.
    pub iter: Box<Expr>,
    /// The loop body.
    pub body: Vec<Stmt>,
    /// The `else` block.
    pub orelse: Vec<Stmt>,
}

/// A `try` statement (`try` / `try … except*`).
#[derive(Debug, Clone, PartialEq)]
pub struct Try {
    /// The guarded block.
    pub body: Vec<Stmt>,
    /// The `except` clauses.
    pub handlers: Vec<ExceptHandler>,
    /// The `else` block.
    pub orelse: Vec<Stmt>,
    /// The `finally` block.
    pub finalbody: Vec<Stmt>,
}

/// Statement kinds, one per CPython `stmt` subclass.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `def f(...): ...`
    FunctionDef(FunctionDef),
    /// `async def f(...): ...`
    AsyncFunctionDef(FunctionDef),
    /// `class C(...): ...`
    ClassDef {
        /// The class name.
        name: String,
        /// Positional base expressions.
        bases: Vec<Expr>,
        /// Keyword arguments (`metaclass=`).
        keywords: Vec<Keyword>,
        /// The class body.
        body: Vec<Stmt>,
        /// Decorators.
        decorator_list: Vec<Expr>,
    },
    /// `return [value]`
    Return(Option<Box<Expr>>),
    /// `del a, b`
    Delete(Vec<Expr>),
    /// `a = b = value`
    Assign {
        /// The targets, left to right.
        targets: Vec<Expr>,
        /// The assigned value.
        value: Box<Expr>,
    },
    /// `a += value`
    AugAssign {
        /// The target.
        target: Box<Expr>,
        /// The operator.
        op: Operator,
        /// The right-hand side.
        value: Box<Expr>,
    },
    /// `a: T [= value]`
    AnnAssign {
        /// The target.
        target: Box<Expr>,
        /// The annotation.
        annotation: Box<Expr>,
        /// The value, when present.
        value: Option<Box<Expr>>,
        /// Whether the target is a plain name not in parentheses.
        simple: bool,
    },
    /// `for target in iter: ...`
    For(For),
    /// `async for target in iter: ...`
    AsyncFor(For),
    /// `while test: ...`
    While {
        /// The condition.
        test: Box<Expr>,
        /// The body.
        body: Vec<Stmt>,
        /// The `else` block.
        orelse: Vec<Stmt>,
    },
    /// `if test: ... elif/else ...` (an `elif` is an `If` inside `orelse`).
    If {
        /// The condition.
        test: Box<Expr>,
        /// The body.
        body: Vec<Stmt>,
        /// The `else` block.
        orelse: Vec<Stmt>,
    },
    /// `with a as b, c: ...`
    With {
        /// The context items.
        items: Vec<WithItem>,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `async with ...: ...`
    AsyncWith {
        /// The context items.
        items: Vec<WithItem>,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `match subject: case ...`
    Match {
        /// The matched expression.
        subject: Box<Expr>,
        /// The cases.
        cases: Vec<MatchCase>,
    },
    /// `raise [exc [from cause]]`
    Raise {
        /// The raised exception.
        exc: Option<Box<Expr>>,
        /// The `from` cause.
        cause: Option<Box<Expr>>,
    },
    /// `try: ... except ...`
    Try(Try),
    /// `try: ... except* ...`
    TryStar(Try),
    /// `assert test[, msg]`
    Assert {
        /// The asserted condition.
        test: Box<Expr>,
        /// The message.
        msg: Option<Box<Expr>>,
    },
    /// `import a.b as c`
    Import(Vec<Alias>),
    /// `from .m import a as b`
    ImportFrom {
        /// The module, absent for `from . import x`.
        module: Option<String>,
        /// The imported names.
        names: Vec<Alias>,
        /// The number of leading dots.
        level: u32,
    },
    /// `global a, b`
    Global(Vec<String>),
    /// `nonlocal a, b`
    Nonlocal(Vec<String>),
    /// An expression statement.
    Expr(Box<Expr>),
    /// `pass`
    Pass,
    /// `break`
    Break,
    /// `continue`
    Continue,
}

/// An expression with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// The line the expression starts on.
    pub line: Line,
    /// The column it starts at (`col_offset`).
    pub col: Col,
    /// What the expression is.
    pub kind: ExprKind,
}

/// Expression kinds, one per CPython `expr` subclass.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// `a and b and c`
    BoolOp {
        /// `and` or `or`.
        op: BoolOp,
        /// The operands (two or more).
        values: Vec<Expr>,
    },
    /// `(target := value)`
    NamedExpr {
        /// The bound name.
        target: Box<Expr>,
        /// The value.
        value: Box<Expr>,
    },
    /// `left op right`
    BinOp {
        /// Left operand.
        left: Box<Expr>,
        /// The operator.
        op: Operator,
        /// Right operand.
        right: Box<Expr>,
    },
    /// `op operand`
    UnaryOp {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        operand: Box<Expr>,
    },
    /// `lambda args: body`
    Lambda {
        /// The parameters.
        args: Box<Arguments>,
        /// The body.
        body: Box<Expr>,
    },
    /// `body if test else orelse`
    IfExp {
        /// The condition.
        test: Box<Expr>,
        /// The value when true.
        body: Box<Expr>,
        /// The value when false.
        orelse: Box<Expr>,
    },
    /// `{k: v, **d}`; a `None` key marks a `**` unpacking.
    Dict {
        /// Keys, `None` for `**value`.
        keys: Vec<Option<Expr>>,
        /// Values.
        values: Vec<Expr>,
    },
    /// `{a, b}`
    Set(Vec<Expr>),
    /// `[elt for ...]`
    ListComp {
        /// The element.
        elt: Box<Expr>,
        /// The `for`/`if` clauses.
        generators: Vec<Comprehension>,
    },
    /// `{elt for ...}`
    SetComp {
        /// The element.
        elt: Box<Expr>,
        /// The `for`/`if` clauses.
        generators: Vec<Comprehension>,
    },
    /// `{key: value for ...}`
    DictComp {
        /// The key.
        key: Box<Expr>,
        /// The value.
        value: Box<Expr>,
        /// The `for`/`if` clauses.
        generators: Vec<Comprehension>,
    },
    /// `(elt for ...)`
    GeneratorExp {
        /// The element.
        elt: Box<Expr>,
        /// The `for`/`if` clauses.
        generators: Vec<Comprehension>,
    },
    /// `await value`
    Await(Box<Expr>),
    /// `yield [value]`
    Yield(Option<Box<Expr>>),
    /// `yield from value`
    YieldFrom(Box<Expr>),
    /// `left op1 c1 op2 c2 ...`
    Compare {
        /// The leftmost operand.
        left: Box<Expr>,
        /// The operators.
        ops: Vec<CmpOp>,
        /// The right operands, one per operator.
        comparators: Vec<Expr>,
    },
    /// `func(args, keywords)`
    Call {
        /// The called expression.
        func: Box<Expr>,
        /// Positional arguments (`*x` as `Starred`).
        args: Vec<Expr>,
        /// Keyword arguments (`**x` has no name).
        keywords: Vec<Keyword>,
    },
    /// One `{...}` field of an f-string.
    FormattedValue {
        /// The formatted expression.
        value: Box<Expr>,
        /// `-1` for none, else `'s'`, `'r'` or `'a'` as a code point.
        conversion: i32,
        /// The format spec, itself a `JoinedStr`.
        format_spec: Option<Box<Expr>>,
    },
    /// An f-string: literal `Constant` parts and `FormattedValue` fields.
    JoinedStr(Vec<Expr>),
    /// A literal.
    Constant(Constant),
    /// `value.attr`
    Attribute {
        /// The object.
        value: Box<Expr>,
        /// The attribute name.
        attr: Text,
        /// Load, store or delete.
        ctx: ExprContext,
    },
    /// `value[slice]`
    Subscript {
        /// The object.
        value: Box<Expr>,
        /// The index or `Slice`.
        slice: Box<Expr>,
        /// Load, store or delete.
        ctx: ExprContext,
    },
    /// `*value`
    Starred {
        /// The starred expression.
        value: Box<Expr>,
        /// Load or store.
        ctx: ExprContext,
    },
    /// A name.
    Name {
        /// The identifier.
        id: Text,
        /// Load, store or delete.
        ctx: ExprContext,
    },
    /// `[a, b]`
    List {
        /// The elements.
        elts: Vec<Expr>,
        /// Load, store or delete.
        ctx: ExprContext,
    },
    /// `(a, b)` or `a, b`
    Tuple {
        /// The elements.
        elts: Vec<Expr>,
        /// Load, store or delete.
        ctx: ExprContext,
    },
    /// `lower:upper:step` inside a subscript.
    Slice {
        /// The lower bound.
        lower: Option<Box<Expr>>,
        /// The upper bound.
        upper: Option<Box<Expr>>,
        /// The step.
        step: Option<Box<Expr>>,
    },
}

/// A literal value (`ast.Constant`).
#[derive(Debug, Clone, PartialEq)]
pub enum Constant {
    /// `None`
    None,
    /// `True` / `False`
    Bool(bool),
    /// An integer literal of any size.
    Int(BigInt),
    /// A float literal.
    Float(f64),
    /// An imaginary literal (`2j`): the imaginary part.
    Complex(f64),
    /// A string literal (after escapes and implicit concatenation).
    Str(Text),
    /// A bytes literal.
    Bytes(Vec<u8>),
    /// `...`
    Ellipsis,
}

/// Expression context: how a target is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExprContext {
    /// Read.
    Load,
    /// Assigned to.
    Store,
    /// Deleted.
    Del,
}

/// `and` / `or`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolOp {
    /// `and`
    And,
    /// `or`
    Or,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mult,
    /// `@`
    MatMult,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `**`
    Pow,
    /// `<<`
    LShift,
    /// `>>`
    RShift,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&`
    BitAnd,
    /// `//`
    FloorDiv,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `~`
    Invert,
    /// `not`
    Not,
    /// `+`
    UAdd,
    /// `-`
    USub,
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    LtE,
    /// `>`
    Gt,
    /// `>=`
    GtE,
    /// `is`
    Is,
    /// `is not`
    IsNot,
    /// `in`
    In,
    /// `not in`
    NotIn,
}

/// One `for ... in ... [if ...]` clause of a comprehension.
#[derive(Debug, Clone, PartialEq)]
pub struct Comprehension {
    /// The loop target.
    pub target: Expr,
    /// The iterated expression.
    pub iter: Expr,
    /// The filters.
    pub ifs: Vec<Expr>,
    /// Whether it is `async for`.
    pub is_async: bool,
}

/// An `except` clause.
#[derive(Debug, Clone, PartialEq)]
pub struct ExceptHandler {
    /// The line of the `except` keyword.
    pub line: Line,
    /// Its column (`col_offset`).
    pub col: Col,
    /// The caught type.
    pub type_: Option<Box<Expr>>,
    /// The `as` name.
    pub name: Option<String>,
    /// The handler body.
    pub body: Vec<Stmt>,
}

/// The parameter list of a function or lambda.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Arguments {
    /// Positional-only parameters (before `/`).
    pub posonlyargs: Vec<Arg>,
    /// Ordinary parameters.
    pub args: Vec<Arg>,
    /// `*args`.
    pub vararg: Option<Arg>,
    /// Keyword-only parameters.
    pub kwonlyargs: Vec<Arg>,
    /// Defaults of keyword-only parameters (`None` where absent).
    pub kw_defaults: Vec<Option<Expr>>,
    /// `**kwargs`.
    pub kwarg: Option<Arg>,
    /// Defaults of the last positional parameters.
    pub defaults: Vec<Expr>,
}

/// One parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// The line of the parameter.
    pub line: Line,
    /// Its column (`col_offset`).
    pub col: Col,
    /// The parameter name.
    pub arg: String,
    /// The annotation.
    pub annotation: Option<Box<Expr>>,
}

/// A keyword argument in a call or class definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyword {
    /// The line of the keyword.
    pub line: Line,
    /// Its column (`col_offset`): the name's, or the `**`'s.
    pub col: Col,
    /// The name; `None` for `**value`.
    pub arg: Option<String>,
    /// The value.
    pub value: Expr,
}

/// One name of an `import`.
#[derive(Debug, Clone, PartialEq)]
pub struct Alias {
    /// The line of the name.
    pub line: Line,
    /// Its column (`col_offset`).
    pub col: Col,
    /// The (dotted) name, or `*`.
    pub name: String,
    /// The `as` name.
    pub asname: Option<String>,
}

/// One item of a `with` statement.
#[derive(Debug, Clone, PartialEq)]
pub struct WithItem {
    /// The context manager expression.
    pub context_expr: Expr,
    /// The `as` target.
    pub optional_vars: Option<Box<Expr>>,
}

/// One `case` of a `match` statement.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchCase {
    /// The pattern.
    pub pattern: Pattern,
    /// The `if` guard.
    pub guard: Option<Box<Expr>>,
    /// The case body.
    pub body: Vec<Stmt>,
}

/// A `match` pattern with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Pattern {
    /// The line the pattern starts on.
    pub line: Line,
    /// The column it starts at (`col_offset`).
    pub col: Col,
    /// What the pattern is.
    pub kind: PatternKind,
}

/// Pattern kinds, one per CPython `pattern` subclass.
#[derive(Debug, Clone, PartialEq)]
pub enum PatternKind {
    /// A value pattern (`1`, `a.b`, `-1`, `'s'`).
    MatchValue(Box<Expr>),
    /// `None`, `True`, `False`.
    MatchSingleton(Constant),
    /// `[p, q]` / `(p, q)` / `p, q`.
    MatchSequence(Vec<Pattern>),
    /// `{k: p, **rest}`.
    MatchMapping {
        /// The keys.
        keys: Vec<Expr>,
        /// The value patterns.
        patterns: Vec<Pattern>,
        /// The `**rest` name.
        rest: Option<String>,
    },
    /// `Cls(p, k=q)`.
    MatchClass {
        /// The class expression.
        cls: Box<Expr>,
        /// Positional patterns.
        patterns: Vec<Pattern>,
        /// Keyword names.
        kwd_attrs: Vec<String>,
        /// Keyword patterns.
        kwd_patterns: Vec<Pattern>,
    },
    /// `*name` (or `*_`).
    MatchStar(Option<String>),
    /// `p as name`, a capture `name`, or the wildcard `_`.
    MatchAs {
        /// The inner pattern.
        pattern: Option<Box<Pattern>>,
        /// The bound name.
        name: Option<String>,
    },
    /// `p | q`.
    MatchOr(Vec<Pattern>),
}
