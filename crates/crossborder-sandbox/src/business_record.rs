//! A sub-business as the sandbox keeps it, and its verification lifecycle
//! (submission once a director and a UBO exist, the decision driven by the
//! registration number).

use std::collections::BTreeMap;
use std::time::SystemTime;

use crossborder_api::types;
use crossborder_core::kyb::BusinessType;

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
    pub(crate) fn wire(self) -> types::BusinessStatus {
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
    pub(crate) id: String,
    pub(crate) first_name: String,
    pub(crate) last_name: String,
}

/// A sub-business and its verification state.
#[derive(Debug, Clone)]
pub(crate) struct BusinessRecord {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) business_type: BusinessType,
    pub(crate) registration_number: String,
    pub(crate) status: Status,
    pub(crate) rejection_reason: Option<String>,
    pub(crate) field_statuses: BTreeMap<String, Status>,
    pub(crate) directors: Vec<PersonRecord>,
    pub(crate) ubos: Vec<PersonRecord>,
    pub(crate) created_at: SystemTime,
    pub(crate) updated_at: SystemTime,
    pub(crate) submitted_at: Option<SystemTime>,
}

impl BusinessRecord {
    /// Applies the decision driver when the business is waiting for one.
    pub(crate) fn decide(&mut self, now: SystemTime) {
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
    pub(crate) fn submit_if_complete(&mut self, now: SystemTime) {
        if self.submitted_at.is_none() && !self.directors.is_empty() && !self.ubos.is_empty() {
            self.status = Status::Submitted;
            self.submitted_at = Some(now);
            self.updated_at = now;
        }
    }

    pub(crate) fn to_wire(&self) -> types::Business {
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
