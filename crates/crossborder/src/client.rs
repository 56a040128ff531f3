//! The client and its resource groups.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use progenitor_client::{Error as LowError, ResponseValue};

use crate::api_key::{ApiKey, Environment};
use crate::error::Error;
use crate::execute::{execute, Operation};
use crate::resources::{
    Banks, Businesses, Collections, Payouts, Quotes, Sandbox, Wallet, Webhooks,
};
use crate::retry::RetryPolicy;

/// A client of the Cross-Border Collections and Payouts API, built by
/// [`Client::builder`] or [`Client::from_env`] (in `config.rs`).
///
/// Cheap to clone (the configuration and connection pool are shared). The
/// operations are grouped by resource: [`Client::quotes`],
/// [`Client::collections`], [`Client::wallet`], [`Client::banks`],
/// [`Client::payouts`], [`Client::businesses`], [`Client::webhooks`] and
/// [`Client::sandbox`], each returning a handle that borrows the client.
#[derive(Clone)]
pub struct Client {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub api: crossborder_api::Client,
    pub http: reqwest::Client,
    pub base_url: String,
    pub key: ApiKey,
    pub retry: RetryPolicy,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.inner.base_url)
            .field("environment", &self.inner.key.environment())
            .field("retry", &self.inner.retry)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// The base URL requests are sent to, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.inner.base_url
    }

    /// The environment of the API key: production for `live_`, staging for
    /// `test_`.
    pub fn environment(&self) -> Environment {
        self.inner.key.environment()
    }

    /// The retry policy in use.
    pub fn retry_policy(&self) -> RetryPolicy {
        self.inner.retry
    }

    /// Exchange quotes.
    pub fn quotes(&self) -> Quotes<'_> {
        Quotes { client: self }
    }

    /// Collections (inbound payments) and their transactions.
    pub fn collections(&self) -> Collections<'_> {
        Collections { client: self }
    }

    /// Wallet balances.
    pub fn wallet(&self) -> Wallet<'_> {
        Wallet { client: self }
    }

    /// Bank lists and account resolution.
    pub fn banks(&self) -> Banks<'_> {
        Banks { client: self }
    }

    /// Payouts.
    pub fn payouts(&self) -> Payouts<'_> {
        Payouts { client: self }
    }

    /// Sub-business onboarding (KYB).
    pub fn businesses(&self) -> Businesses<'_> {
        Businesses { client: self }
    }

    /// Webhook registration.
    pub fn webhooks(&self) -> Webhooks<'_> {
        Webhooks { client: self }
    }

    /// Staging-only simulations. Every call fails with
    /// [`Error::SandboxOnly`] under a production (`live_`) key, before any
    /// request is sent.
    pub fn sandbox(&self) -> Sandbox<'_> {
        Sandbox { client: self }
    }

    /// The generated low-level client, for operations or options this SDK
    /// does not wrap. Its requests carry the same headers, but no retries,
    /// validation or error mapping. Its types (wire models named like this
    /// SDK's) are not re-exported here: a caller that names them depends on
    /// `crossborder-api` of the same version.
    pub fn low_level(&self) -> &crossborder_api::Client {
        &self.inner.api
    }

    /// Runs one operation with the client's retry policy and error mapping.
    ///
    /// Not an `async fn`: its future is [`execute`]'s own, not a second
    /// state machine around it that every call would build and move.
    pub(crate) fn send<'a, T, E, F, Fut>(
        &'a self,
        operation: Operation,
        send: F,
    ) -> impl Future<Output = Result<ResponseValue<T>, Error>> + 'a
    where
        T: 'a,
        E: serde::Serialize + 'a,
        F: FnMut() -> Fut + 'a,
        Fut: Future<Output = Result<ResponseValue<T>, LowError<E>>> + 'a,
    {
        let limit = self.inner.api.state().max_response_bytes();
        execute(&self.inner.key, &self.inner.retry, limit, operation, send)
    }

    /// Runs a write operation `id` (`method`) whose body goes out again, the
    /// same, on each retry, and returns the decoded answer.
    pub(crate) async fn write<'a, B, T, E, Fut>(
        &'a self,
        id: &'static str,
        method: &'static str,
        body: B,
        send: impl Fn(&'a crossborder_api::Client, B) -> Fut,
    ) -> Result<T, Error>
    where
        B: Clone,
        E: serde::Serialize,
        Fut: Future<Output = Result<ResponseValue<T>, LowError<E>>>,
    {
        let api = self.api();
        let response = self
            .send(Operation::write(id, method), || send(api, body.clone()))
            .await?;
        Ok(response.into_inner())
    }

    /// Runs a read operation `id` (`GET`, retried as reads are).
    ///
    /// Not an `async fn`, for the reason [`Client::send`] is not (the
    /// balance, one of the calls `cargo xtask bench` times, is a read).
    pub(crate) fn read<'a, T, E, Fut>(
        &'a self,
        id: &'static str,
        send: impl Fn(&'a crossborder_api::Client) -> Fut + 'a,
    ) -> impl Future<Output = Result<ResponseValue<T>, Error>> + 'a
    where
        T: 'a,
        E: serde::Serialize + 'a,
        Fut: Future<Output = Result<ResponseValue<T>, LowError<E>>> + 'a,
    {
        let api = self.api();
        self.send(Operation::get(id), move || send(api))
    }

    pub(crate) fn api(&self) -> &crossborder_api::Client {
        &self.inner.api
    }
}
