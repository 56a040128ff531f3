//! The document upload: the hand-written multipart request (the generator
//! cannot express multipart bodies). The file rules are `crossborder-core`'s
//! ([`validate_upload`]).

use bytes::Bytes;
use crossborder_api::response::{body_error, read_body};
use crossborder_api::types as wire;
use crossborder_api::ClientState;
use crossborder_core::kyb::{validate_upload, DocumentKind};
use progenitor_client::{Error as LowError, ResponseValue};
use reqwest::header::{HeaderValue, ACCEPT};
use reqwest::multipart::{Form, Part};

use crate::error::{Error, Violations};

/// The path of the upload, below the base URL.
pub(crate) const UPLOAD_PATH: &str = "/api/upload-document";

/// Checks a file before uploading it (not empty, at most 20 MB, a JPEG, PNG
/// or PDF by content) and returns its type; a failure is a validation error
/// on the field `file`, with the API's message.
pub(crate) fn check(bytes: &[u8]) -> Result<DocumentKind, Error> {
    validate_upload(bytes).map_err(
        |error| match Violations::from_vec(vec![error.violation()]) {
            Some(violations) => Error::Validation(violations),
            None => Error::InvalidRequest {
                message: format!("file: {error}"),
            },
        },
    )
}

/// The file name sent with the part: the caller's, or `document.<ext>`.
pub(crate) fn file_name(name: &str, kind: DocumentKind) -> String {
    let trimmed = name.trim();
    if trimmed.is_empty() {
        format!("document.{}", kind.extension())
    } else {
        trimmed.to_owned()
    }
}

/// Sends one upload attempt and answers like a generated operation, so the
/// executor retries and maps its errors the same way. `state` adds the API
/// key and user agent, as the generated operations' hook does.
pub(crate) async fn send(
    http: &reqwest::Client,
    state: &ClientState,
    url: &str,
    bytes: Bytes,
    file_name: String,
    kind: DocumentKind,
) -> Result<ResponseValue<wire::UploadDocumentResponse>, LowError<()>> {
    let part = Part::stream_with_length(reqwest::Body::from(bytes.clone()), bytes.len() as u64)
        .file_name(file_name)
        .mime_str(kind.media_type())
        .map_err(|error| LowError::InvalidRequest(error.to_string()))?;
    let mut request = http
        .post(url)
        .header(ACCEPT, HeaderValue::from_static("application/json"))
        .multipart(Form::new().part("file", part))
        .build()
        .map_err(|error| LowError::InvalidRequest(error.to_string()))?;
    state.apply(&mut request);
    let mut response = http
        .execute(request)
        .await
        .map_err(LowError::CommunicationError)?;
    // Any 2xx is success (ASSUMPTIONS B2); the generated operations decode
    // only the 200 the spec documents.
    if !response.status().is_success() {
        return Err(LowError::UnexpectedResponse(response));
    }
    let status = response.status();
    let headers = std::mem::take(response.headers_mut());
    let body = match read_body(&mut response, state.max_response_bytes()).await {
        Ok(body) => body,
        Err(error) => return Err(body_error(error).await),
    };
    match read_response(&body) {
        Ok(value) => Ok(ResponseValue::new(value, status, headers)),
        // The error mapping takes an undecodable payload for a 200 (the
        // only status the generated operations decode); any other 2xx goes
        // back as the response it was, so the error keeps its status.
        Err(error) if status == reqwest::StatusCode::OK => {
            Err(LowError::InvalidResponsePayload(body, error))
        }
        Err(_) => {
            let mut rebuilt = http::Response::new(body);
            *rebuilt.status_mut() = status;
            *rebuilt.headers_mut() = headers;
            Err(LowError::UnexpectedResponse(rebuilt.into()))
        }
    }
}

/// Reads the upload's answer in every shape ASSUMPTIONS A16 accepts: the
/// documented `{message, data: {link}, error}`, `data` as the bare link, or
/// a top-level `link` (the spec says only that the upload returns "link
/// (string)").
fn read_response(body: &[u8]) -> Result<wire::UploadDocumentResponse, serde_json::Error> {
    use serde::de::Error as _;

    let value: serde_json::Value = serde_json::from_slice(body)?;
    let text = |value: &serde_json::Value| value.as_str().map(str::to_owned);
    let link = value
        .pointer("/data/link")
        .and_then(text)
        .or_else(|| value.get("data").and_then(text))
        .or_else(|| value.get("link").and_then(text))
        .ok_or_else(|| {
            serde_json::Error::custom(
                "the upload answer has no link (expected data.link, data or link)",
            )
        })?;
    Ok(wire::UploadDocumentResponse {
        data: wire::UploadedDocument { link },
        error: value.get("error").and_then(serde_json::Value::as_bool),
        message: value.get("message").and_then(text).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Rule;
    use crossborder_core::kyb::MAX_UPLOAD_BYTES;

    #[test]
    fn accepted_types_by_content() {
        assert_eq!(check(b"%PDF-1.7 ...").unwrap(), DocumentKind::Pdf);
        assert_eq!(check(b"\x89PNG\r\n\x1a\nrest").unwrap(), DocumentKind::Png);
        assert_eq!(
            check(&[0xFF, 0xD8, 0xFF, 0xE0]).unwrap(),
            DocumentKind::Jpeg
        );
        let error = check(b"GIF89a").unwrap_err();
        assert_eq!(
            error.violations().unwrap().to_string(),
            "file: Unsupported file type: only JPEG, PNG and PDF are accepted"
        );
        let error = check(b"").unwrap_err();
        assert_eq!(error.violations().unwrap()[0].rule, Rule::Required);
    }

    #[test]
    fn size_limit() {
        let mut big = b"%PDF-".to_vec();
        big.resize(MAX_UPLOAD_BYTES + 1, b' ');
        let error = check(&big).unwrap_err();
        let violations = error.violations().unwrap();
        assert_eq!(violations.len(), 1);
        assert_eq!(violations[0].rule, Rule::OutOfRange);
        assert_eq!(
            violations[0].message,
            "File is larger than 20 MB (20000000 bytes)"
        );
        big.truncate(MAX_UPLOAD_BYTES);
        assert!(check(&big).is_ok());
    }

    #[test]
    fn every_documented_answer_shape_gives_the_link() {
        let link = "https://files.example/doc_1.pdf";
        for body in [
            format!(r#"{{"message": "Uploaded", "data": {{"link": "{link}"}}, "error": false}}"#),
            format!(r#"{{"message": "Uploaded", "data": "{link}"}}"#),
            format!(r#"{{"link": "{link}"}}"#),
        ] {
            let read = read_response(body.as_bytes()).unwrap();
            assert_eq!(read.data.link, link, "{body}");
        }
        let error = read_response(br#"{"message": "Uploaded", "data": {}}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the upload answer has no link (expected data.link, data or link)"
        );
        assert!(read_response(b"not json").is_err());
    }

    #[test]
    fn file_names() {
        assert_eq!(file_name("cac.pdf", DocumentKind::Pdf), "cac.pdf");
        assert_eq!(file_name("  ", DocumentKind::Png), "document.png");
    }
}
