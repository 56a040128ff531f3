//! Business onboarding (KYB): `POST /api/business`,
//! `GET`/`PATCH /api/business/{businessId}` and
//! `POST /api/business/{businessId}/director` and `/ubo`.
//!
//! Requests are checked with the rules of `crossborder_core::kyb`
//! (`validate_business_create`, `validate_business_update`,
//! `validate_person`, which include the optional `operatingAddress` and the
//! `{url, key}` of each document); this module adds the JSON types of every
//! field, and the sandbox's lifecycle:
//!
//! * create: a registration number already used by another business of the
//!   same account is 409; the record gets the id `biz_` + 10 characters,
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
use std::time::SystemTime;

use axum::extract::State;
use axum::Json;
use crossborder_api::types;
use crossborder_core::kyb::{
    validate_business_create, validate_business_update, validate_person, AddressFields,
    BusinessFields, BusinessType, DocumentRefFields, NatureOfBusinessFields, PersonFields,
    PersonRole, ProofOfAddressFields,
};
use crossborder_core::{parse_amount, Currency, Rule, Violation};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::{JsonObject, Object, Reader};
use crate::params::PathParams;
use crate::state::AppState;
use crate::timestamp::rfc3339;

/// The rejection reason of a registration number ending in `REJECT`.
pub const REJECTION_REASON: &str = "Registration number could not be verified";

/// Verification status of a business or of one of its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Pending,
    Submitted,
    Approved,
    Rejected,
}

impl Status {
    fn wire(self) -> types::BusinessStatus {
        types::BusinessStatus(
            match self {
                Status::Pending => "PENDING",
                Status::Submitted => "SUBMITTED",
                Status::Approved => "APPROVED",
                Status::Rejected => "REJECTED",
            }
            .to_owned(),
        )
    }
}

/// A director or UBO as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PersonRecord {
    id: String,
    first_name: String,
    last_name: String,
}

/// A sub-business and its verification state.
#[derive(Debug, Clone)]
pub(crate) struct BusinessRecord {
    id: String,
    name: String,
    business_type: BusinessType,
    registration_number: String,
    status: Status,
    rejection_reason: Option<String>,
    field_statuses: BTreeMap<String, Status>,
    directors: Vec<PersonRecord>,
    ubos: Vec<PersonRecord>,
    created_at: SystemTime,
    updated_at: SystemTime,
    submitted_at: Option<SystemTime>,
}

impl BusinessRecord {
    /// Applies the decision driver when the business is waiting for one.
    fn decide(&mut self, now: SystemTime) {
        if self.submitted_at.is_none()
            || !matches!(self.status, Status::Pending | Status::Submitted)
        {
            return;
        }
        let number = self.registration_number.trim().to_ascii_uppercase();
        let (status, reason) = if number.ends_with("PENDING") {
            (Status::Submitted, None)
        } else if number.ends_with("REJECT") {
            (Status::Rejected, Some(REJECTION_REASON.to_owned()))
        } else {
            (Status::Approved, None)
        };
        if status == self.status {
            return;
        }
        self.status = status;
        self.rejection_reason = reason;
        if matches!(status, Status::Approved | Status::Rejected) {
            for field_status in self.field_statuses.values_mut() {
                if *field_status == Status::Pending {
                    *field_status = status;
                }
            }
        }
        self.updated_at = now;
    }

    /// Submits the business once it has a director and a UBO.
    fn submit_if_complete(&mut self, now: SystemTime) {
        if self.submitted_at.is_none() && !self.directors.is_empty() && !self.ubos.is_empty() {
            self.status = Status::Submitted;
            self.submitted_at = Some(now);
            self.updated_at = now;
        }
    }

    fn to_wire(&self) -> types::Business {
        types::Business {
            id: self.id.clone(),
            name: Some(self.name.clone()),
            business_type: Some(self.business_type),
            registration_number: Some(self.registration_number.clone()),
            country: Some("NG".to_owned()),
            status: self.status.wire(),
            rejection_reason: self.rejection_reason.clone(),
            director_count: Some(self.directors.len() as u64),
            ubo_count: Some(self.ubos.len() as u64),
            field_statuses: self
                .field_statuses
                .iter()
                .map(|(field, status)| (field.clone(), status.wire()))
                .collect(),
            created_at: Some(rfc3339(self.created_at)),
            updated_at: Some(rfc3339(self.updated_at)),
            submitted_at: self.submitted_at.map(rfc3339),
        }
    }
}

