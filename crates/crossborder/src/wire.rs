//! Conversions between the generated wire types and the SDK's types.

use crossborder_api::types as wire;
use rust_decimal::Decimal;

use crate::error::{body_prefix, Error};
use crate::{Currency, Rail};

/// The generated currency for a core currency (the same 13 codes).
pub(crate) fn currency_to_wire(currency: Currency) -> wire::Currency {
    match currency {
        Currency::Ngn => wire::Currency::Ngn,
        Currency::Eur => wire::Currency::Eur,
        Currency::Gbp => wire::Currency::Gbp,
        Currency::Usd => wire::Currency::Usd,
        Currency::Kes => wire::Currency::Kes,
        Currency::Ugx => wire::Currency::Ugx,
        Currency::Ghs => wire::Currency::Ghs,
        Currency::Cad => wire::Currency::Cad,
        Currency::Xof => wire::Currency::Xof,
        Currency::Xaf => wire::Currency::Xaf,
        Currency::Usdt => wire::Currency::Usdt,
        Currency::Usdc => wire::Currency::Usdc,
        Currency::Cngn => wire::Currency::Cngn,
    }
}

/// The core currency for a generated currency.
pub(crate) fn currency_from_wire(currency: wire::Currency) -> Currency {
    match currency {
        wire::Currency::Ngn => Currency::Ngn,
        wire::Currency::Eur => Currency::Eur,
        wire::Currency::Gbp => Currency::Gbp,
        wire::Currency::Usd => Currency::Usd,
        wire::Currency::Kes => Currency::Kes,
        wire::Currency::Ugx => Currency::Ugx,
        wire::Currency::Ghs => Currency::Ghs,
        wire::Currency::Cad => Currency::Cad,
        wire::Currency::Xof => Currency::Xof,
        wire::Currency::Xaf => Currency::Xaf,
        wire::Currency::Usdt => Currency::Usdt,
        wire::Currency::Usdc => Currency::Usdc,
        wire::Currency::Cngn => Currency::Cngn,
    }
}

/// The generated rail for a core rail.
pub(crate) fn rail_to_wire(rail: Rail) -> wire::Rail {
    match rail {
        Rail::Ach => wire::Rail::Ach,
        Rail::Iban => wire::Rail::Iban,
        Rail::Swift => wire::Rail::Swift,
        Rail::Wire => wire::Rail::Wire,
        Rail::Pix => wire::Rail::Pix,
        Rail::Ethereum => wire::Rail::Ethereum,
        Rail::BridgeWallet => wire::Rail::BridgeWallet,
        Rail::Nip => wire::Rail::Nip,
    }
}

/// A response whose content broke an expectation the generated types could
/// not express (a decimal sent as malformed text).
pub(crate) fn mismatch<T: serde::Serialize>(status: u16, message: String, value: &T) -> Error {
    let body = serde_json::to_vec(value).unwrap_or_default();
    Error::Decode {
        status: Some(status),
        message,
        body_prefix: body_prefix(&body),
    }
}

/// Parses a decimal sent as a JSON string (`amountToTransfer`) exactly.
pub(crate) fn parse_decimal_text(field: &str, text: &str) -> Result<Decimal, String> {
    let trimmed = text.trim();
    trimmed
        .parse::<crossborder_api::decimal::DecimalString>()
        .map(|value| value.get())
        .map_err(|error| format!("`{field}` is not a decimal: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_currency_round_trips_through_the_wire_type() {
        for currency in Currency::ALL {
            let wire = currency_to_wire(currency);
            assert_eq!(wire.to_string(), currency.as_str());
            assert_eq!(currency_from_wire(wire), currency);
        }
        for rail in Rail::ALL {
            assert_eq!(rail_to_wire(rail).to_string(), rail.as_str());
        }
    }

    #[test]
    fn decimal_text() {
        assert_eq!(
            parse_decimal_text("a", "50000.10").unwrap().to_string(),
            "50000.10"
        );
        assert!(parse_decimal_text("a", "fifty").is_err());
    }
}
