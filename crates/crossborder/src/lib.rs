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
    pub use crossborder_core::{
        check_amount, display_amount, display_grouped, validate_amount, AmountWire,
    };
}

// The repository README's quick start is compiled as a doctest, so the
// first code a new user reads cannot drift from the real API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
