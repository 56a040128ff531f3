//! Helpers shared by the contract tests of the `crossborder` SDK against the
//! in-process `crossborder-sandbox`.
//!
//! Everything listens on 127.0.0.1 with a free port: the sandbox, the
//! rewriting [`Proxy`] (which lets the SDK meet sandbox answers it could not
//! provoke itself, such as a request without `x-api-key`) and the
//! [`WebhookReceiver`]. Time moves only through the sandbox's manual
//! [`Clock`]; nothing sleeps longer than a few milliseconds.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use crossborder::{
    error::Violations,
    types::{
        Address, BusinessDetails, BusinessType, CreateBusinessRequest, DocumentLink, Documents,
        IdType, NatureOfBusiness, PayoutRequest, PersonDetails, PersonRequest, ProofOfAddress,
        ProofOfAddressType,
    },
    Client, Decimal, RetryPolicy,
};
use crossborder_sandbox::{Clock, Sandbox, SandboxConfig, SandboxHandle};
use serde_json::{json, Map, Value};
use tokio::net::TcpListener;

pub use crossborder_sandbox::{NO_ACCESS_KEY, PRODUCTION_KEY, STAGING_KEY};

/// A key of the staging environment that the sandbox does not know.
pub const UNKNOWN_KEY: &str = "test_not_a_known_key_0000";

/// How long any single HTTP exchange of a test may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// 2026-11-21T12:00:00Z, where every manual clock starts.
pub fn start_instant() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_795_262_400)
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

/// A running sandbox on a manual clock, plus clients for it.
pub struct Env {
    /// The sandbox.
    pub sandbox: SandboxHandle,
    /// The sandbox's clock (manual, starting at [`start_instant`]).
    pub clock: Clock,
    /// A plain HTTP client for raw requests.
    pub http: reqwest::Client,
}

/// A raw response: status, headers, JSON body (`Null` if not JSON) and text.
#[derive(Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: reqwest::header::HeaderMap,
    /// The body parsed as JSON, or `Null`.
    pub body: Value,
    /// The body as text.
    pub text: String,
}

impl Env {
    /// A sandbox with the default configuration.
    pub async fn start() -> Env {
        Env::start_with(SandboxConfig::default()).await
    }

    /// A sandbox with `config`, on a manual clock at [`start_instant`].
    pub async fn start_with(config: SandboxConfig) -> Env {
        let clock = Clock::manual(start_instant());
        let sandbox = Sandbox::start(config.with_clock(clock.clone()))
            .await
            .expect("the sandbox starts");
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .expect("the HTTP client builds");
        Env {
            sandbox,
            clock,
            http,
        }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> &str {
        self.sandbox.base_url()
    }

    /// The full URL of `path` (`/api/...`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url())
    }

    /// An SDK client with `key`, no retries and short timeouts.
    pub fn client(&self, key: &str) -> Client {
        sdk_client(self.base_url(), key)
    }

    /// A raw request with an optional key and JSON body.
    pub async fn raw(
        &self,
        method: reqwest::Method,
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
        reply(request.send().await.expect("the sandbox answers")).await
    }

    /// A raw GET with `key`.
    pub async fn raw_get(&self, path: &str, key: Option<&str>) -> Reply {
        self.raw(reqwest::Method::GET, path, key, None).await
    }

    /// A raw POST of `body` with `key`.
    pub async fn raw_post(&self, path: &str, key: Option<&str>, body: &Value) -> Reply {
        self.raw(reqwest::Method::POST, path, key, Some(body)).await
    }
}

/// An SDK client for `base_url` with `key`, no retries and short timeouts.
pub fn sdk_client(base_url: &str, key: &str) -> Client {
    Client::builder()
        .api_key(key)
        .base_url(base_url)
        .timeout(REQUEST_TIMEOUT)
        .connect_timeout(Duration::from_secs(2))
        .retry_policy(RetryPolicy::none())
        .build()
        .expect("the SDK client builds")
}

/// Reads a raw response.
pub async fn reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("the body is read");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
        text,
    }
}

