//! Business onboarding (KYB): document keys and the required documents,
//! the rules of the business, director and UBO requests, and the file rules
//! of the document upload.
//!
//! Laid out like payouts: the request views are generated from the spec
//! (re-exported here from [`crate::views`]), the closed enums are in
//! [`enums`], and each request's rules are in the module named after it.

pub mod address;
pub mod business;
pub mod contact;
pub mod documents;
pub mod enums;
pub mod person;
pub mod upload;

pub use crate::views::{
    AddressFields, BusinessFields, DocumentRefFields, MonthlyTransactionVolumeFields,
    NatureOfBusinessFields, PersonFields, ProofOfAddressFields, SourceOfFundFields,
};
pub use business::{
    nothing_to_update, validate_business_create, validate_business_create_with,
    validate_business_update, validate_business_update_with,
};
pub use contact::{is_e164_phone_number, is_email};
pub use documents::{
    canonical_document_key, described_document_key, missing_documents, nearest_document_key,
    normalise_document_key, normalise_documents, required_documents, DocumentKeyError,
    DocumentKeyRule, DocumentType, Requirement, UnknownDocumentKey, DOCUMENT_KEY_ALIASES,
    SPEC_DOCUMENT_KEYS,
};
pub use enums::{
    BusinessType, IdType, PersonRole, ProofOfAddressType, UnknownBusinessType, UnknownIdType,
    UnknownProofOfAddressType,
};
pub use person::validate_person;
pub use upload::{
    validate_upload, validate_upload_within, DocumentKind, UploadError, MAX_UPLOAD_BYTES,
};

use std::borrow::Cow;

use crate::violation::Collector;
use crate::Rule;

/// Whether a request creates a record (required fields must be there) or
/// updates one (everything is optional, but what is sent must be valid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Create,
    Update,
}

impl Mode {
    /// Reads a field that creation requires: on create, a missing or blank
    /// value is `is required`; on update, an absent value is fine but a blank
    /// one is `must not be empty` (it would erase the stored value).
    pub(crate) fn field<'a>(
        self,
        collector: &mut Collector,
        field: impl Into<Cow<'static, str>>,
        value: Option<&'a str>,
    ) -> Option<&'a str> {
        match self {
            Mode::Create => collector.require(field, value),
            Mode::Update => collector.optional(field, value),
        }
    }

    /// Reads a field fixed at creation: required on create, refused on
    /// update (`cannot be changed after creation`).
    pub(crate) fn fixed(self, collector: &mut Collector, field: &'static str, value: Option<&str>) {
        match self {
            Mode::Create => {
                collector.require(field, value);
            }
            Mode::Update if value.is_some() => collector.push(
                field,
                Rule::NotUpdatable,
                "cannot be changed after creation",
            ),
            Mode::Update => {}
        }
    }
}
