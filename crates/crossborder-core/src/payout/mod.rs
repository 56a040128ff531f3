//! Payouts: the wire view of a payout request and the API's rules for it.
//!
//! The rules are written once here and used by the SDK (before sending), the
//! sandbox (to answer like the API) and the CLI (to prompt for the fields a
//! currency pair needs).

mod format;
mod network;
mod recipient;
pub mod validate;

/// A format violation: the rule and its message.
pub(crate) type FormatError = (crate::violation::Rule, String);

pub use crate::views::PayoutFields;
pub use format::normalized;
pub use network::{address_family, AddressFamily, KNOWN_NETWORKS};
pub use recipient::names_match;
pub use validate::{
    bank_code_required, required_fields, validate_payout, PayoutKind, ValidatedPayout,
    MAX_NARRATION_CHARS, MAX_SESSION_ID_CHARS,
};
