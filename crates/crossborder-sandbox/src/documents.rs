//! KYB document upload (`POST /api/upload-document`) and the in-memory
//! store that serves uploaded documents back.
//!
//! The body is `multipart/form-data` with one required field `file`. The
//! file is checked with the API's upload rules
//! (`crossborder_core::kyb::validate_upload_within`): not empty (400), at
//! most
//! [`SandboxConfig::max_upload_bytes`](crate::SandboxConfig::max_upload_bytes)
//! (20 MiB; 413 above), and of a type told by its content, not its name or
//! declared type: JPEG (`FF D8 FF`), PNG (`89 50 4E 47`) or PDF (`%PDF`),
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
use crossborder_core::kyb::{validate_upload_within, DocumentKind, UploadError};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::read_body;
use crate::state::{lock, AppState};

/// Room for the multipart framing around the file itself.
const MULTIPART_OVERHEAD: usize = 64 * 1024;

/// How many bytes of documents are kept; the oldest are dropped beyond it.
const STORE_CAPACITY_BYTES: usize = 512 * 1024 * 1024;

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
    let (parts, body) = request.into_parts();
    let whole = read_body(
        &parts.headers,
        body,
        max_file.saturating_add(MULTIPART_OVERHEAD),
    )
    .await
    .map_err(|error| {
        if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
            upload_refused(&UploadError::TooLarge { max: max_file })
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
    let kind = validate_upload_within(&bytes, max_file).map_err(|error| upload_refused(&error))?;

    let id = format!("doc_{}.{}", state.ids().hex(16), kind.extension());
    let link = format!("{}/documents/{id}", state.base_url());
    state.documents().insert(id, Document { kind, bytes });
    Ok(Json(UploadDocumentResponse {
        message: "Document uploaded successfully".to_owned(),
        data: UploadedDocument { link },
        error: Some(false),
    }))
}

/// The answer to a file the upload rules refuse, with their message: 400
/// for an empty file, 413 for a large one, 415 for another type.
fn upload_refused(error: &UploadError) -> ApiError {
    let status = match error {
        UploadError::Empty => StatusCode::BAD_REQUEST,
        UploadError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        UploadError::UnsupportedType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
    };
    ApiError::new(status, error.to_string())
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
