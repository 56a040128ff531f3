//! Business onboarding (KYB): the business, its people (directors and
//! UBOs), their documents, and onboarding in one call. The models are
//! public in [`crate::types`], onboarding in [`crate::onboard`]; the rules
//! they are checked by are core's ([`crate::rules::kyb`]).

mod business;
mod documents;
pub mod onboard;
mod person;

pub(crate) use business::{log_document_keys, nothing_to_update, one_tin, sent_fields};
pub use business::{
    Address, Business, BusinessDetails, BusinessStatus, BusinessUpdate, CreateBusinessRequest,
    Documents, MonthlyTransactionVolume, NatureOfBusiness, ProofOfAddress, SourceOfFund,
    UpdateBusinessRequest,
};
pub use documents::{document_keys, DocumentKeyMapping, DocumentLink, UploadedDocument};
pub use person::{Person, PersonDetails, PersonRequest, PersonRole};