/// Checks the documented error body: `statusCode`, `message`, an RFC 3339
/// UTC `timestamp` with milliseconds, `path`, and `request {method, url}`.
pub fn assert_error_body(reply: &Reply, status: u16, message: &str, method: &str, url: &str) {
    assert_eq!(reply.status, status, "{}", reply.text);
    let body = &reply.body;
    assert_eq!(body["statusCode"], json!(status), "{}", reply.text);
    assert_eq!(body["message"], json!(message), "{}", reply.text);
    let path = url.split('?').next().unwrap_or(url);
    assert_eq!(body["path"], json!(format!("/v1{path}")), "{}", reply.text);
    assert_eq!(body["request"]["method"], json!(method), "{}", reply.text);
    assert_eq!(
        body["request"]["url"],
        json!(format!("/v1{url}")),
        "{}",
        reply.text
    );
    let timestamp = body["timestamp"].as_str().expect("a timestamp string");
    assert_eq!(timestamp.len(), 24, "{timestamp}");
    assert!(
        timestamp.ends_with('Z') && &timestamp[10..11] == "T" && &timestamp[19..20] == ".",
        "{timestamp}"
    );
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
    task: tokio::task::JoinHandle<()>,
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
        let app = Router::new().fallback(forward).with_state(state);
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("the proxy binds");
        let addr = listener.local_addr().expect("the proxy has an address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Proxy {
            base_url: format!("http://{addr}/v1"),
            seen,
            task,
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

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
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

/// One POST received by the [`WebhookReceiver`].
#[derive(Debug, Clone)]
pub struct ReceivedWebhook {
    /// The request headers.
    pub headers: HeaderMap,
    /// The raw body.
    pub body: Bytes,
}

impl ReceivedWebhook {
    /// The body parsed as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON webhook body")
    }
}

/// A tiny webhook receiver on 127.0.0.1 that records every POST to
/// `/hooks/crossborder` and answers 200.
pub struct WebhookReceiver {
    url: String,
    received: Arc<Mutex<Vec<ReceivedWebhook>>>,
    task: tokio::task::JoinHandle<()>,
}

impl WebhookReceiver {
    /// Starts the receiver.
    pub async fn start() -> WebhookReceiver {
        let received: Arc<Mutex<Vec<ReceivedWebhook>>> = Arc::default();
        let log = received.clone();
        let app = Router::new().route(
            "/hooks/crossborder",
            post(move |headers: HeaderMap, body: Bytes| {
                let log = log.clone();
                async move {
                    log.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(ReceivedWebhook { headers, body });
                    StatusCode::OK
                }
            }),
        );
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("the receiver binds");
        let addr = listener.local_addr().expect("the receiver has an address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        WebhookReceiver {
            url: format!("http://{addr}/hooks/crossborder"),
            received,
            task,
        }
    }

    /// The URL to register.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<ReceivedWebhook> {
        self.received
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Waits (polling every 2 ms) until `count` POSTs arrived or `timeout`
    /// passed, and returns what arrived.
    pub async fn wait_for(&self, count: usize, timeout: Duration) -> Vec<ReceivedWebhook> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let received = self.received();
            if received.len() >= count || tokio::time::Instant::now() >= deadline {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
}

impl Drop for WebhookReceiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A PDF file's bytes (the sandbox tells the type by content).
pub const PDF: &[u8] = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n";

/// A GIF file's bytes: not an accepted type.
pub const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00;";

/// A Lagos address.
pub fn lagos_address() -> Address {
    Address {
        house_number: "12".into(),
        street: "Admiralty Way".into(),
        city: "Lekki".into(),
        state: "Lagos".into(),
        zip_code: "106104".into(),
        subdivision: None,
    }
}

/// A complete LLC business whose documents all point at `link`.
pub fn business_request(registration_number: &str, link: &str) -> CreateBusinessRequest {
    let mut documents = Documents::new();
    for (key, id) in [
        ("cac_document", "cac-cert"),
        ("bank_statement", "statement-6m"),
        ("application_letter", "letter"),
        ("cac_status_report", "status-report"),
    ] {
        documents.insert(key.into(), DocumentLink::new(link, id));
    }
    CreateBusinessRequest {
        name: "Lagos Trading Ltd".into(),
        business_type: BusinessType::Llc,
        registration_number: registration_number.into(),
        email: "compliance@lagostrading.ng".into(),
        phone_number: "+2348012345678".into(),
        nature_of_business: NatureOfBusiness {
            nature: "Wholesale of consumer electronics".into(),
            code: "4652".into(),
        },
        business_address: lagos_address(),
        proof_of_address: ProofOfAddress {
            url: link.into(),
            key: "utility-2026-10".into(),
            kind: ProofOfAddressType::UtilityBill,
        },
        documents,
        details: BusinessDetails {
            business_description: Some("Imports and distributes consumer electronics.".into()),
            tin: Some("12345678-0001".into()),
            ..BusinessDetails::default()
        },
    }
}

/// A complete director or UBO whose documents point at `link`.
pub fn person_request(link: &str) -> PersonRequest {
    PersonRequest {
        first_name: "Adaeze".into(),
        last_name: "Okafor".into(),
        date_of_birth: "1985-04-12".into(),
        nationality: "NG".into(),
        phone_number: "+2348031234567".into(),
        id_number: "A12345678".into(),
        id_type: IdType::CurrentPassport,
        id_document_url: link.into(),
        address: Address {
            house_number: "7".into(),
            street: "Bourdillon Road".into(),
            city: "Ikoyi".into(),
            state: "Lagos".into(),
            zip_code: "101233".into(),
            subdivision: None,
        },
        document: DocumentLink::new(link, "director-utility"),
        details: PersonDetails {
            email: Some("adaeze@lagostrading.ng".into()),
            job_title: Some("Managing Director".into()),
            ..PersonDetails::default()
        },
    }
}

/// [`person_request`] as the API's JSON.
pub fn person_json(link: &str) -> Value {
    json!({
        "firstName": "Adaeze",
        "lastName": "Okafor",
        "dateOfBirth": "1985-04-12",
        "nationality": "NG",
        "phoneNumber": "+2348031234567",
        "idNumber": "A12345678",
        "idType": "currentPassport",
        "idDocumentUrl": link,
        "address": {"houseNumber": "7", "street": "Bourdillon Road", "city": "Ikoyi",
                    "state": "Lagos", "zipCode": "101233"},
        "document": {"url": link, "key": "director-utility"},
        "email": "adaeze@lagostrading.ng",
        "jobTitle": "Managing Director"
    })
}

/// The required fields of [`business_request`] as raw JSON, with the given
/// `documents` map.
pub fn business_json(registration_number: &str, link: &str, documents: Value) -> Value {
    json!({
        "name": "Lagos Trading Ltd",
        "businessType": "LLC",
        "registrationNumber": registration_number,
        "email": "compliance@lagostrading.ng",
        "phoneNumber": "+2348012345678",
        "natureOfBusiness": {"nature": "Wholesale of consumer electronics", "code": "4652"},
        "businessAddress": {"houseNumber": "12", "street": "Admiralty Way", "city": "Lekki", "state": "Lagos", "zipCode": "106104"},
        "proofOfAddress": {"url": link, "key": "utility-2026-10", "type": "Utility bill"},
        "documents": documents,
    })
}
