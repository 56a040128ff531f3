//! KYB document upload (`POST /api/upload-document`) and the in-memory
//! store that serves uploaded documents back.
//!
//! The body is `multipart/form-data` with one required field `file`. The
//! file is checked with the API's upload rules
//! (`crossborder_core::kyb::validate_upload_within`): not empty (400), at
//! most
//! [`SandboxConfig::max_upload_bytes`](crate::SandboxConfig::max_upload_bytes)
//! (20 MB; 413 above), and of a type told by its content, not its name or
//! declared type: JPEG (`FF D8 FF`), PNG (`89 50 4E 47`) or PDF (`%PDF`),
//! anything else is 415.
//!
//! Documents are private to the business that uploaded them
//! (ASSUMPTIONS.md B55): the link returned is
//! `http://HOST:PORT/v1/documents/doc_<32 hex digits>.<ext>`, and reading
//! it needs that business's `x-api-key`, like every endpoint of the API.
//! Without a key it is 403 `API key header needed`, with another business's
//! key 404 `Document not found: <id>`, exactly as an unknown id, so a key
//! learns nothing of other businesses' documents. The sandbox itself still
//! resolves the links a business sends in `documents`, `proofOfAddress` and
//! `sourceOfFund`, as the service's reviewers would
//! ([`SandboxHandle::business_documents`](crate::SandboxHandle::business_documents)).
//! Nothing lists documents. Each business keeps up to 512 MiB of documents,
//! dropping its own oldest beyond that, so one business never evicts
//! another's.

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use crossborder_api::types::{UploadDocumentResponse, UploadedDocument};
use crossborder_core::kyb::{validate_upload_within, UploadError};
use crossborder_core::{Rule, Violation, Violations};

use crate::http::auth::Caller;
use crate::http::body::read::read_body;
use crate::http::error::ApiError;
use crate::store::state::AppState;

/// Room for the multipart framing around the file itself.
const MULTIPART_OVERHEAD: usize = 64 * 1024;

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
        state.config().body_idle_timeout,
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

    // Every part is read: a second `file` is refused like a repeated key of
    // a JSON body (which of the two a service keeps is anyone's guess,
    // ASSUMPTIONS B40).
    let mut file = None;
    loop {
        let field = multipart.next_field().await.map_err(|error| {
            ApiError::bad_request(format!("Malformed multipart body: {}", error.body_text()))
        })?;
        let Some(field) = field else { break };
        if field.name() != Some("file") {
            continue;
        }
        if file.is_some() {
            return Err(ApiError::repeated("file"));
        }
        let bytes = field.bytes().await.map_err(|error| {
            ApiError::bad_request(format!("Malformed multipart body: {}", error.body_text()))
        })?;
        file = Some(bytes);
    }
    // A missing file is reported like a missing field of a JSON body,
    // through the same merge, so it is listed in `errors` too.
    let bytes = ApiError::checked(
        Vec::new(),
        file.ok_or_else(|| Violations::from(Violation::new("file", Rule::Required, "is required"))),
    )?;
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
/// detected media type, for the business that uploaded them only.
pub(crate) async fn get_document(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (kind, bytes) = state
        .documents()
        .get(&id, caller.business())
        .ok_or_else(|| ApiError::not_found(format!("Document not found: {id}")))?;
    let mut response = bytes.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(kind.media_type()),
    );
    Ok(response)
}
