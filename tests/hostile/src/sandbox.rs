//! An in-process sandbox on 127.0.0.1 with a business and a collection in
//! it, the operations it serves with a valid request for each, the check of
//! the API's error shape, and a snapshot of the state a hostile request
//! must not change.

use std::net::SocketAddr;
use std::ops::Deref;

use crossborder_sandbox::{Currency, SandboxConfig};
use crossborder_testkit::fixtures::{business_json, documents_json, ngn_payout_json, person_json};
use crossborder_testkit::TestSandbox;
use serde_json::{json, Value};

use crate::raw::{exchange, request, RawReply};

pub use crossborder_sandbox::STAGING_KEY as KEY;

/// The registration number of the business every sandbox starts with.
pub const FIXTURE_REGISTRATION: &str = "RC7000001";
/// The `paymentReference` of the collection every sandbox starts with.
pub const FIXTURE_COLLECTION: &str = "hostile-fixture-collection";
/// The references the valid bodies of [`Target::operations`] carry: a refused
/// request must leave each of them unknown.
pub const NEW_PAYOUT: &str = "hostile-new-payout";
/// See [`NEW_PAYOUT`].
pub const NEW_COLLECTION: &str = "hostile-new-collection";
/// See [`NEW_PAYOUT`].
pub const NEW_FUNDING: &str = "hostile-new-funding";
/// The registration number of the business the valid create body names;
/// creating it after every refused attempt must still succeed (not 409).
pub const NEW_REGISTRATION: &str = "RC7000002";

/// What an operation reads from its request.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// Nothing but the path (and query).
    Path,
    /// A JSON object; the value is a valid one.
    Json(Value),
    /// `multipart/form-data` with a field `file`.
    Multipart,
}

/// An operation of the sandbox with concrete path parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// The operation id of the spec (`getDocument` is the sandbox's own).
    pub id: &'static str,
    /// The HTTP method.
    pub method: &'static str,
    /// The path below `/v1`, parameters filled in.
    pub path: String,
    /// What it reads.
    pub input: Input,
}

impl Operation {
    /// The request target: `/v1` and the path.
    pub fn target(&self) -> String {
        format!("/v1{}", self.path)
    }

    /// The valid JSON body, for a JSON operation.
    pub fn valid_body(&self) -> Option<&Value> {
        match &self.input {
            Input::Json(body) => Some(body),
            _ => None,
        }
    }
}

/// A running sandbox with its fixtures: the test kit's sandbox (its
/// `sandbox`, manual `clock` and `http` client reached through it) and the
/// references of what it was given.
pub struct Target {
    kit: TestSandbox,
    /// The fixture business's id.
    pub business_id: String,
    /// The fixture collection's `payRefrence` memo.
    pub memo: String,
    /// The link of an uploaded document.
    pub document_link: String,
}

impl Deref for Target {
    type Target = TestSandbox;

    fn deref(&self) -> &TestSandbox {
        &self.kit
    }
}

impl Target {
    /// A sandbox with the default configuration and its fixtures.
    pub async fn start() -> Target {
        Target::start_with(SandboxConfig::default()).await
    }

    /// A sandbox with `config` (on a manual clock) and its fixtures: a
    /// business, a collection, an uploaded document.
    pub async fn start_with(config: SandboxConfig) -> Target {
        let mut target = Target {
            kit: TestSandbox::start_with(config).await,
            business_id: String::new(),
            memo: String::new(),
            document_link: String::new(),
        };
        let created = target
            .post_json("/api/business", &business_body(FIXTURE_REGISTRATION))
            .await;
        target.business_id = created["data"]["id"]
            .as_str()
            .expect("a business id")
            .to_owned();
        let collection = target
            .post_json(
                "/api/initiate-payment",
                &collection_body(FIXTURE_COLLECTION),
            )
            .await;
        target.memo = collection["data"]["payRefrence"]
            .as_str()
            .expect("a memo")
            .to_owned();
        target.document_link = target.kit.upload_link(KEY, PDF).await;
        target
    }

    /// The sandbox's address.
    pub fn addr(&self) -> SocketAddr {
        self.sandbox.local_addr()
    }

