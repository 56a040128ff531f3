//! A sub-business as the service records it: its verification status, and
//! the result of an update.

use std::collections::BTreeMap;

use crossborder_api::types as wire;

use crate::BusinessType;

/// The result of [`Businesses::update`](crate::Businesses::update): the record the service returned and
/// the fields the update sent, each now `PENDING` and under review again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BusinessUpdate {
    /// The business after the update.
    pub business: Business,
    /// The wire names of the fields sent, reset to `PENDING`.
    pub under_review: Vec<String>,
}

/// The verification status of a business or of one of its fields, an open
/// enum declared once in core for the SDK and the sandbox.
pub use crossborder_core::status::BusinessStatus;

pub(crate) fn business_status(status: wire::BusinessStatus) -> BusinessStatus {
    match status.0.parse() {
        Ok(status) => status,
        Err(never) => match never {},
    }
}

/// A sub-business and its verification state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Business {
    /// The business id, for the other business operations.
    pub id: String,
    /// The registered name.
    pub name: Option<String>,
    /// The legal form.
    pub business_type: Option<BusinessType>,
    /// The registration number.
    pub registration_number: Option<String>,
    /// The country (always `NG`).
    pub country: Option<String>,
    /// The verification status.
    pub status: BusinessStatus,
    /// Why verification was rejected.
    pub rejection_reason: Option<String>,
    /// How many directors were added.
    pub director_count: Option<u64>,
    /// How many UBOs were added.
    pub ubo_count: Option<u64>,
    /// The review status of each submitted field, by wire field name.
    pub field_statuses: BTreeMap<String, BusinessStatus>,
    /// Creation time (ISO 8601).
    pub created_at: Option<String>,
    /// Last update time (ISO 8601).
    pub updated_at: Option<String>,
    /// Submission time (ISO 8601).
    pub submitted_at: Option<String>,
}

impl From<wire::Business> for Business {
    fn from(value: wire::Business) -> Self {
        Business {
            id: value.id,
            name: value.name,
            business_type: value.business_type,
            registration_number: value.registration_number,
            country: value.country,
            status: business_status(value.status),
            rejection_reason: value.rejection_reason,
            director_count: value.director_count,
            ubo_count: value.ubo_count,
            field_statuses: value
                .field_statuses
                .into_iter()
                .map(|(field, status)| (field, business_status(status)))
                .collect(),
            created_at: value.created_at,
            updated_at: value.updated_at,
            submitted_at: value.submitted_at,
        }
    }
}
