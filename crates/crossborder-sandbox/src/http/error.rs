//! Errors in the API's shape: `{statusCode, message, timestamp, path,
//! request: {method, url}}` plus `errors: [{field, message}]` for validation.
//!
//! Handlers return an [`ApiError`], which carries only the status, the
//! message and the field errors; the [`envelope`](crate::http::error_shape::envelope) middleware, which sees the
//! request, adds the timestamp, the path and the request, and also turns
//! every other error response (an unknown route, a wrong method, a panic)
//! into the same shape.

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use crossborder_api::types::FieldError;
use crossborder_core::{Rule, Violation, Violations};

/// An error answered to a request, before the envelope adds the request's
/// details.
#[derive(Debug, Clone)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    pub(crate) errors: Vec<FieldError>,
}

impl ApiError {
    /// An error with a status and a message.
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            errors: Vec::new(),
        }
    }

    /// 400 with `message`.
    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404 with `message`.
    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409 with `message`.
    pub(crate) fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 413 for a body over `limit` bytes.
    pub(crate) fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("Request body is larger than {limit} bytes"),
        )
    }

    /// 400 listing every violation in `errors`.
    ///
    /// The message joins the violations with `; ` (`amount: is required;
    /// sessionId: is required`), except for the two conditions the API
    /// gives its own message for: an unsupported currency code
    /// (`Invalid currency: <code>`) and an unrecognised document key
    /// (`Unrecognized document key: <key>`). Then the message is the first
    /// such violation's, and every violation is still listed in `errors`.
    pub(crate) fn validation(violations: &Violations) -> ApiError {
        ApiError::invalid(violations)
    }

    /// [`ApiError::validation`] for a plain list (callers check that it is
    /// not empty).
    pub(crate) fn invalid(violations: &[Violation]) -> ApiError {
        let message = match violations.iter().find(|violation| {
            matches!(
                violation.rule,
                Rule::UnknownCurrency | Rule::UnknownDocumentKey
            )
        }) {
            Some(violation) => violation.message.clone(),
            None => violations
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
        };
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message,
            errors: violations.iter().map(field_error).collect(),
        }
    }

    /// The outcome of a core validator run on a body whose reading found
    /// the type violations `read`: 400 listing them all, the type violations
    /// first (a field with one is not reported again by the validator, for
    /// example as missing), or the validated value.
    ///
    /// Every operation that takes a body answers its validation through
    /// here, the upload included, so the same mistake reads the same
    /// everywhere.
    pub(crate) fn checked<T>(
        mut read: Vec<Violation>,
        validated: Result<T, Violations>,
    ) -> Result<T, ApiError> {
        let broken = read.len();
        if let Err(violations) = &validated {
            for violation in violations.iter() {
                // A field of the wrong type, or inside one, was read as
                // absent: the validator's "is required" for it would report
                // the same mistake twice.
                let within = |seen: &Violation| {
                    violation.field == seen.field
                        || violation
                            .field
                            .strip_prefix(&*seen.field)
                            .is_some_and(|rest| rest.starts_with('.'))
                };
                if !read[..broken].iter().any(within) {
                    read.push(violation.clone());
                }
            }
        }
        match validated {
            Ok(value) if read.is_empty() => Ok(value),
            _ => Err(ApiError::invalid(&read)),
        }
    }

    /// 400 for one violation.
    pub(crate) fn violation(violation: Violation) -> ApiError {
        ApiError::invalid(&[violation])
    }

    /// 400 `<field>: must appear only once`: a key, part or parameter given
    /// twice, since which of its values counts is up to each parser
    /// (ASSUMPTIONS B40).
    pub(crate) fn repeated(field: impl Into<std::borrow::Cow<'static, str>>) -> ApiError {
        ApiError::violation(Violation::new(
            field,
            Rule::InvalidFormat,
            "must appear only once",
        ))
    }

    /// The status.
    pub(crate) fn status(&self) -> StatusCode {
        self.status
    }

    /// The message.
    #[cfg(test)]
    pub(crate) fn message(&self) -> &str {
        &self.message
    }
}

fn field_error(violation: &Violation) -> FieldError {
    FieldError {
        field: violation.field.to_string(),
        message: violation.message.clone(),
    }
}

impl From<Violations> for ApiError {
    fn from(violations: Violations) -> Self {
        ApiError::validation(&violations)
    }
}

/// Marks a response as an [`ApiError`] for [`envelope`](crate::http::error_shape::envelope) to complete.
#[derive(Debug, Clone)]
pub(crate) struct PendingError(pub(crate) ApiError);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = self.status.into_response();
        response.extensions_mut().insert(PendingError(self));
        response
    }
}

/// The fallback for paths no route matches: 404 in the error shape.
pub(crate) async fn route_not_found(request: Request) -> ApiError {
    ApiError::not_found(format!(
        "Cannot {} {}",
        request.method(),
        request.uri().path()
    ))
}
