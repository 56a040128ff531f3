//! Request parameters: path parameters without axum's own rejections, and
//! the common checks of required strings and currency codes.

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use crossborder_core::Currency;
use serde::de::DeserializeOwned;

use crate::http::error::ApiError;
use crate::store::state::AppState;

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
