//! Rust SDK for the Cross-Border Collections and Payouts API: quotes,
//! collections, payouts, wallet balances, banks, business onboarding (KYB),
//! the webhook registration and the staging funding simulation.
//!
//! # Quick start
//!
//! ```no_run
//! use crossborder::{
//!     Client, Currency, Decimal, WaitOptions,
//!     types::{CollectionRequest, LocalBank, LocalBankCurrency, PayoutRequest, QuoteRequest},
//! };
//!
//! # async fn run() -> crossborder::Result<()> {
//! // CROSSBORDER_API_KEY=test_... (staging) or live_... (production);
//! // CROSSBORDER_BASE_URL=https://<host>/v1
//! let client = Client::from_env()?;
//!
//! let balance = client.wallet().balance(Currency::Ngn).await?;
//! println!("balance: {balance}");
//!
//! let quote = client
//!     .quotes()
//!     .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(100, 0)))
//!     .await?;
//!
//! // A payout from the quote to a typed destination: a missing field does
//! // not compile, formats (NUBAN, IBAN, sort code, wallet address) are
//! // checked before sending, and an expired quote is refused. Its session
//! // id, derived from your own settlement id, is the idempotency key and
//! // the tracking id: `create_or_get` pays it once, however often it runs.
//! let payout = PayoutRequest::from_quote_with_session_id(
//!     &quote,
//!     "settlement-2291",
//!     LocalBank {
//!         currency: LocalBankCurrency::Ngn,
//!         account_number: "0123456789".into(),
//!         account_name: "ADAEZE OKAFOR".into(),
//!         bank_name: "Guaranty Trust Bank".into(),
//!         bank_code: "058".into(),
//!     },
//! )?;
//! let state = client.payouts().create_or_get(&payout).await?;
//! println!("payout {}: {}", state.payment_reference, state.status);
//!
//! // A collection, then wait until it is paid, expired or failed.
//! let collection = client
//!     .collections()
//!     .create(&CollectionRequest::new("order-10045", Decimal::new(50000, 0), Currency::Ngn, Currency::Ngn))
//!     .await?;
//! println!("pay with memo {:?}", collection.payer_memo());
//! let settled = client
//!     .collections()
//!     .wait_until_settled("order-10045", WaitOptions::default())
//!     .await?;
//! println!("collection {}", settled.status);
//! # Ok(()) }
//! ```
//!
//! # Onboarding a business in one call
//!
//! [`Businesses::onboard`] takes the whole KYB application: the business,
//! its directors and UBOs, and the files their documents point at
//! ([`onboard::file_url`]). Every mistake in it is reported at once before
//! the first request; then it uploads each file, creates the business and
//! adds every person (the business is then submitted for review). A failure
//! part-way returns the progress to resume from: a resumed run never
//! uploads a file it has a link for, never creates a second business and
//! never adds a person twice. Document keys may be written loosely
//! (`Bank-Statement`, `bn1`): each goes out as the service knows it
//! ([`CreateBusinessRequest::document_keys`] shows how).
//!
//! ```no_run
//! use crossborder::onboard::{file_url, Application, Progress};
//! use crossborder::{
//!     Client, WaitOptions,
//!     types::{
//!         Address, BusinessDetails, BusinessType, CreateBusinessRequest, DocumentLink, Documents,
//!         IdType, NatureOfBusiness, PersonDetails, PersonRequest, ProofOfAddress,
//!         ProofOfAddressType,
//!     },
//! };
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::from_env()?;
//! let address = Address {
//!     house_number: "12".into(), street: "Admiralty Way".into(), city: "Lekki".into(),
//!     state: "Lagos".into(), zip_code: "106104".into(), subdivision: None,
//! };
//! // Every document names a file of the application: `file:cac_document.pdf`.
//! let mut documents = Documents::new();
//! for key in ["cac_document", "bank_statement", "application_letter", "cac_status_report"] {
//!     documents.insert(key.into(), DocumentLink::new(file_url(&format!("{key}.pdf")), key));
//! }
//! let business = CreateBusinessRequest {
//!     name: "Lagos Trading Ltd".into(),
//!     business_type: BusinessType::Llc,
//!     registration_number: "RC1234567".into(),
//!     email: "compliance@lagostrading.ng".into(),
//!     phone_number: "+2348012345678".into(),
//!     nature_of_business: NatureOfBusiness { nature: "Wholesale".into(), code: "4652".into() },
//!     business_address: address.clone(),
//!     proof_of_address: ProofOfAddress {
//!         url: file_url("utility_bill.pdf"), key: "utility".into(),
//!         kind: ProofOfAddressType::UtilityBill,
//!     },
//!     documents,
//!     details: BusinessDetails::default(),
//! };
//! // One person, director and beneficial owner both.
//! let owner = PersonRequest {
//!     first_name: "Adaeze".into(), last_name: "Okafor".into(),
//!     date_of_birth: "1985-04-12".into(), nationality: "NG".into(),
//!     phone_number: "+2348031234567".into(), id_number: "A12345678".into(),
//!     id_type: IdType::CurrentPassport, id_document_url: file_url("passport.pdf"),
//!     address, document: DocumentLink::new(file_url("utility_bill.pdf"), "utility"),
//!     details: PersonDetails::default(),
//! };
//! let mut files = std::collections::BTreeMap::new();
//! for name in ["cac_document.pdf", "bank_statement.pdf", "application_letter.pdf",
//!              "cac_status_report.pdf", "utility_bill.pdf", "passport.pdf"] {
//!     files.insert(name.to_owned(), std::fs::read(name)?.into());
//! }
//! let application = Application {
//!     business: Some(business), directors: vec![owner.clone()], ubos: vec![owner], files,
//! };
//!
//! let onboarded = client
//!     .businesses()
//!     .onboard(&application, Progress::default(), |step, _| println!("{step:?}"))
//!     .await?; // on failure: the error and the progress to pass back
//! let decided = client
//!     .businesses()
//!     .wait_for_decision(&onboarded.business.id, WaitOptions::default())
//!     .await?;
//! println!("{} is {}", decided.id, decided.status);
//! # Ok(()) }
//! ```
//!
//! The [`onboard_business`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/onboard_business.rs)
//! example runs this against the sandbox, resuming after a failure.
//!
//! # Examples
//!
//! Each runs against the local sandbox (`cargo run -p crossborder-cli -- sandbox`)
//! with `CROSSBORDER_API_KEY=test_sandbox_key` and
//! `CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1`, and is compiled in CI:
//!
//! - [`quickstart`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/quickstart.rs): a balance, a quote, a collection
//!   paid by simulated funding and awaited by polling.
//! - [`marketplace`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/marketplace.rs): an order
//!   collected by NGN transfer, confirmed by webhook (feature `axum`), and
//!   the seller paid twice under one settlement id with
//!   [`Payouts::create_or_get`], paying once.
//! - [`payout_from_quote`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/payout_from_quote.rs): a converting payout
//!   built from a quote, to a recipient verified with resolve-bank.
//! - [`sandbox_in_tests`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/sandbox_in_tests.rs): testing your own code
//!   against `crossborder_sandbox::Sandbox` in a `#[tokio::test]`.
//! - [`onboard_business`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/onboard_business.rs): a business
//!   onboarded in one call (its files, the business, a director and a UBO),
//!   resumed after a failure, and awaited to its verification decision.
//! - [`custom_http_client`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/custom_http_client.rs): your own
//!   `reqwest::Client`, with a proxy and timeouts.
//! - [`webhook_receiver`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/webhook_receiver.rs): a webhook receiver in
//!   an axum application (feature `axum`), each event verified.
//! - [`collection_by_webhook`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/collection_by_webhook.rs): a collection
//!   awaited by webhook and confirmed by polling (feature `axum`): the
//!   webhook URL registered with `set_url`, the sandbox's real delivery
//!   received and verified by the SDK's `Receiver`, and the final state
//!   taken from a `Reconciler`.
//!
//! # Configuration
//!
//! [`Client::builder`] takes the API key, the base URL (with its `/v1`; a
//! trailing slash is ignored), the request timeout (30 s by default), the
//! connect timeout (10 s), the [`RetryPolicy`], or the caller's own
//! `reqwest::Client` (the key and user agent are added to each request, so
//! such a client needs no special headers). [`Client::from_env`] reads `CROSSBORDER_API_KEY` and
//! `CROSSBORDER_BASE_URL`. The key decides the environment: `live_` is
//! production, `test_` is staging, anything else is refused when the client
//! is built. Every request carries the user agent `crossborder-rust/<version>`.
//!
//! The key is a secret: [`ApiKey`] never shows it in `Debug`, no error or
//! log line contains it, and its `x-api-key` header value is marked
//! sensitive.
//!
//! # Money
//!
//! Every amount, rate and fee is an exact [`Decimal`], parsed from the JSON
//! text (number or numeric string) without passing through `f64`. Write
//! amounts in code with [`dec!`]: `dec!(100.50)` is checked at compile time
//! and keeps its two decimal places.
//!
//! # Paying once
//!
//! The service makes at most one payout per session id. Give each payout a
//! session id derived from your own key ([`PayoutRequest::with_session_id`],
//! [`PayoutRequest::from_quote_with_session_id`]) and send it with
//! [`Payouts::create_or_get`]: it reads the payout first, sends it only when
//! none exists, and reads it again when the answer was lost, so running the
//! same code twice (a retry, a restart) pays once. Without a session id of
//! your own, each [`PayoutRequest::from_quote`] is a new payout.
//!
//! # Retries
//!
//! Retries follow the [`RetryPolicy`] of the client (3 attempts, backoff
//! from 200 ms with full jitter, capped at 5 s, by default;
//! [`RetryPolicy::none`] turns them off):
//!
//! * `GET` requests are retried on connect errors and on HTTP 429, 502, 503
//!   and 504, honouring `Retry-After` (seconds). A `Retry-After` longer than
//!   the policy's maximum wait is not waited for: the error is returned.
//! * `POST`, `PUT` and `PATCH` requests, above all those that move money
//!   (payouts, collections, simulated funding), are retried **only** when
//!   the request provably never reached the server: a connect error, before
//!   any byte was sent. The retry carries exactly the same body, so the same
//!   `sessionId` or `paymentReference`. Every other failure (timeout, reset
//!   connection, any HTTP status) is returned; repeating the call with the
//!   same id is then safe, as the service treats it as an idempotency key.
//!   [`Error::outcome`] tells whether the write may have been applied (see
//!   [Errors](#errors)).
//!
//! # Errors
//!
//! Every operation returns [`Error`], whose variants a caller can match on:
//! client-side [`Error::Validation`] (all violations at once, nothing sent),
//! the documented authentication and currency errors, other API errors with
//! their raw body, transport failures and timeouts, [`Error::Decode`] for a
//! body that is not what the API documents (an HTML error page, an empty or
//! truncated body), and [`Error::ResponseTooLarge`] for a body over
//! [`ClientBuilder::max_response_bytes`] (1 MiB by default), of which no
//! more than the limit is ever read.
//!
//! After a failed write, [`Error::outcome`] tells whether it may have taken
//! effect ([`Outcome`]):
//!
//! * [`Outcome::NotApplied`]: never sent (the SDK's own checks, the
//!   configuration, a connect error such as a refused connection), or
//!   answered with a 4xx status: nothing happened.
//! * [`Outcome::MayHaveBeenApplied`]: a timeout, a connection reset or
//!   closed after the request was written, a 5xx status (502 and 503 may
//!   come from a proxy that did or did not pass the request on), a 2xx
//!   whose body is not the API's (a captive portal's HTML page, an empty
//!   body): repeat it with the same `sessionId` or `paymentReference`, which
//!   the service applies at most once, or read its state.
//! * [`Outcome::Applied`]: a wait that ran out on something that exists:
//!   read its state.
//!
//! # Webhooks
//!
//! The service POSTs one unsigned event per collection status change and
//! never retries, so an event can be forged by anyone who reaches your
//! receiver, and it can be lost. The [`webhook`] module handles both:
//!
//! 1. **Receive**: `webhook::Receiver` (feature `axum`) answers the
//!    service at once and hands each event to your handler, which may take
//!    your application's state as an axum handler does (`State<S>`).
//! 2. **Verify**: before your handler sees an event, the receiver reads the
//!    collection back from the source of truth, once
//!    (`GET /api/transaction/{paymentReference}`, [`webhook::verify`]), and
//!    hands over a [`webhook::Verdict`] that says what to do:
//!    `Confirmed`, act on the transaction it carries; `Superseded`, ignore
//!    the event (the collection has moved on, as when a partial-payment
//!    event arrives after the next funding completed it); `Unconfirmed`,
//!    do not act (the event is forged, or cannot be confirmed now). Only
//!    confirmed changes are remembered as seen, so a forged event never
//!    marks an order paid and never makes the genuine event look like a
//!    repeat.
//! 3. **Reconcile**: a [`webhook::Reconciler`] settles the collections you
//!    wait on from the transactions the receiver read, polls those no event
//!    settles within a grace period, and yields each final state once, by
//!    event or by polling.
//!
//! ```no_run
//! # #[cfg(feature = "axum")]
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use crossborder::webhook::{axum, Classification, Delivery, Verdict, Receiver, Reconciler};
//! use crossborder::Client;
//!
//! let client = Client::from_env()?;
//! let mut reconciler = Reconciler::new(client.clone());
//! let notifier = reconciler.notifier();
//! let route = Receiver::new(client.clone()).route(move |delivery: Delivery| {
//!     notifier.notify_delivery(&delivery); // the transaction read, passed on: no second read
//!     async move {
//!         match delivery.verdict {
//!             Verdict::Confirmed(confirmed) => match confirmed.change {
//!                 Classification::Completed { overpaid } => {
//!                     println!("order {} is paid", confirmed.transaction.payment_reference);
//!                     if let Some(extra) = overpaid {
//!                         println!("  {extra} more than asked: refund or credit it");
//!                     }
//!                 }
//!                 change => println!("order {}: {change:?}", confirmed.transaction.payment_reference),
//!             },
//!             Verdict::Superseded(_) => {} // a later change supersedes it
//!             Verdict::Unconfirmed(why) => eprintln!("not acted on: {why}"),
//!         }
//!     }
//! });
//! let listener = tokio::net::TcpListener::bind("0.0.0.0:8443").await?;
//! let app = axum::Router::new().route("/hooks/crossborder", route);
//! tokio::spawn(async move { axum::serve(listener, app).await });
//! client.webhooks().set_url("https://shop.example/hooks/crossborder").await?;
//!
//! // Events can be lost: what no event settles in time is polled.
//! reconciler.watch("order-10045");
//! while let Some(done) = reconciler.next().await {
//!     let settled = done.result?;
//!     println!("{} is {} (learnt by {:?})", done.reference, settled.status, done.source);
//! }
//! # Ok(()) }
//! ```
//!
//! Without the `axum` feature, parse a body with
//! [`webhook::WebhookEvent::parse`] in your own endpoint, act only on the
//! transaction of a confirmed [`webhook::verify`] verdict, and remember
//! [`webhook::dedupe_key`] of that transaction (never a key of the event)
//! to handle each change once. The service's status words are not
//! published: a word the SDK does not know is judged by the transaction's
//! amounts, and [`webhook::StatusWords`] maps the service's words once you
//! know them. The
//! [`collection_by_webhook`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/collection_by_webhook.rs)
//! example runs all of this against the sandbox.
//!
//! # Tracing
//!
//! Each operation runs in a `crossborder.request` span with the fields
//! `operation` (the OpenAPI operation id), `http.method`, `http.status`,
//! `duration_ms` and `attempts`. Retries are logged at `DEBUG`. The API key
//! is never recorded.
//!
//! # Features
//!
//! * `rustls` (default): TLS through rustls.
//! * `native-tls`: TLS through the platform's native stack. Build with
//!   `default-features = false, features = ["native-tls"]` to have it
//!   instead of rustls; with both enabled, the SDK's own HTTP client selects
//!   native-tls.
//!
//! With neither, only `http://` base URLs work (a local sandbox).
//!
//! * `axum`: `webhook::Receiver`, a ready webhook endpoint for an axum
//!   server. It adds axum (an HTTP server, no TLS) and nothing else. The
//!   receiver's route is an axum 0.8 `MethodRouter`; that axum is
//!   re-exported as `crossborder::webhook::axum`, so an application can
//!   name the same version without a dependency of its own.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod api_key;
mod client;
pub mod config;
mod dec;
pub mod error;
mod execute;
pub mod json;
mod kyb;
mod resources;
mod retry;
mod tls;
pub mod types;
mod upload;
mod wait;
pub mod webhook;

