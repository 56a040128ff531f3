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
//! anything else is 415.
//!
//! Documents belong to the business that uploaded them. The link returned
//! is `http://HOST:PORT/v1/documents/doc_<32 hex digits>.<ext>` (128
//! unpredictable bits) and is a capability: without an `x-api-key` header
//! it serves the bytes to whoever holds it, the way a KYB reviewer opens a
//! link. With an `x-api-key` header the request is authenticated like any
//! other and only the key's own documents are served: another business's
//! link is 404, exactly as an unknown one. Nothing lists documents. Each
//! business keeps up to 512 MiB of documents, dropping its own oldest
//! beyond that, so one business never evicts another's.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use crossborder_api::types::{UploadDocumentResponse, UploadedDocument};
use crossborder_core::kyb::{validate_upload_within, DocumentKind, UploadError};

use crate::auth::{Caller, OptionalCaller};
use crate::error::ApiError;
use crate::ids::IdGenerator;
use crate::json::read_body;
use crate::state::{lock, AppState, BusinessId};

/// Room for the multipart framing around the file itself.
const MULTIPART_OVERHEAD: usize = 64 * 1024;

/// How many bytes of documents each business keeps; its oldest are dropped
/// beyond it.
const STORE_CAPACITY_BYTES: usize = 512 * 1024 * 1024;

/// Hexadecimal digits of a document id: 128 bits.
const ID_HEX_DIGITS: usize = 32;

struct Document {
    owner: BusinessId,
    kind: DocumentKind,
    bytes: Bytes,
}

/// One business's documents, oldest first, and their size.
#[derive(Default)]
struct Shelf {
    order: VecDeque<String>,
    total_bytes: usize,
}

#[derive(Default)]
struct Store {
    /// Every document by id (ids are unique across businesses, so a bare
    /// link finds its document).
    documents: HashMap<String, Document>,
    shelves: HashMap<BusinessId, Shelf>,
}

/// Uploaded documents, each owned by one business.
pub(crate) struct DocumentStore {
    max_file_bytes: usize,
    capacity_bytes: usize,
    store: Mutex<Store>,
}

impl DocumentStore {
    /// An empty store accepting files of at most `max_file_bytes`.
    pub(crate) fn new(max_file_bytes: usize) -> DocumentStore {
        DocumentStore::with_capacity(max_file_bytes, STORE_CAPACITY_BYTES)
    }

    /// An empty store keeping at most `capacity_bytes` per business.
    fn with_capacity(max_file_bytes: usize, capacity_bytes: usize) -> DocumentStore {
        DocumentStore {
            max_file_bytes,
            capacity_bytes,
            store: Mutex::new(Store::default()),
        }
    }

    /// Stores a document of `owner` under a fresh unpredictable id
    /// (`doc_<hex>.<ext>`) and returns the id; the owner's oldest documents
    /// are dropped while its shelf is over capacity.
    fn insert(
        &self,
        ids: &IdGenerator,
        owner: BusinessId,
        kind: DocumentKind,
        bytes: Bytes,
    ) -> String {
        let mut guard = lock(&self.store);
        let store = &mut *guard;
        let id = loop {
            let candidate = format!("doc_{}.{}", ids.hex(ID_HEX_DIGITS), kind.extension());
            if !store.documents.contains_key(&candidate) {
                break candidate;
            }
        };
        let shelf = store.shelves.entry(owner).or_default();
        shelf.total_bytes += bytes.len();
        shelf.order.push_back(id.clone());
        store
            .documents
            .insert(id.clone(), Document { owner, kind, bytes });
        while shelf.total_bytes > self.capacity_bytes {
            let Some(oldest) = shelf.order.pop_front() else {
                break;
            };
            if let Some(removed) = store.documents.remove(&oldest) {
                shelf.total_bytes -= removed.bytes.len();
            }
        }
        id
    }

    /// The document `id`; when `viewer` is given, only if it owns it.
    fn get(&self, id: &str, viewer: Option<BusinessId>) -> Option<(DocumentKind, Bytes)> {
        let store = lock(&self.store);
        store
            .documents
            .get(id)
            .filter(|document| viewer.is_none_or(|viewer| viewer == document.owner))
            .map(|document| (document.kind, document.bytes.clone()))
    }
}

/// `POST /api/upload-document`.
pub(crate) async fn upload_document(
    State(state): State<AppState>,
    caller: Caller,
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

    let id = state
        .documents()
        .insert(state.ids(), caller.business(), kind, bytes);
    let link = format!("{}/documents/{id}", state.base_url());
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
/// detected media type. Without `x-api-key` the link is a capability; with
/// one, the key is checked and only its business's documents are found.
pub(crate) async fn get_document(
    State(state): State<AppState>,
    OptionalCaller(caller): OptionalCaller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let viewer = caller.as_ref().map(Caller::business);
    let (kind, bytes) = state
        .documents()
        .get(&id, viewer)
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

    fn pdf(len: usize) -> Bytes {
        let mut bytes = b"%PDF".to_vec();
        bytes.resize(len, b'0');
        Bytes::from(bytes)
    }

    #[test]
    fn documents_are_owned_and_each_business_has_its_own_room() {
        let ids = IdGenerator::default();
        let (first, second) = (BusinessId::for_tests(0), BusinessId::for_tests(1));
        let store = DocumentStore::with_capacity(100, 100);
        let oldest = store.insert(&ids, first, DocumentKind::Pdf, pdf(40));
        let theirs = store.insert(&ids, second, DocumentKind::Pdf, pdf(90));
        let middle = store.insert(&ids, first, DocumentKind::Pdf, pdf(40));
        assert!(
            oldest.starts_with("doc_") && oldest.ends_with(".pdf"),
            "{oldest}"
        );
        assert_eq!(oldest.len(), "doc_".len() + ID_HEX_DIGITS + ".pdf".len());

        // The owner and a bare link find it; another business does not.
        assert!(store.get(&oldest, Some(first)).is_some());
        assert!(store.get(&oldest, None).is_some());
        assert!(store.get(&oldest, Some(second)).is_none());
        assert!(store.get(&theirs, Some(first)).is_none());

        // The first business going over its room drops its own oldest
        // document, never the other business's.
        let newest = store.insert(&ids, first, DocumentKind::Pdf, pdf(40));
        assert!(store.get(&oldest, None).is_none());
        for kept in [&middle, &newest] {
            assert!(store.get(kept, Some(first)).is_some());
        }
        assert!(store.get(&theirs, Some(second)).is_some());
    }
}
