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

/// What the `dec!` macro expands to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::dec::parse_decimal;
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
