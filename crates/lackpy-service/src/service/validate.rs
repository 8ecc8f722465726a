//! `validate`: a program checked against a namespace and params without
//! running it (its tools' signatures, its profile's rules and ceilings).

use lackpy_lang::{Data, Rule, Validation};

use super::error::ServiceError;
use super::inventory::LackpyService;
use super::profile::Namespace;
use super::{plan, signatures};

impl LackpyService {
    /// Validates a program against a namespace and params, without running it.
    pub fn validate(
        &self,
        program: &str,
        tools: Option<&[String]>,
        profile: Option<&str>,
        params: &[(String, Data)],
        rules: &[Rule],
    ) -> Result<Validation, ServiceError> {
        let ns = self.namespace(tools, profile)?;
        Ok(self.validate_in(&ns, program, params, rules))
    }

    /// Validates a program against an already resolved namespace (its
    /// tools' signatures, its profile's rules and ceilings).
    pub(super) fn validate_in(
        &self,
        ns: &Namespace,
        program: &str,
        params: &[(String, Data)],
        rules: &[Rule],
    ) -> Validation {
        let mut allowed = ns.names();
        allowed.extend(params.iter().map(|(k, _)| k.clone()));
        let mut rules = rules.to_vec();
        rules.extend(plan::profile_rules(self, ns.profile.as_deref()));
        let signatures = signatures::of_namespace(&self.toolbox, ns);
        let mut v = lackpy_lang::validate_with(program, &allowed, &rules, &signatures);
        plan::explain_ceilings(ns, &mut v);
        v
    }
}