/// The fields of a business body that are plain strings.
const STRING_FIELDS: [&str; 22] = [
    "name",
    "businessType",
    "registrationNumber",
    "email",
    "phoneNumber",
    "businessDescription",
    "businessWebsite",
    "TIN",
    "tin",
    "EIN",
    "legalName",
    "address",
    "placeId",
    "annualTurnover",
    "monthlyPaymentsCount",
    "maxTransferAmount",
    "customerTypes",
    "sourceOfFundsDescription",
    "estimatedAnnualRevenue",
    "averageMonthlyTransactionVolume",
    "financialService",
    "businessPurpose",
];

/// Every field of a business body the sandbox knows, in the spec's order.
const KNOWN_FIELDS: [&str; 32] = [
    "name",
    "businessType",
    "registrationNumber",
    "email",
    "phoneNumber",
    "natureOfBusiness",
    "businessAddress",
    "operatingAddress",
    "proofOfAddress",
    "documents",
    "businessDescription",
    "activities",
    "monthlyTransactionVolume",
    "hasWebsite",
    "businessWebsite",
    "sourceOfFund",
    "TIN",
    "tin",
    "EIN",
    "legalName",
    "address",
    "placeId",
    "isHighRisk",
    "annualTurnover",
    "monthlyPaymentsCount",
    "maxTransferAmount",
    "customerTypes",
    "sourceOfFundsDescription",
    "estimatedAnnualRevenue",
    "averageMonthlyTransactionVolume",
    "financialService",
    "businessPurpose",
];

/// An address object read as owned strings.
#[derive(Debug, Default)]
struct OwnedAddress {
    parts: [Option<String>; 6],
}

const ADDRESS_PARTS: [&str; 6] = [
    "houseNumber",
    "street",
    "city",
    "state",
    "zipCode",
    "subdivision",
];

impl OwnedAddress {
    /// The address object `name`, or `None` when it is absent or not an
    /// object.
    fn read(
        reader: &Reader<'_>,
        name: &str,
        violations: &mut Vec<Violation>,
    ) -> Option<OwnedAddress> {
        let object = reader.object(name, violations)?;
        let nested = Reader::nested(&object, &reader.path(name));
        let mut address = OwnedAddress::default();
        for (slot, part) in address.parts.iter_mut().zip(ADDRESS_PARTS) {
            *slot = nested.string(part, violations);
        }
        Some(address)
    }

    fn view(&self) -> AddressFields<'_> {
        let [house_number, street, city, state, zip_code, subdivision] =
            self.parts.each_ref().map(Option::as_deref);
        AddressFields {
            house_number,
            street,
            city,
            state,
            zip_code,
            subdivision,
        }
    }
}

/// A document reference object `{ url, key }` read as owned strings.
#[derive(Debug, Default)]
struct OwnedLink {
    url: Option<String>,
    key: Option<String>,
}

impl OwnedLink {
    /// The reference object `name`, or `None` when it is absent or not an
    /// object.
    fn read(reader: &Reader<'_>, name: &str, violations: &mut Vec<Violation>) -> Option<OwnedLink> {
        let object = reader.object(name, violations)?;
        let nested = Reader::nested(&object, &reader.path(name));
        Some(OwnedLink {
            url: nested.string("url", violations),
            key: nested.string("key", violations),
        })
    }

    fn view(&self) -> DocumentRefFields<'_> {
        DocumentRefFields {
            url: self.url.as_deref(),
            key: self.key.as_deref(),
        }
    }
}

/// A business body read as owned values, with type violations.
#[derive(Debug, Default)]
struct BusinessBody {
    strings: BTreeMap<&'static str, String>,
    nature: [Option<String>; 2],
    business_address: OwnedAddress,
    operating_address: Option<OwnedAddress>,
    proof: [Option<String>; 3],
    documents: Vec<(String, OwnedLink)>,
    has_website: Option<bool>,
}

