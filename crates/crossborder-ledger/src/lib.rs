#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod batch;
mod bulk;
mod collections;
mod db;
mod dedupe;
mod dispatch;
mod error;
#[cfg(feature = "sqlite")]
mod group;
mod lease;
mod ledger;
mod migrate;
mod options;
mod queue;
mod quote;
mod record;
mod request;
mod sqlx;
mod state;
mod submit;
mod time;

pub use dedupe::LedgerDedupe;
pub use dispatch::Dispatcher;
pub use error::LedgerError;
pub use ledger::Ledger;
pub use options::{Backoff, DispatchOptions};
pub use quote::{PayoutQuote, PayoutReason, RateGuard};
pub use record::{CollectionRecord, DispatchReport, ExpectedCollection, PayoutEvent, PayoutRecord};
pub use state::{InvalidTransition, PayoutState, UnknownState};
pub use time::rfc3339_text;
