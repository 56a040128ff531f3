//! Sub-businesses (KYB): the create and update requests (the record the
//! service returns is in `record.rs`).

use std::collections::HashMap;

use crossborder_api::types as wire;
use crossborder_core::kyb::{
    normalise_document_key, nothing_to_update, validate_business_create, validate_business_update,
    BusinessFields, DocumentRefFields, NatureOfBusinessFields, ProofOfAddressFields,
};

use crate::error::Error;
use crate::kyb::documents::{document_keys, DocumentKeyMapping, Documents};
use crate::kyb::DocumentLink;
use crate::{BusinessType, Rule, Violation, Violations};

pub use super::business_details::BusinessDetails;
use super::parts::{
    Address, MonthlyTransactionVolume, NatureOfBusiness, ProofOfAddress, SourceOfFund,
};

/// A Nigerian sub-business to create (`POST /api/business`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateBusinessRequest {
    /// `name`: the registered name.
    pub name: String,
    /// `businessType`: decides the required documents.
    pub business_type: BusinessType,
    /// `registrationNumber`: the CAC (or BN) number.
    pub registration_number: String,
    /// `email`.
    pub email: String,
    /// `phoneNumber`: E.164 format.
    pub phone_number: String,
    /// `natureOfBusiness`.
    pub nature_of_business: NatureOfBusiness,
    /// `businessAddress`.
    pub business_address: Address,
    /// `proofOfAddress`.
    pub proof_of_address: ProofOfAddress,
    /// `documents`.
    pub documents: Documents,
    /// The optional fields.
    pub details: BusinessDetails,
}

/// Changes to a business (`PATCH /api/business/{businessId}`): every field
/// is optional, and each field sent is reset to `PENDING` and re-reviewed.
/// The name and registration number cannot be changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpdateBusinessRequest {
    /// `businessType`.
    pub business_type: Option<BusinessType>,
    /// `email`.
    pub email: Option<String>,
    /// `phoneNumber`.
    pub phone_number: Option<String>,
    /// `natureOfBusiness`.
    pub nature_of_business: Option<NatureOfBusiness>,
    /// `businessAddress`.
    pub business_address: Option<Address>,
    /// `proofOfAddress`.
    pub proof_of_address: Option<ProofOfAddress>,
    /// `documents`: only the documents that change.
    pub documents: Option<Documents>,
    /// The optional fields; only those set are sent.
    pub details: BusinessDetails,
}

fn nature_fields(nature: Option<&NatureOfBusiness>) -> Option<NatureOfBusinessFields<'_>> {
    nature.map(|n| NatureOfBusinessFields {
        nature: Some(&n.nature),
        code: Some(&n.code),
    })
}

fn proof_fields(proof: Option<&ProofOfAddress>) -> Option<ProofOfAddressFields<'_>> {
    proof.map(|p| ProofOfAddressFields {
        url: Some(&p.url),
        key: Some(&p.key),
        kind: Some(p.kind.as_str()),
    })
}

/// True for a document sent under a key the SDK does not know: marked
/// unlisted, and unknown (a known key is checked like any other).
fn is_unlisted(key: &str, link: &DocumentLink) -> bool {
    link.unlisted && normalise_document_key(key).is_err()
}

/// The documents the core rules check: every one but the unlisted ones,
/// whose keys the rules would refuse (ASSUMPTIONS B15).
fn document_fields(documents: &Documents) -> Vec<(&str, DocumentRefFields<'_>)> {
    documents
        .iter()
        .filter(|(key, link)| !is_unlisted(key, link))
        .map(|(key, link)| (key.as_str(), link.fields()))
        .collect()
}

