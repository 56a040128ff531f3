//! The rules of the Cross-Border Collections and Payouts API, written once.
//!
//! This crate holds what the API decides, independent of how a request travels:
//! the supported [`Currency`] codes and their minor units, settlement
//! [`Rail`]s, exact decimal [`Money`], the amount rule of every operation
//! ([`validate_amount`]), the payout rules
//! ([`payout::validate_payout`], [`payout::required_fields`]), the collection
//! rules ([`collection::validate_collection`]), the funding simulation rules
//! ([`funding::validate_simulate_funding`]) and the business verification
//! (KYB) rules ([`kyb`]: document keys, required documents, business,
//! director and UBO fields, and the upload's file rules
//! [`kyb::validate_upload`]).
//!
//! It is separate so the SDK (`crossborder`, which re-exports it), the local
//! sandbox server and the CLI share one source of truth: a rule changed here
//! changes for all three, and the sandbox rejects exactly what the SDK would.
//! It is pure code: no networking, no async, no clock.
//!
//! Validators take borrowed views of the raw wire fields (for example
//! [`payout::PayoutFields`]) and report every problem at once as
//! [`Violations`], each naming the wire field, a matchable [`Rule`] and a
//! message.
//!
//! ```
//! use crossborder_core::payout::{validate_payout, PayoutFields};
//!
//! let request = PayoutFields {
//!     amount: Some("25000"),
//!     from_currency: Some("NGN"),
//!     to_currency: Some("NGN"),
//!     session_id: Some("payout-7"),
//!     ..PayoutFields::default()
//! };
//! let violations = validate_payout(&request).unwrap_err();
//! assert_eq!(
//!     violations.fields().collect::<Vec<_>>(),
//!     ["accountNumber", "accountName", "bankName", "bankCode"]
//! );
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod field_rules;
mod wire_enum;

pub mod amount;
pub mod collection;
pub mod currency;
pub mod funding;
pub mod kyb;
pub mod money;
pub mod payout;
pub mod rail;
pub mod violation;

pub use amount::{validate_amount, AmountWire};
pub use currency::{Currency, CurrencyKind, UnknownCurrency};
pub use money::{decimal_places, parse_amount, AmountError, Money, MoneyError, MoneyParseError};
pub use rail::{Rail, UnknownRail};
pub use rust_decimal::Decimal;
pub use violation::{Rule, Violation, Violations};
