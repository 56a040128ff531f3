//! Business onboarding (KYB): `POST /api/business`,
//! `GET`/`PATCH /api/business/{businessId}` and
//! `POST /api/business/{businessId}/director` and `/ubo`.
//!
//! Requests are checked with the rules of `crossborder_core::kyb`
//! (`validate_business_create_with`, `validate_business_update_with`,
//! `validate_person`, which include the optional `operatingAddress` and the
//! `{url, key}` of each document), the document keys read by the
//! specification's rule (`DocumentKeyRule::Described`: its aliases as
//! written, or an uppercased match against the supported types; ASSUMPTIONS
//! D42); this module adds the JSON types of every
//! field, and the sandbox's lifecycle:
//!
//! * create: a registration number already used by another business of the
//!   same account is 409, unless the body is identical to the one that
//!   created that business: then the create is a repeat (its answer may
//!   have been lost) and gets that business, with nothing created
//!   (ASSUMPTIONS B22); the record gets the id `biz_` + 10 characters,
//!   status `PENDING`, country `NG`, and `PENDING` in `fieldStatuses` for
//!   every submitted field except `name` and `registrationNumber` (which
//!   cannot be updated, so are never re-reviewed);
//! * directors and UBOs: unknown business 404; the call after which the
//!   business has at least one director and one UBO submits it: status
//!   `SUBMITTED`, `submittedAt` set, and the response says `submitted: true`;
//! * decision: the first `GET` after a submission decides. The outcome is
//!   driven by the registration number (case-insensitive suffix): ending in
//!   `REJECT` gives `REJECTED` with rejectionReason
//!   `Registration number could not be verified`; ending in `PENDING` stays
//!   `SUBMITTED` (under review) forever; anything else gives `APPROVED`.
//!   Every `PENDING` field status follows the decision;
//! * update: `name` and `registrationNumber` are refused (400 naming the
//!   field); each updated field becomes `PENDING` in `fieldStatuses`, the
//!   rejection reason is cleared and the business goes back to `PENDING`;
//!   a business that had been submitted is then decided again on the next
//!   `GET`.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use crossborder_api::types;
use crossborder_core::kyb::{
    validate_business_create_with, validate_business_update_with, validate_person, BusinessFields,
    BusinessType, DocumentKeyRule, DocumentRefFields, PersonFields, PersonRole,
};

use crate::http::auth::Caller;
use crate::http::body::Body;
use crate::http::error::ApiError;
use crate::http::params::PathParams;
use crate::store::account::Account;
use crate::store::business::{BusinessRecord, PersonRecord, Status, StoredDocument};
use crate::store::state::AppState;

/// The fields present in a body, minus `name` and `registrationNumber`
/// (which cannot be updated, so are never re-reviewed).
fn reviewed_fields(body: &Body) -> Vec<String> {
    BusinessFields::WIRE_NAMES
        .iter()
        .filter(|field| {
            ![BusinessFields::NAME, BusinessFields::REGISTRATION_NUMBER].contains(field)
        })
        .filter(|field| body.has(field))
        .map(|field| (*field).to_owned())
        .collect()
}

fn business_response(message: &str, record: &BusinessRecord) -> Json<types::BusinessResponse> {
    Json(types::BusinessResponse {
        message: message.to_owned(),
        data: record.to_wire(),
        error: Some(false),
    })
}

/// Business `id` of the caller's account, or 404 `Business not found: {id}`.
fn stored<'a>(account: &'a mut Account, id: &str) -> Result<&'a mut BusinessRecord, ApiError> {
    account
        .businesses
        .get_mut(id)
        .ok_or_else(|| ApiError::not_found(format!("Business not found: {id}")))
}

