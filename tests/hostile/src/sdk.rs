//! Every operation of the SDK, each as a call with valid arguments, so a
//! test can point all of them at one server and see how each ends.
//!
//! The list is checked against the source: every `pub async fn` of
//! `crates/crossborder/src/resources/*.rs` must be in it
//! ([`resource_operations_in_source`]), so a new operation cannot be added
//! without facing the hostile servers too. `webhook::verify`, which reads a
//! transaction, is in it as well.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use crossborder::onboard::{Application, Progress};
use crossborder::webhook::{self, verify, Unconfirmed, WebhookEvent};
use crossborder::{
    types::{
        CollectionRequest, CreateBusinessRequest, PayoutRequest, PersonRequest, QuoteRequest,
        ResolveAccountRequest, SimulateFundingRequest, UpdateBusinessRequest,
    },
    Client, Currency, Decimal, RetryPolicy, WaitOptions,
};
use serde_json::{json, Value};

/// A staging key for the hostile servers (they never check it).
pub const KEY: &str = "test_hostile_key_0001";

/// How an operation ended when it did not succeed.
#[derive(Debug)]
pub enum Failure {
    /// The SDK's error (for onboarding and webhook verification, the
    /// `crossborder::Error` inside theirs).
    Sdk(crossborder::Error),
    /// An error of another type that does not wrap a `crossborder::Error`.
    Other(String),
}

/// The outcome of one call.
pub type Outcome = Result<(), Failure>;

/// A boxed call.
pub type Call = Pin<Box<dyn Future<Output = Outcome> + Send>>;

/// One SDK operation.
#[derive(Clone, Copy)]
pub struct SdkOperation {
    /// `resource.method`, as in the source (`wallet.balance`).
    pub name: &'static str,
    /// Whether it writes (its request has a body).
    pub writes: bool,
    /// Calls it with valid arguments.
    pub call: fn(Client) -> Call,
}

impl std::fmt::Debug for SdkOperation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// An SDK client for `base_url` with `timeout` and `retry`.
pub fn client(base_url: &str, timeout: Duration, retry: RetryPolicy) -> Client {
    crossborder_testkit::sdk_client_with(base_url, KEY, timeout, retry)
        .expect("the SDK client builds")
}

/// How long a wait operation polls a hostile server before it gives up.
pub const WAIT: Duration = Duration::from_millis(300);

fn wait_options() -> WaitOptions {
    WaitOptions::default()
        .timeout(WAIT)
        .initial_interval(Duration::from_millis(50))
        .max_interval(Duration::from_millis(100))
}

fn sdk<T>(result: crossborder::Result<T>) -> Outcome {
    result.map(drop).map_err(Failure::Sdk)
}

fn d(text: &str) -> Decimal {
    Decimal::from_str_exact(text).expect("a decimal")
}

