//! Directors and ultimate beneficial owners (UBOs): checking the request
//! to add one (declared from the spec in `person_request.rs`) and the
//! person as recorded.

use crossborder_api::types as wire;
use crossborder_core::kyb;

use crate::json::person_violations;
use crate::kyb::record::business_status;
use crate::kyb::{BusinessStatus, PersonRequest};
use crate::Violations;

impl PersonRequest {
    /// Checks the request with the API's rules for a person in `role` and
    /// returns all violations at once.
    pub fn validate(&self, role: kyb::PersonRole) -> Result<(), Violations> {
        let body = serde_json::to_value(self.to_wire()).unwrap_or(serde_json::Value::Null);
        person_violations(&body, role)
    }
}

/// The role a person was recorded in (or is added in), an open enum
/// declared once in core for the SDK, the sandbox and the CLI.
pub use crossborder_core::kyb::PersonRole;

/// A director or UBO as recorded, with the business status after the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// The person's id.
    pub id: String,
    /// The business the person belongs to.
    pub business_id: String,
    /// Director or UBO.
    pub role: PersonRole,
    /// `firstName`.
    pub first_name: Option<String>,
    /// `lastName`.
    pub last_name: Option<String>,
    /// The business's status after the call (`SUBMITTED` once a director and
    /// a UBO exist).
    pub business_status: Option<BusinessStatus>,
    /// True once the business has been submitted for verification.
    pub submitted: Option<bool>,
}

impl From<wire::Person> for Person {
    fn from(value: wire::Person) -> Self {
        Person {
            id: value.id,
            business_id: value.business_id,
            role: match value.role.0.parse() {
                Ok(role) => role,
                Err(never) => match never {},
            },
            first_name: value.first_name,
            last_name: value.last_name,
            business_status: value.business_status.map(business_status),
            submitted: value.submitted,
        }
    }
}
