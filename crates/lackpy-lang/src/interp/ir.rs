//! The resolved program the evaluator runs.
//!
//! [`super::resolve`] turns the syntax tree into this form once per run:
//! every name is resolved to a slot (module globals, comprehension and lambda
//! locals, enclosing comprehension frames), constants are pre-built values,
//! method names are interned and calls know their shape. Evaluating it needs
//! no string hashing and no cloning of tree nodes.

use std::cell::OnceCell;
use std::rc::Rc;

use crate::syntax::ast::{CmpOp, Operator, UnaryOp};
use crate::syntax::catalog::BuiltinName;
use crate::syntax::catalog::MethodId;
use crate::types::formatting::PercentTemplate;
use crate::value::{StrRc, Value};

/// Where a name lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameRef {
    /// A module-level name (slot in the globals table).
    Global(u32),
    /// A local of the innermost comprehension or lambda frame.
    Local(u32),
    /// A local of an enclosing comprehension frame, `depth` frames out.
    Outer(u32, u32),
}

/// What an unbound global name means.
pub(crate) enum Fallback {
    /// Nothing: NameError.
    None,
    /// A builtin function or type.
    Builtin(BuiltinName),
    /// A tool.
    Tool(Value),
    /// A builtin constant or class a program names but cannot call
    /// (`Ellipsis`, `NotImplemented`, `object`, `ValueError`).
    Value(Value),
}

/// A module-level name.
pub(crate) struct GlobalInfo {
    pub name: Rc<str>,
    pub fallback: Fallback,
}

/// A resolved program.
pub(crate) struct Program {
    pub body: Vec<Stmt>,
    pub globals: Vec<GlobalInfo>,
}

/// A statement.
pub(crate) struct Stmt {
    pub line: u32,
    pub kind: StmtKind,
}

