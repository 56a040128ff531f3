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
    // `resource.method(args)` is called as `client.resource().method(args)`
    // and named after it, so the name cannot drift from the call; `|c| ->
    // Outcome { .. }` is a call that makes its outcome itself.
    macro_rules! op {
        ($writes:literal, $resource:ident.$method:ident($($arg:expr),* $(,)?)) => {
            op!(
                concat!(stringify!($resource), ".", stringify!($method)),
                $writes,
                |c| -> Outcome { sdk(c.$resource().$method($($arg),*).await) }
            )
        };
        ($name:expr, $writes:literal, |$client:ident| -> Outcome $body:block) => {
            SdkOperation {
                name: $name,
                writes: $writes,
                call: |$client: Client| Box::pin(async move { $body }),
            }
        };
    }
    vec![
        op!(false, wallet.balance(Currency::Ngn)),
        op!(false, quotes.get(quote())),
        op!(false, banks.list(Currency::Ngn, Currency::Ngn)),
        op!(true, banks.resolve(&account_lookup())),
        op!(true, collections.create(&collection())),
        op!(false, collections.get("order-1")),
        op!(
            false,
            collections.wait_until_settled("order-1", wait_options())
        ),
        op!(true, payouts.create(&ngn_payout())),
        op!(true, payouts.create_verified(&ngn_payout())),
        // Its first request is the send; a read follows only on a 409 or an
        // unknown outcome, and the send's error is the one returned.
        op!("payouts.create_new", true, |c| -> Outcome {
            sdk(crossborder::__private::create_new(&c, &ngn_payout()).await)
        }),
        // Its first request is the read by session id, so it ends as a read.
        op!(false, payouts.create_or_get(&ngn_payout())),
        op!(false, payouts.get("payout-1")),
        op!(true, sandbox.simulate_funding(&funding())),
        op!(
            true,
            webhooks.set_url("https://shop.example/hooks/crossborder")
        ),
        op!(true, businesses.upload_document(PDF, "cac.pdf")),
        op!(true, businesses.create(&business_request())),
        op!(true, businesses.create_json(&business_json())),
        op!(false, businesses.get(BUSINESS)),
        op!(
            false,
            businesses.wait_for_decision(BUSINESS, wait_options())
        ),
        op!(true, businesses.update(BUSINESS, &business_update())),
        op!(
            true,
            businesses.update_json(BUSINESS, &business_update_json())
        ),
        op!(true, businesses.add_director(BUSINESS, &person_request())),
        op!(true, businesses.add_ubo(BUSINESS, &person_request())),
        op!(true, businesses.add_director_json(BUSINESS, &person_json())),
        op!(true, businesses.add_ubo_json(BUSINESS, &person_json())),
        op!("businesses.onboard", true, |c| -> Outcome {
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
        op!("webhook.verify", false, |c| -> Outcome {
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
        // The `json` feature's methods sit in a module of their own.
        (
            "businesses",
            include_str!("../../../crates/crossborder/src/resources/businesses/json_body.rs"),
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
        // `create_new`, the ledger's send, is reached through `__private`.
        (
            "payouts",
            include_str!("../../../crates/crossborder/src/lib.rs"),
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

/// A 100 USD to NGN quote.
fn quote() -> QuoteRequest {
    QuoteRequest::new(Currency::Usd, Currency::Ngn, d("100"))
}

/// A lookup of an NGN account for an NGN payout.
fn account_lookup() -> ResolveAccountRequest {
    ResolveAccountRequest::new("0123456789", "058", Currency::Ngn, Currency::Ngn)
}

/// A 50,000 NGN collection, `order-1`.
fn collection() -> CollectionRequest {
    CollectionRequest::new("order-1", d("50000"), Currency::Ngn, Currency::Ngn)
}

/// A simulated 100 NGN payment to a virtual account.
fn funding() -> SimulateFundingRequest {
    SimulateFundingRequest::new(Currency::Ngn, d("100"), "PAY-7KQ2M9XD", "sim-1")
}

/// The business the KYB operations name.
const BUSINESS: &str = "biz_3M8QK2";

/// A change of the business's email.
fn business_update() -> UpdateBusinessRequest {
    UpdateBusinessRequest {
        email: Some("kyc@lagostrading.ng".into()),
        ..UpdateBusinessRequest::default()
    }
}

/// [`business_update`] as the API's JSON.
fn business_update_json() -> Value {
    json!({"email": "kyc@lagostrading.ng"})
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
