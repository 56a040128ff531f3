//! The sandbox's own JSON body extractor and a field reader that reports
//! wrong types in the API's validation shape.
//!
//! Bodies are read with a size limit and parsed by `serde_json` into a map
//! of raw values, so each field is then read on its own: numbers stay exact
//! (never through `f64`), a wrong type names its field, unknown fields are
//! ignored, and nothing a client sends can make axum answer with its own
//! plain-text rejections.

use std::collections::BTreeMap;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap};
use crossborder_core::{Rule, Violation};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use rust_decimal::Decimal;
use serde_json::error::Category;
use serde_json::value::RawValue;

use crate::error::ApiError;
use crate::idempotency::WireFields;
use crate::state::AppState;

/// A JSON object with its values still as raw JSON text.
pub(crate) type Object = BTreeMap<String, Box<RawValue>>;

/// The request body, a JSON object of at most
/// [`SandboxConfig::max_json_body_bytes`](crate::SandboxConfig::max_json_body_bytes).
///
/// Rejections: 413 over the limit, 400 `Request body must be a JSON object`
/// for an empty body or another JSON value, 400 `Malformed JSON body: ...`
/// for text that is not JSON.
pub(crate) struct JsonObject(pub(crate) Object);

impl FromRequest<AppState> for JsonObject {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let limit = state.config().max_json_body_bytes;
        let (parts, body) = request.into_parts();
        let bytes = read_body(&parts.headers, body, limit).await?;
        parse_object(&bytes).map(JsonObject)
    }
}

/// Reads a whole request body, refusing more than `limit` bytes with 413
/// (at once when `Content-Length` says so).
pub(crate) async fn read_body(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(ApiError::too_large(limit));
    }
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => {
            Err(ApiError::too_large(limit))
        }
        Err(error) => Err(ApiError::bad_request(format!(
            "Could not read the request body: {error}"
        ))),
    }
}

/// Parses a body that must be a JSON object.
pub(crate) fn parse_object(bytes: &[u8]) -> Result<Object, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad_request("Request body must be a JSON object"));
    }
    serde_json::from_slice::<Object>(bytes).map_err(|error| match error.classify() {
        Category::Data => ApiError::bad_request("Request body must be a JSON object"),
        _ => ApiError::bad_request(format!("Malformed JSON body: {error}")),
    })
}

/// Reads the fields of one JSON object, collecting a violation for each
/// field of the wrong type. Field names in violations carry the object's
/// path (`businessAddress.city`).
///
/// A field that is absent reads as `None` without a violation (whether it
/// is required is the validator's business). No field of the API is
/// nullable, so `null` is a value of the wrong type, with a violation.
pub(crate) struct Reader<'a> {
    object: &'a Object,
    prefix: String,
}

