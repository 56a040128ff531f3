#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod background;
mod console;
pub mod control;
mod handlers;
mod http;
mod store;

pub mod amount;
mod clock;
mod config;
pub mod faults;
mod ids;
pub mod limits;
pub mod rates;
mod sandbox;
pub mod serve;
mod settlement;
mod sync;
mod timestamp;
mod wire;

/// The sandbox's banks: each destination currency's bank list, and the
/// account names that account resolution answers.
pub mod banks {
    pub use crate::store::banks::{account_name, bank_name, banks, UNRESOLVABLE_ACCOUNT};
}

pub use background::webhook_delivery::{WebhookDelivery, MAX_WEBHOOK_DELIVERIES};
pub use clock::Clock;
pub use config::{
    default_starting_balances, parse_keys_file, ApiKeySpec, Environment, KeyError, KeysFileError,
    SandboxConfig, NO_ACCESS_KEY, PRODUCTION_KEY, STAGING_KEY,
};
pub use crossborder_core::collection::MAX_PAYMENT_REFERENCE_CHARS;
pub use crossborder_core::Currency;
pub use handlers::collection::DEFAULT_NETWORK;
pub use http::request_log::{mask_key, RequestLine, RequestLog};
pub use rust_decimal::Decimal;
pub use sandbox::{Sandbox, SandboxHandle, StartError};
pub use settlement::{PayoutSettlement, SettlementError};
pub use store::business::{
    DocumentContent, LinkedDocument, StoredBusiness, StoredDocument, REJECTION_REASON,
};
pub use store::transaction::{
    COLLECTION_ACCOUNT_NAME, COLLECTION_ACCOUNT_NUMBER, COLLECTION_BANK_NAME,
};
