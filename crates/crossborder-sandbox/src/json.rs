//! Reading a JSON request body: a size limit, and a JSON object or a
//! clear 400, so nothing a client sends can make axum answer with its own
//! plain-text rejections. [`crate::body`] decodes what this reads.

use std::collections::BTreeMap;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::error::Category;
use serde_json::value::RawValue;

use crate::error::ApiError;

/// A JSON object with its values still as raw JSON text.
pub(crate) type Object = BTreeMap<String, Box<RawValue>>;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
