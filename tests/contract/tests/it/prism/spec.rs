//! The operations of `openapi/crossborder.yaml`, read from the spec itself,
//! so a test that must cover every operation fails as soon as one is added
//! that it does not drive; and the smallest answer the spec allows for each.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use super::install::workspace_root;
use super::server::SPEC_PATH;

/// One operation of the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// Its `operationId` (`getQuote`).
    pub id: String,
    /// The HTTP method, lower case.
    pub method: String,
    /// The path template (`/api/transaction/{paymentReference}`).
    pub path: String,
    /// The documented statuses (`200`, `400`, ...).
    pub statuses: BTreeSet<u16>,
    /// The JSON schema of the 2xx answer.
    pub success_schema: Value,
}

impl Operation {
    /// True when `method` and `path` (no query, no `/v1`) are this
    /// operation's; a `{parameter}` matches any non-empty segment.
    pub fn matches(&self, method: &str, path: &str) -> bool {
        if !self.method.eq_ignore_ascii_case(method) {
            return false;
        }
        let template: Vec<&str> = self.path.split('/').collect();
        let actual: Vec<&str> = path.split('?').next().unwrap_or(path).split('/').collect();
        template.len() == actual.len()
            && template.iter().zip(&actual).all(|(want, have)| {
                if want.starts_with('{') && want.ends_with('}') {
                    !have.is_empty()
                } else {
                    want == have
                }
            })
    }

    /// The documented 2xx status (every operation has one: 200).
    pub fn success_status(&self) -> u16 {
        self.statuses
            .iter()
            .copied()
            .find(|status| (200..300).contains(status))
            .unwrap_or_else(|| panic!("{} documents no 2xx answer", self.id))
    }

    /// The documented error statuses.
    pub fn error_statuses(&self) -> Vec<u16> {
        self.statuses
            .iter()
            .copied()
            .filter(|status| *status >= 400)
            .collect()
    }
}

/// The spec, as JSON.
pub fn document() -> Value {
    let path = workspace_root().join(SPEC_PATH);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    serde_yaml_ng::from_str(&text)
        .unwrap_or_else(|error| panic!("parsing {}: {error}", path.display()))
}

/// Every operation of the spec, in the spec's order.
pub fn operations() -> Vec<Operation> {
    let spec = document();
    let Some(paths) = spec["paths"].as_object() else {
        panic!("{SPEC_PATH} has no paths");
    };
    let mut operations = Vec::new();
    for (template, item) in paths {
        let Some(item) = item.as_object() else {
            continue;
        };
        for (method, operation) in item {
            let Some(id) = operation["operationId"].as_str() else {
                continue;
            };
            let responses = operation["responses"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            let statuses: BTreeSet<u16> = responses
                .keys()
                .filter_map(|code| code.parse().ok())
                .collect();
            let success_schema = responses
                .iter()
                .find(|(code, _)| code.starts_with('2'))
                .map(|(_, response)| response["content"]["application/json"]["schema"].clone())
                .unwrap_or(Value::Null);
            operations.push(Operation {
                id: id.to_owned(),
                method: method.clone(),
                path: template.clone(),
                statuses,
                success_schema,
            });
        }
    }
    assert!(!operations.is_empty(), "{SPEC_PATH} has no operations");
    operations
}

/// The smallest value `schema` allows: an object with only its required
/// properties, an empty array, the first value of an enum or the first
/// branch of a `oneOf`, `"x"` for a string (its example when it has a
/// pattern, a format or a minimum length), 1, 0 or `false`. A status of an
/// open set (`anyOf` of its known values and any string, G1) is thus one
/// the SDK does not know.
pub fn minimal(spec: &Value, schema: &Value) -> Value {
    if let Some(reference) = schema["$ref"].as_str() {
        let pointer = reference.trim_start_matches('#');
        let target = spec
            .pointer(pointer)
            .unwrap_or_else(|| panic!("{SPEC_PATH}: unresolved {reference}"));
        return minimal(spec, target);
    }
    if let Some(first) = schema["enum"].get(0) {
        return first.clone();
    }
    if let Some(first) = schema["oneOf"].get(0) {
        return minimal(spec, first);
    }
    match schema["type"].as_str() {
        Some("array") => json!([]),
        Some("string") => {
            let constrained = ["pattern", "format", "minLength"]
                .iter()
                .any(|key| schema.get(*key).is_some());
            match schema.get("example") {
                Some(example) if constrained => example.clone(),
                _ => json!("x"),
            }
        }
        Some("number") => json!(1),
        Some("integer") => json!(0),
        Some("boolean") => json!(false),
        _ => {
            let mut object = Map::new();
            for name in schema["required"].as_array().into_iter().flatten() {
                let Some(name) = name.as_str() else { continue };
                object.insert(name.to_owned(), minimal(spec, &schema["properties"][name]));
            }
            Value::Object(object)
        }
    }
}

/// The operation `method path` belongs to, if any.
pub fn operation_of<'a>(
    operations: &'a [Operation],
    method: &str,
    path: &str,
) -> Option<&'a Operation> {
    operations
        .iter()
        .find(|operation| operation.matches(method, path))
}
