//! KYB document upload (`POST /api/upload-document`) and the in-memory
//! store that serves uploaded documents back.
//!
//! The body is `multipart/form-data` with one required field `file`. The
//! file may be at most
//! [`SandboxConfig::max_upload_bytes`](crate::SandboxConfig::max_upload_bytes)
//! (20 MiB; 413 above) and its type is told by its content, not its name
//! or declared type: JPEG (`FF D8 FF`), PNG (`89 50 4E 47`) or PDF (`%PDF`),
//! anything else is 415. The link returned is
//! `http://HOST:PORT/v1/documents/{id}`, served without authentication (the
//! id is unguessable), so a link can be opened the way a reviewer would.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use crossborder_api::types::{UploadDocumentResponse, UploadedDocument};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::read_body;
use crate::state::{lock, AppState};

/// Room for the multipart framing around the file itself.
const MULTIPART_OVERHEAD: usize = 64 * 1024;

/// How many bytes of documents are kept; the oldest are dropped beyond it.
const STORE_CAPACITY_BYTES: usize = 512 * 1024 * 1024;

/// A file type the API accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DocumentKind {
    Jpeg,
    Png,
    Pdf,
}

impl DocumentKind {
    /// The type of `bytes` from their first bytes, if accepted.
    pub(crate) fn sniff(bytes: &[u8]) -> Option<DocumentKind> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(DocumentKind::Jpeg)
        } else if bytes.starts_with(&[0x89, 0x50, 0x4E, 0x47]) {
            Some(DocumentKind::Png)
        } else if bytes.starts_with(b"%PDF") {
            Some(DocumentKind::Pdf)
        } else {
            None
        }
    }

    fn media_type(self) -> &'static str {
        match self {
            DocumentKind::Jpeg => "image/jpeg",
            DocumentKind::Png => "image/png",
            DocumentKind::Pdf => "application/pdf",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            DocumentKind::Jpeg => "jpg",
            DocumentKind::Png => "png",
            DocumentKind::Pdf => "pdf",
        }
    }
}

struct Document {
    kind: DocumentKind,
    bytes: Bytes,
}

#[derive(Default)]
struct Store {
    documents: HashMap<String, Document>,
    order: VecDeque<String>,
    total_bytes: usize,
}

/// Uploaded documents, shared by all accounts (links are capabilities).
pub(crate) struct DocumentStore {
    max_file_bytes: usize,
    store: Mutex<Store>,
}

impl DocumentStore {
    /// An empty store accepting files of at most `max_file_bytes`.
    pub(crate) fn new(max_file_bytes: usize) -> DocumentStore {
        DocumentStore {
            max_file_bytes,
            store: Mutex::new(Store::default()),
        }
    }

    fn insert(&self, id: String, document: Document) {
        let mut store = lock(&self.store);
        store.total_bytes += document.bytes.len();
        store.order.push_back(id.clone());
        store.documents.insert(id, document);
        while store.total_bytes > STORE_CAPACITY_BYTES {
            let Some(oldest) = store.order.pop_front() else {
                break;
            };
            if let Some(removed) = store.documents.remove(&oldest) {
                store.total_bytes -= removed.bytes.len();
            }
        }
    }

    fn get(&self, id: &str) -> Option<(DocumentKind, Bytes)> {
        let store = lock(&self.store);
        store
            .documents
            .get(id)
            .map(|document| (document.kind, document.bytes.clone()))
    }
}

/// `POST /api/upload-document`.
pub(crate) async fn upload_document(
    State(state): State<AppState>,
    _caller: Caller,
    request: Request,
) -> Result<Json<UploadDocumentResponse>, ApiError> {
    let max_file = state.documents().max_file_bytes;
    let file_too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("file is larger than {max_file} bytes"),
        )
    };
    let (parts, body) = request.into_parts();
    let whole = read_body(
        &parts.headers,
        body,
        max_file.saturating_add(MULTIPART_OVERHEAD),
    )
    .await
    .map_err(|error| {
        if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
            file_too_large()
        } else {
            error
        }
    })?;

    let rebuilt = Request::from_parts(parts, Body::from(whole));
    let mut multipart = Multipart::from_request(rebuilt, &state)
        .await
        .map_err(|rejection| {
            ApiError::bad_request(format!(
                "Request body must be multipart/form-data with a field `file`: {}",
                rejection.body_text()
            ))
        })?;

    let mut file = None;
    loop {
        let field = multipart.next_field().await.map_err(|error| {
            ApiError::bad_request(format!("Malformed multipart body: {}", error.body_text()))
        })?;
        let Some(field) = field else { break };
        if field.name() != Some("file") {
            continue;
        }
        let bytes = field.bytes().await.map_err(|error| {
            ApiError::bad_request(format!("Malformed multipart body: {}", error.body_text()))
        })?;
        file = Some(bytes);
        break;
    }
    let Some(bytes) = file else {
        return Err(ApiError::bad_request("file: is required"));
    };
    if bytes.is_empty() {
        return Err(ApiError::bad_request("file: must not be empty"));
    }
    if bytes.len() > max_file {
        return Err(file_too_large());
    }
    let kind = DocumentKind::sniff(&bytes).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Unsupported file type: only JPEG, PNG and PDF are accepted",
        )
    })?;

    let id = format!("doc_{}.{}", state.ids().hex(16), kind.extension());
    let link = format!("{}/documents/{id}", state.base_url());
    state.documents().insert(id, Document { kind, bytes });
    Ok(Json(UploadDocumentResponse {
        message: "Document uploaded successfully".to_owned(),
        data: UploadedDocument { link },
        error: Some(false),
    }))
}

/// `GET /v1/documents/{id}` (not in the spec): the uploaded bytes with their
/// detected media type.
pub(crate) async fn get_document(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (kind, bytes) = state
        .documents()
        .get(&id)
        .ok_or_else(|| ApiError::not_found(format!("Document not found: {id}")))?;
    let mut response = bytes.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(kind.media_type()),
    );
    Ok(response)
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
    }
}
