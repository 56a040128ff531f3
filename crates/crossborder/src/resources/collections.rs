//! `client.collections()`.

use crossborder_api::decimal::Amount;
use crossborder_api::types as wire;

use crate::error::{violation, Error, Rule};
use crate::types::{CollectionRequest, Transaction};
use crate::wait::poll;
use crate::{Client, Result, WaitOptions};

/// Collections (inbound payments) and their transactions. Obtained with
/// [`Client::collections`].
#[derive(Debug, Clone, Copy)]
pub struct Collections<'a> {
    pub(crate) client: &'a Client,
}

impl Collections<'_> {
    /// Creates a collection (`POST /api/initiate-payment`) and returns it
    /// with its `payRefrence` memo and payment instructions.
    ///
    /// The request is checked first ([`CollectionRequest::validate`]). It is
    /// retried only when it provably never reached the server, with the same
    /// `paymentReference`.
    pub async fn create(&self, request: &CollectionRequest) -> Result<Transaction> {
        request.validate().map_err(Error::Validation)?;
        let body =
            wire::InitiatePaymentRequest {
                amount: Amount::new(request.amount),
                from_currency: request.from_currency,
                to_currency: request.to_currency,
                payment_reference: request.payment_reference.as_str().try_into().map_err(|e| {
                    violation("paymentReference", Rule::InvalidFormat, format!("{e}"))
                })?,
                rate_key: optional(&request.rate_key, "rateKey")?,
                network: optional(&request.network, "network")?,
            };
        let answer = self
            .client
            .write("initiatePayment", "POST", body, |api, body| {
                api.initiate_payment().body(body).send()
            })
            .await?;
        Ok(answer.data.into())
    }

    /// The current state of a collection, by the reference given when it was
    /// created (`GET /api/transaction/{paymentReference}`). Polling this is
    /// the source of truth; the webhook is only a notification.
    pub async fn get(&self, payment_reference: &str) -> Result<Transaction> {
        get_transaction(self.client, payment_reference).await
    }

    /// Polls [`Collections::get`] until the transaction reaches a terminal
    /// status (`COMPLETED`, `EXPIRED`, `FAILED`) and returns it, or fails with
    /// [`Error::WaitTimeout`] carrying the last state read once
    /// `options.timeout` has passed. Waits start at
    /// `options.initial_interval` and double up to `options.max_interval`
    /// (never less than [`MIN_POLL_INTERVAL`](crate::WaitOptions::MIN_POLL_INTERVAL)).
    ///
    /// A transient failure of one read (transport error, timeout, HTTP 429
    /// or 5xx, after the client's own retries) does not end the wait: polling
    /// goes on until the deadline, which then returns [`Error::WaitTimeout`]
    /// with the last state read, or that failure when no read ever
    /// succeeded. Any other error is returned at once.
    pub async fn wait_until_settled(
        &self,
        payment_reference: &str,
        options: WaitOptions,
    ) -> Result<Transaction> {
        wait_until_settled(self.client, payment_reference, options).await
    }
}

pub(crate) async fn get_transaction(client: &Client, reference: &str) -> Result<Transaction> {
    if reference.trim().is_empty() {
        return Err(violation("paymentReference", Rule::Required, "is required"));
    }
    let answer = client
        .read("getTransaction", |api| {
            api.get_transaction().payment_reference(reference).send()
        })
        .await?
        .into_inner();
    Ok(answer.data.into())
}

pub(crate) async fn wait_until_settled(
    client: &Client,
    reference: &str,
    options: WaitOptions,
) -> Result<Transaction> {
    let read = || get_transaction(client, reference);
    poll(options, reference, read, |read| read.status.is_terminal())
        .await
        .map_err(|end| end.into_error(|last| Error::WaitTimeout { last }))
}

/// An optional string as its generated non-blank newtype. `validate` has
/// already refused a blank value, so a failure here is a conversion error.
fn optional<T>(value: &Option<String>, field: &'static str) -> Result<Option<T>>
where
    T: for<'s> TryFrom<&'s str>,
    for<'s> <T as TryFrom<&'s str>>::Error: std::fmt::Display,
{
    value
        .as_deref()
        .map(|text| {
            T::try_from(text).map_err(|e| violation(field, Rule::InvalidFormat, e.to_string()))
        })
        .transpose()
}
