//! The in-process sandbox of a test, on the fixed clock, with an SDK client
//! and raw HTTP requests.

use std::time::Duration;

use crossborder::{Client, RetryPolicy};
use crossborder_sandbox::{Clock, Sandbox, SandboxConfig, SandboxHandle, STAGING_KEY};
use reqwest::Method;
use serde_json::{json, Value};

use crate::clock::manual_clock;
use crate::http::http_client;
use crate::reply::{assert_error_body, read_reply, Reply};

/// How long one HTTP exchange of a test may take: generous, for a loaded
/// machine, and still bounded.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A running sandbox on 127.0.0.1 (a free port), on a manual clock at
/// [`start_instant`](crate::start_instant), with a plain HTTP client for raw
/// requests. Each test starts its own: nothing is shared between tests.
pub struct TestSandbox {
    /// The sandbox.
    pub sandbox: SandboxHandle,
    /// Its clock: moves only by [`Clock::advance`].
    pub clock: Clock,
    /// A plain HTTP client (timeout [`REQUEST_TIMEOUT`]) for raw requests,
    /// with the SDK's TLS configuration.
    pub http: reqwest::Client,
}

impl TestSandbox {
    /// The staging key of the sandbox's default business (API access, the
    /// default balances, simulated funding allowed).
    pub const KEY: &'static str = STAGING_KEY;

    /// A sandbox with the default configuration.
    ///
    /// # Panics
    ///
    /// When the sandbox cannot start (no free loopback port).
    pub async fn start() -> TestSandbox {
        TestSandbox::start_with(SandboxConfig::default()).await
    }

    /// A sandbox with `config`, its clock replaced by the manual one.
    ///
    /// # Panics
    ///
    /// When the sandbox cannot start (an address already in use, no free
    /// loopback port).
    pub async fn start_with(config: SandboxConfig) -> TestSandbox {
        let clock = manual_clock();
        let sandbox = Sandbox::start(config.with_clock(clock.clone()))
            .await
            .unwrap_or_else(|error| panic!("the sandbox does not start: {error}"));
        let http = http_client(REQUEST_TIMEOUT);
        TestSandbox {
            sandbox,
            clock,
            http,
        }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> &str {
        self.sandbox.base_url()
    }

    /// The full URL of `path` (`/api/...`, below `/v1`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url())
    }

    /// An SDK client for this sandbox with `key`, as [`sdk_client`] makes
    /// it.
    ///
    /// # Panics
    ///
    /// When `key` is not a well-formed API key.
    pub fn client(&self, key: &str) -> Client {
        sdk_client(self.base_url(), key)
            .unwrap_or_else(|error| panic!("no SDK client for key {key:?}: {error}"))
    }

