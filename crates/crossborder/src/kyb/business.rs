//! Sub-businesses (KYB): checking the create and update requests (declared
//! from the spec in `business_request.rs`) and how their documents go out.
//! The record the service returns is in `record.rs`; the result of an
//! update is [`BusinessUpdate`].

use crossborder_core::kyb::normalise_document_key;
use serde_json::Value;

use super::convert::Wire;
use crate::error::{Error, Rule, Violation, Violations};
use crate::json::{business_violations, BusinessRequestKind};
use crate::kyb::documents::{document_keys, DocumentKeyMapping, Documents};
use crate::kyb::{Business, CreateBusinessRequest, DocumentLink, UpdateBusinessRequest};

/// True for a document sent under a key the SDK does not know: marked
/// unlisted, and unknown (a known key is checked like any other).
fn is_unlisted(key: &str, link: &DocumentLink) -> bool {
    link.unlisted && normalise_document_key(key).is_err()
}

/// Checks `body`, a request's wire body, with the API's rules as the JSON
/// checks do (one reading of the fields, one set of rules). The documents
/// are checked under their keys as given (the violations name the key the
/// caller wrote), less the unlisted ones, whose keys the rules would refuse
/// (ASSUMPTIONS B15): their `url` and `key` are still required.
fn checked(
    body: &impl serde::Serialize,
    kind: BusinessRequestKind,
    documents: Option<&Documents>,
) -> Result<(), Violations> {
    let mut body = serde_json::to_value(body).unwrap_or(Value::Null);
    if let (Some(documents), Some(fields)) = (documents, body.as_object_mut()) {
        let listed = documents
            .iter()
            .filter(|(key, link)| !is_unlisted(key, link))
            .map(|(key, link)| {
                let link = serde_json::to_value(link.to_wire()).unwrap_or(Value::Null);
                (key.clone(), link)
            })
            .collect();
        fields.insert("documents".to_owned(), Value::Object(listed));
    }
    let mut all = business_violations(&body, kind)
        .err()
        .map(Violations::into_vec)
        .unwrap_or_default();
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
            } else if part == "url" && !crossborder_core::is_http_url(value) {
                // The one link rule (ASSUMPTIONS D44), as for listed keys.
                all.push(Violation::new(
                    format!("documents.{name}.url"),
                    Rule::InvalidFormat,
                    crossborder_core::URL_MESSAGE,
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

impl CreateBusinessRequest {
    /// Checks the request with the API's KYB rules (required fields, email
    /// and phone formats, document keys and the documents the business type
    /// requires) and returns all violations at once.
    pub fn validate(&self) -> Result<(), Violations> {
        checked(
            &self.to_wire(),
            BusinessRequestKind::Create,
            Some(&self.documents),
        )
    }

    /// How each key of [`documents`](Self::documents) is sent: the key as
    /// given, the key on the wire and the document type it names
    /// (ASSUMPTIONS B10): `bn1` is sent as `bn_form_1`, `Bank-Statement` as
    /// `bank_statement`.
    pub fn document_keys(&self) -> Vec<DocumentKeyMapping> {
        document_keys(&self.documents)
    }
}

impl UpdateBusinessRequest {
    /// Checks the fields that are sent with the API's KYB rules and returns
    /// all violations at once. An update that sets no field is refused
    /// (`body: an update must change at least one field`, ASSUMPTIONS C18):
    /// it would go out as `{}`.
    pub fn validate(&self) -> Result<(), Violations> {
        checked(
            &self.to_wire(),
            BusinessRequestKind::Update,
            self.documents.as_ref(),
        )
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
        sent_fields(&self.to_wire())
    }
}

/// The result of [`Businesses::update`](crate::Businesses::update): the record the service returned and
/// the fields the update sent, each now `PENDING` and under review again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BusinessUpdate {
    /// The business after the update.
    pub business: Business,
    /// The wire names of the fields sent, reset to `PENDING`.
    pub under_review: Vec<String>,
}
