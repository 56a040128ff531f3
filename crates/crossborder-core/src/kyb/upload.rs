//! The document upload's file rules (`POST /api/upload-document`): at most
//! 20 MB, and a JPEG, PNG or PDF told by its first bytes, not its name.

use std::fmt;

use crate::violation::{Rule, Violation};

/// The largest file the upload accepts: 20 MB, read as the spec writes it,
/// in decimal megabytes (20,000,000 bytes; ASSUMPTIONS C9), so a file the
/// SDK lets through is never over the service's limit whichever megabyte
/// it means.
pub const MAX_UPLOAD_BYTES: usize = 20_000_000;

/// A file type the upload accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocumentKind {
    /// A JPEG image (starts with `FF D8 FF`).
    Jpeg,
    /// A PNG image (starts with `89 50 4E 47`).
    Png,
    /// A PDF document (starts with `%PDF`).
    Pdf,
}

impl DocumentKind {
    /// The type of a file from its first bytes, or `None` when it is not
    /// one the API accepts.
    ///
    /// ```
    /// use crossborder_core::kyb::DocumentKind;
    ///
    /// assert_eq!(DocumentKind::sniff(b"%PDF-1.7"), Some(DocumentKind::Pdf));
    /// assert_eq!(DocumentKind::sniff(b"GIF89a"), None);
    /// ```
    pub fn sniff(bytes: &[u8]) -> Option<DocumentKind> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(DocumentKind::Jpeg)
        } else if bytes.starts_with(&[0x89, b'P', b'N', b'G']) {
            Some(DocumentKind::Png)
        } else if bytes.starts_with(b"%PDF") {
            Some(DocumentKind::Pdf)
        } else {
            None
        }
    }

    /// The media type (`image/jpeg`, `image/png`, `application/pdf`).
    pub const fn media_type(self) -> &'static str {
        match self {
            DocumentKind::Jpeg => "image/jpeg",
            DocumentKind::Png => "image/png",
            DocumentKind::Pdf => "application/pdf",
        }
    }

    /// The usual file extension, without the dot (`jpg`, `png`, `pdf`).
    pub const fn extension(self) -> &'static str {
        match self {
            DocumentKind::Jpeg => "jpg",
            DocumentKind::Png => "png",
            DocumentKind::Pdf => "pdf",
        }
    }
}

impl fmt::Display for DocumentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DocumentKind::Jpeg => "JPEG",
            DocumentKind::Png => "PNG",
            DocumentKind::Pdf => "PDF",
        })
    }
}

/// Why a file cannot be uploaded. The messages are the API's own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    /// The file has no bytes.
    #[error("File is empty")]
    Empty,
    /// The file is larger than the limit, [`MAX_UPLOAD_BYTES`] for the API
    /// (HTTP 413 from the API).
    #[error("{}", too_large_message(*.max))]
    TooLarge {
        /// The largest size accepted, in bytes.
        max: usize,
    },
    /// The file is not a JPEG, PNG or PDF by content (HTTP 415 from the API).
    #[error("Unsupported file type: only JPEG, PNG and PDF are accepted")]
    UnsupportedType,
}

/// `File is larger than 20 MB (20000000 bytes)`, or without the megabytes
/// when the limit is not a whole number of them.
fn too_large_message(max: usize) -> String {
    const MB: usize = 1_000_000;
    if max >= MB && max.is_multiple_of(MB) {
        format!("File is larger than {} MB ({max} bytes)", max / MB)
    } else {
        format!("File is larger than {max} bytes")
    }
}

impl UploadError {
    /// The rule broken: [`Rule::Required`] for an empty file,
    /// [`Rule::OutOfRange`] for its size, [`Rule::NotOneOf`] for its type.
    pub fn rule(&self) -> Rule {
        match self {
            UploadError::Empty => Rule::Required,
            UploadError::TooLarge { .. } => Rule::OutOfRange,
            UploadError::UnsupportedType => Rule::NotOneOf,
        }
    }

    /// The error as a violation of the multipart field `file`.
    pub fn violation(&self) -> Violation {
        Violation::new("file", self.rule(), self.to_string())
    }
}

/// Checks a file before it is uploaded: not empty, at most
/// [`MAX_UPLOAD_BYTES`], then a JPEG, PNG or PDF by content (the size is
/// checked first, as the API does). Returns the detected type.
///
/// ```
/// use crossborder_core::kyb::{validate_upload, DocumentKind, UploadError};
///
/// assert_eq!(validate_upload(b"\x89PNG\r\n\x1a\n"), Ok(DocumentKind::Png));
/// assert_eq!(
///     validate_upload(b"GIF89a").unwrap_err().to_string(),
///     "Unsupported file type: only JPEG, PNG and PDF are accepted"
/// );
/// ```
pub fn validate_upload(bytes: &[u8]) -> Result<DocumentKind, UploadError> {
    validate_upload_within(bytes, MAX_UPLOAD_BYTES)
}

/// [`validate_upload`] with another size limit than the API's, for a local
/// server configured to accept less (or more).
///
/// ```
/// use crossborder_core::kyb::{validate_upload_within, UploadError};
///
/// assert_eq!(
///     validate_upload_within(b"%PDF-1.7", 4),
///     Err(UploadError::TooLarge { max: 4 })
/// );
/// assert_eq!(
///     UploadError::TooLarge { max: 4 }.to_string(),
///     "File is larger than 4 bytes"
/// );
/// ```
pub fn validate_upload_within(bytes: &[u8], max: usize) -> Result<DocumentKind, UploadError> {
    if bytes.is_empty() {
        return Err(UploadError::Empty);
    }
    if bytes.len() > max {
        return Err(UploadError::TooLarge { max });
    }
    DocumentKind::sniff(bytes).ok_or(UploadError::UnsupportedType)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_told_by_content() {
        assert_eq!(
            DocumentKind::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(DocumentKind::Jpeg)
        );
        assert_eq!(
            DocumentKind::sniff(b"\x89PNG\r\n\x1a\n"),
            Some(DocumentKind::Png)
        );
        assert_eq!(DocumentKind::sniff(b"%PDF-1.7"), Some(DocumentKind::Pdf));
        assert_eq!(DocumentKind::sniff(b"GIF89a"), None);
        assert_eq!(DocumentKind::sniff(b""), None);
        assert_eq!(DocumentKind::Pdf.media_type(), "application/pdf");
        assert_eq!(DocumentKind::Jpeg.extension(), "jpg");
    }

    #[test]
    fn size_limit_and_messages() {
        let mut big = b"%PDF-".to_vec();
        big.resize(MAX_UPLOAD_BYTES, b' ');
        assert_eq!(validate_upload(&big), Ok(DocumentKind::Pdf));
        big.push(b' ');
        let error = validate_upload(&big).unwrap_err();
        assert_eq!(
            error,
            UploadError::TooLarge {
                max: MAX_UPLOAD_BYTES
            }
        );
        assert_eq!(
            error.to_string(),
            "File is larger than 20 MB (20000000 bytes)"
        );
        assert_eq!(error.violation().rule, Rule::OutOfRange);
        assert_eq!(
            validate_upload(b"GIF89a")
                .unwrap_err()
                .violation()
                .to_string(),
            "file: Unsupported file type: only JPEG, PNG and PDF are accepted"
        );
        assert_eq!(validate_upload(b""), Err(UploadError::Empty));
        assert_eq!(UploadError::Empty.rule(), Rule::Required);
    }
}
