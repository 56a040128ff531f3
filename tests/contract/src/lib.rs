//! Helpers shared by the contract tests of the `crossborder` SDK against the
//! in-process `crossborder-sandbox`.
//!
//! Everything listens on 127.0.0.1 with a free port: the sandbox, the
//! rewriting [`Proxy`] (which lets the SDK meet sandbox answers it could not
//! provoke itself, such as a request without `x-api-key`) and the
//! [`WebhookReceiver`]. The sandbox, its manual clock, the raw requests and
//! the fixtures are the test kit's (`crossborder-testkit`), re-exported
//! here; nothing sleeps longer than a few milliseconds.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use crossborder::{
    error::Violations, types::PayoutRequest, types::Quote, types::QuoteRequest, Client, Currency,
    Decimal,
};
use serde_json::{json, Map, Value};

/// The test kit's fixtures, for the suites that build on this one.
pub use crossborder_testkit::fixtures;
pub use crossborder_testkit::fixtures::{
    business_json, business_request, lagos_address, person_json, person_request, PDF,
};
pub use crossborder_testkit::{
    assert_api_error, assert_error_body, open_ngn_collection, read_reply as reply, LocalServer,
    ReceivedWebhook, Reply, TestSandbox as Env, WebhookReceiver, NO_ACCESS_KEY, PRODUCTION_KEY,
    STAGING_KEY,
};

/// A key of the staging environment that the sandbox does not know.
pub const UNKNOWN_KEY: &str = "test_not_a_known_key_0000";

/// How long any single HTTP exchange of a test may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// A started sandbox and an SDK client with its staging key: where most
/// tests begin. Keep the sandbox for the test's length (dropping it stops
/// the server).
pub async fn staging() -> (Env, Client) {
    let env = Env::start().await;
    let client = env.client(STAGING_KEY);
    (env, client)
}

/// An exact decimal from its text (`d("100.5")`).
pub fn d(text: &str) -> Decimal {
    Decimal::from_str_exact(text).unwrap_or_else(|error| panic!("{text:?}: {error}"))
}

/// An exact decimal from a JSON number or numeric string, as written on the
/// wire (never through `f64`).
pub fn json_decimal(value: &Value) -> Decimal {
    match value {
        Value::Number(number) => d(&number.to_string()),
        Value::String(text) => d(text),
        other => panic!("not a decimal: {other}"),
    }
}

/// An SDK client for `base_url` with `key`, no retries and short timeouts
/// (the test kit's).
pub fn sdk_client(base_url: &str, key: &str) -> Client {
    crossborder_testkit::sdk_client(base_url, key).expect("the SDK client builds")
}

/// Opens an NGN collection of `amount` for `reference`; returns its memo.
pub async fn collection(client: &Client, reference: &str, amount: &str) -> String {
    let created = crossborder_testkit::open_ngn_collection(client, reference, d(amount))
        .await
        .expect("the collection is created");
    created.pay_reference.expect("a memo")
}

/// Pays `amount` NGN into the collection with `memo`, under `session`.
pub async fn fund(client: &Client, memo: &str, amount: &str, session: &str) {
    crossborder_testkit::pay_collection(client, memo, d(amount), session)
        .await
        .expect("the funding is simulated");
}

/// A request to the sandbox's control API (`/_sandbox/...`, at the
/// server's root beside `/v1`) with `key` and, when given, a JSON body.
pub async fn control(
    env: &Env,
    method: reqwest::Method,
    path: &str,
    key: &str,
    body: Option<Value>,
) -> Reply {
    let root = env.base_url().trim_end_matches("/v1");
    let mut request = env
        .http
        .request(method, format!("{root}{path}"))
        .header("x-api-key", key);
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    reply(request.send().await.expect("the sandbox answers")).await
}

/// Violations as `(field, message)` pairs, as [`field_errors`] gives them.
pub fn violation_pairs(violations: &Violations) -> Vec<(String, String)> {
    violations
        .iter()
        .map(|violation| (violation.field.to_string(), violation.message.clone()))
        .collect()
}

/// Asserts that `reply` is a 400 for exactly the violations the SDK found:
/// every one in the message, joined with `; `, and each in `errors`.
pub fn assert_same_violations(reply: &Reply, violations: &Violations, method: &str, url: &str) {
    assert_error_body(reply, 400, &violations.to_string(), method, url);
    assert_eq!(
        field_errors(&reply.body),
        violation_pairs(violations),
        "{}",
        reply.text
    );
}