/// The violations of `result` and of the unlisted documents (whose `url`
/// and `key` are still required), in one list.
fn with_unlisted(
    result: Result<(), Violations>,
    documents: Option<&Documents>,
) -> Result<(), Violations> {
    let mut all = result.err().map(Violations::into_vec).unwrap_or_default();
    for (name, link) in documents
        .into_iter()
        .flatten()
        .filter(|(key, link)| is_unlisted(key, link))
    {
        for (part, value) in [("url", &link.url), ("key", &link.key)] {
            if value.trim().is_empty() {
                all.push(Violation::new(
                    format!("documents.{name}.{part}"),
                    Rule::Required,
                    "is required",
                ));
            }
        }
    }
    Violations::from_vec(all).map_or(Ok(()), Err)
}

/// Logs how the documents of a request about to be sent go out: a warning
/// for each unlisted key (sent as given), a debug line for each key sent in
/// another form than given. Called once per request, where it is sent.
pub(crate) fn log_document_keys(documents: Option<&Documents>) {
    for mapping in documents.map(document_keys).unwrap_or_default() {
        if mapping.is_unlisted() {
            tracing::warn!(
                key = %mapping.given,
                "document key not known to this SDK, sent as given (DocumentLink::unlisted)"
            );
        } else if let Some(sent) = mapping
            .sent
            .as_deref()
            .filter(|sent| *sent != mapping.given)
        {
            tracing::debug!(key = %mapping.given, sent, "document key sent in its canonical form");
        }
    }
}

/// The wire names of the fields a body sends, sorted.
pub(crate) fn sent_fields(body: &impl serde::Serialize) -> Result<Vec<String>, Error> {
    let body = serde_json::to_value(body).map_err(|error| Error::InvalidRequest {
        message: format!("serialising the request: {error}"),
    })?;
    Ok(body
        .as_object()
        .map(|fields| fields.keys().cloned().collect())
        .unwrap_or_default())
}

/// A generated request builder that refused a value (it checks the spec's
/// constraints again), as the SDK's request error.
fn refused(error: wire::error::ConversionError) -> Error {
    Error::InvalidRequest {
        message: error.to_string(),
    }
}

impl CreateBusinessRequest {
    /// Checks the request with the API's KYB rules (required fields, email
    /// and phone formats, document keys and the documents the business type
    /// requires) and returns all violations at once.
    pub fn validate(&self) -> Result<(), Violations> {
        let volume_amount = self.details.volume_amount();
        let mut fields = BusinessFields {
            name: Some(&self.name),
            business_type: Some(self.business_type.as_str()),
            registration_number: Some(&self.registration_number),
            email: Some(&self.email),
            phone_number: Some(&self.phone_number),
            nature_of_business: nature_fields(Some(&self.nature_of_business)).unwrap_or_default(),
            business_address: self.business_address.fields(),
            proof_of_address: proof_fields(Some(&self.proof_of_address)).unwrap_or_default(),
            documents: document_fields(&self.documents),
            ..BusinessFields::default()
        };
        self.details.lend(&mut fields, &volume_amount);
        with_unlisted(validate_business_create(&fields), Some(&self.documents))
    }

    /// How each key of [`documents`](Self::documents) is sent: the key as
    /// given, the key on the wire and the document type it names
    /// (ASSUMPTIONS B10): `bn1` is sent as `bn_form_1`, `Bank-Statement` as
    /// `bank_statement`.
    pub fn document_keys(&self) -> Vec<DocumentKeyMapping> {
        document_keys(&self.documents)
    }