/// Statement kinds.
pub(crate) enum StmtKind {
    /// An expression statement.
    Expr(Expr),
    /// `t1 = t2 = value`.
    Assign(Vec<Target>, Expr),
    /// `name = value`.
    AssignName(NameRef, Expr),
    /// `name = name + value` or `name += value` where the name may hold a
    /// string that can grow in place.
    Append(NameRef, Rc<str>, Expr, bool),
    /// `target op= value`.
    AugAssign(Target, Operator, Expr),
    /// `target: annotation [= value]`.
    AnnAssign {
        target: Target,
        annotation: Expr,
        value: Option<Expr>,
    },
    /// `for target in iter: body else: orelse`.
    For {
        target: Target,
        iter: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
    },
    /// `if test: body else: orelse`.
    If {
        test: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
    },
    /// `with a as x, b: ...` (only the items matter: no value is a context manager).
    With { items: Vec<(Expr, Option<Target>)> },
    /// A statement the language does not admit (the validator rejects it).
    Forbidden(&'static str),
}

/// An assignment target.
pub(crate) enum Target {
    Name(NameRef, Rc<str>),
    Subscript(Box<Expr>, Box<Expr>),
    Attribute(Box<Expr>, Rc<str>),
    /// `a, *b, c`: the targets and the position of the starred one.
    Seq(Vec<Target>, Option<usize>),
    /// Something that cannot be assigned to.
    Invalid(&'static str),
}

/// An expression.
pub(crate) struct Expr {
    pub line: u32,
    pub kind: ExprKind,
}

/// Expression kinds.
pub(crate) enum ExprKind {
    Const(Value),
    Name(NameRef, Rc<str>),
    BinOp(Box<Expr>, Operator, Box<Expr>),
    /// A binary operation lowered to a numeric tree (see [`Fast`]).
    FastBin(Box<FastBin>),
    /// A single comparison lowered to numeric operands (see [`Fast`]).
    FastCmp(Box<FastCmp>),
    /// `a + b + c …`, evaluated as one chain (see [`super::concat`]).
    AddChain(Box<AddChain>),
    /// `'template' % args` with a constant template (see [`super::percent`]).
    Percent(Box<PercentCall>),
    Unary(UnaryOp, Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    IfExp(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Box<Call>),
    MethodCall(Box<MethodCall>),
    Attribute(Box<Expr>, Attr),
    Subscript(Box<Expr>, Box<Expr>),
    Slice(Option<Box<Expr>>, Option<Box<Expr>>, Option<Box<Expr>>),
    List(Vec<Elt>),
    Tuple(Vec<Elt>),
    /// A set display; `true` when every element is a constant (CPython then
    /// builds it from a frozenset constant, which affects iteration order).
    Set(Vec<Elt>, bool),
    Dict(Vec<DictItem>),
    ListComp(Box<Comp>),
    SetComp(Box<Comp>),
    DictComp(Box<Comp>),
    FString(Vec<FPart>),
    Lambda(Rc<LambdaDef>),
    /// An expression the language does not admit, or a misplaced `*x`.
    Forbidden(&'static str),
}

/// An operand of a lowered numeric operation: a name read in place, a
/// number constant, or an arithmetic operation on such operands (bounded
/// depth). Evaluating it has no side effect and no error: it answers a
/// number or nothing, and on nothing the general path runs instead.
#[derive(Clone)]
pub(crate) enum Fast {
    /// A local of the innermost frame.
    Local(u32),
    /// A module-level name.
    Global(u32),
    /// An int constant (bool constants are 0 and 1).
    Int(i64),
    /// A float constant.
    Float(f64),
    /// An arithmetic operation (`+ - * / // %`).
    Bin(Box<(Fast, Operator, Fast)>),
    /// `name[index]` (a list or tuple item), the container a
    /// [`Fast::Local`] or [`Fast::Global`].
    Item(Box<(Fast, Fast)>),
}

/// `left op right` with numeric operands known at resolve time.
pub(crate) struct FastBin {
    pub op: Operator,
    pub l: Fast,
    pub r: Fast,
    /// The general form, run when an operand is not a plain number or the
    /// result is not one (overflow into a big int, division by zero).
    pub left: Expr,
    pub right: Expr,
}

/// `left op right` (one comparison) with numeric operands.
pub(crate) struct FastCmp {
    pub op: CmpOp,
    pub l: Fast,
    pub r: Fast,
    /// The general form (`left` and the one `(op, right)` pair).
    pub left: Expr,
    pub rest: Vec<(CmpOp, Expr)>,
}

/// A positional element of a display or call.
pub(crate) enum Elt {
    One(Expr),
    Star(Expr),
}

/// An item of a dict display.
pub(crate) enum DictItem {
    Pair(Expr, Expr),
    Spread(Expr),
}

/// A keyword argument.
pub(crate) enum Kw {
    Named(Rc<str>, Expr),
    Spread(Expr),
}

/// A call of anything but a method.
pub(crate) struct Call {
    pub func: Expr,
    pub args: Vec<Elt>,
    pub kwargs: Vec<Kw>,
    /// No `*`/`**` and no keywords.
    pub simple: bool,
}

/// `obj.name(args)`.
pub(crate) struct MethodCall {
    pub obj: Expr,
    pub attr: Attr,
    pub args: Vec<Elt>,
    pub kwargs: Vec<Kw>,
    pub simple: bool,
}

/// An attribute name, interned when it names a known method.
pub(crate) struct Attr {
    pub name: Rc<str>,
    pub id: Option<MethodId>,
}

/// A comprehension: its element(s), clauses and frame size.
pub(crate) struct Comp {
    pub elt: Expr,
    /// The value of a dict comprehension.
    pub value: Option<Expr>,
    pub gens: Vec<Gen>,
    pub nslots: u32,
}

/// One `for … in … if …` clause.
pub(crate) struct Gen {
    pub target: Target,
    pub iter: Expr,
    pub ifs: Vec<Expr>,
}

/// Conversion of an f-string field.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conv {
    None,
    Str,
    Repr,
    Ascii,
}

/// A part of an f-string.
pub(crate) enum FPart {
    Lit(Rc<str>),
    Field { value: Expr, conv: Conv, spec: Spec },
}

/// The format spec of an f-string field.
pub(crate) enum Spec {
    /// No spec.
    None,
    /// A spec without nested fields, parsed on first use.
    Fixed(
        Rc<str>,
        std::cell::OnceCell<Option<crate::text::format::FormatSpec>>,
    ),
    /// A spec with nested fields (`{x:>{width}}`).
    Dynamic(Vec<FPart>),
}

/// A lambda's definition.
pub(crate) struct LambdaDef {
    /// Positional parameters (positional-only ones first).
    pub params: Vec<Rc<str>>,
    pub posonly: usize,
    pub vararg: Option<Rc<str>>,
    pub kwonly: Vec<Rc<str>>,
    pub kwarg: Option<Rc<str>>,
    /// Default expressions of the last positional parameters.
    pub defaults: Vec<Expr>,
    /// Default expressions of keyword-only parameters.
    pub kw_defaults: Vec<Option<Expr>>,
    pub body: Expr,
    /// How deeply the body nests (charged to the depth at each call).
    pub body_depth: u32,
    /// Frame size: parameters, then captured names.
    pub nslots: u32,
    /// Where each captured name lives in the scope that creates the lambda.
    pub captures: Vec<(NameRef, Rc<str>)>,
}

impl LambdaDef {
    /// Slots taken by parameters.
    pub(crate) fn nparams(&self) -> usize {
        self.params.len()
            + self.vararg.is_some() as usize
            + self.kwonly.len()
            + self.kwarg.is_some() as usize
    }
}

/// `first + rest[0] + rest[1] + …` (at least two `+`).
pub(crate) struct AddChain {
    pub first: Expr,
    /// The later operands, each with the line of the `+` that adds it (the
    /// line an error of that step reports).
    pub rest: Vec<(Expr, u32)>,
}

/// `template % args` with a constant `template`.
pub(crate) struct PercentCall {
    /// The template text.
    pub(super) template: StrRc,
    /// The template's pieces, parsed on first use.
    pub(super) parsed: OnceCell<PercentTemplate>,
    /// The right operand.
    pub(super) args: PercentArgs,
}

/// The right operand of a [`PercentCall`].
pub(super) enum PercentArgs {
    /// A tuple display without `*`: its items.
    Items(Vec<Expr>),
    /// Any other expression (one value, a tuple or a mapping).
    One(Expr),
}
