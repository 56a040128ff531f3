//! The document upload: the file rules and the hand-written multipart
//! request (the generator cannot express multipart bodies).

use bytes::Bytes;
use crossborder_api::types as wire;
use progenitor_client::{Error as LowError, ResponseValue};
use reqwest::header::{HeaderValue, ACCEPT};
use reqwest::multipart::{Form, Part};

use crate::error::{violation, Error};
use crate::{Rule, Violation, Violations};

/// The largest file the upload accepts: 20 MB.
pub const MAX_UPLOAD_BYTES: usize = 20 * 1024 * 1024;

/// The path of the upload, below the base URL.
pub(crate) const UPLOAD_PATH: &str = "/api/upload-document";

/// A file type the upload accepts, recognised from the file's first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileType {
    Jpeg,
    Png,
    Pdf,
}

impl FileType {
    pub(crate) fn sniff(bytes: &[u8]) -> Option<FileType> {
        if bytes.starts_with(b"%PDF-") {
            Some(FileType::Pdf)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(FileType::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(FileType::Jpeg)
        } else {
            None
        }
    }

    pub(crate) fn mime(self) -> &'static str {
        match self {
            FileType::Jpeg => "image/jpeg",
            FileType::Png => "image/png",
            FileType::Pdf => "application/pdf",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            FileType::Jpeg => "jpg",
            FileType::Png => "png",
            FileType::Pdf => "pdf",
        }
    }
}

/// Checks a file before uploading it: not empty, at most
/// [`MAX_UPLOAD_BYTES`], and a JPEG, PNG or PDF by content. Every violation
/// is reported at once.
pub(crate) fn check(bytes: &[u8]) -> Result<FileType, Error> {
    let kind = FileType::sniff(bytes);
    let mut violations = Vec::new();
    if bytes.is_empty() {
        violations.push(Violation::new(
            "file",
            Rule::Required,
            "is required (the file is empty)",
        ));
    } else {
        if bytes.len() > MAX_UPLOAD_BYTES {
            violations.push(Violation::new(
                "file",
                Rule::OutOfRange,
                format!(
                    "must be at most 20 MB ({MAX_UPLOAD_BYTES} bytes), got {} bytes",
                    bytes.len()
                ),
            ));
        }
        if kind.is_none() {
            violations.push(Violation::new("file", Rule::NotOneOf, NOT_ACCEPTED));
        }
    }
    if let Some(violations) = Violations::from_vec(violations) {
        return Err(Error::Validation(violations));
    }
    kind.ok_or_else(|| violation("file", Rule::NotOneOf, NOT_ACCEPTED))
}

const NOT_ACCEPTED: &str = "must be a JPEG, PNG or PDF file";

/// The file name sent with the part: the caller's, or `document.<ext>`.
pub(crate) fn file_name(name: &str, kind: FileType) -> String {
    let trimmed = name.trim();
    if trimmed.is_empty() {
        format!("document.{}", kind.extension())
    } else {
        trimmed.to_owned()
    }
}

/// Sends one upload attempt and answers like a generated operation, so the
/// executor retries and maps its errors the same way.
pub(crate) async fn send(
    http: &reqwest::Client,
    url: &str,
    bytes: Bytes,
    file_name: String,
    kind: FileType,
) -> Result<ResponseValue<wire::UploadDocumentResponse>, LowError<wire::ErrorResponse>> {
    let part = Part::stream_with_length(reqwest::Body::from(bytes.clone()), bytes.len() as u64)
        .file_name(file_name)
        .mime_str(kind.mime())
        .map_err(|error| LowError::InvalidRequest(error.to_string()))?;
    let response = http
        .post(url)
        .header(ACCEPT, HeaderValue::from_static("application/json"))
        .multipart(Form::new().part("file", part))
        .send()
        .await
        .map_err(LowError::CommunicationError)?;
    if response.status().as_u16() == 200 {
        ResponseValue::from_response(response).await
    } else {
        Err(LowError::UnexpectedResponse(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_types_by_content() {
        assert_eq!(check(b"%PDF-1.7 ...").unwrap(), FileType::Pdf);
        assert_eq!(check(b"\x89PNG\r\n\x1a\nrest").unwrap(), FileType::Png);
        assert_eq!(check(&[0xFF, 0xD8, 0xFF, 0xE0]).unwrap(), FileType::Jpeg);
        let error = check(b"GIF89a").unwrap_err();
        assert_eq!(
            error.violations().unwrap().to_string(),
            "file: must be a JPEG, PNG or PDF file"
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
        big.truncate(MAX_UPLOAD_BYTES);
        assert!(check(&big).is_ok());
    }

    #[test]
    fn file_names() {
        assert_eq!(file_name("cac.pdf", FileType::Pdf), "cac.pdf");
        assert_eq!(file_name("  ", FileType::Png), "document.png");
    }
}
