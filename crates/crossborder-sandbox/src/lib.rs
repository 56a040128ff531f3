//! A local, stateful, in-memory sandbox of the Cross-Border Collections and
//! Payouts API, for tests, demos and the CLI.
//!
//! It serves every operation of `openapi/crossborder.yaml` under `/v1` with
//! the service's own paths and spellings, answers errors in the API's shape,
//! and implements the decisions the spec leaves open (recorded as
//! `x-assumption` there). See the crate's `README.md` for every behaviour:
//! keys, balances, rates, fees, triggers and lifecycles.
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

mod account;
pub mod amount;
mod auth;
mod balance;
mod bank_directory;
pub mod banks;
mod body;
mod business;
mod business_record;
mod clock;
mod collection;
mod config;
mod document_store;
mod documents;
mod envelope;
mod error;
mod expiry;
mod funding;
mod idempotency;
mod ids;
mod json;
mod params;
mod payout;
mod quote;
pub mod rates;
mod records;
mod request_log;
mod routes;
pub mod serve;
mod server;
mod state;
mod sync;
mod timestamp;
mod transaction;
mod webhook;
mod webhook_sender;
mod wire;

pub use business_record::{
    DocumentContent, LinkedDocument, StoredBusiness, StoredDocument, REJECTION_REASON,
};
pub use clock::Clock;
pub use collection::DEFAULT_NETWORK;
pub use config::{
    default_starting_balances, parse_keys_file, ApiKeySpec, Environment, KeyError, KeysFileError,
    SandboxConfig, NO_ACCESS_KEY, PRODUCTION_KEY, STAGING_KEY,
};
pub use crossborder_core::collection::MAX_PAYMENT_REFERENCE_CHARS;
pub use crossborder_core::Currency;
pub use request_log::{mask_key, RequestLine, RequestLog};
pub use rust_decimal::Decimal;
pub use server::{Sandbox, SandboxHandle, StartError};
pub use transaction::{COLLECTION_ACCOUNT_NAME, COLLECTION_ACCOUNT_NUMBER, COLLECTION_BANK_NAME};
pub use webhook_sender::{WebhookDelivery, MAX_WEBHOOK_DELIVERIES};
