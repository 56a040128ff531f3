//! Banks and bank account resolution.

use crossborder_api::types as wire;

use crate::Currency;

/// A bank a payout can be sent to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bank {
    /// The bank's name.
    pub name: String,
    /// The bank code, to pass as `bankCode`.
    pub code: String,
}

impl From<wire::Bank> for Bank {
    fn from(value: wire::Bank) -> Self {
        Bank {
            name: value.name,
            code: value.code,
        }
    }
}

/// An account number to verify against a bank (`POST /api/resolve-bank`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolveAccountRequest {
    /// The account number.
    pub account_number: String,
    /// The bank code, from [`Bank::code`].
    pub bank_code: String,
    /// The currency the payout would be funded in.
    pub from_currency: Currency,
    /// The currency the account receives.
    pub to_currency: Currency,
}

impl ResolveAccountRequest {
    /// An account to resolve for a payout from `from` to `to`.
    pub fn new(
        account_number: impl Into<String>,
        bank_code: impl Into<String>,
        from: Currency,
        to: Currency,
    ) -> ResolveAccountRequest {
        ResolveAccountRequest {
            account_number: account_number.into(),
            bank_code: bank_code.into(),
            from_currency: from,
            to_currency: to,
        }
    }
}

/// A verified bank account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedAccount {
    /// The bank code.
    pub bank_code: String,
    /// The name on the account.
    pub account_name: String,
    /// The account number.
    pub account_number: String,
}

impl From<wire::ResolvedAccount> for ResolvedAccount {
    fn from(value: wire::ResolvedAccount) -> Self {
        ResolvedAccount {
            bank_code: value.bank_code,
            account_name: value.account_name,
            account_number: value.account_number,
        }
    }
}
