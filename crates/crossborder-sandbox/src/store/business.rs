//! A sub-business as the sandbox keeps it, and its verification lifecycle
//! (submission once a director and a UBO exist, the decision driven by the
//! registration number).

use std::collections::BTreeMap;
use std::time::SystemTime;

use crossborder_api::types;
use crossborder_core::kyb::{BusinessType, DocumentRefFields};

use crate::timestamp::rfc3339;

/// The rejection reason of a registration number ending in `REJECT`.
pub const REJECTION_REASON: &str = "Registration number could not be verified";

/// Verification status of a business or of one of its fields: core's open
/// enum, shared with the SDK (the sandbox never sets an unknown word).
pub(crate) use crossborder_core::status::BusinessStatus as Status;

/// The status as the generated wire type carries it.
pub(crate) fn wire_status(status: &Status) -> types::BusinessStatus {
    types::BusinessStatus(status.as_str().to_owned())
}

/// A director or UBO as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PersonRecord {
    pub(crate) id: String,
    pub(crate) first_name: String,
    pub(crate) last_name: String,
}

/// A reference to an uploaded document, `{ url, key }`, as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDocument {
    /// The document's link.
    pub url: String,
    /// The caller's key for it.
    pub key: String,
}

impl StoredDocument {
    /// The reference as received (a part absent from the body is empty; the
    /// rules refuse such a body before anything is stored).
    pub(crate) fn from_fields(fields: &DocumentRefFields<'_>) -> StoredDocument {
        StoredDocument {
            url: fields.url.unwrap_or_default().to_owned(),
            key: fields.key.unwrap_or_default().to_owned(),
        }
    }
}

/// A document link a business sent, as the sandbox (the service's reviewer)
/// resolves it ([`SandboxHandle::business_documents`](crate::SandboxHandle::business_documents)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedDocument {
    /// The field that carried the link: `documents.<key as received>`,
    /// `proofOfAddress` or `sourceOfFund`.
    pub field: String,
    /// The link as received.
    pub url: String,
    /// The document it names: `Some` when the link is one this sandbox gave
    /// for an upload of the business's own account, `None` otherwise (a
    /// link elsewhere, or another account's upload).
    pub content: Option<DocumentContent>,
}

/// An uploaded document's bytes and the media type told from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentContent {
    /// `application/pdf`, `image/jpeg` or `image/png`.
    pub media_type: &'static str,
    /// The file as uploaded.
    pub bytes: Vec<u8>,
}

/// A sub-business as the sandbox stores it, for tests that check what the
/// service received ([`SandboxHandle::business`](crate::SandboxHandle::business)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBusiness {
    /// Its id.
    pub id: String,
    /// Its registration number.
    pub registration_number: String,
    /// Its status, as `GET /api/business/{id}` last answered it.
    pub status: String,
    /// The documents map under the keys exactly as received: those of the
    /// create, then of each update (a key sent again replaces its document).
    pub documents: BTreeMap<String, StoredDocument>,
    /// The `proofOfAddress.url` as received (the latest, after updates).
    pub proof_of_address: Option<String>,
    /// The `sourceOfFund.url` as received (the latest, after updates), when
    /// one was sent.
    pub source_of_fund: Option<String>,
    /// How many directors were added.
    pub directors: usize,
    /// How many UBOs were added.
    pub ubos: usize,
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
    /// Its creation number in the account (the control API lists newest
    /// first).
    pub(crate) sequence: u64,
    pub(crate) updated_at: SystemTime,
    pub(crate) submitted_at: Option<SystemTime>,
    /// The documents map, by key as received.
    pub(crate) documents: BTreeMap<String, StoredDocument>,
    /// `proofOfAddress.url`, as received.
    pub(crate) proof_of_address: Option<String>,
    /// `sourceOfFund.url`, as received.
    pub(crate) source_of_fund: Option<String>,
    /// The fingerprint of the body that created it: a create with the same
    /// fingerprint is a repeat of this one (ASSUMPTIONS B22).
    pub(crate) create_fingerprint: String,
}

impl BusinessRecord {
    /// Whether the business was submitted and is not decided yet.
    pub(crate) fn awaits_decision(&self) -> bool {
        self.submitted_at.is_some() && matches!(self.status, Status::Pending | Status::Submitted)
    }

    /// Applies the decision driver when the business is waiting for one.
    pub(crate) fn decide(&mut self, now: SystemTime) {
        if !self.awaits_decision() {
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
        self.record_decision(status, reason, now);
    }

    /// Records `status` (with the rejection `reason`): the field statuses
    /// still `PENDING` follow a decision. The decision driver and the
    /// control API's approve and reject both end here.
    pub(crate) fn record_decision(
        &mut self,
        status: Status,
        reason: Option<String>,
        now: SystemTime,
    ) {
        if status == self.status {
            return;
        }
        if status.is_decided() {
            for field_status in self.field_statuses.values_mut() {
                if *field_status == Status::Pending {
                    *field_status = status.clone();
                }
            }
        }
        self.status = status;
        self.rejection_reason = reason;
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

    /// Every document link the business sent, with the field that carried
    /// it: `documents.<key>` in key order, then `proofOfAddress` and
    /// `sourceOfFund`.
    pub(crate) fn links(&self) -> Vec<(String, String)> {
        let documents = self
            .documents
            .iter()
            .map(|(key, document)| (format!("documents.{key}"), document.url.clone()));
        let others = [
            ("proofOfAddress", &self.proof_of_address),
            ("sourceOfFund", &self.source_of_fund),
        ]
        .into_iter()
        .filter_map(|(field, url)| Some((field.to_owned(), url.clone()?)));
        documents.chain(others).collect()
    }

    /// The record as [`StoredBusiness`].
    pub(crate) fn stored(&self) -> StoredBusiness {
        StoredBusiness {
            id: self.id.clone(),
            registration_number: self.registration_number.clone(),
            status: self.status.as_str().to_owned(),
            documents: self.documents.clone(),
            proof_of_address: self.proof_of_address.clone(),
            source_of_fund: self.source_of_fund.clone(),
            directors: self.directors.len(),
            ubos: self.ubos.len(),
        }
    }

    pub(crate) fn to_wire(&self) -> types::Business {
        types::Business {
            id: self.id.clone(),
            name: Some(self.name.clone()),
            business_type: Some(self.business_type),
            registration_number: Some(self.registration_number.clone()),
            country: Some("NG".to_owned()),
            status: wire_status(&self.status),
            rejection_reason: self.rejection_reason.clone(),
            director_count: Some(self.directors.len() as u64),
            ubo_count: Some(self.ubos.len() as u64),
            field_statuses: self
                .field_statuses
                .iter()
                .map(|(field, status)| (field.clone(), wire_status(status)))
                .collect(),
            created_at: Some(rfc3339(self.created_at)),
            updated_at: Some(rfc3339(self.updated_at)),
            submitted_at: self.submitted_at.map(rfc3339),
        }
    }
}
