//! Helpers shared by the validators' unit tests.

use crate::violation::{Rule, Violations};

/// A validator's result as `(field, rule, message)` triples, in the order
/// reported; empty when the request is valid. Tests compare whole lists so
/// that an extra or a missing violation fails too.
pub(crate) fn violations<T>(result: Result<T, Violations>) -> Vec<(String, Rule, String)> {
    match result {
        Ok(_) => Vec::new(),
        Err(violations) => violations
            .into_iter()
            .map(|v| (v.field.into_owned(), v.rule, v.message))
            .collect(),
    }
}

/// The expected result of a request with exactly one violation.
pub(crate) fn one(field: &str, rule: Rule, message: &str) -> Vec<(String, Rule, String)> {
    vec![(field.to_owned(), rule, message.to_owned())]
}

/// The violations of a failed validation as people read them
/// (`field: message`), in the order reported.
pub(crate) fn messages<T: std::fmt::Debug>(result: Result<T, Violations>) -> Vec<String> {
    result
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect()
}
