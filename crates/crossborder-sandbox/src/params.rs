//! Request parameters: path parameters without axum's own rejections, and
//! the common checks of required strings and currency codes.

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use crossborder_core::{Currency, Rule, Violation};
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::state::AppState;

/// Path parameters; a path that cannot be decoded is 400 in the API's error
/// shape.
pub(crate) struct PathParams<T>(pub(crate) T);

impl<T> FromRequestParts<AppState> for PathParams<T>
where
    T: DeserializeOwned + Send,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(PathParams(value)),
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
}

/// A currency path parameter: 400 `Invalid currency: <code>` when it is not
/// one of the 13 supported codes (exact uppercase).
pub(crate) fn currency_param(code: &str) -> Result<Currency, ApiError> {
    code.parse()
        .map_err(|error: crossborder_core::UnknownCurrency| {
            ApiError::bad_request(error.to_string())
        })
}

/// Records `is required` when a string field is absent or blank.
pub(crate) fn required(
    violations: &mut Vec<Violation>,
    field: &'static str,
    value: Option<String>,
) -> Option<String> {
    match value {
        Some(text) if !text.trim().is_empty() => Some(text),
        _ => {
            if !violations.iter().any(|violation| violation.field == field) {
                violations.push(Violation::new(field, Rule::Required, "is required"));
            }
            None
        }
    }
}

/// Reads a required currency field, recording `is required` or
/// `Invalid currency: <code>`.
pub(crate) fn currency_field(
    violations: &mut Vec<Violation>,
    field: &'static str,
    value: Option<String>,
) -> Option<Currency> {
    let code = required(violations, field, value)?;
    match code.parse::<Currency>() {
        Ok(currency) => Some(currency),
        Err(error) => {
            violations.push(Violation::new(
                field,
                Rule::UnknownCurrency,
                error.to_string(),
            ));
            None
        }
    }
}

/// Query parameters; a query that cannot be decoded is 400 in the API's
/// error shape. Unknown parameters are ignored.
pub(crate) struct QueryParams<T>(pub(crate) T);

impl<T> FromRequestParts<AppState> for QueryParams<T>
where
    T: DeserializeOwned + Send,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(QueryParams(value)),
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
}
