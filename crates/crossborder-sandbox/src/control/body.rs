//! The control API's request bodies: small JSON objects read the way the
//! API's own bodies are ([`crate::http::body::Body`]: a JSON content type,
//! the size limit, one parse, each field of the wrong type named), except
//! that an action whose every field is optional may be sent without a body.

use axum::extract::{FromRequest, Request};
use axum::http::header;
use crossborder_core::{FieldReader, Rule, Violation};

use crate::http::body::read::{read_body, require_json_content_type};
use crate::http::body::Body;
use crate::http::error::ApiError;
use crate::store::state::AppState;

/// A body that may be absent: `None` for an empty body (no content type
/// needed), else a JSON object as [`Body`] reads it.
pub(crate) struct ControlBody(Option<Body>, bytes::Bytes);

impl FromRequest<AppState> for ControlBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        let config = state.config();
        let (limit, idle) = (config.max_json_body_bytes, config.body_idle_timeout);
        let (parts, body) = request.into_parts();
        let bytes = read_body(&parts.headers, body, limit, idle).await?;
        if bytes.is_empty() && !parts.headers.contains_key(header::CONTENT_TYPE) {
            return Ok(ControlBody(None, bytes));
        }
        require_json_content_type(&parts.headers)?;
        Body::parse(&bytes).map(|body| ControlBody(Some(body), bytes))
    }
}

impl ControlBody {
    /// The body as a JSON value, `None` when absent (already checked to be
    /// a JSON object).
    pub(crate) fn json(&self) -> Option<serde_json::Value> {
        self.0.as_ref()?;
        serde_json::from_slice(&self.1).ok()
    }

    /// The text field `name`, `None` when the body or the field is absent;
    /// 400 `<name>: must be a string` for another JSON type.
    pub(crate) fn text(&self, name: &'static str) -> Result<Option<String>, ApiError> {
        let Some(body) = &self.0 else {
            return Ok(None);
        };
        let (value, read) = body.read(|reader| reader.text(name).map(str::to_owned));
        ApiError::checked(read, Ok(value))
    }

    /// The text field `name`, required and not blank: 400 `<name>: is
    /// required` otherwise.
    pub(crate) fn required_text(&self, name: &'static str) -> Result<String, ApiError> {
        match self.text(name)? {
            Some(text) if !text.trim().is_empty() => Ok(text.trim().to_owned()),
            _ => Err(ApiError::violation(Violation::new(
                name,
                Rule::Required,
                "is required",
            ))),
        }
    }
}
