//! Reading and decoding of a response body, hand-written (not generated):
//! every generated operation decodes its answer with `from_response`
//! (`cargo xtask codegen` puts it in place of progenitor's
//! `ResponseValue::from_response`, see `xtask/src/postprocess.rs`), and the
//! SDK reads error bodies and the upload's answer with [`read_body`].
//!
//! Every body is read with a size limit ([`ClientState::max_response_bytes`],
//! 1 MiB by default), chunk by chunk, so a server (or a proxy, or a captive
//! portal) that sends an endless body cannot make the client buffer it: no
//! more than the limit is ever held, and a `Content-Length` above it is
//! refused before any byte of the body is read.

use std::fmt;

use bytes::Bytes;
use progenitor_client::{Error, ResponseValue};
use serde::de::DeserializeOwned;

use crate::ClientState;

pub use crate::state::DEFAULT_MAX_RESPONSE_BYTES;

/// How many bytes of a body an error keeps.
pub const BODY_PREFIX_LEN: usize = 512;

/// A response body larger than the limit: reading stopped at the limit, or
/// did not start when the `Content-Length` said so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    /// The limit, in bytes.
    pub limit: u64,
    /// The HTTP status of the response.
    pub status: u16,
    /// The `Content-Length` of the response, when it had one.
    pub content_length: Option<u64>,
    /// The first bytes read (up to [`BODY_PREFIX_LEN`]); empty when the
    /// `Content-Length` refused the body before reading.
    pub prefix: Bytes,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the response body (HTTP {}) is larger than the limit of {} bytes",
            self.status, self.limit
        )?;
        if let Some(length) = self.content_length {
            write!(f, " (Content-Length: {length})")?;
        }
        Ok(())
    }
}

impl std::error::Error for TooLarge {}

/// Why [`read_body`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// The body is larger than the limit.
    TooLarge(TooLarge),
    /// The body could not be read (connection reset, timeout).
    Body(reqwest::Error),
}

/// Reads the body of `response`, at most `limit` bytes of it.
///
/// Chunk by chunk: a chunk that would pass the limit ends the read (the
/// connection is dropped with the response), so no more than `limit` bytes
/// are ever held. A `Content-Length` above `limit` is refused before
/// reading.
pub async fn read_body(response: &mut reqwest::Response, limit: u64) -> Result<Bytes, ReadError> {
    let status = response.status().as_u16();
    let content_length = response.content_length();
    let too_large = |prefix: Bytes| {
        ReadError::TooLarge(TooLarge {
            limit,
            status,
            content_length,
            prefix,
        })
    };
    if content_length.is_some_and(|length| length > limit) {
        return Err(too_large(Bytes::new()));
    }
    // The common answer is one chunk: it is kept as it came, not copied.
    let mut first: Option<Bytes> = None;
    let mut body: Vec<u8> = Vec::new();
    let mut read: u64 = 0;
    while let Some(chunk) = response.chunk().await.map_err(ReadError::Body)? {
        let length = u64::try_from(chunk.len()).unwrap_or(u64::MAX);
        if read.saturating_add(length) > limit {
            let mut prefix = match first.take() {
                Some(first) => first.to_vec(),
                None => body,
            };
            prefix.extend_from_slice(&chunk[..chunk.len().min(BODY_PREFIX_LEN)]);
            prefix.truncate(BODY_PREFIX_LEN);
            return Err(too_large(Bytes::from(prefix)));
        }
        read += length;
        match first.take() {
            None if body.is_empty() => first = Some(chunk),
            None => body.extend_from_slice(&chunk),
            Some(earlier) => {
                let capacity = usize::try_from(content_length.unwrap_or(read))
                    .unwrap_or(0)
                    .max(earlier.len() + chunk.len());
                body = Vec::with_capacity(capacity);
                body.extend_from_slice(&earlier);
                body.extend_from_slice(&chunk);
            }
        }
    }
    Ok(first.unwrap_or_else(|| Bytes::from(body)))
}

/// `ResponseValue::from_response` of progenitor-client 0.15, with the body
/// read by [`read_body`] under the limit of `state`, and without its copy
/// of the response's headers (the map is moved out of the response, which
/// is consumed anyway). Same errors: the body's read failure as
/// `ResponseBodyError`, a body that does not decode as
/// `InvalidResponsePayload` with the bytes; a body over the limit is a
/// `ResponseBodyError` whose source is a [`TooLarge`] (see [`too_large`]).
pub(crate) async fn from_response<T: DeserializeOwned, E>(
    state: &ClientState,
    mut response: reqwest::Response,
) -> Result<ResponseValue<T>, Error<E>> {
    let status = response.status();
    let headers = std::mem::take(response.headers_mut());
    let body = match read_body(&mut response, state.max_response_bytes()).await {
        Ok(body) => body,
        Err(error) => return Err(body_error(error).await),
    };
    let inner = serde_json::from_slice(&body)
        .map_err(|error| Error::InvalidResponsePayload(body, error))?;
    Ok(ResponseValue::new(inner, status, headers))
}

/// The low-level client's error for a failed [`read_body`]: a
/// `ResponseBodyError`, for a body over the limit too (progenitor's error
/// has no variant of its own for it), whose source chain then holds the
/// [`TooLarge`] that [`too_large`] finds.
pub async fn body_error<E>(error: ReadError) -> Error<E> {
    let too_large = match error {
        ReadError::Body(error) => return Error::ResponseBodyError(error),
        ReadError::TooLarge(too_large) => too_large,
    };
    // reqwest's errors cannot be built outside reqwest: a body that fails
    // with the `TooLarge` is read, and its error carries it as the source.
    let prefix = too_large.prefix.clone();
    let failing =
        reqwest::Body::wrap_stream(futures_util::stream::once(std::future::ready(Err::<
            Bytes,
            TooLarge,
        >(
            too_large
        ))));
    match reqwest::Response::from(http::Response::new(failing))
        .bytes()
        .await
    {
        Err(error) => Error::ResponseBodyError(error),
        // Not reached: the body above only fails. Still an error, not a
        // value made up from nothing.
        Ok(_) => Error::InvalidResponsePayload(
            prefix,
            <serde_json::Error as serde::de::Error>::custom("the response body is too large"),
        ),
    }
}

/// The [`TooLarge`] in the source chain of `error`, when the body was over
/// the limit ([`body_error`]).
pub fn too_large(error: &reqwest::Error) -> Option<&TooLarge> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = source {
        if let Some(found) = current.downcast_ref::<TooLarge>() {
            return Some(found);
        }
        source = current.source();
    }
    None
}
