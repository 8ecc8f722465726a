//! The interpreter as the types' behaviour sees it ([`Caller`]).

use std::cell::RefCell;
use std::rc::Rc;

use super::Interp;
use crate::builtins;
use crate::runtime::Budget;
use crate::runtime::error::R;
use crate::syntax::catalog::BuiltinId;
use crate::types::caller::{Caller, PlainBuiltin};
use crate::value::Dict;
use crate::value::List;
use crate::value::Value;

impl Caller for Interp<'_> {
    #[inline]
    fn budget(&mut self) -> &mut Budget {
        &mut self.budget
    }

    fn note_list_cycle(&mut self, list: &Rc<RefCell<List>>) {
        if let Ok(mut l) = list.try_borrow_mut()
            && !l.cyc
        {
            l.cyc = true;
            self.cyclic_lists.push(Rc::downgrade(list));
        }
    }

    fn note_dict_cycle(&mut self, dict: &Rc<RefCell<Dict>>) {
        if let Ok(mut d) = dict.try_borrow_mut()
            && !d.cyc()
        {
            d.set_cyc(true);
            self.cyclic_dicts.push(Rc::downgrade(dict));
        }
    }

    fn write_stdout(&mut self, text: &str) {
        Interp::write_stdout(self, text);
    }

    fn call(&mut self, f: &Value, args: &[Value]) -> R<Value> {
        self.call_value(f, args, &[])
    }

    fn plain_builtin(&self, id: BuiltinId) -> Option<PlainBuiltin> {
        builtins::plain(id)
    }
}
