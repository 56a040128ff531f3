#![doc = include_str!("../README.md")]
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
pub mod rules;
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

/// What the `dec!` macro expands to, and `crossborder-ledger`'s send; not
/// part of the API.
///
/// `create_new` skips the read that makes `Payouts::create_or_get` safe to
/// repeat, so it pays once only under the ledger's protocol (the payout
/// durably recorded as being sent before the call, and read first after
/// any crash): an application uses `create_or_get`, or the ledger.
#[doc(hidden)]
pub mod __private {
    pub use crate::dec::parse_decimal;
    pub use crate::resources::Created;

    /// `Payouts::create_new`: `create_or_get` without its first read, for
    /// a payout the caller knows was never sent.
    pub async fn create_new(
        client: &crate::Client,
        request: &crate::types::PayoutRequest,
    ) -> crate::Result<Created> {
        client.payouts().create_new(request).await
    }
}

// The generated models (`cargo xtask codegen`) name these at the crate's
// root; private, so each stays at one public path.
use error::Violations;
use types::{BusinessType, IdType, ProofOfAddressType};

// The repository README's quick start is compiled as a doctest, so the
// first code a new user reads cannot drift from the real API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
