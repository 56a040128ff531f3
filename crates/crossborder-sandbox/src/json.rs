//! Reading a JSON request body: a JSON content type, a size limit, and a
//! JSON object whose keys are unique or a clear 400, so nothing a client
//! sends can make axum answer with its own plain-text rejections.
//! [`crate::body`] decodes what this reads.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, StatusCode};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::error::Category;
use serde_json::value::RawValue;

use crate::error::ApiError;

/// A JSON object with its values still as raw JSON text.
pub(crate) type Object = BTreeMap<String, Box<RawValue>>;

/// Refuses a body that does not say it is JSON: 400 `Content-Type must be
/// application/json; got <type>` (or `; none was sent`). `application/json`
/// with any parameters (`; charset=utf-8`) and the `application/*+json`
/// types are JSON. A service that only parses JSON it is told is JSON would
/// read such a body as empty; accepting it here would let a client that
/// forgets the header pass in the sandbox and fail in production
/// (ASSUMPTIONS B40).
pub(crate) fn require_json_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err(ApiError::bad_request(
            "Content-Type must be application/json; none was sent",
        ));
    };
    let text = String::from_utf8_lossy(value.as_bytes());
    let media_type = text.split(';').next().unwrap_or_default().trim();
    let lower = media_type.to_ascii_lowercase();
    let json = lower == "application/json"
        || (lower.starts_with("application/") && lower.ends_with("+json"));
    if json {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "Content-Type must be application/json; got {}",
            shown(media_type)
        )))
    }
}

/// At most 100 characters of a value the client sent, for a message.
fn shown(text: &str) -> String {
    const MAX: usize = 100;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

/// A JSON object read with its values still raw, and the first key that
/// occurs twice in it, if any.
pub(crate) struct Keyed {
    /// The object (the first value of a repeated key).
    pub(crate) object: Object,
    /// The first key given more than once.
    pub(crate) repeated: Option<String>,
}

impl<'de> Deserialize<'de> for Keyed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyedVisitor;
        impl<'de> Visitor<'de> for KeyedVisitor {
            type Value = Keyed;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Keyed, M::Error> {
                let mut object = Object::new();
                let mut repeated = None;
                while let Some(key) = map.next_key::<String>()? {
                    let value: Box<RawValue> = map.next_value()?;
                    match object.entry(key) {
                        Entry::Occupied(entry) => {
                            repeated.get_or_insert_with(|| entry.key().clone());
                        }
                        Entry::Vacant(entry) => {
                            entry.insert(value);
                        }
                    }
                }
                Ok(Keyed { object, repeated })
            }
        }
        deserializer.deserialize_map(KeyedVisitor)
    }
}

/// Reads a whole request body, refusing more than `limit` bytes with 413
/// (at once when `Content-Length` says so), and a client that stops sending
/// for `idle` with 408 `Request body stalled: no data for <n> ms`, so a
/// body shorter than its declared length never holds a request open for
/// ever.
pub(crate) async fn read_body(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
    idle: Duration,
) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(ApiError::too_large(limit));
    }
    let mut body = Limited::new(body, limit);
    let mut whole = Vec::new();
    loop {
        let frame = match tokio::time::timeout(idle, body.frame()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => return Ok(Bytes::from(whole)),
            Err(_) => {
                return Err(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("Request body stalled: no data for {} ms", idle.as_millis()),
                ))
            }
        };
        match frame {
            Ok(frame) => {
                if let Ok(data) = frame.into_data() {
                    whole.extend_from_slice(&data);
                }
            }
            Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => {
                return Err(ApiError::too_large(limit))
            }
            Err(error) => {
                return Err(ApiError::bad_request(format!(
                    "Could not read the request body: {error}"
                )))
            }
        }
    }
}

/// How deeply a request body may nest objects and arrays: the top-level
/// object is level 1. The deepest body of the spec nests 3 levels
/// (`documents.cac.url`). [`parse_object`] checks it in one pass before
/// parsing, and [`crate::body`]'s decoding, which recurses once per level,
/// stops there too, so no body costs more than a bounded stack and time
/// (ASSUMPTIONS B40).
pub(crate) const MAX_JSON_DEPTH: usize = 32;

/// 400 for a body nested deeper than [`MAX_JSON_DEPTH`].
pub(crate) fn too_deep() -> ApiError {
    ApiError::bad_request(format!(
        "Request body is nested deeper than {MAX_JSON_DEPTH} levels"
    ))
}

/// Whether `bytes` open more than `max` objects or arrays at once (brackets
/// inside strings do not count). Malformed text is left to the parser.
fn nests_deeper_than(bytes: &[u8], max: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Parses a body that must be a JSON object nested at most
/// [`MAX_JSON_DEPTH`] levels (its keys are checked for repeats by
/// [`crate::body`], which knows their paths).
pub(crate) fn parse_object(bytes: &[u8]) -> Result<Keyed, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad_request("Request body must be a JSON object"));
    }
    if nests_deeper_than(bytes, MAX_JSON_DEPTH) {
        return Err(too_deep());
    }
    serde_json::from_slice::<Keyed>(bytes).map_err(|error| match error.classify() {
        Category::Data => ApiError::bad_request("Request body must be a JSON object"),
        _ => ApiError::bad_request(format!("Malformed JSON body: {error}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_that_are_not_objects_are_refused() {
        for text in ["", "  ", "[]", "42", "\"x\"", "null"] {
            let Err(error) = parse_object(text.as_bytes()) else {
                panic!("{text:?} read as an object");
            };
            assert_eq!(
                error.message(),
                "Request body must be a JSON object",
                "{text:?}"
            );
        }
        let Err(error) = parse_object(b"{\"amount\": ") else {
            panic!("a truncated object read");
        };
        assert!(
            error.message().starts_with("Malformed JSON body: "),
            "{}",
            error.message()
        );
    }

    #[test]
    fn only_json_content_types_are_read() {
        let headers = |value: Option<&str>| {
            let mut headers = HeaderMap::new();
            if let Some(value) = value {
                headers.insert(header::CONTENT_TYPE, value.parse().unwrap());
            }
            headers
        };
        for accepted in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/problem+json",
        ] {
            assert!(
                require_json_content_type(&headers(Some(accepted))).is_ok(),
                "{accepted}"
            );
        }
        for (sent, message) in [
            (None, "Content-Type must be application/json; none was sent"),
            (
                Some("text/plain; charset=utf-8"),
                "Content-Type must be application/json; got text/plain",
            ),
            (
                Some("application/x-www-form-urlencoded"),
                "Content-Type must be application/json; got application/x-www-form-urlencoded",
            ),
            (
                Some("json"),
                "Content-Type must be application/json; got json",
            ),
        ] {
            let Err(error) = require_json_content_type(&headers(sent)) else {
                panic!("{sent:?} accepted");
            };
            assert_eq!(error.status(), axum::http::StatusCode::BAD_REQUEST);
            assert_eq!(error.message(), message);
        }
        let long = format!("text/{}", "x".repeat(200));
        let Err(error) = require_json_content_type(&headers(Some(&long))) else {
            panic!("accepted");
        };
        assert_eq!(
            error.message(),
            format!(
                "Content-Type must be application/json; got text/{}...",
                "x".repeat(95)
            )
        );
    }
}