/// The `errors` array of an error body as `(field, message)` pairs.
pub fn field_errors(body: &Value) -> Vec<(String, String)> {
    body["errors"]
        .as_array()
        .map(|errors| {
            errors
                .iter()
                .map(|error| {
                    (
                        error["field"].as_str().unwrap_or_default().to_owned(),
                        error["message"].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The JSON body the API documents for a payout, written from the SDK's
/// request by hand (the SDK's own conversion is private): `amount` as a
/// decimal string, optional fields only when set.
pub fn payout_json(request: &PayoutRequest) -> Value {
    let mut body = Map::new();
    body.insert("amount".into(), json!(request.amount.to_string()));
    body.insert("fromCurrency".into(), json!(request.from_currency.as_str()));
    body.insert("toCurrency".into(), json!(request.to_currency.as_str()));
    body.insert("sessionId".into(), json!(request.session_id));
    let optional = [
        ("narration", &request.narration),
        ("rateKey", &request.rate_key),
        ("accountNumber", &request.account_number),
        ("accountName", &request.account_name),
        ("bankName", &request.bank_name),
        ("bankCode", &request.bank_code),
        ("address", &request.address),
        ("network", &request.network),
        ("fromNetwork", &request.from_network),
        ("toNetwork", &request.to_network),
        ("transitNumber", &request.transit_number),
        ("institutionNumber", &request.institution_number),
        ("sortCode", &request.sort_code),
        ("swiftCode", &request.swift_code),
        ("recipientName", &request.recipient_name),
    ];
    for (name, value) in optional {
        if let Some(value) = value {
            body.insert(name.into(), json!(value));
        }
    }
    Value::Object(body)
}

/// What the [`Proxy`] changes on the way to the sandbox.
#[derive(Debug, Clone, Default)]
pub struct Rewrite {
    /// Drop the `x-api-key` header.
    pub strip_api_key: bool,
    /// Replace the first occurrence of `.0` by `.1` in the request path.
    pub path: Option<(String, String)>,
    /// Make one request fail.
    pub fail: Option<Fail>,
}

/// One request the [`Proxy`] makes fail: the `nth` (from 1) whose method is
/// `method` and whose path contains `path`.
#[derive(Debug, Clone)]
pub struct Fail {
    /// `GET`, `POST`, ...
    pub method: &'static str,
    /// A part of the path (`/director`).
    pub path: &'static str,
    /// Which matching request fails, from 1.
    pub nth: usize,
    /// `false`: the request never reaches the sandbox and the answer is 503
    /// `injected failure`. `true`: the sandbox does the request, and its
    /// answer is replaced by 502 `answer lost`, as when a connection drops
    /// after the service acted.
    pub answer_lost: bool,
}

impl Fail {
    /// The `nth` request matching `method` and `path` never arrives.
    pub fn refused(method: &'static str, path: &'static str, nth: usize) -> Fail {
        Fail {
            method,
            path,
            nth,
            answer_lost: false,
        }
    }

    /// The `nth` request matching `method` and `path` is done by the
    /// sandbox, but its answer is lost.
    pub fn answer_lost(method: &'static str, path: &'static str, nth: usize) -> Fail {
        Fail {
            answer_lost: true,
            ..Fail::refused(method, path, nth)
        }
    }
}

/// A reverse proxy on 127.0.0.1 in front of the sandbox that rewrites each
/// request as its [`Rewrite`] says and counts the requests it saw.
///
/// It lets the SDK receive the sandbox's real answers to requests the SDK
/// never sends by itself (no `x-api-key`, an unsupported currency code), so
/// the SDK's error mapping is checked against the sandbox and not only
/// against hand-written mocks.
pub struct Proxy {
    base_url: String,
    seen: Arc<AtomicUsize>,
    _server: LocalServer,
}

#[derive(Clone)]
struct ProxyState {
    upstream: String,
    rewrite: Rewrite,
    http: reqwest::Client,
    seen: Arc<AtomicUsize>,
    /// Requests matching [`Rewrite::fail`] so far.
    matched: Arc<AtomicUsize>,
}

impl Proxy {
    /// Starts a proxy to `upstream_base_url` (`http://HOST:PORT/v1`).
    pub async fn start(upstream_base_url: &str, rewrite: Rewrite) -> Proxy {
        let upstream = upstream_base_url
            .trim_end_matches('/')
            .trim_end_matches("/v1")
            .to_owned();
        let seen = Arc::new(AtomicUsize::new(0));
        let state = ProxyState {
            upstream,
            rewrite,
            http: reqwest::Client::builder()
                .timeout(REQUEST_TIMEOUT)
                .build()
                .expect("the proxy's client builds"),
            seen: seen.clone(),
            matched: Arc::default(),
        };
        let server = LocalServer::start(Router::new().fallback(forward).with_state(state)).await;
        Proxy {
            base_url: server.url("/v1"),
            seen,
            _server: server,
        }
    }

    /// The proxy's base URL, `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// How many requests reached the proxy.
    pub fn requests_seen(&self) -> usize {
        self.seen.load(Ordering::SeqCst)
    }
}

async fn forward(State(state): State<ProxyState>, request: Request) -> Response {
    state.seen.fetch_add(1, Ordering::SeqCst);
    let (parts, body) = request.into_parts();
    let failing = state.rewrite.fail.as_ref().filter(|fail| {
        parts.method.as_str() == fail.method
            && parts.uri.path().contains(fail.path)
            && state.matched.fetch_add(1, Ordering::SeqCst) + 1 == fail.nth
    });
    if failing.is_some_and(|fail| !fail.answer_lost) {
        return (StatusCode::SERVICE_UNAVAILABLE, "injected failure").into_response();
    }
    let lost = failing.is_some();
    let mut path = parts.uri.path().to_owned();
    if let Some((from, to)) = &state.rewrite.path {
        path = path.replacen(from.as_str(), to, 1);
    }
    let query = parts
        .uri
        .query()
        .map(|query| format!("?{query}"))
        .unwrap_or_default();
    let body = match axum::body::to_bytes(body, 64 * 1024 * 1024).await {
        Ok(body) => body,
        Err(error) => return (StatusCode::BAD_GATEWAY, error.to_string()).into_response(),
    };
    let mut headers = parts.headers.clone();
    headers.remove("host");
    headers.remove("content-length");
    if state.rewrite.strip_api_key {
        headers.remove("x-api-key");
    }
    let upstream = state
        .http
        .request(parts.method, format!("{}{path}{query}", state.upstream))
        .headers(headers)
        .body(body)
        .send()
        .await;
    match upstream {
        Ok(response) if lost => {
            // Read the whole answer, so the sandbox has finished, then drop it.
            let _ = response.bytes().await;
            (StatusCode::BAD_GATEWAY, "answer lost").into_response()
        }
        Ok(response) => {
            let status = response.status();
            let mut headers = HeaderMap::new();
            for (name, value) in response.headers() {
                if name != "content-length" && name != "transfer-encoding" {
                    headers.append(name.clone(), value.clone());
                }
            }
            let body = response.bytes().await.unwrap_or_default();
            (status, headers, Body::from(body)).into_response()
        }
        Err(error) => (StatusCode::BAD_GATEWAY, error.to_string()).into_response(),
    }
}

/// A GIF file's bytes: not an accepted type.
pub const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00;";

/// The balance of `client`'s business in `currency`.
pub async fn balance(client: &Client, currency: Currency) -> Decimal {
    match client.wallet().balance(currency).await {
        Ok(balance) => balance.amount,
        Err(error) => panic!("no {currency} balance: {error}"),
    }
}

/// [`fixtures::ngn_bank_payout`] of `amount` (as written) under
/// `session_id`.
pub fn ngn_payout(session_id: &str, amount: &str) -> PayoutRequest {
    fixtures::ngn_bank_payout(d(amount), session_id)
}

/// The quote `client` gets for `request`.
pub async fn quote(client: &Client, request: QuoteRequest) -> Quote {
    match client.quotes().get(request).await {
        Ok(quote) => quote,
        Err(error) => panic!("no quote: {error}"),
    }
}

/// The quote `client` gets for `amount` (as written) from `from` to `to`,
/// with no rail named.
pub async fn quote_of(client: &Client, from: Currency, to: Currency, amount: &str) -> Quote {
    quote(client, QuoteRequest::new(from, to, d(amount))).await
}

/// Uploads [`PDF`] as `name` with `client`; returns its link.
pub async fn upload_pdf(client: &Client, name: &str) -> String {
    upload(client, PDF.to_vec(), name).await
}

/// Uploads `bytes` as `name` with `client`; returns its link.
pub async fn upload(client: &Client, bytes: Vec<u8>, name: &str) -> String {
    match client.businesses().upload_document(bytes, name).await {
        Ok(uploaded) => uploaded.link,
        Err(error) => panic!("{name} is not uploaded: {error}"),
    }
}
