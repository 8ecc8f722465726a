//! What a type's behaviour needs from the running program, without naming
//! the interpreter: the run's budget, the cycle register, and calls back
//! into program code (a sort's `key=`). The interpreter implements it;
//! handlers that need no more than the budget take `&mut Budget` instead.

use std::cell::RefCell;
use std::rc::Rc;

use crate::runtime::Budget;
use crate::runtime::error::R;
use crate::syntax::catalog::BuiltinId;
use crate::types::args::Kw;
use crate::value::Dict;
use crate::value::List;
use crate::value::Value;

/// A builtin function of plain arguments, callable without the program
/// (`len`, `abs`): a key function resolves to one once for a whole sort.
pub(crate) type PlainBuiltin = fn(&[Value], Kw<'_>) -> R<Value>;

/// The running program, as the types' behaviour sees it.
pub(crate) trait Caller {
    /// The run's budget.
    fn budget(&mut self) -> &mut Budget;

    /// Notes that `list` received a container (a cycle may have closed),
    /// so that the end of the run breaks it.
    fn note_list_cycle(&mut self, list: &Rc<RefCell<List>>);

    /// Notes that `dict` received a container (a cycle may have closed).
    fn note_dict_cycle(&mut self, dict: &Rc<RefCell<Dict>>);

    /// Writes program output (`print`) to the run's captured stdout.
    fn write_stdout(&mut self, text: &str);

    /// Calls any callable value, counting one step as a call does.
    fn call(&mut self, f: &Value, args: &[Value]) -> R<Value>;

    /// The plain implementation of builtin `id`, where it has one.
    fn plain_builtin(&self, id: BuiltinId) -> Option<PlainBuiltin>;
}
