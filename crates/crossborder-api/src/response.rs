//! Decoding of a successful response, called by every generated operation
//! (`cargo xtask codegen` puts it in place of progenitor's
//! `ResponseValue::from_response`, see `xtask/src/postprocess.rs`).

use progenitor_client::{Error, ResponseValue};
use serde::de::DeserializeOwned;

/// `ResponseValue::from_response` of progenitor-client 0.15 without its copy
/// of the response's headers: the map is moved out of the response, which
/// is consumed anyway. Same errors: the body's read failure as
/// `ResponseBodyError`, a body that does not decode as
/// `InvalidResponsePayload` with the bytes.
pub(crate) async fn from_response<T: DeserializeOwned, E>(
    mut response: reqwest::Response,
) -> Result<ResponseValue<T>, Error<E>> {
    let status = response.status();
    let headers = std::mem::take(response.headers_mut());
    let body = response.bytes().await.map_err(Error::ResponseBodyError)?;
    let inner = serde_json::from_slice(&body)
        .map_err(|error| Error::InvalidResponsePayload(body, error))?;
    Ok(ResponseValue::new(inner, status, headers))
}