    /// A raw request to `path` with an optional `x-api-key` and JSON body.
    ///
    /// # Panics
    ///
    /// When the sandbox does not answer within [`REQUEST_TIMEOUT`].
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        key: Option<&str>,
        body: Option<&Value>,
    ) -> Reply {
        let mut request = self.http.request(method, self.url(path));
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        self.answer(request).await
    }

    /// A raw GET with `key`.
    pub async fn raw_get(&self, path: &str, key: Option<&str>) -> Reply {
        self.raw(Method::GET, path, key, None).await
    }

    /// A raw POST of `body` with `key`.
    pub async fn raw_post(&self, path: &str, key: Option<&str>, body: &Value) -> Reply {
        self.raw(Method::POST, path, key, Some(body)).await
    }

    /// A GET with the staging key.
    pub async fn get(&self, path: &str) -> Reply {
        self.raw_get(path, Some(STAGING_KEY)).await
    }

    /// A POST of `body` with the staging key.
    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.raw_post(path, Some(STAGING_KEY), body).await
    }

    /// A POST of raw bytes (sent as `application/json`) with the staging
    /// key.
    pub async fn post_bytes(&self, path: &str, body: impl Into<reqwest::Body>) -> Reply {
        let request = self
            .http
            .post(self.url(path))
            .header("x-api-key", STAGING_KEY)
            .header("content-type", "application/json")
            .body(body);
        self.answer(request).await
    }

    /// The balance of `key`'s business in `currency` as the sandbox writes
    /// it (`5000000`, `9899.5`).
    ///
    /// # Panics
    ///
    /// When the answer is not a 200.
    pub async fn balance(&self, key: &str, currency: &str) -> String {
        let reply = self
            .raw_get(&format!("/api/balance/{currency}"), Some(key))
            .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.body["data"]["balance"].to_string()
    }

    /// The staging business's balance in `currency` as the JSON number the
    /// sandbox writes.
    ///
    /// # Panics
    ///
    /// When the answer is not a 200.
    pub async fn balance_json(&self, currency: &str) -> Value {
        let reply = self.get(&format!("/api/balance/{currency}")).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.body["data"]["balance"].clone()
    }

    /// The `rateKey` of a fresh quote from `from` to `to` for `amount`.
    ///
    /// # Panics
    ///
    /// When the answer is not a 200 with a `rateKey`.
    pub async fn rate_key(&self, from: &str, to: &str, amount: &str) -> String {
        let reply = self.get(&format!("/api/qoutes/{from}/{to}/{amount}")).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        match reply.body["data"]["rateKey"].as_str() {
            Some(key) => key.to_owned(),
            None => panic!("no rateKey in {}", reply.text),
        }
    }

    /// A POST of `body` with the staging key that the sandbox must refuse
    /// with `status` and `message`, in the API's documented error body
    /// ([`assert_error_body`]); returns the reply for further checks.
    ///
    /// # Panics
    ///
    /// When the reply is anything else.
    pub async fn post_refused(
        &self,
        path: &str,
        body: &Value,
        status: u16,
        message: &str,
    ) -> Reply {
        let reply = self.post(path, body).await;
        assert_error_body(&reply, status, message, "POST", path);
        reply
    }

    /// A GET with the staging key that the sandbox must refuse with
    /// `status` and `message` ([`assert_error_body`]); returns the reply.
    ///
    /// # Panics
    ///
    /// When the reply is anything else.
    pub async fn get_refused(&self, path: &str, status: u16, message: &str) -> Reply {
        let reply = self.get(path).await;
        assert_error_body(&reply, status, message, "GET", path);
        reply
    }

    /// Registers `url` as the staging business's webhook
    /// (`PUT /api/set-webhook`) and returns the answer.
    ///
    /// # Panics
    ///
    /// When the answer is not a 200.
    pub async fn set_webhook(&self, url: &str) -> Reply {
        let set = self.put_webhook(&json!({ "webhookUrl": url })).await;
        assert_eq!(set.status, 200, "{}", set.text);
        set
    }

    /// `PUT /api/set-webhook` of `body` with the staging key, whatever the
    /// answer.
    pub async fn put_webhook(&self, body: &Value) -> Reply {
        self.raw(
            Method::PUT,
            "/api/set-webhook",
            Some(STAGING_KEY),
            Some(body),
        )
        .await
    }

    /// Opens a collection of `amount` (as written on the wire) from `from`
    /// to `to` for the order `reference`, with a fresh quote's `rateKey`
    /// when the currencies differ, and returns its memo (`payRefrence`).
    ///
    /// # Panics
    ///
    /// When the answer is not a 200 with a memo.
    pub async fn collection(&self, reference: &str, amount: Value, from: &str, to: &str) -> String {
        let mut body = json!({"amount": amount, "fromCurrency": from, "toCurrency": to,
                              "paymentReference": reference});
        if from != to {
            body["rateKey"] = json!(self.rate_key(from, to, "1").await);
        }
        let created = self.post("/api/initiate-payment", &body).await;
        assert_eq!(created.status, 200, "{}", created.text);
        match created.body["data"]["payRefrence"].as_str() {
            Some(memo) => memo.to_owned(),
            None => panic!("no payRefrence in {}", created.text),
        }
    }

    /// A simulated funding of `amount` (as written on the wire) in
    /// `currency` for the collection whose memo is `memo`, under `session`.
    pub async fn fund(&self, currency: &str, amount: Value, memo: &str, session: &str) -> Reply {
        let body = json!({"currency": currency, "amount": amount, "narration": memo,
                          "sessionId": session});
        self.post("/api/simulate-funding", &body).await
    }

    /// The `data` of the transaction `reference` as read back.
    ///
    /// # Panics
    ///
    /// When the answer is not a 200.
    pub async fn transaction(&self, reference: &str) -> Value {
        let read = self.get(&format!("/api/transaction/{reference}")).await;
        assert_eq!(read.status, 200, "{}", read.text);
        read.body["data"].clone()
    }

    pub(crate) async fn answer(&self, request: reqwest::RequestBuilder) -> Reply {
        match request.send().await {
            Ok(response) => read_reply(response).await,
            Err(error) => panic!("the sandbox does not answer: {error}"),
        }
    }
}

/// A client for `sandbox` with `key`, as [`sdk_client`] makes it: the one
/// call a test needs after [`Sandbox::start`].
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use crossborder_sandbox::{Sandbox, SandboxConfig, STAGING_KEY};
///
/// let sandbox = Sandbox::start(SandboxConfig::default()).await?;
/// let client = crossborder_testkit::client_for(&sandbox, STAGING_KEY)?;
/// # Ok(()) }
/// ```
pub fn client_for(sandbox: &SandboxHandle, key: &str) -> crossborder::Result<Client> {
    sdk_client(sandbox.base_url(), key)
}

/// An SDK client for `base_url` with `key`, made for tests: no retries (a
/// failure shows at once), a [`REQUEST_TIMEOUT`] per request and a 2 s
/// connect timeout.
///
/// # Errors
///
/// [`crossborder::Error::Config`] for a malformed key or URL.
pub fn sdk_client(base_url: &str, key: &str) -> crossborder::Result<Client> {
    sdk_client_with(base_url, key, REQUEST_TIMEOUT, RetryPolicy::none())
}

/// An SDK client for `base_url` with `key`, a `timeout` per request, the
/// `retry` policy and a 5 s connect timeout: for tests that exercise the
/// client's own timeouts and retries.
///
/// # Errors
///
/// [`crossborder::Error::Config`] for a malformed key or URL.
pub fn sdk_client_with(
    base_url: &str,
    key: &str,
    timeout: Duration,
    retry: RetryPolicy,
) -> crossborder::Result<Client> {
    Client::builder()
        .api_key(key)
        .base_url(base_url)
        .timeout(timeout)
        .connect_timeout(Duration::from_secs(5))
        .retry_policy(retry)
        .build()
}
