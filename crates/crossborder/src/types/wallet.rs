//! Wallet balances.

use std::fmt;

use rust_decimal::Decimal;

use crate::Currency;

/// The balance of the business's wallet in one currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Balance {
    /// The wallet's currency (the one asked for).
    pub currency: Currency,
    /// The balance, exact.
    pub amount: Decimal,
}

impl fmt::Display for Balance {
    /// Formats as `1250000.70 NGN`, by the rule of [`Money`](crate::Money)'s
    /// `Display` ([`crossborder_core::display_amount`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let amount = crossborder_core::display_amount(self.amount, self.currency);
        write!(f, "{amount} {}", self.currency)
    }
}