    /// The request the API's JSON body of a create reads as, once the JSON
    /// checks passed (`business_check`); `TIN` and `tin` become its one TIN
    /// ([`one_tin`]).
    pub(crate) fn from_wire(mut request: wire::CreateBusinessRequest) -> Result<Self, Violation> {
        // The plain text fields are taken by the generated code, so a text
        // field added to the spec is carried with no edit here; the typed
        // ones are read below.
        let mut details = BusinessDetails::default();
        details.take_text(&mut request);
        let wire::CreateBusinessRequest {
            activities,
            business_address,
            business_type,
            documents,
            email,
            has_website,
            is_high_risk,
            monthly_transaction_volume,
            name,
            nature_of_business,
            operating_address,
            phone_number,
            proof_of_address,
            registration_number,
            source_of_fund,
            tin,
            tin_uppercase,
            ..
        } = request;
        let wire::NatureOfBusiness { nature, code } = nature_of_business;
        let wire::ProofOfAddress { url, key, type_ } = proof_of_address;
        Ok(CreateBusinessRequest {
            name,
            business_type,
            registration_number,
            email,
            phone_number,
            nature_of_business: NatureOfBusiness { nature, code },
            business_address: Address::from_wire(business_address),
            proof_of_address: ProofOfAddress {
                url,
                key,
                kind: type_,
            },
            documents: documents
                .0
                .into_iter()
                .map(|(key, document)| (key, DocumentLink::from_wire(document)))
                .collect(),
            details: BusinessDetails {
                operating_address: operating_address.map(Address::from_wire),
                activities,
                monthly_transaction_volume: monthly_transaction_volume.map(|volume| {
                    MonthlyTransactionVolume {
                        currency: volume.currency,
                        amount: volume.amount.0,
                    }
                }),
                has_website,
                source_of_fund: source_of_fund.map(|source| SourceOfFund {
                    url: source.url,
                    kind: source.type_,
                    name: source.name,
                }),
                tin: one_tin(tin.as_deref(), tin_uppercase.as_deref())?.map(str::to_owned),
                is_high_risk,
                ..details
            },
        })
    }

    pub(crate) fn to_wire(&self) -> Result<wire::CreateBusinessRequest, Error> {
        let builder = wire::CreateBusinessRequest::builder()
            .name(self.name.clone())
            .business_type(self.business_type)
            .registration_number(self.registration_number.clone())
            .email(self.email.clone())
            .phone_number(self.phone_number.clone())
            .nature_of_business(nature_to_wire(&self.nature_of_business))
            .business_address(self.business_address.to_wire())
            .proof_of_address(proof_to_wire(&self.proof_of_address))
            .documents(documents_to_wire(&self.documents));
        self.details
            .fill_create(builder)
            .try_into()
            .map_err(refused)
    }
}

impl UpdateBusinessRequest {
    /// Checks the fields that are sent with the API's KYB rules and returns
    /// all violations at once. An update that sets no field is refused
    /// (`body: an update must change at least one field`, ASSUMPTIONS C18):
    /// it would go out as `{}`.
    pub fn validate(&self) -> Result<(), Violations> {
        let volume_amount = self.details.volume_amount();
        let mut fields = BusinessFields {
            business_type: self.business_type.map(BusinessType::as_str),
            email: self.email.as_deref(),
            phone_number: self.phone_number.as_deref(),
            nature_of_business: nature_fields(self.nature_of_business.as_ref()).unwrap_or_default(),
            business_address: self
                .business_address
                .as_ref()
                .map(Address::fields)
                .unwrap_or_default(),
            proof_of_address: proof_fields(self.proof_of_address.as_ref()).unwrap_or_default(),
            documents: self
                .documents
                .as_ref()
                .map(document_fields)
                .unwrap_or_default(),
            ..BusinessFields::default()
        };
        self.details.lend(&mut fields, &volume_amount);
        let mut all = with_unlisted(validate_business_update(&fields), self.documents.as_ref())
            .err()
            .map(Violations::into_vec)
            .unwrap_or_default();
        // Every field unset (an empty `activities` is not sent either): the
        // body would be `{}`.
        if *self == UpdateBusinessRequest::default() {
            all.push(nothing_to_update());
        }
        Violations::from_vec(all).map_or(Ok(()), Err)
    }

    /// How each key of [`documents`](Self::documents) is sent, as
    /// [`CreateBusinessRequest::document_keys`] says; empty when the update
    /// sends no documents.
    pub fn document_keys(&self) -> Vec<DocumentKeyMapping> {
        self.documents
            .as_ref()
            .map(document_keys)
            .unwrap_or_default()
    }

