//! Directors and ultimate beneficial owners (UBOs): checking the request
//! to add one (declared from the spec in `person_request.rs`; the person
//! as recorded is in `record.rs`).

use crossborder_core::kyb;

use crate::error::Violations;
use crate::json::person_violations;
use crate::kyb::PersonRequest;

impl PersonRequest {
    /// Checks the request with the API's rules for a person in `role` and
    /// returns all violations at once.
    pub fn validate(&self, role: kyb::PersonRole) -> Result<(), Violations> {
        let body = serde_json::to_value(self.to_wire()).unwrap_or(serde_json::Value::Null);
        person_violations(&body, role)
    }
}