impl BusinessBody {
    fn read(body: &Object, violations: &mut Vec<Violation>) -> BusinessBody {
        let reader = Reader::new(body);
        let mut read = BusinessBody::default();
        for name in STRING_FIELDS {
            if let Some(value) = reader.string(name, violations) {
                read.strings.insert(name, value);
            }
        }
        if let Some(object) = reader.object("natureOfBusiness", violations) {
            let nested = Reader::nested(&object, "natureOfBusiness");
            read.nature = [
                nested.string("nature", violations),
                nested.string("code", violations),
            ];
        }
        read.business_address =
            OwnedAddress::read(&reader, "businessAddress", violations).unwrap_or_default();
        read.operating_address = OwnedAddress::read(&reader, "operatingAddress", violations);
        if let Some(object) = reader.object("proofOfAddress", violations) {
            let nested = Reader::nested(&object, "proofOfAddress");
            read.proof = [
                nested.string("url", violations),
                nested.string("key", violations),
                nested.string("type", violations),
            ];
        }
        if let Some(documents) = reader.object("documents", violations) {
            let nested = Reader::nested(&documents, "documents");
            for key in documents.keys() {
                let link = OwnedLink::read(&nested, key, violations).unwrap_or_default();
                read.documents.push((key.clone(), link));
            }
        }
        reader.string_list("activities", violations);
        if let Some(object) = reader.object("monthlyTransactionVolume", violations) {
            let nested = Reader::nested(&object, "monthlyTransactionVolume");
            check_volume(&nested, violations);
        }
        read.has_website = reader.boolean("hasWebsite", violations);
        if let Some(object) = reader.object("sourceOfFund", violations) {
            let nested = Reader::nested(&object, "sourceOfFund");
            nested.string("url", violations);
            nested.string("name", violations);
            if nested.string("type", violations).is_none()
                && !violations
                    .iter()
                    .any(|violation| violation.field == "sourceOfFund.type")
            {
                violations.push(Violation::new(
                    "sourceOfFund.type",
                    Rule::Required,
                    "is required",
                ));
            }
        }
        reader.boolean("isHighRisk", violations);
        read
    }

    fn view(&self) -> BusinessFields<'_> {
        let string = |name: &str| self.strings.get(name).map(String::as_str);
        BusinessFields {
            name: string("name"),
            business_type: string("businessType"),
            registration_number: string("registrationNumber"),
            email: string("email"),
            phone_number: string("phoneNumber"),
            nature_of_business: NatureOfBusinessFields {
                nature: self.nature[0].as_deref(),
                code: self.nature[1].as_deref(),
            },
            business_address: self.business_address.view(),
            operating_address: self.operating_address.as_ref().map(OwnedAddress::view),
            proof_of_address: ProofOfAddressFields {
                url: self.proof[0].as_deref(),
                key: self.proof[1].as_deref(),
                kind: self.proof[2].as_deref(),
            },
            documents: self
                .documents
                .iter()
                .map(|(key, link)| (key.as_str(), link.view()))
                .collect(),
            has_website: self.has_website,
            business_website: string("businessWebsite"),
            ..BusinessFields::default()
        }
    }
}

/// `monthlyTransactionVolume`: `{ currency, amount }` with a supported
/// currency and a decimal string amount.
fn check_volume(reader: &Reader<'_>, violations: &mut Vec<Violation>) {
    match reader.string("currency", violations) {
        Some(code) => {
            if let Err(error) = code.parse::<Currency>() {
                violations.push(Violation::new(
                    reader.path("currency"),
                    Rule::UnknownCurrency,
                    error.to_string(),
                ));
            }
        }
        None => push_required(reader, "currency", violations),
    }
    match reader.string("amount", violations) {
        Some(amount) => {
            if parse_amount(&amount).is_err() {
                violations.push(Violation::new(
                    reader.path("amount"),
                    Rule::InvalidFormat,
                    "must be a decimal number such as 1500.50",
                ));
            }
        }
        None => push_required(reader, "amount", violations),
    }
}

fn push_required(reader: &Reader<'_>, name: &str, violations: &mut Vec<Violation>) {
    let path = reader.path(name);
    if !violations.iter().any(|violation| violation.field == path) {
        violations.push(Violation::new(path, Rule::Required, "is required"));
    }
}