    /// The wire names of the fields this update sends, sorted: each
    /// is reset to `PENDING` and reviewed again (the spec's PATCH row,
    /// ASSUMPTIONS A25). Read from the body as it is serialised, so it is
    /// exactly what goes out.
    ///
    /// ```
    /// use crossborder::{types::{BusinessDetails, UpdateBusinessRequest}};
    ///
    /// let update = UpdateBusinessRequest {
    ///     email: Some("ops@lagostrading.ng".into()),
    ///     details: BusinessDetails { tin: Some("12345678-0001".into()), ..BusinessDetails::default() },
    ///     ..UpdateBusinessRequest::default()
    /// };
    /// // The TIN goes out in both spellings the spec shows.
    /// assert_eq!(update.fields_under_review().unwrap(), ["TIN", "email", "tin"]);
    /// ```
    pub fn fields_under_review(&self) -> Result<Vec<String>, Error> {
        sent_fields(&self.to_wire()?)
    }

    pub(crate) fn to_wire(&self) -> Result<wire::UpdateBusinessRequest, Error> {
        let builder = wire::UpdateBusinessRequest::builder()
            .business_type(self.business_type)
            .email(self.email.clone())
            .phone_number(self.phone_number.clone())
            .nature_of_business(self.nature_of_business.as_ref().map(nature_to_wire))
            .business_address(self.business_address.as_ref().map(Address::to_wire))
            .proof_of_address(self.proof_of_address.as_ref().map(proof_to_wire))
            .documents(self.documents.as_ref().map(documents_to_wire));
        self.details
            .fill_update(builder)
            .try_into()
            .map_err(refused)
    }
}

/// The one TIN of a body that may give it as `tin`, `TIN` or both: a blank
/// one counts as not given (as the rules treat it), and two given values
/// must be the same (`TIN: differs from tin: give one tax identification
/// number`), since the SDK holds one TIN and sends it under both spellings.
pub(crate) fn one_tin<'t>(
    lower: Option<&'t str>,
    upper: Option<&'t str>,
) -> Result<Option<&'t str>, Violation> {
    let given = |tin: Option<&str>| tin.is_some_and(|t| !t.trim().is_empty());
    match (given(lower), given(upper)) {
        (true, true) if lower != upper => Err(Violation::new(
            BusinessFields::TIN_UPPERCASE,
            Rule::Mismatch,
            "differs from tin: give one tax identification number",
        )),
        (false, true) => Ok(upper),
        _ => Ok(lower.or(upper)),
    }
}

fn nature_to_wire(nature: &NatureOfBusiness) -> wire::NatureOfBusiness {
    wire::NatureOfBusiness {
        nature: nature.nature.clone(),
        code: nature.code.clone(),
    }
}

fn proof_to_wire(proof: &ProofOfAddress) -> wire::ProofOfAddress {
    wire::ProofOfAddress {
        url: proof.url.clone(),
        key: proof.key.clone(),
        type_: proof.kind,
    }
}

/// The documents map as sent: each key in the form the service knows
/// ([`DocumentKeyMapping`]: `Bank-Statement` is sent as `bank_statement`,
/// `memart` as `MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION`). Validation has
/// refused unknown keys already, except the unlisted ones
/// ([`DocumentLink::unlisted`]), which are sent as given. Logs nothing: the
/// request's sender does, once ([`log_document_keys`]).
fn documents_to_wire(documents: &Documents) -> wire::Documents {
    wire::Documents(
        documents
            .iter()
            .map(|(key, link)| {
                let sent = DocumentKeyMapping::of(key, link.unlisted)
                    .sent
                    .unwrap_or_else(|| key.clone());
                (sent, link.to_wire())
            })
            .collect::<HashMap<_, _>>(),
    )
}