/// The documents map of a body, by key as received.
fn stored_documents(
    documents: &[(&str, DocumentRefFields<'_>)],
) -> BTreeMap<String, StoredDocument> {
    documents
        .iter()
        .map(|(key, fields)| ((*key).to_owned(), StoredDocument::from_fields(fields)))
        .collect()
}

/// The `sourceOfFund.url` of a body, when sent.
fn source_of_fund_url(view: &BusinessFields<'_>) -> Option<String> {
    view.source_of_fund
        .as_ref()
        .and_then(|source| source.url)
        .map(str::to_owned)
}

/// `POST /api/business`.
pub(crate) async fn create_business(
    State(state): State<AppState>,
    caller: Caller,
    body: Body,
) -> Result<Json<types::BusinessResponse>, ApiError> {
    let (view, read) = body.read(BusinessFields::read);
    // Document keys as the specification's rule reads them, not as
    // loosely as the SDK does (ASSUMPTIONS D42).
    let rules = validate_business_create_with(&view, DocumentKeyRule::Described);
    ApiError::checked(read, rules)?;
    let (Some(name), Some(business_type), Some(registration_number)) = (
        view.name,
        view.business_type
            .and_then(|text| text.parse::<BusinessType>().ok()),
        view.registration_number,
    ) else {
        return Err(ApiError::bad_request(
            "name, businessType and registrationNumber are required",
        ));
    };

    let fingerprint = body.fingerprint();
    let now = state.now();
    let mut account = caller.account();
    let taken = account
        .businesses
        .values()
        .find(|business| business.registration_number.trim() == registration_number.trim());
    if let Some(existing) = taken {
        if existing.create_fingerprint == fingerprint {
            return Ok(business_response("Business created successfully", existing));
        }
        return Err(ApiError::conflict(format!(
            "registrationNumber already registered: {registration_number}"
        )));
    }
    let id = loop {
        let candidate = format!("biz_{}", state.ids().upper_alphanumeric(10));
        if !account.businesses.contains_key(&candidate) {
            break candidate;
        }
    };
    let record = BusinessRecord {
        id: id.clone(),
        name: name.to_owned(),
        business_type,
        registration_number: registration_number.to_owned(),
        status: Status::Pending,
        rejection_reason: None,
        field_statuses: reviewed_fields(&body)
            .into_iter()
            .map(|field| (field, Status::Pending))
            .collect(),
        directors: Vec::new(),
        ubos: Vec::new(),
        created_at: now,
        sequence: account.next_sequence(),
        updated_at: now,
        submitted_at: None,
        documents: stored_documents(&view.documents),
        proof_of_address: view.proof_of_address.url.map(str::to_owned),
        source_of_fund: source_of_fund_url(&view),
        create_fingerprint: fingerprint,
    };
    let response = business_response("Business created successfully", &record);
    account.businesses.insert(id, record);
    Ok(response)
}

/// `GET /api/business/{businessId}`: the record, decided first if it was
/// waiting for a decision.
pub(crate) async fn get_business(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> Result<Json<types::BusinessResponse>, ApiError> {
    let now = state.now();
    let mut account = caller.account();
    let record = stored(&mut account, &id)?;
    record.decide(now);
    Ok(business_response("Business retrieved successfully", record))
}

/// `PATCH /api/business/{businessId}`.
pub(crate) async fn update_business(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    body: Body,
) -> Result<Json<types::BusinessResponse>, ApiError> {
    // Unknown business first, before the body's checks.
    stored(&mut caller.account(), &id)?;
    let (view, read) = body.read(BusinessFields::read);
    let rules = validate_business_update_with(&view, DocumentKeyRule::Described);
    ApiError::checked(read, rules)?;

    let now = state.now();
    let mut account = caller.account();
    let record = stored(&mut account, &id)?;
    let updated = reviewed_fields(&body);
    if !updated.is_empty() {
        if let Some(business_type) = view
            .business_type
            .and_then(|text| text.parse::<BusinessType>().ok())
        {
            record.business_type = business_type;
        }
        for field in updated {
            record.field_statuses.insert(field, Status::Pending);
        }
        record.documents.extend(stored_documents(&view.documents));
        if let Some(url) = view.proof_of_address.url {
            record.proof_of_address = Some(url.to_owned());
        }
        if let Some(url) = source_of_fund_url(&view) {
            record.source_of_fund = Some(url);
        }
        record.status = Status::Pending;
        record.rejection_reason = None;
        record.updated_at = now;
    }
    Ok(business_response("Business updated successfully", record))
}

/// `POST /api/business/{businessId}/director`.
pub(crate) async fn add_director(
    state: State<AppState>,
    caller: Caller,
    id: PathParams<String>,
    body: Body,
) -> Result<Json<types::PersonResponse>, ApiError> {
    add_person(state, caller, id, body, PersonRole::Director).await
}

/// `POST /api/business/{businessId}/ubo`.
pub(crate) async fn add_ubo(
    state: State<AppState>,
    caller: Caller,
    id: PathParams<String>,
    body: Body,
) -> Result<Json<types::PersonResponse>, ApiError> {
    add_person(state, caller, id, body, PersonRole::Ubo).await
}

async fn add_person(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    body: Body,
    role: PersonRole,
) -> Result<Json<types::PersonResponse>, ApiError> {
    // Unknown business first, before the body's checks.
    stored(&mut caller.account(), &id)?;
    let (fields, read) = body.read(PersonFields::read);
    // Only the two routes call this, each with its role.
    let message = match role {
        PersonRole::Director => "Director added successfully",
        PersonRole::Ubo => "UBO added successfully",
        PersonRole::Unknown(_) => return Err(ApiError::not_found("Cannot add this role")),
    };
    ApiError::checked(read, validate_person(&fields, role.clone()))?;

    let now = state.now();
    let person = PersonRecord {
        id: format!("per_{}", state.ids().upper_alphanumeric(10)),
        first_name: fields.first_name.unwrap_or_default().to_owned(),
        last_name: fields.last_name.unwrap_or_default().to_owned(),
    };
    let mut account = caller.account();
    let record = stored(&mut account, &id)?;
    if role == PersonRole::Director {
        record.directors.push(person.clone());
    } else {
        record.ubos.push(person.clone());
    }
    record.updated_at = now;
    record.submit_if_complete(now);
    Ok(Json(types::PersonResponse {
        message: message.to_owned(),
        data: types::Person {
            id: person.id,
            business_id: record.id.clone(),
            role: types::PersonRole(role.as_str().to_owned()),
            first_name: Some(person.first_name),
            last_name: Some(person.last_name),
            business_status: Some(crate::store::business::wire_status(&record.status)),
            submitted: Some(record.submitted_at.is_some()),
        },
        error: Some(false),
    }))
}
