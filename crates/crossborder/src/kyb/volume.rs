//! The expected monthly volume of a business: money, held as an exact
//! decimal and sent as a decimal string (the other parts of a business
//! request are generated, in `parts.rs`).

use crossborder_api::decimal::DecimalString;
use crossborder_api::types as wire;
use rust_decimal::Decimal;

use super::convert::Wire;
use crate::error::Violation;
use crate::Currency;

/// The expected monthly volume of a business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonthlyTransactionVolume {
    /// The currency of the volume.
    pub currency: Currency,
    /// The amount, exact (sent as a decimal string).
    pub amount: Decimal,
}

impl Wire for MonthlyTransactionVolume {
    type Wire = wire::MonthlyTransactionVolume;

    fn to_wire(&self) -> wire::MonthlyTransactionVolume {
        wire::MonthlyTransactionVolume {
            currency: self.currency,
            amount: DecimalString::new(self.amount),
        }
    }

    fn from_wire(wire: wire::MonthlyTransactionVolume, _: &'static str) -> Result<Self, Violation> {
        Ok(MonthlyTransactionVolume {
            currency: wire.currency,
            amount: wire.amount.0,
        })
    }
}
