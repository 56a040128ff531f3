//! Checking a request given as the API's own wire JSON, as a tool holds it
//! (the CLI's `payout --body FILE` and `business validate`, a CI check of
//! files): every violation at once, nothing sent. The JSON is read with
//! core's one JSON reader ([`crossborder_core::json`]), so a field of the
//! wrong type gets the same message here as from the sandbox.

mod business;
mod payout;

pub(crate) use business::{
    business_violations, business_violations_adjusted, person_violations,
    person_violations_adjusted,
};
pub use business::{check_business_json, BusinessRequestKind, BusinessVerdict};
pub use payout::{
    check_payout_json, check_payout_json_unquoted, payout_from_json, payout_from_json_unquoted,
    payout_to_json, PayoutVerdict,
};

use crossborder_core::json::{Json, JsonReader, Object, Policy};
use crossborder_core::{Rule, Violation, Violations};
use serde::Serialize;
use serde_json::Value;

/// One violation: the field's wire path and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldMessage {
    /// The wire name, dotted for nested fields (`businessAddress.city`).
    pub field: String,
    /// What is wrong (`is required`).
    pub message: String,
}

impl From<Violation> for FieldMessage {
    fn from(violation: Violation) -> FieldMessage {
        FieldMessage {
            field: violation.field.into_owned(),
            message: violation.message,
        }
    }
}

/// `typed` (each field of the wrong JSON type) followed by the rule
/// violations found on every other field: a wrong-typed field is reported
/// once, as a type error, and nothing on it or inside it again.
pub(crate) fn with_type_errors(
    mut typed: Vec<Violation>,
    rules: Result<(), Violations>,
) -> Result<(), Violations> {
    let fields: Vec<String> = typed.iter().map(|v| v.field.to_string()).collect();
    if let Err(found) = rules {
        typed.extend(found.into_iter().filter(|v| {
            !fields
                .iter()
                .any(|t| v.field == t.as_str() || v.field.starts_with(&format!("{t}.")))
        }));
    }
    Violations::from_vec(typed).map_or(Ok(()), Err)
}

/// The members of `body`, a JSON object, as core's reader reads them.
pub(crate) fn object_of(body: &Value) -> Result<Object, Violations> {
    let Some(object) = body.as_object() else {
        return Err(Violation::new("body", Rule::InvalidFormat, "must be a JSON object").into());
    };
    Ok(object
        .iter()
        .map(|(key, value)| (key.clone(), Json::from(value)))
        .collect())
}

/// Reads `body` with `policy` for `check`, which reads a view and applies
/// its rules; the type errors (and refused fields) come first.
pub(crate) fn read_and_check(
    body: &Value,
    policy: Policy,
    check: impl for<'r, 'a> FnOnce(&'r mut JsonReader<'a>) -> Result<(), Violations>,
) -> Result<(), Violations> {
    let object = object_of(body)?;
    let mut reader = JsonReader::new(&object, policy);
    let rules = check(&mut reader);
    with_type_errors(reader.finish(), rules)
}
