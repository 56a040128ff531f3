//! `client.businesses()`.

#[cfg(feature = "json")]
mod json_body;

use bytes::Bytes;
use crossborder_core::kyb::PersonRole;

use crossborder_api::types as wire;

use crate::error::{violation, Error, Rule};
use crate::execute::Operation;
use crate::kyb::{log_document_keys, sent_fields};
use crate::types::{
    Business, BusinessUpdate, CreateBusinessRequest, Person, PersonRequest, UpdateBusinessRequest,
    UploadedDocument,
};
use crate::upload;
use crate::wait::poll;
use crate::{Client, Result, WaitOptions};

/// Sub-business onboarding (KYB). Obtained with [`Client::businesses`].
///
/// The flow: upload each document and keep its link, create the business,
/// add at least one director and one UBO (the call that completes both
/// submits the business for verification), then poll [`Businesses::get`].
#[derive(Debug, Clone, Copy)]
pub struct Businesses<'a> {
    pub(crate) client: &'a Client,
}

fn check_id(business_id: &str) -> Result<()> {
    if business_id.trim().is_empty() {
        Err(violation("businessId", Rule::Required, "is required"))
    } else {
        Ok(())
    }
}

impl Businesses<'_> {
    /// Uploads a JPEG, PNG or PDF document of at most 20 MB
    /// (`POST /api/upload-document`, multipart field `file`) and returns its
    /// link, to reference as `url` in documents, proof of address, source of
    /// fund, and director or UBO documents.
    ///
    /// The file is checked first (size, and type by content); `filename` is
    /// sent as the part's file name.
    pub async fn upload_document(
        &self,
        bytes: impl Into<Bytes>,
        filename: &str,
    ) -> Result<UploadedDocument> {
        let bytes: Bytes = bytes.into();
        let kind = upload::check(&bytes)?;
        let file_name = upload::file_name(filename, kind);
        let url = format!("{}{}", self.client.base_url(), upload::UPLOAD_PATH);
        let http = &self.client.inner.http;
        let state = self.client.api().state();
        let response = self
            .client
            .send(Operation::write("uploadDocument", "POST"), || {
                upload::send(http, state, &url, bytes.clone(), file_name.clone(), kind)
            })
            .await?;
        Ok(UploadedDocument {
            link: response.into_inner().data.link,
        })
    }

    /// Creates a Nigerian sub-business (`POST /api/business`) after checking
    /// it with the API's KYB rules ([`CreateBusinessRequest::validate`]).
    pub async fn create(&self, request: &CreateBusinessRequest) -> Result<Business> {
        request.validate().map_err(Error::Validation)?;
        let body = request.to_wire();
        log_document_keys(Some(&request.documents));
        self.send_create(body).await
    }

    async fn send_create(&self, body: wire::CreateBusinessRequest) -> Result<Business> {
        let answer = self
            .client
            .write("createBusiness", "POST", body, |api, body| {
                api.create_business().body(body).send()
            })
            .await?;
        Ok(answer.data.into())
    }

    /// Adds a director (`POST /api/business/{businessId}/director`). When the
    /// business then has a director and a UBO, it is submitted for
    /// verification automatically.
    pub async fn add_director(&self, business_id: &str, person: &PersonRequest) -> Result<Person> {
        self.add_person(business_id, PersonRole::Director, person)
            .await
    }

    /// Adds an ultimate beneficial owner (`POST /api/business/{businessId}/ubo`).
    /// When the business then has a director and a UBO, it is submitted for
    /// verification automatically.
    pub async fn add_ubo(&self, business_id: &str, person: &PersonRequest) -> Result<Person> {
        self.add_person(business_id, PersonRole::Ubo, person).await
    }

    async fn add_person(
        &self,
        business_id: &str,
        role: PersonRole,
        person: &PersonRequest,
    ) -> Result<Person> {
        check_id(business_id)?;
        person.validate(role.clone()).map_err(Error::Validation)?;
        self.send_person(business_id, role, person.to_wire()).await
    }

    /// The business and its verification status, with the rejection reason
    /// when it was rejected (`GET /api/business/{businessId}`).
    pub async fn get(&self, business_id: &str) -> Result<Business> {
        check_id(business_id)?;
        let answer = self
            .client
            .read("getBusiness", |api| {
                api.get_business().business_id(business_id).send()
            })
            .await?
            .into_inner();
        Ok(answer.data.into())
    }

    /// Polls [`Businesses::get`] until the business is decided
    /// ([`BusinessStatus::is_decided`](crate::types::BusinessStatus::is_decided):
    /// `APPROVED`, or `REJECTED` with its
    /// [`rejection_reason`](crate::types::Business::rejection_reason)) and returns
    /// it, or fails with [`Error::DecisionTimeout`] carrying the last state
    /// read once `options.timeout` has passed. A status this SDK does not know
    /// is never taken for a decision: polling goes on. Waits and transient
    /// failures are handled as in
    /// [`Collections::wait_until_settled`](crate::Collections::wait_until_settled).
    ///
    /// ```no_run
    /// # async fn run(client: crossborder::Client) -> crossborder::Result<()> {
    /// use std::time::Duration;
    /// use crossborder::{WaitOptions, types::BusinessStatus};
    ///
    /// let options = WaitOptions::default().timeout(Duration::from_secs(3600));
    /// let business = client.businesses().wait_for_decision("biz_3M8QK2", options).await?;
    /// if business.status == BusinessStatus::Rejected {
    ///     eprintln!("rejected: {:?}", business.rejection_reason);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn wait_for_decision(
        &self,
        business_id: &str,
        options: WaitOptions,
    ) -> Result<Business> {
        check_id(business_id)?;
        let read = || self.get(business_id);
        poll(options, business_id, read, |read| read.status.is_decided())
            .await
            .map_err(|end| end.into_error(|last| Error::DecisionTimeout { last }))
    }

    /// Updates a business (`PATCH /api/business/{businessId}`). Checked first
    /// with [`UpdateBusinessRequest::validate`].
    ///
    /// Every field sent goes back to `PENDING` and is reviewed again (the
    /// spec's PATCH row), and the business with it (ASSUMPTIONS A25): the
    /// returned [`BusinessUpdate`] names those fields
    /// ([`UpdateBusinessRequest::fields_under_review`]) next to the record
    /// the service returned. Send only what changes.
    pub async fn update(
        &self,
        business_id: &str,
        changes: &UpdateBusinessRequest,
    ) -> Result<BusinessUpdate> {
        check_id(business_id)?;
        changes.validate().map_err(Error::Validation)?;
        let body = changes.to_wire();
        let under_review = sent_fields(&body)?;
        log_document_keys(changes.documents.as_ref());
        let business = self.send_update(business_id, body).await?;
        Ok(BusinessUpdate {
            business,
            under_review,
        })
    }

    async fn send_person(
        &self,
        business_id: &str,
        role: PersonRole,
        body: wire::PersonRequest,
    ) -> Result<Person> {
        let answer = match role {
            PersonRole::Director => {
                self.client
                    .write("addDirector", "POST", body, |api, body| {
                        api.add_director()
                            .business_id(business_id)
                            .body(body)
                            .send()
                    })
                    .await?
            }
            PersonRole::Ubo => {
                self.client
                    .write("addUbo", "POST", body, |api, body| {
                        api.add_ubo().business_id(business_id).body(body).send()
                    })
                    .await?
            }
            // The SDK's own calls name a known role.
            PersonRole::Unknown(other) => {
                return Err(Error::InvalidRequest {
                    message: format!("no operation adds a person in the role {other}"),
                })
            }
        };
        Ok(answer.data.into())
    }

    async fn send_update(
        &self,
        business_id: &str,
        body: wire::UpdateBusinessRequest,
    ) -> Result<Business> {
        let answer = self
            .client
            .write("updateBusiness", "PATCH", body, |api, body| {
                api.update_business()
                    .business_id(business_id)
                    .body(body)
                    .send()
            })
            .await?;
        Ok(answer.data.into())
    }
}