    /// POSTs a well-formed JSON body and returns the answer, which must be
    /// 200.
    pub async fn post_json(&self, path: &str, body: &Value) -> Value {
        let response = self
            .http
            .post(self.url(path))
            .header("x-api-key", KEY)
            .json(body)
            .send()
            .await
            .expect("the sandbox answers");
        let status = response.status();
        let text = response.text().await.expect("the body is read");
        assert_eq!(status, 200, "POST {path}: {text}");
        serde_json::from_str(&text).expect("a JSON answer")
    }

    /// GETs `path` with the key and returns the status and JSON answer.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let response = self
            .http
            .get(self.url(path))
            .header("x-api-key", KEY)
            .send()
            .await
            .expect("the sandbox answers");
        let status = response.status().as_u16();
        let text = response.text().await.expect("the body is read");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Every operation the sandbox serves, with valid inputs: the JSON ones
    /// create the `NEW_*` references.
    pub fn operations(&self) -> Vec<Operation> {
        let business = &self.business_id;
        let document = self
            .document_link
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        let json = |id, method, path: &str, body: Value| Operation {
            id,
            method,
            path: path.to_owned(),
            input: Input::Json(body),
        };
        let read = |id, path: String| Operation {
            id,
            method: "GET",
            path,
            input: Input::Path,
        };
        vec![
            read("getQuote", "/api/qoutes/USD/NGN/100".to_owned()),
            json(
                "initiatePayment",
                "POST",
                "/api/initiate-payment",
                collection_body(NEW_COLLECTION),
            ),
            read(
                "getTransaction",
                format!("/api/transaction/{FIXTURE_COLLECTION}"),
            ),
            read("getBalance", "/api/balance/NGN".to_owned()),
            read("getBankList", "/api/bank-list/NGN/NGN".to_owned()),
            json(
                "resolveBank",
                "POST",
                "/api/resolve-bank",
                json!({"accountNumber": "0123456789", "bankCode": "058",
                       "fromCurrency": "NGN", "toCurrency": "NGN"}),
            ),
            json(
                "createPayout",
                "POST",
                "/api/payout",
                payout_body(NEW_PAYOUT),
            ),
            Operation {
                id: "uploadDocument",
                method: "POST",
                path: "/api/upload-document".to_owned(),
                input: Input::Multipart,
            },
            json(
                "createBusiness",
                "POST",
                "/api/business",
                business_body(NEW_REGISTRATION),
            ),
            read("getBusiness", format!("/api/business/{business}")),
            json(
                "updateBusiness",
                "PATCH",
                &format!("/api/business/{business}"),
                json!({"email": "kyc@lagostrading.ng"}),
            ),
            json(
                "addDirector",
                "POST",
                &format!("/api/business/{business}/director"),
                person_body(),
            ),
            json(
                "addUbo",
                "POST",
                &format!("/api/business/{business}/ubo"),
                person_body(),
            ),
            json(
                "setWebhook",
                "PUT",
                "/api/set-webhook",
                json!({"webhookUrl": "https://shop.example/hooks/crossborder"}),
            ),
            json(
                "simulateFunding",
                "POST",
                "/api/simulate-funding",
                json!({"currency": "NGN", "amount": 100, "narration": self.memo,
                       "sessionId": NEW_FUNDING}),
            ),
            read("getDocument", format!("/documents/{document}")),
        ]
    }

    /// Sends `bytes` as `op`'s body with `content_type` and the key.
    pub async fn send_body(
        &self,
        op: &Operation,
        content_type: Option<&[u8]>,
        body: &[u8],
    ) -> Result<RawReply, String> {
        let mut headers: Vec<(&str, &[u8])> = vec![("x-api-key", KEY.as_bytes())];
        if let Some(content_type) = content_type {
            headers.push(("Content-Type", content_type));
        }
        exchange(
            self.addr(),
            &request(op.method, &op.target(), &headers, body),
        )
        .await
    }

