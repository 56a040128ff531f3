//! Payouts and collections that survive a crash and scale to a fleet.
//!
//! The SDK makes a payout once per session id while its process lives.
//! This crate keeps the session id, and everything that happens to the
//! payout, in a database before anything is sent: embedded SQLite by
//! default (one file, nothing to install), PostgreSQL for a fleet of
//! processes (feature `postgres`).
//!
//! * [`Ledger::submit`] validates a payout (every violation, nothing
//!   recorded) and records it, with its session id, in one transaction;
//!   [`Ledger::record_batch`] records a whole batch before anything is sent.
//! * A [`Dispatcher`] claims recorded payouts in batches, making them
//!   `sending` in one transaction before it sends any, sends each once
//!   through `payouts().create_new` (never sent before, so no read first),
//!   records the outcomes of the sends that ended together, and follows
//!   accepted payouts until the service reports them `COMPLETED` or
//!   `FAILED`. A payout whose outcome is unknown (a timeout, a 5xx, a crash
//!   in the middle) is read by its session id before it is sent again, so
//!   nothing is paid twice and nothing recorded is forgotten.
//! * A converting payout recorded without `rateKey` is quoted by the
//!   dispatcher just before it is sent, the quote kept in its history, and
//!   quoted again under the same session id only while it is provably
//!   unsent; a [`RateGuard`] holds it while quotes are worse, and a payout
//!   that ends unpaid says why in a [`PayoutReason`].
//! * Every state change is appended to the payout's history
//!   ([`Ledger::history`]).
//! * Collections: [`Ledger::expect_collection`] records, then creates; the
//!   webhook receiver's [`DedupeStore`](crossborder::webhook::DedupeStore)
//!   lives in the database ([`Ledger::dedupe_store`]), so receivers behind
//!   a load balancer hand each confirmed change over once; and
//!   [`Ledger::reconcile_collections`] recovers what was missed while no
//!   receiver ran.
//!
//! The states ([`PayoutState`]) and the one rule that moves between them
//! ([`PayoutState::transition`]) are documented on the enum.
//!
//! ```no_run
//! # async fn run(client: crossborder::Client) -> Result<(), crossborder_ledger::LedgerError> {
//! use crossborder::{Currency, Decimal, types::PayoutRequest};
//! use crossborder_ledger::{DispatchOptions, Ledger, PayoutState};
//!
//! let ledger = Ledger::open("sqlite://payouts.db").await?;
//! let payout = PayoutRequest::new("invoice-2291", Decimal::new(250_000, 2), Currency::Ngn, Currency::Ngn)
//!     .account_number("0123456789")
//!     .account_name("ADAEZE OKAFOR")
//!     .bank_name("Guaranty Trust Bank")
//!     .bank_code("058");
//! let recorded = ledger.submit(&payout).await?;
//! assert_eq!(recorded.state, PayoutState::Recorded);
//!
//! // Now, or after a crash and a restart: sends what is left, once.
//! let dispatcher = ledger.dispatcher(client, DispatchOptions::default())?;
//! let report = dispatcher.run_until_idle(|record| println!("{} {}", record.session_id, record.state)).await?;
//! println!("{} sent", report.sent);
//! # Ok(()) }
//! ```
//!
//! # Why one dispatcher per SQLite file
//!
//! SQLite has one writer at a time and no row locks (`SELECT ... FOR
//! UPDATE SKIP LOCKED` does not exist there), so dispatchers sharing a
//! file could only take turns on the whole database. A dispatcher holds an
//! OS lock on `<database>-dispatcher.lock` while it lives; a second one is
//! refused with [`LedgerError::DispatcherBusy`], and the kernel releases
//! the lock the moment its process ends, even when killed, so a restart
//! never waits. On PostgreSQL each payout is claimed with a lease
//! instead, and any number of dispatchers share the work.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod collections;
mod db;
mod dedupe;
mod dispatch;
mod error;
mod lease;
mod ledger;
mod options;
mod quote;
mod record;
mod request;
mod state;
mod time;

/// The README's example, compiled.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use dedupe::LedgerDedupe;
pub use dispatch::Dispatcher;
pub use error::LedgerError;
pub use ledger::Ledger;
pub use options::{Backoff, DispatchOptions};
pub use quote::{PayoutQuote, PayoutReason, RateGuard};
pub use record::{CollectionRecord, DispatchReport, ExpectedCollection, PayoutEvent, PayoutRecord};
pub use state::{InvalidTransition, PayoutState, UnknownState};