/// Every SDK operation.
pub fn operations() -> Vec<SdkOperation> {
    macro_rules! op {
        ($name:literal, $writes:literal, |$client:ident| $body:expr) => {
            SdkOperation {
                name: $name,
                writes: $writes,
                call: |$client: Client| Box::pin(async move { $body }),
            }
        };
    }
    vec![
        op!("wallet.balance", false, |c| sdk(c
            .wallet()
            .balance(Currency::Ngn)
            .await)),
        op!("quotes.get", false, |c| sdk(c
            .quotes()
            .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, d("100")))
            .await)),
        op!("banks.list", false, |c| sdk(c
            .banks()
            .list(Currency::Ngn, Currency::Ngn)
            .await)),
        op!("banks.resolve", true, |c| sdk(c
            .banks()
            .resolve(&ResolveAccountRequest::new(
                "0123456789",
                "058",
                Currency::Ngn,
                Currency::Ngn
            ))
            .await)),
        op!("collections.create", true, |c| sdk(c
            .collections()
            .create(&CollectionRequest::new(
                "order-1",
                d("50000"),
                Currency::Ngn,
                Currency::Ngn
            ))
            .await)),
        op!("collections.get", false, |c| sdk(c
            .collections()
            .get("order-1")
            .await)),
        op!("collections.wait_until_settled", false, |c| sdk(c
            .collections()
            .wait_until_settled("order-1", wait_options())
            .await)),
        op!("payouts.create", true, |c| sdk(c
            .payouts()
            .create(&ngn_payout())
            .await)),
        op!("payouts.create_verified", true, |c| sdk(c
            .payouts()
            .create_verified(&ngn_payout())
            .await)),
        // Its first request is the send; a read follows only on a 409 or an
        // unknown outcome, and the send's error is the one returned.
        op!("payouts.create_new", true, |c| sdk(c
            .payouts()
            .create_new(&ngn_payout())
            .await)),
        // Its first request is the read by session id, so it ends as a read.
        op!("payouts.create_or_get", false, |c| sdk(c
            .payouts()
            .create_or_get(&ngn_payout())
            .await)),
        op!("payouts.get", false, |c| sdk(c
            .payouts()
            .get("payout-1")
            .await)),
        op!("sandbox.simulate_funding", true, |c| sdk(c
            .sandbox()
            .simulate_funding(&SimulateFundingRequest::new(
                Currency::Ngn,
                d("100"),
                "PAY-7KQ2M9XD",
                "sim-1"
            ))
            .await)),
        op!("webhooks.set_url", true, |c| sdk(c
            .webhooks()
            .set_url("https://shop.example/hooks/crossborder")
            .await)),
        op!("businesses.upload_document", true, |c| sdk(c
            .businesses()
            .upload_document(PDF, "cac.pdf")
            .await)),
        op!("businesses.create", true, |c| sdk(c
            .businesses()
            .create(&business_request())
            .await)),
        op!("businesses.create_json", true, |c| sdk(c
            .businesses()
            .create_json(&business_json())
            .await)),
        op!("businesses.get", false, |c| sdk(c
            .businesses()
            .get("biz_3M8QK2")
            .await)),
        op!("businesses.wait_for_decision", false, |c| sdk(c
            .businesses()
            .wait_for_decision("biz_3M8QK2", wait_options())
            .await)),
        op!("businesses.update", true, |c| sdk(c
            .businesses()
            .update(
                "biz_3M8QK2",
                &UpdateBusinessRequest {
                    email: Some("kyc@lagostrading.ng".into()),
                    ..UpdateBusinessRequest::default()
                }
            )
            .await)),
        op!("businesses.update_json", true, |c| sdk(c
            .businesses()
            .update_json("biz_3M8QK2", &json!({"email": "kyc@lagostrading.ng"}))
            .await)),
        op!("businesses.add_director", true, |c| sdk(c
            .businesses()
            .add_director("biz_3M8QK2", &person_request())
            .await)),
        op!("businesses.add_ubo", true, |c| sdk(c
            .businesses()
            .add_ubo("biz_3M8QK2", &person_request())
            .await)),
        op!("businesses.add_director_json", true, |c| sdk(c
            .businesses()
            .add_director_json("biz_3M8QK2", &person_json())
            .await)),
        op!("businesses.add_ubo_json", true, |c| sdk(c
            .businesses()
            .add_ubo_json("biz_3M8QK2", &person_json())
            .await)),
        op!("businesses.onboard", true, |c| {
            let application = Application {
                business: Some(business_request()),
                directors: vec![person_request()],
                ubos: vec![person_request()],
                ..Application::default()
            };
            c.businesses()
                .onboard(&application, Progress::default(), |_, _| {})
                .await
                .map(drop)
                .map_err(|stopped| Failure::Sdk(stopped.error))
        }),
        op!("webhook.verify", false, |c| {
            let event = WebhookEvent::parse(r#"{"reference": "order-1", "status": true}"#)
                .map_err(|error| Failure::Other(error.to_string()))?;
            match verify(&c, &event).await {
                webhook::Verdict::Confirmed(_) => Ok(()),
                webhook::Verdict::Unconfirmed(Unconfirmed::Request(error)) => {
                    Err(Failure::Sdk(error))
                }
                webhook::Verdict::Superseded(superseded) => Err(Failure::Other(format!(
                    "superseded: the transaction is {}",
                    superseded.transaction.status
                ))),
                webhook::Verdict::Unconfirmed(other) => Err(Failure::Other(other.to_string())),
            }
        }),
    ]
}

/// The `resource.method` name of every `pub async fn` in the SDK's
/// resource files, read from the source.
pub fn resource_operations_in_source() -> Vec<String> {
    let files = [
        (
            "banks",
            include_str!("../../../crates/crossborder/src/resources/banks.rs"),
        ),
        (
            "businesses",
            include_str!("../../../crates/crossborder/src/resources/businesses.rs"),
        ),
        // `Businesses::onboard` sits beside the onboarding run.
        (
            "businesses",
            include_str!("../../../crates/crossborder/src/kyb/onboard/run.rs"),
        ),
        (
            "collections",
            include_str!("../../../crates/crossborder/src/resources/collections.rs"),
        ),
        (
            "payouts",
            include_str!("../../../crates/crossborder/src/resources/payouts.rs"),
        ),
        (
            "quotes",
            include_str!("../../../crates/crossborder/src/resources/quotes.rs"),
        ),
        (
            "sandbox",
            include_str!("../../../crates/crossborder/src/resources/sandbox.rs"),
        ),
        (
            "wallet",
            include_str!("../../../crates/crossborder/src/resources/wallet.rs"),
        ),
        (
            "webhooks",
            include_str!("../../../crates/crossborder/src/resources/webhooks.rs"),
        ),
    ];
    let mut names = Vec::new();
    for (resource, source) in files {
        for line in source.lines() {
            if let Some(rest) = line.trim_start().strip_prefix("pub async fn ") {
                let method: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(format!("{resource}.{method}"));
            }
        }
    }
    names
}

/// A PDF file's bytes.
pub const PDF: &[u8] = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n";

/// A complete NGN bank payout.
pub fn ngn_payout() -> PayoutRequest {
    crossborder_testkit::fixtures::ngn_bank_payout(d("1500.50"), "payout-1")
        .narration("Invoice 2291")
}

/// Where the fixtures' documents point.
const LINK: &str = "https://files.example/doc.pdf";

/// The test kit's complete LLC business.
pub fn business_request() -> CreateBusinessRequest {
    crossborder_testkit::fixtures::business_request("RC1234567", LINK)
}

/// [`business_request`] as the API's JSON.
pub fn business_json() -> Value {
    crossborder_testkit::fixtures::business_json(
        "RC1234567",
        LINK,
        crossborder_testkit::fixtures::documents_json(LINK),
    )
}

/// The test kit's director or UBO.
pub fn person_request() -> PersonRequest {
    crossborder_testkit::fixtures::person_request(LINK)
}

/// [`person_request`] as the API's JSON.
pub fn person_json() -> Value {
    crossborder_testkit::fixtures::person_json(LINK)
}