impl<'a> Reader<'a> {
    /// Reads the top-level body.
    pub(crate) fn new(object: &'a Object) -> Reader<'a> {
        Reader {
            object,
            prefix: String::new(),
        }
    }

    /// Reads a nested object found at `path`.
    pub(crate) fn nested(object: &'a Object, path: &str) -> Reader<'a> {
        Reader {
            object,
            prefix: format!("{path}."),
        }
    }

    /// The wire path of `name` in this object.
    pub(crate) fn path(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The raw value of `name`, or `None` when absent.
    pub(crate) fn raw(&self, name: &str) -> Option<&'a RawValue> {
        self.object.get(name).map(|raw| &**raw)
    }

    /// A string field.
    pub(crate) fn string(&self, name: &str, violations: &mut Vec<Violation>) -> Option<String> {
        let raw = self.raw(name)?;
        match serde_json::from_str::<String>(raw.get()) {
            Ok(text) => Some(text),
            Err(_) => {
                violations.push(wrong_type(self.path(name), "must be a string"));
                None
            }
        }
    }

    /// The string fields `names` that are present, by wire name.
    pub(crate) fn strings(
        &self,
        names: &[&'static str],
        violations: &mut Vec<Violation>,
    ) -> WireFields {
        names
            .iter()
            .filter_map(|name| Some((*name, self.string(name, violations)?)))
            .collect()
    }

    /// A number field, read exactly from its JSON text (a string holding a
    /// number is refused: the schema says number).
    pub(crate) fn number(&self, name: &str, violations: &mut Vec<Violation>) -> Option<Decimal> {
        let raw = self.raw(name)?;
        let text = raw.get().trim();
        let is_number = text
            .bytes()
            .next()
            .is_some_and(|first| first == b'-' || first.is_ascii_digit());
        if !is_number {
            violations.push(wrong_type(self.path(name), "must be a number"));
            return None;
        }
        let parsed = if text.contains(['e', 'E']) {
            Decimal::from_scientific(text).ok()
        } else {
            Decimal::from_str_exact(text).ok()
        };
        if parsed.is_none() {
            violations.push(Violation::new(
                self.path(name),
                Rule::InvalidFormat,
                "has more digits than can be represented exactly",
            ));
        }
        parsed
    }

    /// A boolean field.
    pub(crate) fn boolean(&self, name: &str, violations: &mut Vec<Violation>) -> Option<bool> {
        let raw = self.raw(name)?;
        match serde_json::from_str::<bool>(raw.get()) {
            Ok(value) => Some(value),
            Err(_) => {
                violations.push(wrong_type(self.path(name), "must be a boolean"));
                None
            }
        }
    }

    /// An object field, parsed so that a nested [`Reader`] can read it.
    pub(crate) fn object(&self, name: &str, violations: &mut Vec<Violation>) -> Option<Object> {
        let raw = self.raw(name)?;
        match serde_json::from_str::<Object>(raw.get()) {
            Ok(object) => Some(object),
            Err(_) => {
                violations.push(wrong_type(self.path(name), "must be an object"));
                None
            }
        }
    }

    /// An array-of-strings field.
    pub(crate) fn string_list(
        &self,
        name: &str,
        violations: &mut Vec<Violation>,
    ) -> Option<Vec<String>> {
        let raw = self.raw(name)?;
        match serde_json::from_str::<Vec<String>>(raw.get()) {
            Ok(list) => Some(list),
            Err(_) => {
                violations.push(wrong_type(self.path(name), "must be an array of strings"));
                None
            }
        }
    }
}

fn wrong_type(field: String, message: &str) -> Violation {
    Violation::new(field, Rule::InvalidFormat, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(text: &str) -> Object {
        parse_object(text.as_bytes()).unwrap()
    }

    #[test]
    fn bodies_that_are_not_objects_are_refused() {
        for text in ["", "  ", "[]", "42", "\"x\"", "null"] {
            let error = parse_object(text.as_bytes()).unwrap_err();
            assert_eq!(
                error.message(),
                "Request body must be a JSON object",
                "{text:?}"
            );
        }
        let error = parse_object(b"{\"amount\": ").unwrap_err();
        assert!(
            error.message().starts_with("Malformed JSON body: "),
            "{}",
            error.message()
        );
    }

    #[test]
    fn fields_are_read_exactly_and_typed() {
        let body = object(
            r#"{"amount": 100000000000.01, "name": "x", "flag": true, "nothing": null,
                "big": 1e3, "text": 5, "list": ["a"], "nested": {"city": 1}, "unknown": [1]}"#,
        );
        let reader = Reader::new(&body);
        let mut violations = Vec::new();
        assert_eq!(
            reader
                .number("amount", &mut violations)
                .unwrap()
                .to_string(),
            "100000000000.01"
        );
        assert_eq!(
            reader.number("big", &mut violations).unwrap(),
            Decimal::new(1000, 0)
        );
        assert_eq!(reader.string("name", &mut violations).as_deref(), Some("x"));
        assert_eq!(reader.boolean("flag", &mut violations), Some(true));
        assert_eq!(reader.string("absent", &mut violations), None);
        assert_eq!(
            reader.string_list("list", &mut violations),
            Some(vec!["a".to_owned()])
        );
        assert!(violations.is_empty());

        assert_eq!(reader.string("nothing", &mut violations), None);
        assert_eq!(reader.string("text", &mut violations), None);
        assert_eq!(reader.number("name", &mut violations), None);
        let nested = reader.object("nested", &mut violations).unwrap();
        let nested_reader = Reader::nested(&nested, "nested");
        assert_eq!(nested_reader.string("city", &mut violations), None);
        let messages: Vec<String> = violations.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "nothing: must be a string",
                "text: must be a string",
                "name: must be a number",
                "nested.city: must be a string"
            ]
        );
    }
}