/// The known fields present in a body, minus `name` and
/// `registrationNumber`.
fn reviewed_fields(body: &Object) -> Vec<String> {
    KNOWN_FIELDS
        .iter()
        .filter(|field| !matches!(**field, "name" | "registrationNumber"))
        .filter(|field| {
            body.get(**field)
                .is_some_and(|raw| raw.get().trim() != "null")
        })
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

fn business_not_found(id: &str) -> ApiError {
    ApiError::not_found(format!("Business not found: {id}"))
}

/// `POST /api/business`.
pub(crate) async fn create_business(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Json<types::BusinessResponse>, ApiError> {
    let mut violations = Vec::new();
    let read = BusinessBody::read(&body, &mut violations);
    let view = read.view();
    if let Err(rules) = validate_business_create(&view) {
        violations.extend(rules);
    }
    if !violations.is_empty() {
        return Err(ApiError::invalid(&violations));
    }
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

    let now = state.now();
    let mut account = caller.account();
    let taken = account
        .businesses
        .values()
        .any(|business| business.registration_number.trim() == registration_number.trim());
    if taken {
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
        updated_at: now,
        submitted_at: None,
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
    let record = account
        .businesses
        .get_mut(&id)
        .ok_or_else(|| business_not_found(&id))?;
    record.decide(now);
    Ok(business_response("Business retrieved successfully", record))
}

/// `PATCH /api/business/{businessId}`.
pub(crate) async fn update_business(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonObject(body): JsonObject,
) -> Result<Json<types::BusinessResponse>, ApiError> {
    if !caller.account().businesses.contains_key(&id) {
        return Err(business_not_found(&id));
    }
    let mut violations = Vec::new();
    let read = BusinessBody::read(&body, &mut violations);
    if let Err(rules) = validate_business_update(&read.view()) {
        violations.extend(rules);
    }
    if !violations.is_empty() {
        return Err(ApiError::invalid(&violations));
    }

    let now = state.now();
    let mut account = caller.account();
    let record = account
        .businesses
        .get_mut(&id)
        .ok_or_else(|| business_not_found(&id))?;
    let updated = reviewed_fields(&body);
    if !updated.is_empty() {
        if let Some(business_type) = read
            .view()
            .business_type
            .and_then(|text| text.parse::<BusinessType>().ok())
        {
            record.business_type = business_type;
        }
        for field in updated {
            record.field_statuses.insert(field, Status::Pending);
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
    body: JsonObject,
) -> Result<Json<types::PersonResponse>, ApiError> {
    add_person(state, caller, id, body, PersonRole::Director).await
}

/// `POST /api/business/{businessId}/ubo`.
pub(crate) async fn add_ubo(
    state: State<AppState>,
    caller: Caller,
    id: PathParams<String>,
    body: JsonObject,
) -> Result<Json<types::PersonResponse>, ApiError> {
    add_person(state, caller, id, body, PersonRole::Ubo).await
}

/// The string fields of a person body, in the spec's order.
const PERSON_STRING_FIELDS: [&str; 13] = [
    "firstName",
    "lastName",
    "dateOfBirth",
    "nationality",
    "phoneNumber",
    "idNumber",
    "idType",
    "idDocumentUrl",
    "email",
    "jobTitle",
    "ownershipPercentage",
    "middleName",
    "bvn",
];

async fn add_person(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonObject(body): JsonObject,
    role: PersonRole,
) -> Result<Json<types::PersonResponse>, ApiError> {
    if !caller.account().businesses.contains_key(&id) {
        return Err(business_not_found(&id));
    }
    let reader = Reader::new(&body);
    let mut violations = Vec::new();
    let mut strings = BTreeMap::new();
    for name in PERSON_STRING_FIELDS {
        if let Some(value) = reader.string(name, &mut violations) {
            strings.insert(name, value);
        }
    }
    let address = OwnedAddress::read(&reader, "address", &mut violations).unwrap_or_default();
    let document = OwnedLink::read(&reader, "document", &mut violations).unwrap_or_default();
    let additional = OwnedLink::read(&reader, "additionalDocument", &mut violations);
    let string = |name: &str| strings.get(name).map(String::as_str);
    let fields = PersonFields {
        first_name: string("firstName"),
        last_name: string("lastName"),
        date_of_birth: string("dateOfBirth"),
        nationality: string("nationality"),
        phone_number: string("phoneNumber"),
        id_number: string("idNumber"),
        id_type: string("idType"),
        id_document_url: string("idDocumentUrl"),
        address: address.view(),
        document: document.view(),
        additional_document: additional.as_ref().map(OwnedLink::view),
        email: string("email"),
        job_title: string("jobTitle"),
        ownership_percentage: string("ownershipPercentage"),
        middle_name: string("middleName"),
        bvn: string("bvn"),
    };
    if let Err(rules) = validate_person(&fields, role) {
        violations.extend(rules);
    }
    if !violations.is_empty() {
        return Err(ApiError::invalid(&violations));
    }

    let now = state.now();
    let person = PersonRecord {
        id: format!("per_{}", state.ids().upper_alphanumeric(10)),
        first_name: fields.first_name.unwrap_or_default().to_owned(),
        last_name: fields.last_name.unwrap_or_default().to_owned(),
    };
    let mut account = caller.account();
    let record = account
        .businesses
        .get_mut(&id)
        .ok_or_else(|| business_not_found(&id))?;
    let (role_wire, message) = match role {
        PersonRole::Director => {
            record.directors.push(person.clone());
            ("DIRECTOR", "Director added successfully")
        }
        PersonRole::Ubo => {
            record.ubos.push(person.clone());
            ("UBO", "UBO added successfully")
        }
    };
    record.updated_at = now;
    record.submit_if_complete(now);
    Ok(Json(types::PersonResponse {
        message: message.to_owned(),
        data: types::Person {
            id: person.id,
            business_id: record.id.clone(),
            role: types::PersonRole(role_wire.to_owned()),
            first_name: Some(person.first_name),
            last_name: Some(person.last_name),
            business_status: Some(record.status.wire()),
            submitted: Some(record.submitted_at.is_some()),
        },
        error: Some(false),
    }))
}
