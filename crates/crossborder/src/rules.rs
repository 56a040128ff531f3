//! The shared rules of the API (payout, collection, funding simulation and
//! KYB validation, document keys, upload files), re-exported from
//! `crossborder-core` so that users depend on this crate only.
//!
//! The rules' functions, constants, field names and errors only: the
//! models they check (`PayoutKind`, `ValidatedPayout`, `BusinessType`,
//! `DocumentType`, ...) are in [`types`](crate::types).

pub use crossborder_core::{
    check_amount, display_amount, display_grouped, validate_amount, AmountWire,
};

/// Collections (`POST /api/initiate-payment`): the fields and the rules.
pub mod collection {
    pub use crossborder_core::collection::{
        validate_collection, CollectionFields, ValidatedCollection, MAX_PAYMENT_REFERENCE_CHARS,
    };
}

/// The staging-only funding simulation (`POST /api/simulate-funding`): the
/// fields and the rules.
pub mod funding {
    pub use crossborder_core::funding::{
        validate_simulate_funding, SimulateFundingFields, ValidatedFunding,
        MAX_FUNDING_SESSION_ID_CHARS,
    };
}

/// Business onboarding (KYB): document keys and the required documents,
/// the rules of the business, director and UBO requests, and the file
/// rules of the document upload.
pub mod kyb {
    pub use crossborder_core::kyb::{
        canonical_document_key, described_document_key, is_e164_phone_number, is_email,
        missing_documents, nearest_document_key, normalise_document_key, normalise_documents,
        nothing_to_update, required_documents, validate_business_create,
        validate_business_create_with, validate_business_update, validate_business_update_with,
        validate_person, validate_upload, validate_upload_within, AddressFields, BusinessFields,
        DocumentKeyError, DocumentKeyRule, DocumentRefFields, MonthlyTransactionVolumeFields,
        NatureOfBusinessFields, PersonFields, ProofOfAddressFields, Requirement,
        SourceOfFundFields, UnknownBusinessType, UnknownDocumentKey, UnknownIdType,
        UnknownProofOfAddressType, DOCUMENT_KEY_ALIASES, MAX_UPLOAD_BYTES, SPEC_DOCUMENT_KEYS,
    };
}

/// Payouts: the fields of a payout request and the API's rules for them.
pub mod payout {
    pub use crossborder_core::payout::{
        address_family, bank_code_required, names_match, normalized, required_fields,
        validate_payout, AddressFamily, PayoutFields, KNOWN_NETWORKS, MAX_NARRATION_CHARS,
        MAX_SESSION_ID_CHARS,
    };
}
