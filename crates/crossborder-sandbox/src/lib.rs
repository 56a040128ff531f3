//! A local, stateful, in-memory sandbox of the Cross-Border Collections and
//! Payouts API, for tests, demos and the CLI.
//!
//! It serves every operation of `openapi/crossborder.yaml` under `/v1` with
//! the service's own paths and spellings, answers errors in the API's shape,
//! and implements the decisions the spec leaves open (recorded as
//! `x-assumption` there). See the crate's `README.md` for every behaviour:
//! keys, balances, rates, fees, triggers and lifecycles. Beside `/v1`, the
//! [`control`] API under `/_sandbox` reads a business's state and takes the
//! service's decisions by hand (also as [`SandboxHandle`] methods), and
//! [`PayoutSettlement`] says when payouts settle.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use crossborder_sandbox::{Sandbox, SandboxConfig, STAGING_KEY};
//!
//! let sandbox = Sandbox::start(SandboxConfig::default().with_quote_ttl(Duration::from_secs(2))).await?;
//! let balance = reqwest::Client::new()
//!     .get(format!("{}/api/balance/NGN", sandbox.base_url()))
//!     .header("x-api-key", STAGING_KEY)
//!     .send()
//!     .await?
//!     .text()
//!     .await?;
//! assert_eq!(balance, r#"{"data":{"balance":5000000},"error":false,"message":"Balance retrieved successfully"}"#);
//! sandbox.shutdown().await;
//! # Ok(()) }
//! ```
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