pub use client::Client;
pub use config::ClientBuilder;
pub use crossborder_core::{Currency, Decimal, Money};
pub use error::{Error, Outcome, Result};
pub use kyb::onboard;
pub use resources::{Banks, Businesses, Collections, Payouts, Quotes, Sandbox, Wallet, Webhooks};
pub use retry::RetryPolicy;
pub use wait::WaitOptions;

/// What the `dec!` macro expands to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::dec::parse_decimal;
}

// Inside the crate the models keep their short paths (`crate::Quote`), so
// the modules did not change with the public paths (`types::*`,
// `error::*`, `config::*`, `json::*`); none of these is public here.
#[allow(unused_imports)]
use config::{ApiKey, Environment};
#[allow(unused_imports)]
use error::{Rule, Violation, Violations};
#[allow(unused_imports)]
use json::*;
#[allow(unused_imports)]
use types::*;

/// The shared rules of the API (payout, collection, funding simulation and
/// KYB validation, document keys, upload files), re-exported from
/// `crossborder-core` so that users depend on this crate only.
pub mod rules {
    pub use crossborder_core::collection;
    pub use crossborder_core::funding;
    pub use crossborder_core::kyb;
    pub use crossborder_core::payout;
    pub use crossborder_core::{check_amount, display_amount, validate_amount, AmountWire};
}

// The repository README's quick start is compiled as a doctest, so the
// first code a new user reads cannot drift from the real API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

// So is the crate's own README, the first page a user of the published
// crate reads.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
