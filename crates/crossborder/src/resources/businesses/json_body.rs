//! The `*_json` methods of `client.businesses()` (feature `json`): a
//! business, director or UBO given as the API's own JSON body, as a tool
//! holds it (the CLI's `business create FILE`). The typed methods
//! are the SDK's; these exist for callers that hold the wire JSON.

use crossborder_api::types as wire;
use crossborder_core::kyb::PersonRole;
use serde_json::Value;

use super::{check_id, Businesses};
use crate::error::Error;
use crate::json::{business_violations, person_violations, BusinessRequestKind};
use crate::kyb::sent_fields;
use crate::types::{Business, BusinessUpdate, DocumentKeyMapping, Person};
use crate::Result;

#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
impl Businesses<'_> {
    /// Creates a business from the API's own JSON body (a file, a form your
    /// service received), checked with the same rules as
    /// [`create`](Businesses::create) plus the JSON type of each field (see
    /// [`check_business_json`](crate::json::check_business_json), which also
    /// refuses a field the request does not have); document keys are sent in
    /// their canonical form, as `create` sends them.
    pub async fn create_json(&self, body: &Value) -> Result<Business> {
        business_violations(body, BusinessRequestKind::Create).map_err(Error::Validation)?;
        let mut wire: wire::CreateBusinessRequest = from_json(body)?;
        wire.documents = canonical_documents(wire.documents);
        self.send_create(wire).await
    }

    /// Updates a business from the API's own JSON body, checked as
    /// [`update`](Businesses::update) checks its request (plus JSON types
    /// and unknown fields; an update that changes nothing is refused, not
    /// sent as `{}`); the fields under review are those sent.
    pub async fn update_json(&self, business_id: &str, body: &Value) -> Result<BusinessUpdate> {
        check_id(business_id)?;
        business_violations(body, BusinessRequestKind::Update).map_err(Error::Validation)?;
        let mut wire: wire::UpdateBusinessRequest = from_json(body)?;
        wire.documents = wire.documents.map(canonical_documents);
        let under_review = sent_fields(&wire)?;
        let business = self.send_update(business_id, wire).await?;
        Ok(BusinessUpdate {
            business,
            under_review,
        })
    }

    /// Adds a director from the API's own JSON body, checked with the same
    /// rules as [`add_director`](Businesses::add_director) (plus JSON types
    /// and unknown fields, as [`create_json`](Businesses::create_json)).
    pub async fn add_director_json(&self, business_id: &str, body: &Value) -> Result<Person> {
        self.add_person_json(business_id, PersonRole::Director, body)
            .await
    }

    /// Adds a UBO from the API's own JSON body, checked with the same rules
    /// as [`add_ubo`](Businesses::add_ubo) (plus JSON types and unknown
    /// fields).
    pub async fn add_ubo_json(&self, business_id: &str, body: &Value) -> Result<Person> {
        self.add_person_json(business_id, PersonRole::Ubo, body)
            .await
    }

    async fn add_person_json(
        &self,
        business_id: &str,
        role: PersonRole,
        body: &Value,
    ) -> Result<Person> {
        check_id(business_id)?;
        person_violations(body, role.clone()).map_err(Error::Validation)?;
        self.send_person(business_id, role, from_json(body)?).await
    }
}

/// A body the rules accepted, as the generated request type.
fn from_json<T: serde::de::DeserializeOwned>(body: &Value) -> Result<T> {
    serde_json::from_value(body.clone()).map_err(|error| Error::InvalidRequest {
        message: format!("the body does not match the API's schema: {error}"),
    })
}

/// The documents map with each key in the form the service knows
/// ([`DocumentKeyMapping`]); unknown keys were refused already.
fn canonical_documents(documents: wire::Documents) -> wire::Documents {
    wire::Documents(
        documents
            .0
            .into_iter()
            .map(
                |(key, link)| match DocumentKeyMapping::of(&key, false).sent {
                    Some(sent) => (sent, link),
                    None => (key, link),
                },
            )
            .collect(),
    )
}
