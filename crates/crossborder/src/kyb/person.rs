//! Directors and ultimate beneficial owners (UBOs).

use crossborder_api::types as wire;
use crossborder_core::kyb::{self, validate_person, PersonFields};
use crossborder_core::parse_amount;
use rust_decimal::Decimal;

use crate::kyb::record::business_status;
use crate::kyb::{Address, BusinessStatus, DocumentLink};
use crate::{IdType, Rule, Violation, Violations};

/// The optional fields of a director or UBO.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PersonDetails {
    /// `additionalDocument`: a second document.
    pub additional_document: Option<DocumentLink>,
    /// `email`.
    pub email: Option<String>,
    /// `jobTitle`.
    pub job_title: Option<String>,
    /// `ownershipPercentage`, for UBOs: greater than 0, at most 100.
    pub ownership_percentage: Option<Decimal>,
    /// `middleName`.
    pub middle_name: Option<String>,
    /// `bvn`: the 11-digit Bank Verification Number.
    pub bvn: Option<String>,
}

/// A director or UBO to add (the two share one shape; the same person may
/// be added as both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonRequest {
    /// `firstName`.
    pub first_name: String,
    /// `lastName`.
    pub last_name: String,
    /// `dateOfBirth`: `YYYY-MM-DD`.
    pub date_of_birth: String,
    /// `nationality`: ISO 3166-1 alpha-2 code.
    pub nationality: String,
    /// `phoneNumber`: E.164 format.
    pub phone_number: String,
    /// `idNumber`.
    pub id_number: String,
    /// `idType`.
    pub id_type: IdType,
    /// `idDocumentUrl`: the link of the uploaded ID document.
    pub id_document_url: String,
    /// `address`.
    pub address: Address,
    /// `document`: a supporting document.
    pub document: DocumentLink,
    /// The optional fields.
    pub details: PersonDetails,
}

impl PersonRequest {
    /// Checks the request with the API's rules for a person in `role` and
    /// returns all violations at once.
    pub fn validate(&self, role: kyb::PersonRole) -> Result<(), Violations> {
        let percentage = self.details.ownership_percentage.map(|p| p.to_string());
        let fields = PersonFields {
            first_name: Some(&self.first_name),
            last_name: Some(&self.last_name),
            date_of_birth: Some(&self.date_of_birth),
            nationality: Some(&self.nationality),
            phone_number: Some(&self.phone_number),
            id_number: Some(&self.id_number),
            id_type: Some(self.id_type.as_str()),
            id_document_url: Some(&self.id_document_url),
            address: self.address.fields(),
            document: self.document.fields(),
            additional_document: self
                .details
                .additional_document
                .as_ref()
                .map(DocumentLink::fields),
            email: self.details.email.as_deref(),
            job_title: self.details.job_title.as_deref(),
            ownership_percentage: percentage.as_deref(),
            middle_name: self.details.middle_name.as_deref(),
            bvn: self.details.bvn.as_deref(),
        };
        validate_person(&fields, role)
    }

    /// The request the API's JSON body of a director or UBO reads as, once
    /// the JSON checks passed (`business_check`): `ownershipPercentage`, a
    /// decimal string on the wire, is held as an exact decimal (blank is
    /// absent, as the rules treat it).
    pub(crate) fn from_wire(person: wire::PersonRequest) -> Result<Self, Violation> {
        let wire::PersonRequest {
            additional_document,
            address,
            bvn,
            date_of_birth,
            document,
            email,
            first_name,
            id_document_url,
            id_number,
            id_type,
            job_title,
            last_name,
            middle_name,
            nationality,
            ownership_percentage,
            phone_number,
        } = person;
        let ownership_percentage = match ownership_percentage.filter(|p| !p.trim().is_empty()) {
            None => None,
            // The rules read it with the same function: refused there first.
            Some(text) => Some(parse_amount(&text).map_err(|error| {
                Violation::new(
                    PersonFields::OWNERSHIP_PERCENTAGE,
                    Rule::InvalidFormat,
                    error.to_string(),
                )
            })?),
        };
        Ok(PersonRequest {
            first_name,
            last_name,
            date_of_birth,
            nationality,
            phone_number,
            id_number,
            id_type,
            id_document_url,
            address: Address::from_wire(address),
            document: DocumentLink::from_wire(document),
            details: PersonDetails {
                additional_document: additional_document.map(DocumentLink::from_wire),
                email,
                job_title,
                ownership_percentage,
                middle_name,
                bvn,
            },
        })
    }

    pub(crate) fn to_wire(&self) -> wire::PersonRequest {
        let d = &self.details;
        wire::PersonRequest {
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
            date_of_birth: self.date_of_birth.clone(),
            nationality: self.nationality.clone(),
            phone_number: self.phone_number.clone(),
            id_number: self.id_number.clone(),
            id_type: self.id_type,
            id_document_url: self.id_document_url.clone(),
            address: self.address.to_wire(),
            document: self.document.to_wire(),
            additional_document: d.additional_document.as_ref().map(DocumentLink::to_wire),
            email: d.email.clone(),
            job_title: d.job_title.clone(),
            ownership_percentage: d.ownership_percentage.map(|p| p.to_string()),
            middle_name: d.middle_name.clone(),
            bvn: d.bvn.clone(),
        }
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