    /// What a hostile request must not change: every wallet, the fixture
    /// collection and business, and the references the valid bodies would
    /// create.
    pub async fn snapshot(&self) -> Snapshot {
        let mut balances = Vec::new();
        for currency in Currency::ALL {
            let (status, body) = self.get(&format!("/api/balance/{currency}")).await;
            assert_eq!(status, 200, "{body}");
            balances.push((currency, body["data"]["balance"].to_string()));
        }
        let (_, collection) = self
            .get(&format!("/api/transaction/{FIXTURE_COLLECTION}"))
            .await;
        let (_, business) = self
            .get(&format!("/api/business/{}", self.business_id))
            .await;
        let mut unknown = Vec::new();
        for reference in [NEW_PAYOUT, NEW_COLLECTION, NEW_FUNDING] {
            let (status, _) = self.get(&format!("/api/transaction/{reference}")).await;
            unknown.push((reference, status));
        }
        Snapshot {
            balances,
            collection,
            business,
            unknown,
        }
    }
}

/// The state a hostile request must leave as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// Every wallet's balance, as the sandbox writes it.
    pub balances: Vec<(Currency, String)>,
    /// The fixture collection as read.
    pub collection: Value,
    /// The fixture business as read (its director and UBO counts included).
    pub business: Value,
    /// The status of reading each `NEW_*` reference (404 while nothing
    /// created it).
    pub unknown: Vec<(&'static str, u16)>,
}

/// Checks the API's error shape of `reply` to a request for `target` (path
/// and query, as sent) with `method`: a 4xx status, `statusCode` the same,
/// a non-empty `message`, an RFC 3339 UTC `timestamp` with milliseconds,
/// `path` the target's path, `request {method, url}` the request's. Returns
/// the message. A message on failure says what was sent (`what`).
pub fn assert_error_shape(reply: &RawReply, method: &str, target: &str, what: &str) -> String {
    let body = reply.json();
    let context = format!(
        "{what}: {method} {}: HTTP {} {}",
        shorten(target),
        reply.status,
        shorten(&reply.text())
    );
    assert!((400..500).contains(&reply.status), "not a 4xx: {context}");
    assert_eq!(
        reply.headers.get("content-type"),
        Some("application/json"),
        "{context}"
    );
    assert_eq!(body["statusCode"], json!(reply.status), "{context}");
    let message = body["message"].as_str().unwrap_or_default().to_owned();
    assert!(!message.is_empty(), "no message: {context}");
    let path = target.split('?').next().unwrap_or(target);
    assert_eq!(body["path"], json!(path), "{context}");
    assert_eq!(body["request"]["method"], json!(method), "{context}");
    assert_eq!(body["request"]["url"], json!(target), "{context}");
    let timestamp = body["timestamp"].as_str().unwrap_or_default();
    let bytes = timestamp.as_bytes();
    assert!(
        bytes.len() == 24
            && bytes[4] == b'-'
            && bytes[10] == b'T'
            && bytes[19] == b'.'
            && bytes[23] == b'Z',
        "timestamp {timestamp:?}: {context}"
    );
    message
}

/// `text` cut to 300 characters, for failure messages.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= 300 {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(300).collect();
        format!("{cut}... ({} bytes)", text.len())
    }
}

/// A complete NGN collection with `reference`.
pub fn collection_body(reference: &str) -> Value {
    json!({"amount": 50000, "fromCurrency": "NGN", "toCurrency": "NGN",
           "paymentReference": reference})
}

/// A complete NGN bank payout with `session_id`.
pub fn payout_body(session_id: &str) -> Value {
    ngn_payout_json(session_id, "1500.50")
}

/// Where the fixtures' documents point.
const LINK: &str = "https://files.example/doc.pdf";

/// A complete LLC business with `registration_number`.
pub fn business_body(registration_number: &str) -> Value {
    business_json(registration_number, LINK, documents_json(LINK))
}

/// A complete director or UBO.
pub fn person_body() -> Value {
    let mut body = person_json(LINK);
    body["ownershipPercentage"] = json!("60");
    body
}

/// The multipart boundary of [`multipart_body`].
pub const BOUNDARY: &str = "hostile-boundary-7d1c";

pub use crossborder_testkit::fixtures::PDF;

/// A `multipart/form-data` body (boundary [`BOUNDARY`]) with `file` as the
/// field `file`.
pub fn multipart_body(file: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"doc.pdf\"\r\n\
         Content-Type: application/pdf\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}
