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
//! * [`verify`] re-reads the collection from the source of truth and
//!   returns it only when it confirms the event.
//! * `Receiver` (feature `axum`) is a ready endpoint: it answers 200 as
//!   soon as a body parses (bounded queue; a full queue answers 503),
//!   refuses a malformed or oversized body, then confirms each event with
//!   [`verify`] and hands your async handler a `Delivery` with the
//!   service's answer, each confirmed status change once ([`DedupeStore`],
//!   keyed by what the service confirmed, so a forged event can never make
//!   the genuine one look repeated).
//! * [`Reconciler`] waits for the collections you care about, reads each
//!   one when an event arrives, polls those without a final state after a
//!   grace period (events can be lost), and yields each final state once.
//!
//! ```
//! use crossborder::webhook::{Classification, WebhookEvent};
//!
//! let event = WebhookEvent::parse(
//!     r#"{"reference": "order-10045", "memo": "PAY-7KQ2M9XD", "amount": 50000,
//!         "paidAmount": 50000, "remainingAmount": 0, "currency": "NGN",
//!         "status": true, "message": "Payment completed"}"#,
//! )?;
//! assert_eq!(event.classify(), Classification::Completed);
//! # Ok::<(), crossborder::webhook::ParseError>(())
//! ```

mod classify;
mod dedupe;
mod event;
mod parse;
#[cfg(feature = "axum")]
mod receiver;
mod reconcile;
mod verify;

pub use classify::Classification;
pub use dedupe::{dedupe_key, DedupeError, DedupeStore, MemoryDedupe, DEFAULT_DEDUPE_CAPACITY};
pub use event::{EventCurrency, EventStatus, WebhookEvent};
pub use parse::ParseError;
#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub use receiver::{Delivery, Receiver, DEFAULT_MAX_BODY_BYTES, DEFAULT_QUEUE_CAPACITY};
pub use reconcile::{EventNotifier, Reconciled, Reconciler, Source, DEFAULT_GRACE};
pub use verify::{verify, VerifyError};
