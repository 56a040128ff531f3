//! Payouts given as the API's own JSON body, from a file or stdin: one
//! object, or an array of them (a batch). Every element is checked with the
//! SDK's rules before anything is sent; a batch with any invalid element
//! sends nothing.

use crossborder::rules::payout::PayoutFields;
use crossborder::{PayoutRequest, Rule, Violation, Violations};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The verdict on one payout body.
pub struct Checked {
    pub request: Result<PayoutRequest, Violations>,
}

impl Checked {
    fn violations_json(&self) -> Value {
        match &self.request {
            Ok(_) => json!([]),
            Err(violations) => Value::Array(
                violations
                    .iter()
                    .map(|v| json!({"field": v.field, "message": v.message}))
                    .collect(),
            ),
        }
    }
}

/// Checks one body: a JSON object of wire fields. A field of the wrong
/// JSON type is a violation of its own (`must be a string`); numbers are
/// read as their text, as the API reads an amount.
pub fn check(body: &Value) -> Checked {
    let Some(object) = body.as_object() else {
        return Checked {
            request: Err(
                Violation::new("body", Rule::InvalidFormat, "must be a JSON object").into(),
            ),
        };
    };
    let mut texts: BTreeMap<&'static str, String> = BTreeMap::new();
    let mut wrong_type = Vec::new();
    for name in PayoutFields::WIRE_NAMES {
        match object.get(name) {
            None | Some(Value::Null) => {}
            Some(Value::String(text)) => {
                texts.insert(name, text.clone());
            }
            Some(Value::Number(number)) if name == PayoutFields::AMOUNT => {
                texts.insert(name, number.to_string());
            }
            Some(_) => wrong_type.push(Violation::new(
                name,
                Rule::InvalidFormat,
                "must be a string",
            )),
        }
    }
    let fields = PayoutFields::from_fn(|name| texts.get(name).map(String::as_str));
    let result = PayoutRequest::from_fields(&fields);
    // A wrong-typed field is reported once, as a type error.
    let mut all = wrong_type;
    if let Err(violations) = &result {
        let typed: Vec<String> = all.iter().map(|v| v.field.to_string()).collect();
        all.extend(
            violations
                .iter()
                .filter(|v| !typed.iter().any(|t| *t == v.field))
                .cloned(),
        );
    }
    let request = match Violations::from_vec(all) {
        Some(violations) => Err(violations),
        None => result,
    };
    Checked { request }
}

/// Every body of `json` (an object, or each element of an array), checked.
pub fn check_all(json: &Value) -> (bool, Vec<Checked>) {
    match json {
        Value::Array(items) => (true, items.iter().map(check).collect()),
        other => (false, vec![check(other)]),
    }
}

/// The `--dry-run` verdict, as JSON: `{"valid", "violations"}` for one body,
/// `{"valid", "items": [{"index", "valid", "violations"}]}` for a batch.
pub fn verdict_json(batch: bool, checked: &[Checked]) -> Value {
    let valid = checked.iter().all(|c| c.request.is_ok());
    if !batch {
        let one = &checked[0];
        return json!({"valid": one.request.is_ok(), "violations": one.violations_json()});
    }
    json!({
        "valid": valid,
        "items": checked
            .iter()
            .enumerate()
            .map(|(index, c)| json!({
                "index": index,
                "valid": c.request.is_ok(),
                "violations": c.violations_json(),
            }))
            .collect::<Vec<_>>(),
    })
}

/// The `--dry-run` verdict for people: `valid`, or each violation, with the
/// element's index for a batch.
pub fn verdict_lines(batch: bool, checked: &[Checked]) -> Vec<String> {
    let mut lines = Vec::new();
    for (index, c) in checked.iter().enumerate() {
        let prefix = if batch {
            format!("[{index}] ")
        } else {
            String::new()
        };
        match &c.request {
            Ok(_) => lines.push(format!("{prefix}valid")),
            Err(violations) => {
                lines.push(format!("{prefix}invalid"));
                lines.extend(
                    violations
                        .iter()
                        .map(|v| format!("{prefix}  {}: {}", v.field, v.message)),
                );
            }
        }
    }
    lines
}
