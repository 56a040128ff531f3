//! Collection status events: parse them tolerantly, confirm them against
//! the source of truth, and never act on one alone.
//!
//! The service POSTs one unsigned event per collection status change to the
//! URL registered with [`Webhooks::set_url`](crate::Webhooks::set_url), once,
//! without retry (the spec's Events section). So an event may be forged by
//! anyone who can reach the receiver, and it may be lost. This module makes
//! the safe way the short one:
//!
//! * [`WebhookEvent::parse`] reads a body tolerantly and keeps it raw;
//!   [`WebhookEvent::classify`] says what it claims ([`Classification`]).
//! * [`verify`] re-reads the collection from the source of truth, once,
//!   and says what to do with the event, as a [`Verdict`] to match on:
//!   [`Verdict::Confirmed`], act on the transaction it carries;
//!   [`Verdict::Superseded`], ignore it (a later change of the collection
//!   supersedes it, such as a partial-payment event arriving after the
//!   next funding completed the collection); [`Verdict::Unconfirmed`], do
//!   not act (forged, or not confirmable now). A status word this SDK does
//!   not know is judged by the transaction's amounts, and
//!   [`StatusWords`] maps the service's words once they are known.
//! * `Receiver` (feature `axum`) is a ready endpoint: it answers 200 as
//!   soon as a body parses (bounded queue; a full queue answers 503),
//!   refuses a malformed or oversized body, then runs [`verify`] on each
//!   event and hands your async handler a `Delivery` with its [`Verdict`],
//!   each confirmed status change once ([`DedupeStore`], keyed by what the
//!   service confirmed, so a forged event can never make the genuine one
//!   look repeated). The handler may take the application's state, the
//!   axum way (`State<S>`). The axum it is built on is re-exported as
//!   `crossborder::webhook::axum`.
//! * [`Reconciler`] waits for the collections you care about, settles each
//!   from the transaction a delivery already read (or reads it when an
//!   event brought none), polls those without a final state after a grace
//!   period (events can be lost), and yields each final state once.
//!
//! ```
//! use crossborder::webhook::{Classification, WebhookEvent};
//!
//! let event = WebhookEvent::parse(
//!     r#"{"reference": "order-10045", "memo": "PAY-7KQ2M9XD", "amount": 50000,
//!         "paidAmount": 50000, "remainingAmount": 0, "currency": "NGN",
//!         "status": true, "message": "Payment completed"}"#,
//! )?;
//! assert_eq!(event.classify(), Classification::Completed { overpaid: None });
//! # Ok::<(), crossborder::webhook::ParseError>(())
//! ```
//!
//! # A receiver, a reconciler
//!
//! With the `axum` feature: the receiver confirms each event before the
//! handler sees it, and the reconciler polls what no event settles in time.
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
//! Without the `axum` feature, parse a body with [`WebhookEvent::parse`] in
//! your own endpoint, act only on the transaction of a confirmed [`verify`]
//! verdict, and remember [`dedupe_key`] of that transaction (never a key of
//! the event) to handle each change once. The
//! [`collection_by_webhook`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/collection_by_webhook.rs)
//! example runs all of this against the sandbox.

// The modules depend one way only: `event` holds the data and imports no
// sibling; `parse`, `classify` and `words` build on it; `verdict` and
// `verify` on those; `receiver`, `dedupe` and `reconcile` last.
mod classify;
mod dedupe;
mod event;
mod parse;
#[cfg(feature = "axum")]
mod receiver;
mod reconcile;
mod verdict;
mod verify;
mod words;

/// The axum this module's `Receiver` is built on (feature `axum`): name
/// it as `crossborder::webhook::axum` to use the same version.
#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub use ::axum;

pub use classify::Classification;
pub use dedupe::{dedupe_key, DedupeError, DedupeStore, MemoryDedupe, DEFAULT_DEDUPE_CAPACITY};
pub use event::{EventCurrency, EventStatus, WebhookEvent};
pub use parse::ParseError;
#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub use receiver::{
    Delivery, DeliveryHandler, HandlerOutcome, Receiver, DEFAULT_MAX_BODY_BYTES,
    DEFAULT_QUEUE_CAPACITY,
};
pub use reconcile::{EventNotifier, Reconciled, Reconciler, Source, DEFAULT_GRACE};
pub use verdict::{Confirmed, Superseded, Unconfirmed, Verdict};
pub use verify::{verify, verify_with};
pub use words::{StatusMeaning, StatusWords};

/// A collection of 50000 NGN as the service might return it, for the
/// module's unit tests.
#[cfg(test)]
fn test_collection(
    reference: &str,
    status: crate::types::TransactionStatus,
    paid: Option<&str>,
) -> crate::types::Transaction {
    use rust_decimal::Decimal;
    crate::types::Transaction {
        transaction_id: "tx-1".into(),
        kind: Some(crate::types::TransactionType::Collection),
        pay_reference: Some("PAY-1".into()),
        payment_reference: reference.into(),
        amount: Decimal::new(50_000, 0),
        to_amount: Decimal::new(50_000, 0),
        total_amount: Decimal::new(50_000, 0),
        paid_amount: paid.map(|paid| Decimal::from_str_exact(paid).unwrap()),
        rate: Decimal::ONE,
        status,
        fee: Decimal::ZERO,
        rate_key: None,
        from_currency: crate::Currency::Ngn,
        to_currency: crate::Currency::Ngn,
        address: None,
        network: None,
        payment_instructions: Vec::new(),
    }
}
